import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// The attention sections of a scenario (`platform`'s attention rules,
/// `device`, `pushes`, `badge`, the new keys of notifications, medicines and
/// app changes, and the new assertions): what a valid file loads as, and
/// every bad value reported at the line and column to change.
@Suite struct AttentionLoaderTests: LoaderDiagnosticAssertions {
  /// 2026-03-28 is the day before Copenhagen's spring-forward: +01:00 all day.
  static let header: String =
    "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T23:00:00+01:00, timezone: Europe/Copenhagen }\n"

  static let oneMedicine: String = header + "medicines:\n  - { id: met, name: Metformin, dosage: 500, times: [\"08:00\"] }\n"

  /// Two pushes with types, for the preference and assertion tests.
  static let twoPushes: String = header + """
    pushes:
      send:
        - { at: 2026-03-28T09:00:00, id: c1, type: new_comment, title: New comment }
        - { at: 2026-03-28T09:30:00, id: a1, type: achievement_unlocked, title: Well done }

    """

  // MARK: - Helpers

  func loadFile(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ScenarioFile {
    do {
      return try ScenarioLoader().loadFile(yaml: yaml, file: "s.yaml")
    } catch let error as InputError {
      Issue.record("expected the scenario to load, got:\n\(error)", sourceLocation: sourceLocation)
      throw error
    }
  }

  /// An instant written with its offset (`…Z`).
  func instant(_ text: String) throws -> SimulationInstant {
    try ValueSyntax.instant(text, zone: TimeZone(identifier: "UTC")!).get()
  }

  func medicine(_ change: MedicineChange) -> Medicine? {
    switch change.kind {
    case .create(let medicine), .edit(let medicine): medicine
    case .delete: nil
    }
  }

  // MARK: - A valid scenario with every key

  static let everyKey: String = header + """
    platform:
      powerOffCatchUp: recent 15m
      bootDuration: 2m
      backgroundPushesPerHour: 3
    notifications:
      - { id: pills, title: Pills, trigger: { interval: 1h }, interruptionLevel: passive, sound: false, badge: 2 }
      - { id: plain, title: Plain, trigger: { interval: 2h } }
    medicines:
      - id: met
        name: Metformin
        dosage: 500
        times: ["08:00"]
        interruptionLevel: timeSensitive
        edits:
          - { at: 2026-03-28T09:00:00, dosage: 1000 }
          - { at: 2026-03-28T10:00:00, interruptionLevel: critical }
    app:
      - { at: 2026-03-28T07:00:00, permission: authorized, state: force-quit }
      - { at: 2026-03-28T07:30:00, permission: provisional }
      - { at: 2026-03-28T07:40:00, permission: not-determined }
      - { at: 2026-03-28T07:50:00, permission: ephemeral }
    badge: count-at-add
    device:
      entitlements: { timeSensitive: false, criticalAlerts: true }
      settings:
        - { at: 2026-03-28T07:00:00, allow: on, lockScreen: off, notificationCenter: on, banners: off, sounds: off, badges: on, timeSensitive: off, criticalAlerts: on, previews: when-unlocked }
        - { at: 2026-03-28T08:00:00, sounds: on }
      focus:
        - { name: Sleep, daily: { from: "22:30", to: "07:00" }, days: [mon, fri, sun], allowApp: true, timeSensitive: false }
        - { name: Do Not Disturb, from: 2026-03-28T13:00:00, to: 2026-03-28T15:00:00 }
        - { name: Work, daily: { from: "9:00", to: "17:00" } }
      summary: { times: ["18:00", "08:00"], app: false }
      power:
        - { at: 2026-03-28T11:00:00, event: switch-off }
        - { at: 2026-03-28T11:30:00, event: switch-on }
        - { at: 2026-03-28T11:31:00, event: unlock }
      network:
        - { at: 2026-03-28T12:00:00, online: false }
        - { at: 2026-03-28T12:30:00, online: true }
    pushes:
      categories: { COMMENT: [reply, like] }
      filter: app
      preferences:
        - { at: 2026-03-28T09:00:00, types: { new_comment: off, achievement_unlocked: on }, quietHours: { from: "22:00", to: "07:00" } }
        - { at: 2026-03-28T10:00:00, quietHours: { enabled: false } }
      send:
        - at: 2026-03-28T10:00:00
          id: c2
          type: new_comment
          title: New comment
          body: "Anna: looks good"
          badge: 3
          sound: true
          category: COMMENT
          thread: post-42
          interruptionLevel: timeSensitive
          priority: 5
          collapseId: post-42
          expiration: 2026-03-28T12:00:00
        - { at: 2026-03-28T09:00:00, id: c1, type: achievement_unlocked, contentAvailable: true, expiration: 0 }
        - { at: 2026-03-28T10:00:00, id: c3, badge: 0, expiration: 2h, priority: 1 }
    expect: none
    assert:
      - nothingAudible: { from: "22:00", to: "07:00", subject: "medicine_*" }
      - nothingAudible: { from: 2026-03-28T13:00:00, to: 2026-03-28T15:00:00 }
      - dosesPerceptible: { within: 10m, medicine: met }
      - noPushShownWhileOff: { type: new_comment }
      - noPushShownWhileOff: true
      - badge: { at: 2026-03-28T12:00:00, equals: 3 }
      - badgeCountsDoses: true
    """

  @Test func everyAttentionKeyLoadsIntoTheModel() throws {
    let file = try loadFile(Self.everyKey)
    let scenario = file.scenario

    let rules = scenario.platform.attention
    #expect(rules.powerOffCatchUp == .recent(.minutes(15)))
    #expect(rules.bootDuration == .minutes(2))
    #expect(rules.backgroundPushesPerHour == 3)

    // Raw requests: the new content keys, and the platform defaults without them.
    let requests = scenario.actions.compactMap { action -> NotificationRequest? in
      if case .add(let request) = action.action { request } else { nil }
    }
    #expect(requests.map(\.id) == ["pills", "plain"])
    #expect(requests[0].interruptionLevel == .passive)
    #expect(requests[0].sound == false)
    #expect(requests[0].badge == 2)
    #expect(requests[1].interruptionLevel == .active)
    #expect(requests[1].sound == true)
    #expect(requests[1].badge == nil)

    // A medicine's level; an edit keeps it unless it names one.
    let versions = scenario.medicineApp.medicineChanges.compactMap(medicine)
    #expect(versions.map(\.interruptionLevel) == [.timeSensitive, .timeSensitive, .critical])
    #expect(versions[1].dosage == "1000")

    let app = scenario.medicineApp
    #expect(app.badge == .countAtAdd)
    #expect(app.appChanges.map(\.permission) == [.granted, .provisional, .notDetermined, .ephemeral])
    #expect(app.appChanges[0].state == .forceQuit)

    let device = scenario.device
    #expect(device.entitlements == AppEntitlements(timeSensitive: false, criticalAlerts: true))
    #expect(device.settingsChanges.count == 2)
    var expectedSettings = AppNotificationSettings()
    expectedSettings.lockScreen = false
    expectedSettings.banners = false
    expectedSettings.sounds = false
    expectedSettings.timeSensitive = false
    expectedSettings.previews = .whenUnlocked
    let first = device.settingsChanges[0]
    #expect(first.instant == (try instant("2026-03-28T06:00:00Z")))
    #expect(first.allow == true && first.badges == true && first.criticalAlerts == true && first.notificationCenter == true)
    #expect(first.applied(to: AppNotificationSettings()) == expectedSettings)
    let second = device.settingsChanges[1]
    #expect(second.sounds == true && second.allow == nil && second.previews == nil)

    #expect(device.focus.map(\.name) == ["Sleep", "Do Not Disturb", "Work"])
    guard case .daily(let sleepFrom, let sleepTo, let sleepDays) = device.focus[0].schedule else {
      Issue.record("Sleep should be daily: \(device.focus[0].schedule)")
      return
    }
    #expect(sleepFrom == DailyTime(hour: 22, minute: 30) && sleepTo == DailyTime(hour: 7, minute: 0))
    #expect(sleepDays == [1, 2, 6])  // sun, mon, fri
    #expect(device.focus[0].allowsApp == true && device.focus[0].allowsTimeSensitive == false)
    guard case .once(let dndFrom, let dndTo) = device.focus[1].schedule else {
      Issue.record("Do Not Disturb should be once: \(device.focus[1].schedule)")
      return
    }
    let dndStart = try instant("2026-03-28T12:00:00Z")
    let dndEnd = try instant("2026-03-28T14:00:00Z")
    #expect(dndFrom == dndStart && dndTo == dndEnd)
    #expect(device.focus[1].allowsApp == false && device.focus[1].allowsTimeSensitive == false)  // the default: off
    guard case .daily(let workFrom, _, let workDays) = device.focus[2].schedule else {
      Issue.record("Work should be daily")
      return
    }
    #expect(workFrom == DailyTime(hour: 9, minute: 0) && workDays == nil)
    #expect(device.focus[1].origin?.line == 32)

    #expect(device.summary == ScheduledSummary(times: [DailyTime(hour: 8, minute: 0), DailyTime(hour: 18, minute: 0)], includesApp: false))
    #expect(device.power.map(\.kind) == [.switchOff, .switchOn, .unlock])
    #expect(device.power[0].instant == (try instant("2026-03-28T10:00:00Z")))
    #expect(device.network.map(\.online) == [false, true])

    let pushes = scenario.pushes
    #expect(pushes.categories == ["COMMENT": ["reply", "like"]])
    #expect(pushes.filter == .app)
    // Sorted by instant; the two at 10:00 in file order.
    #expect(pushes.pushes.map(\.id) == ["c1", "c2", "c3"])
    let full = pushes.pushes[1]
    let sentAt = try instant("2026-03-28T09:00:00Z")
    #expect(full.instant == sentAt)
    #expect(full.type == "new_comment" && full.title == "New comment" && full.body == "Anna: looks good")
    #expect(full.badge == 3 && full.sound && full.category == "COMMENT" && full.thread == "post-42")
    #expect(full.interruptionLevel == .timeSensitive && full.priority == 5 && full.collapseID == "post-42")
    #expect(full.contentAvailable == false)
    #expect(full.expiration == (try instant("2026-03-28T11:00:00Z")))  // an instant
    let background = pushes.pushes[0]
    #expect(background.contentAvailable && !background.hasAlert && background.sound == false && background.priority == 10)
    #expect(background.expiration == background.instant)  // 0: now or never
    #expect(pushes.pushes[2].expiration == sentAt.advanced(by: .hours(2)))  // a duration after 'at'
    #expect(pushes.pushes[2].priority == 1 && pushes.pushes[2].badge == 0 && pushes.pushes[2].interruptionLevel == .active)

    #expect(pushes.preferenceChanges.count == 2)
    let types = pushes.preferenceChanges[0].types
    #expect(types.map(\.type) == ["new_comment", "achievement_unlocked"] && types.map(\.on) == [false, true])
    #expect(pushes.preferenceChanges[0].quietHours == .some(QuietHours(from: DailyTime(hour: 22, minute: 0), to: DailyTime(hour: 7, minute: 0))))
    #expect(pushes.preferenceChanges[1].quietHours == .some(nil))  // switched off, not unchanged
    #expect(pushes.preferenceChanges[1].types.isEmpty)

    #expect(file.checks.assertions.map(\.description) == [
      "nothing audible matching 'medicine_*' from 22:00 to 07:00 (every day, device time)",
      "nothing audible from 2026-03-28T13:00:00 to 2026-03-28T15:00:00",
      "every dose of medicine 'met' perceptible within 10m of its time, none missed",
      "no push of type 'new_comment' shown while the app's toggle for its type is off",
      "no push shown while the app's toggle for its type is off",
      "badge is 3 at 2026-03-28T12:00:00",
      "the badge always counts the doses waiting in Notification Center",
    ])
    guard case .badgeEquals(let at, _, _) = file.checks.assertions[5].property else {
      Issue.record("expected badgeEquals")
      return
    }
    #expect(at == (try instant("2026-03-28T11:00:00Z")))
  }

  @Test func withoutTheNewKeysEverythingKeepsItsDefault() throws {
    let scenario = try loadFile(Self.oneMedicine + "expect: none\nassert:\n  - chainsEnd: true\n").scenario
    #expect(scenario.device.isDefault)
    #expect(scenario.pushes.pushes.isEmpty && scenario.pushes.filter == .server)
    #expect(scenario.platform.attention == AttentionRules())
    #expect(scenario.medicineApp.badge == BadgePolicy.none)
    #expect(scenario.medicineApp.medicineChanges.compactMap(medicine).map(\.interruptionLevel) == [.active])
  }

  @Test func powerOffCatchUpReadsAllAndNone() throws {
    #expect(try loadFile(Self.header + "platform: { powerOffCatchUp: none }\nexpect: none\nassert:\n  - pendingPeak: { atMost: 1 }\n").scenario.platform.attention.powerOffCatchUp == PowerOffCatchUp.never)
    #expect(try loadFile(Self.header + "platform: { powerOffCatchUp: all, bootDuration: 0s }\nexpect: none\nassert:\n  - pendingPeak: { atMost: 1 }\n").scenario.platform.attention == AttentionRules().with { $0.bootDuration = .zero; $0.powerOffCatchUp = .all })
  }

  @Test func theDeviceRulesOfIssue23LoadAndDefaultToThePessimisticReading() throws {
    let defaults = try loadFile(Self.header + "expect: none\nassert:\n  - pendingPeak: { atMost: 1 }\n").scenario.platform.attention
    #expect(defaults.deliveryBeforeFirstUnlock == .held && defaults.lowPowerRegionMonitoring == .paused)
    let file = try loadFile(Self.header + """
      platform: { deliveryBeforeFirstUnlock: delivered, lowPowerRegionMonitoring: unaffected }
      device:
        power:
          - { at: 2026-03-28T09:00:00, event: airplane-mode-on }
          - { at: 2026-03-28T10:00:00, event: airplane-mode-off }
      expect: none
      assert:
        - pendingPeak: { atMost: 1 }

      """)
    #expect(file.scenario.platform.attention.deliveryBeforeFirstUnlock == .delivered)
    #expect(file.scenario.platform.attention.lowPowerRegionMonitoring == .unaffected)
    #expect(file.scenario.platform.attention.summary.hasSuffix(" before-first-unlock=delivered low-power-regions=unaffected"))
    #expect(file.scenario.device.power.map(\.kind) == [.airplaneModeOn, .airplaneModeOff])
  }

  @Test func badDeviceRulesOfIssue23AreLocated() {
    assertDiagnostics(Self.header + """
      platform:
        deliveryBeforeFirstUnlock: 1️⃣hold
        lowPowerRegionMonitoring: 2️⃣pause
      """, [
        Expected(marker: "1️⃣", message: "unknown deliveryBeforeFirstUnlock 'hold'", note: "did you mean 'held'?"),
        Expected(marker: "2️⃣", message: "unknown lowPowerRegionMonitoring 'pause'", note: "did you mean 'paused'?"),
      ])
  }

  // MARK: - Errors: device

  @Test func unknownDeviceKeysAndBadPowerEventsAreLocated() {
    assertDiagnostics(Self.header + """
      device:
        1️⃣focuss: []
        power:
          - { at: 2026-03-28T11:00:00, event: 2️⃣switchoff }
          - { at: 2026-03-28T11:00:00, event: switch-off }
          - { at: 3️⃣2026-03-28T10:00:00, event: switch-on }
          - 4️⃣{ at: 2026-03-28T12:00:00 }
        network:
          - { at: 2026-03-28T12:00:00, online: 5️⃣maybe }
      """, [
        Expected(marker: "1️⃣", message: "unknown key 'focuss' in 'device'", note: "did you mean 'focus'?"),
        Expected(marker: "2️⃣", message: "unknown power event 'switchoff'", note: "did you mean 'switch-off'?"),
        Expected(marker: "3️⃣", message: "power events must be in time order", note: "this change is before the previous one"),
        Expected(marker: "4️⃣", message: "a power event needs 'at' and 'event'"),
        Expected(marker: "5️⃣", message: "online must be true or false, not 'maybe'"),
      ])
  }

  @Test func badFocusPeriodsAreLocated() {
    assertDiagnostics(Self.header + """
      device:
        focus:
          - { name: Do Not Disturb, from: 2026-03-28T15:00:00, to: 1️⃣2026-03-28T13:00:00 }
          - { name: Sleep, daily: { from: "22:30", to: "07:00" }, days: 2️⃣[] }
          - { name: Sleep, daily: { from: "22:30", to: "07:00" }, days: [mon, 3️⃣mondy] }
          - { name: Work, daily: { from: "09:00", to: 4️⃣"09:00" } }
          - 5️⃣{ name: Gym }
          - 6️⃣{ daily: { from: "09:00", to: "10:00" } }
          - { name: Gym, from: 2026-03-28T13:00:00, to: 2026-03-28T14:00:00, 7️⃣days: [mon] }
          - { name: Read, daily: { from: 8️⃣"25:00", to: "10:00" } }
          - { name: Read, from: 9️⃣2026-03-29T13:00:00, to: 2026-03-28T14:00:00 }
      """, [
        Expected(marker: "1️⃣", message: "Focus 'Do Not Disturb' ends at or before it starts"),
        Expected(marker: "2️⃣", message: "'days' lists no day", note: "leave 'days' out for every day, or list some: [mon, tue, wed, thu, fri]"),
        Expected(marker: "3️⃣", message: "unknown day 'mondy'", note: "did you mean 'mon'?"),
        Expected(marker: "4️⃣", message: "Focus 'Work' from 09:00 to 09:00 is empty"),
        Expected(marker: "5️⃣", message: "Focus 'Gym' needs 'daily' (times of day) or 'from' and 'to' (instants)"),
        Expected(marker: "6️⃣", message: "a Focus needs a 'name'"),
        Expected(marker: "7️⃣", message: "'days' applies to a daily Focus only"),
        Expected(marker: "8️⃣", message: "time '25:00': hour 25 is outside 0...23"),
        Expected(marker: "9️⃣", message: "Focus 'from' '2026-03-29T13:00:00' is outside the clock window"),
      ])
  }

  @Test func badSettingsSummaryAndEntitlementsAreLocated() {
    assertDiagnostics(Self.header + """
      device:
        entitlements: { criticalAlerts: 1️⃣maybe }
        settings:
          - 2️⃣{ at: 2026-03-28T07:00:00 }
          - { at: 2026-03-28T07:00:00, sounds: 3️⃣loud, previews: 4️⃣sometimes }
          - { at: 2026-03-28T08:00:00, sounds: off }
          - { at: 5️⃣2026-03-28T07:30:00, sounds: on }
        summary: 6️⃣{ app: true }
      """, [
        Expected(marker: "1️⃣", message: "criticalAlerts must be true or false, not 'maybe'"),
        Expected(marker: "2️⃣", message: "a settings change needs at least one setting"),
        Expected(marker: "3️⃣", message: "sounds must be on or off, not 'loud'"),
        Expected(marker: "4️⃣", message: "unknown previews setting 'sometimes'", note: "choose one of: always, when-unlocked, never"),
        Expected(marker: "5️⃣", message: "settings changes must be in time order"),
        Expected(marker: "6️⃣", message: "'summary' needs 'times'"),
      ])
  }

  @Test func fullAndCapitalisedDayNamesSuggestTheShortOne() {
    assertDiagnostics(Self.header + """
      device:
        focus:
          - { name: Sleep, daily: { from: "22:30", to: "07:00" }, days: [1️⃣Monday, 2️⃣thurs, 3️⃣Sat, sun, 4️⃣sun] }
      """, [
        Expected(marker: "1️⃣", message: "unknown day 'Monday'", note: "did you mean 'mon'?"),
        Expected(marker: "2️⃣", message: "unknown day 'thurs'", note: "did you mean 'thu'?"),
        Expected(marker: "3️⃣", message: "unknown day 'Sat'", note: "did you mean 'sat'?"),
        Expected(marker: "4️⃣", message: "day 'sun' is listed twice"),
      ])
  }

  @Test func aSummaryNeedsAtLeastOneDistinctTime() {
    assertDiagnostics(Self.header + "device:\n  summary: { times: 1️⃣[] }\n", [
      Expected(marker: "1️⃣", message: "'summary' lists no time")
    ])
    assertDiagnostics(Self.header + "device:\n  summary: { times: [\"08:00\", 1️⃣\"8:00\"] }\n", [
      Expected(marker: "1️⃣", message: "time '8:00' is listed twice", note: "the summary is shown once at each time; remove the repeat")
    ])
  }

  @Test func badPlatformAttentionRulesAreLocated() {
    assertDiagnostics(Self.header + """
      platform:
        powerOffCatchUp: 1️⃣recnt 15m
        bootDuration: 2️⃣2h
        backgroundPushesPerHour: 3️⃣4000
      """, [
        Expected(marker: "1️⃣", message: "unknown power-off catch-up 'recnt 15m'", note: "did you mean 'recent'?"),
        Expected(marker: "2️⃣", message: "bootDuration must be at most 1h, not 2h"),
        Expected(marker: "3️⃣", message: "backgroundPushesPerHour must be between 0 and 3600, not 4000"),
      ])
    assertDiagnostics(Self.header + "platform:\n  powerOffCatchUp: 1️⃣recent 0s\n", [
      Expected(marker: "1️⃣", message: "powerOffCatchUp 'recent 0s' needs one duration longer than zero after 'recent'")
    ])
  }

  // MARK: - Push-service and Focus readings (issue 23)

  @Test func thePushServiceAndFocusReadingsLoadIntoTheRules() throws {
    let file = try loadFile(Self.header + """
      platform:
        priority5Alerts: delayed 30m
        priority5DeliveryProbability: 0.25
        priority5MaxDelay: 2h
        storedPush: earliest
        focusResumes: no
        focusTimeSensitiveDefault: allowed
      device:
        focus:
          - { name: Sleep, daily: { from: "22:30", to: "07:00" } }
          - { name: Work, daily: { from: "09:00", to: "17:00" }, timeSensitive: false }
      expect: none
      assert:
        - pendingPeak: { atMost: 1 }

      """)
    let rules = file.scenario.platform.attention
    #expect(rules.priority5Alerts == .delayed(.minutes(30)))
    #expect(rules.priority5DeliveryProbability == 0.25)
    #expect(rules.priority5MaxDelay == .hours(2))
    #expect(rules.storedPush == .earliest)
    #expect(rules.focusResumes == .doesNotResume)
    #expect(rules.focusTimeSensitiveDefault == .allowed)
    #expect(rules.summary == "power-off-catch-up=none boot=1m background-pushes=2/h priority-5-alerts=delayed-30m priority-5-trial-delivery=0.25 "
      + "priority-5-trial-max-delay=2h stored-push=earliest focus-resumes=no focus-time-sensitive-default=allowed")
    // Whether the scenario stated the Focus's Time Sensitive switch is kept.
    let focus = file.scenario.device.focus
    #expect(focus.map(\.timeSensitiveStated) == [false, true])
    #expect(focus.map { $0.allowsTimeSensitive(unstated: .allowed) } == [true, false])
    #expect(focus.map { $0.allowsTimeSensitive(unstated: .silenced) } == [false, false])
  }

  @Test func theOtherPriorityFiveReadingsAndTheDefaultsLoad() throws {
    func rules(_ platform: String) throws -> AttentionRules {
      try loadFile(Self.header + "platform: { \(platform) }\nexpect: none\nassert:\n  - pendingPeak: { atMost: 1 }\n").scenario.platform.attention
    }
    #expect(try rules("priority5Alerts: at-once").priority5Alerts == .atOnce)
    #expect(try rules("priority5Alerts: dropped, focusResumes: yes, storedPush: latest") == AttentionRules())
    #expect(try rules("priority5MaxDelay: 0s").priority5MaxDelay == .zero)
    // The defaults print nothing new in the header.
    #expect(AttentionRules().summary == "power-off-catch-up=none boot=1m background-pushes=2/h")
  }

  @Test func badPushServiceAndFocusReadingsAreLocated() {
    assertDiagnostics(Self.header + """
      platform:
        priority5Alerts: 1️⃣delayd 30m
        priority5DeliveryProbability: 2️⃣1.5
        priority5MaxDelay: 3️⃣31d
        storedPush: 4️⃣last
        focusResumes: 5️⃣maybe
        focusTimeSensitiveDefault: 6️⃣on
      """, [
        Expected(marker: "1️⃣", message: "unknown priority-5 rule 'delayd 30m'", note: "did you mean 'delayed'?"),
        Expected(marker: "2️⃣", message: "priority5DeliveryProbability must be between 0 and 1, not 1.5"),
        Expected(marker: "3️⃣", message: "priority5MaxDelay must be at most 30d, not 31d"),
        Expected(marker: "4️⃣", message: "unknown stored-push rule 'last'"),
        Expected(marker: "5️⃣", message: "focusResumes must be true or false, not 'maybe'"),
        Expected(marker: "6️⃣", message: "unknown Focus time-sensitive default 'on'"),
      ])
    assertDiagnostics(Self.header + "platform:\n  priority5Alerts: 1️⃣delayed 0s\n", [
      Expected(marker: "1️⃣", message: "priority5Alerts 'delayed 0s' needs one duration longer than zero after 'delayed'")
    ])
    assertDiagnostics(Self.header + "platform:\n  priority5Alerts: 1️⃣delayed 40d\n", [
      Expected(marker: "1️⃣", message: "priority5Alerts delays at most 30d, not 40d")
    ])
  }

  // MARK: - Errors: pushes

  @Test func badPushesAreLocated() {
    let longID = String(repeating: "x", count: 65)
    assertDiagnostics(Self.header + """
      pushes:
        categories: { COMMENT: [reply, like] }
        send:
          - { at: 2026-03-28T09:00:00, id: c1, title: A, category: 1️⃣COMENT }
          - { at: 2026-03-28T09:00:00, id: c2, title: A, priority: 2️⃣7 }
          - { at: 2026-03-28T09:00:00, id: c3, title: A, collapseId: 3️⃣\(longID) }
          - { at: 2026-03-28T09:00:00, id: 4️⃣c1, title: A }
          - 5️⃣{ at: 2026-03-28T09:00:00, id: c5, type: new_comment, sound: true }
          - { at: 2026-03-28T09:00:00, id: c6, title: A, interruptionLevel: 6️⃣timesensitive }
          - { at: 2026-03-28T09:00:00, id: c7, title: A, expiration: 7️⃣2026-03-28T08:00:00 }
          - { at: 2026-03-28T09:00:00, id: c8, title: A, expiration: 8️⃣soon }
          - 9️⃣{ at: 2026-03-28T09:00:00, title: A }
      """, [
        Expected(marker: "1️⃣", message: "unknown category 'COMENT'", note: "did you mean 'COMMENT'?"),
        Expected(marker: "2️⃣", message: "priority must be 10, 5 or 1 (or FCM's high or normal), not '7'"),
        Expected(marker: "3️⃣", message: "collapseId is 65 bytes long; APNs accepts at most 64"),
        Expected(marker: "4️⃣", message: "push 'c1' is declared twice"),
        Expected(marker: "5️⃣", message: "a push needs an alert (title/body), a badge or contentAvailable"),
        Expected(marker: "6️⃣", message: "unknown interruption level 'timesensitive'", note: "did you mean 'timeSensitive'?"),
        Expected(marker: "7️⃣", message: "expiration is before the push is sent"),
        Expected(marker: "8️⃣", message: "expiration 'soon' is not 0, an instant or a duration"),
        Expected(marker: "9️⃣", message: "a push needs 'at' and 'id'"),
      ])
  }

  @Test func aCollapseIDOf64BytesIsAcceptedAndMultiByteCharactersCountAsBytes() throws {
    let yaml = Self.header + "pushes:\n  send:\n    - { at: 2026-03-28T09:00:00, id: c1, title: A, collapseId: \(String(repeating: "x", count: 64)) }\n"
    let loaded = try loadFile(yaml + "expect: none\nassert:\n  - noPushShownWhileOff: true\n")
    #expect(loaded.scenario.pushes.pushes.first?.collapseID?.utf8.count == 64)
    // 22 × "é" is 44 bytes and 33 × "é" is 66: the limit is in bytes, not characters.
    assertDiagnostics(Self.header + "pushes:\n  send:\n    - { at: 2026-03-28T09:00:00, id: c1, title: A, collapseId: 1️⃣\(String(repeating: "é", count: 33)) }\n", [
      Expected(marker: "1️⃣", message: "collapseId is 66 bytes long; APNs accepts at most 64")
    ])
  }

  @Test func badCategoriesAndPreferencesAreLocated() {
    assertDiagnostics(Self.twoPushes + """
        categories: { COMMENT: 1️⃣[], LIKE: [like, 2️⃣like] }
        filter: 3️⃣servr
        preferences:
          - { at: 2026-03-28T09:00:00, types: { 4️⃣new_coment: off } }
          - { at: 2026-03-28T09:00:00, types: { new_comment: 5️⃣maybe } }
          - 6️⃣{ at: 2026-03-28T09:00:00 }
          - { at: 2026-03-28T09:00:00, quietHours: 7️⃣{ from: "22:00" } }
          - { at: 2026-03-28T10:00:00, quietHours: { from: "22:00", to: "07:00" } }
          - { at: 8️⃣2026-03-28T09:30:00, quietHours: { enabled: false } }
      """, [
        Expected(marker: "1️⃣", message: "category 'COMMENT' lists no action"),
        Expected(marker: "2️⃣", message: "action 'like' is listed twice in category 'LIKE'"),
        Expected(marker: "3️⃣", message: "unknown push filter 'servr'", note: "did you mean 'server'?"),
        Expected(marker: "4️⃣", message: "unknown push type 'new_coment'", note: "did you mean 'new_comment'?"),
        Expected(marker: "5️⃣", message: "a type's setting must be on or off, not 'maybe'"),
        Expected(marker: "6️⃣", message: "a preference change needs 'types' or 'quietHours'"),
        Expected(marker: "7️⃣", message: "quiet hours need 'from' and 'to'"),
        Expected(marker: "8️⃣", message: "preference changes must be in time order"),
      ])
  }

  // MARK: - Errors: medicines, notifications, app, badge

  @Test func badgeNeedsMedicinesAndANamedPolicy() {
    assertDiagnostics(Self.header + "1️⃣badge: count-at-add\n", [
      Expected(marker: "1️⃣", message: "'badge' needs medicines", note: "the badge counts the doses of the medicines under 'medicines:'")
    ])
    assertDiagnostics(Self.oneMedicine + "badge: 1️⃣count-at-ad\n", [
      Expected(marker: "1️⃣", message: "unknown badge policy 'count-at-ad'", note: "did you mean 'count-at-add'?")
    ])
  }

  @Test func badLevelsSoundsAndBadgesOfRequestsAreLocated() {
    assertDiagnostics(Self.header + """
      notifications:
        - { id: a, trigger: { interval: 1h }, interruptionLevel: 1️⃣timesensitive }
        - { id: b, trigger: { interval: 1h }, sound: 2️⃣loud }
        - { id: c, trigger: { interval: 1h }, badge: 3️⃣-1 }
      medicines:
        - { id: met, name: M, dosage: 1, times: ["08:00"], interruptionLevel: 4️⃣urgent }
        - id: asp
          name: A
          dosage: 1
          times: ["08:00"]
          edits:
            - { at: 2026-03-28T09:00:00, interruptionLevel: 5️⃣Critical }
      app:
        - { at: 2026-03-28T09:00:00, permission: 6️⃣authorised }
      """, [
        Expected(marker: "1️⃣", message: "unknown interruption level 'timesensitive'", note: "did you mean 'timeSensitive'?"),
        Expected(marker: "2️⃣", message: "sound must be true or false, not 'loud'"),
        Expected(marker: "3️⃣", message: "badge must be between 0 and 1000000, not -1"),
        Expected(marker: "4️⃣", message: "unknown interruption level 'urgent'", note: "choose one of: passive, active, timeSensitive, critical"),
        Expected(marker: "5️⃣", message: "unknown interruption level 'Critical'", note: "did you mean 'critical'?"),
        Expected(marker: "6️⃣", message: "unknown permission 'authorised'", note: "did you mean 'authorized'?"),
      ])
  }

  @Test func anAppChangeWithoutValuesListsEveryOption() {
    let (_, found) = diagnostics(Self.header + "app:\n  - { at: 2026-03-28T09:00:00 }\n")
    #expect(
      found.map(\.message) == ["an app change needs 'state', 'permission', 'location', 'locationAccuracy', 'run', 'exactAlarms', 'channel' or 'standbyBucket'"])
    let note = found.first?.notes.first ?? ""
    #expect(note.contains("state: foreground|background|terminated|force-quit"))
    #expect(note.contains("standbyBucket (android): active|working-set|frequent|rare|restricted"))
    #expect(note.contains("permission: granted|authorized|denied|not-determined|provisional|ephemeral"))
  }

  // MARK: - Errors: assertions

  @Test func badAttentionAssertionsAreLocated() {
    assertDiagnostics(Self.twoPushes + """
      medicines:
        - { id: met, name: Metformin, dosage: 500, times: ["08:00"] }
      assert:
        - noPushShownWhileOff: { type: 1️⃣new_coment }
        - nothingAudible: { from: "22:00", to: "07:00", subject: 2️⃣"medicin_*" }
        - nothingAudible: 3️⃣{ subject: c1 }
        - dosesPerceptible: { within: 10m, medicine: 4️⃣mett }
        - dosesPerceptible: 5️⃣{ medicine: met }
        - badge: { at: 2026-03-28T12:00:00, equals: 6️⃣three }
        - badge: 7️⃣{ at: 2026-03-28T12:00:00 }
        - noPushShownWhileOff: 8️⃣false
        - badgeCountsDoses: 9️⃣false
      """, [
        Expected(marker: "1️⃣", message: "unknown push type 'new_coment'", note: "did you mean 'new_comment'?"),
        Expected(marker: "2️⃣", message: "pattern 'medicin_*' matches no notification or push in this scenario"),
        Expected(marker: "3️⃣", message: "a window needs 'from' and 'to'"),
        Expected(marker: "4️⃣", message: "unknown medicine 'mett'", note: "did you mean 'met'?"),
        Expected(marker: "5️⃣", message: "'dosesPerceptible' needs 'within'"),
        Expected(marker: "6️⃣", message: "'equals' must be a whole number, not 'three'"),
        Expected(marker: "7️⃣", message: "'badge' needs 'at' and 'equals'"),
        Expected(marker: "8️⃣", message: "'noPushShownWhileOff: false' checks nothing"),
        Expected(marker: "9️⃣", message: "'badgeCountsDoses: false' checks nothing"),
      ])
  }

  @Test func assertionsNeedWhatTheyCheck() {
    assertDiagnostics(Self.header + """
      expect: none
      assert:
        - 1️⃣noPushShownWhileOff: true
        - 2️⃣dosesPerceptible: { within: 5m }
        - 3️⃣badgeCountsDoses: true
        - nothingAudible: { from: "22:00", to: "07:00", subject: 4️⃣c1 }
      """, [
        Expected(marker: "1️⃣", message: "'noPushShownWhileOff' needs pushes"),
        Expected(marker: "2️⃣", message: "'dosesPerceptible' needs medicines"),
        Expected(marker: "3️⃣", message: "'badgeCountsDoses' needs medicines"),
        Expected(marker: "4️⃣", message: "pattern 'c1' matches no notification or push in this scenario"),
      ])
  }

  @Test func nothingAudibleSubjectsMayNamePushes() throws {
    let loaded = try loadFile(Self.twoPushes + "expect: none\nassert:\n  - nothingAudible: { from: \"22:00\", to: \"07:00\", subject: \"c?\" }\n")
    guard case .nothingAudible(let pattern, _) = loaded.checks.assertions.first?.property else {
      Issue.record("expected nothingAudible")
      return
    }
    #expect(pattern?.text == "c?")
  }
}

extension AttentionRules {
  /// A copy changed by `change`, for comparing with the defaults.
  fileprivate func with(_ change: (inout AttentionRules) -> Void) -> AttentionRules {
    var copy = self
    change(&copy)
    return copy
  }
}
