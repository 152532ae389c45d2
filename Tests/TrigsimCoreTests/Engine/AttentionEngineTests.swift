import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

/// The attention layer in a run: what the patient could perceive of each
/// delivery, and the dose outcomes that follow from it.
@Suite struct AttentionEngineTests {
  func run(
    _ app: MedicineApp, device: DeviceSetup = DeviceSetup(), pushes: RemotePushes = RemotePushes(),
    platform: PlatformSettings = .idealLocation, start: String = "2026-03-28T06:00:00Z", end: String = "2026-03-28T12:00:00Z",
    regions: [MonitoredRegion] = [], track: (any TrackSource)? = nil
  ) throws -> SimulationReport {
    var scenario = F.scenario(app, start: start, end: end, regions: regions, track: track, platform: platform)
    scenario.device = device
    scenario.pushes = pushes
    return try Simulation(scenario).report()
  }

  func sleep(from: String = "22:30", to: String = "07:30") -> FocusPeriod {
    FocusPeriod(name: "Sleep", schedule: .daily(from: F.time(from), to: F.time(to), weekdays: nil), allowsTimeSensitive: true)
  }

  func medicine(_ id: MedicineID, times: [String], level: InterruptionLevel = .active) -> Medicine {
    var medicine = F.medicine(id, times: times, snooze: nil)
    medicine.interruptionLevel = level
    return medicine
  }

  // MARK: - Focus

  @Test func aSleepFocusHoldsAnActiveDoseUntilItEndsWhileATimeSensitiveOneBreaksThrough() throws {
    var device = DeviceSetup()
    device.focus = [sleep()]
    let report = try run(
      MedicineApp(medicineChanges: [
        F.create(medicine("a", times: ["07:00"]), at: "06:00"), F.create(medicine("t", times: ["07:00"], level: .timeSensitive), at: "06:00"),
      ]), device: device)
    let lines = report.timeline.entries.filter { $0.instant >= F.at("07:00") }.map { "\($0.kind.rawValue) \($0.subject) \($0[field: "how"] ?? $0[field: "until"] ?? $0[field: "state"] ?? "")" }
    #expect(lines == [
      "fired medicine_a_reminder_0 ",
      "held medicine_a_reminder_0 \(F.local("07:30"))",
      "fired medicine_t_reminder_0 ",
      "presented medicine_t_reminder_0 banner+lock-screen+sound",
      "focus Sleep off",
      "presented medicine_a_reminder_0 lock-screen",
    ])
    #expect(report.summary.dose("a", .time(F.time("07:00")))?.notified == F.at("07:30"))
    #expect(report.summary.dose("t", .time(F.time("07:00")))?.notified == F.at("07:00"))
    // How and by what: the held reminder on the lock screen when the Focus ended, the other as a full alert.
    #expect(report.summary.dose("a", .time(F.time("07:00")))?.perception
      == DosePerception(notification: "medicine_a_reminder_0", role: "daily reminder", kind: .afterFocus, how: "lock-screen"))
    #expect(report.summary.dose("t", .time(F.time("07:00")))?.perception
      == DosePerception(notification: "medicine_t_reminder_0", role: "daily reminder", kind: .alert, how: "banner+lock-screen+sound"))
    #expect(report.summary.json.contains(
      #""notified": "2026-03-28T07:30:00.000+00:00", "perceived": {"by": "medicine_a_reminder_0", "role": "daily reminder", "kind": "after-focus", "how": "lock-screen"}, "reminderDelivered""#))
    #expect(report.summary.perceptions.map(\.audible) == [true, false])
    // The Focus began the evening before the run: it is on at the start.
    #expect(report.timeline.entries.first?.kindAndSubject == "focus Sleep")
    #expect(report.timeline.entries.first?.instant == F.at("06:00"))
  }

  @Test func aDoseCompletedWhileHeldIsNeverShownAfterTheFocus() throws {
    var device = DeviceSetup()
    device.focus = [sleep()]
    let report = try run(
      MedicineApp(
        medicineChanges: [F.create(medicine("a", times: ["07:00"]), at: "06:00")],
        userActions: [F.action(.complete, on: "medicine_a_reminder_0", at: "07:10")]), device: device)
    #expect(report.timeline.entries(.presented).isEmpty)
    let dose = try #require(report.summary.dose("a", .time(F.time("07:00"))))
    #expect(dose.outcome == .completed)
    #expect(dose.notified == nil)
  }

  @Test func aHeldDoseTheRunEndsOnIsMissedWithTheReason() throws {
    var device = DeviceSetup()
    device.focus = [sleep(to: "09:00")]
    let report = try run(MedicineApp(medicineChanges: [F.create(medicine("a", times: ["07:00"]), at: "06:00")]), device: device, end: "2026-03-28T08:00:00Z")
    let dose = try #require(report.summary.dose("a", .time(F.time("07:00"))))
    #expect(dose.outcome == .missed)
    #expect(dose.reason == "never perceptible: held by Focus 'Sleep' at \(F.local("07:00")), not released before the run ended")
  }

  @Test func responseRulesAreTimedFromWhenThePatientCouldSeeTheNotification() throws {
    var device = DeviceSetup()
    device.focus = [sleep()]
    let report = try run(
      MedicineApp(
        medicineChanges: [F.create(medicine("a", times: ["07:00"]), at: "06:00")],
        responseRules: [ResponseRule(pattern: IdentifierPattern("medicine_a_*"), after: .minutes(5), actions: [.complete])]), device: device)
    #expect(report.summary.dose("a", .time(F.time("07:00")))?.completed == F.at("07:35"))
  }

  // MARK: - Scheduled Summary

  @Test func scheduledSummaryHoldsActiveDosesUntilTheNextSummaryTime() throws {
    var device = DeviceSetup()
    device.summary = ScheduledSummary(times: [F.time("18:00"), F.time("08:00")])
    let report = try run(MedicineApp(medicineChanges: [
      F.create(medicine("a", times: ["07:00", "08:00"]), at: "06:00"),
    ]), device: device)
    let presented = report.timeline.entries(.presented).map { "\($0.subject) \($0.localInstant) \($0[field: "how"]!)" }
    #expect(presented == [
      "medicine_a_reminder_0 \(F.local("08:00")) summary", "medicine_a_reminder_1 \(F.local("08:00")) summary",
    ])
    #expect(report.summary.dose("a", .time(F.time("07:00")))?.notified == F.at("08:00"))
    #expect(report.summary.dose("a", .time(F.time("08:00")))?.notified == F.at("08:00"))
    #expect(report.summary.dose("a", .time(F.time("07:00")))?.perception
      == DosePerception(notification: "medicine_a_reminder_0", role: "daily reminder", kind: .summary, how: "summary"))
    #expect(report.summary.perceptions.allSatisfy { $0.kind == .summary && !$0.audible })
  }

  // MARK: - Authorization

  @Test func provisionalAuthorizationDeliversQuietlyAndTheDoseIsNeverPerceptible() throws {
    let report = try run(MedicineApp(
      medicineChanges: [F.create(medicine("a", times: ["07:00"]), at: "06:00")],
      appChanges: [AppChange(instant: F.at("06:00"), permission: .provisional)]))
    #expect(report.timeline.entries(.fired).count == 1)
    #expect(report.timeline.entries(.presented).map { $0[field: "how"] } == ["notification-center"])
    let dose = try #require(report.summary.dose("a", .time(F.time("07:00"))))
    #expect(dose.outcome == .missed)
    #expect(dose.perception == nil)
    #expect(dose.reason?.hasPrefix("never perceptible: delivered quietly to Notification Center at") == true)
  }

  // MARK: - Power

  /// Off from `from`, on at `to` and unlocked at once (deliveries wait for the first unlock: `DeviceModeTests`).
  func phoneOff(_ from: String, _ to: String, kind: PowerEvent.Kind = .switchOff) -> DeviceSetup {
    var device = DeviceSetup()
    device.power = [
      PowerEvent(instant: F.at(from), kind: kind), PowerEvent(instant: F.at(to), kind: .switchOn), PowerEvent(instant: F.at(to), kind: .unlock),
    ]
    return device
  }

  @Test func aDoseDueWhileThePhoneIsOffIsDeliveredOnceWhenItComesOnWithItsChain() throws {
    let chain = SnoozeChainPolicy(every: .minutes(6), count: 3, scheduling: .upfront)
    let report = try run(
      MedicineApp(medicineChanges: [F.create(F.medicine("a", times: ["08:00"], snooze: chain), at: "06:00")]),
      device: phoneOff("07:00", "09:00"))
    let fired = report.timeline.entries(.fired)
    #expect(fired.map(\.subject) == ["medicine_a_reminder_0", "medicine_a_snooze_1", "medicine_a_snooze_2", "medicine_a_snooze_3"])
    #expect(fired.allSatisfy { $0.instant == F.at("09:00") })
    #expect(fired.map { $0[field: "due"] } == ["08:00", "08:06", "08:12", "08:18"].map { F.local($0) })
    let dose = try #require(report.summary.dose("a", .time(F.time("08:00"))))
    #expect(dose.scheduled == F.at("08:00"))
    #expect(dose.notified == F.at("09:00"))
    #expect(dose.reason == nil)
    #expect(dose.notes.contains("due while the phone was off; delivered at \(F.local("09:00")) at the first unlock"))
  }

  @Test func aScriptedActionWhileThePhoneIsOffIsInvalidInput() throws {
    let error = #expect(throws: InputError.self) {
      try run(
        MedicineApp(
          medicineChanges: [F.create(medicine("a", times: ["07:00"]), at: "06:00")],
          userActions: [F.action(.complete, on: "medicine_a_reminder_0", at: "08:00")]),
        device: phoneOff("07:30", "09:00"))
    }
    #expect(error?.diagnostics.first?.message == "'complete' at \(F.local("08:00")) acts on 'medicine_a_reminder_0' while the phone is off")
  }

  @Test func aRepeatingIntervalDueManyTimesWhileOffDeliversOnce() throws {
    let add = Build.add("water", Build.interval(.minutes(10), repeats: true), at: "2026-03-28T06:00:00Z", title: "Water")
    var scenario = Scenario(name: "water", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T07:15:00Z"), actions: [add], platform: .idealLocation)
    scenario.device = phoneOff("06:05", "06:55")
    let report = try Simulation(scenario).report()
    // Due 06:10 … 06:50 while off (5 times): delivered once at 06:55, then 07:00 and 07:10 as usual.
    #expect(report.timeline.entries(.held).count == 5)
    #expect(report.timeline.entries(.fired).map(\.instant) == [F.at("06:55"), F.at("07:00"), F.at("07:10")])
  }

  @Test func withCatchUpNoneADoseDueWhileOffIsMissed() throws {
    var platform = PlatformSettings.idealLocation
    platform.attention.powerOffCatchUp = .never
    let report = try run(
      MedicineApp(medicineChanges: [F.create(medicine("a", times: ["08:00"]), at: "06:00")]), device: phoneOff("07:00", "09:00"),
      platform: platform)
    #expect(report.timeline.entries(.fired).isEmpty)
    let dose = try #require(report.summary.dose("a", .time(F.time("08:00"))))
    #expect(dose.outcome == .missed)
    #expect(dose.reason == "not delivered at \(F.local("08:00")): the phone was off")
  }

  @Test func withRecentCatchUpOnlyWhatCameDueWithinTheSpanIsDelivered() throws {
    var platform = PlatformSettings.idealLocation
    platform.attention.powerOffCatchUp = .recent(.minutes(15))
    let report = try run(
      MedicineApp(medicineChanges: [F.create(medicine("a", times: ["07:30", "08:50"]), at: "06:00")]), device: phoneOff("07:00", "09:00"),
      platform: platform)
    #expect(report.timeline.entries(.fired).map(\.subject) == ["medicine_a_reminder_1"])
    #expect(report.summary.dose("a", .time(F.time("07:30")))?.outcome == .missed)
    #expect(report.summary.dose("a", .time(F.time("08:50")))?.notified == F.at("09:00"))
  }

  @Test func switchingOffTerminatesTheApp() throws {
    let report = try run(
      MedicineApp(medicineChanges: [F.create(medicine("a", times: ["08:00"]), at: "06:00")],
                  appChanges: [AppChange(instant: F.at("06:00"), state: .foreground)]),
      device: phoneOff("07:00", "09:00"))
    let atOff = report.timeline.entries(at: F.at("07:00")).map(\.kindAndSubject)
    #expect(atOff == ["power phone", "app state"])
    #expect(report.timeline.entries(.fired).first?[field: "app"] == "terminated")
  }

  @Test func afterARebootRegionMonitoringWaitsForTheFirstUnlock() throws {
    let track = InMemoryTrack(samples: [
      Build.fix("2026-03-28T07:58:00Z", 54.0, 12.0),
      Build.fix("2026-03-28T08:02:00Z", 56.0, 12.0),  // enters at 08:00, before the first unlock
      Build.fix("2026-03-28T08:04:00Z", 54.0, 12.0),  // exits at 08:03
      Build.fix("2026-03-28T08:08:00Z", 54.0, 12.0),
      Build.fix("2026-03-28T08:12:00Z", 56.0, 12.0),  // enters at 08:10, after it
    ])
    let location = F.medicine(
      "home", times: [], location: LocationReminder(region: "home", onEntry: true, onExit: false, repeats: true), snooze: nil)
    var device = DeviceSetup()
    device.power = [PowerEvent(instant: F.at("07:50"), kind: .reboot), PowerEvent(instant: F.at("08:05"), kind: .unlock)]
    let report = try run(
      MedicineApp(medicineChanges: [F.create(location, at: "06:00")]), device: device, end: "2026-03-28T09:00:00Z",
      regions: [MonitoredRegion(id: "home", shape: NorthOfLatitude(55.0))], track: track)
    let doses = report.summary.doses
    #expect(doses.map(\.outcome) == [.missed, .unanswered])
    #expect(doses.first?.reason?.contains("has not been unlocked since it was switched on") == true)
    #expect(report.timeline.entries(.fired).map(\.instant) == [F.at("08:10")])
    let power = report.timeline.entries(.power).map { "\($0.localInstant) \($0[field: "event"]!)" }
    #expect(power == ["\(F.local("07:50")) reboot", "\(F.local("07:51")) switch-on (end of reboot)", "\(F.local("08:05")) unlock"])
  }

  // MARK: - Pushes

  func push(_ id: PushID, at time: String, type: String? = nil, collapse: String? = nil, expiration: SimulationInstant? = nil, sound: Bool = true) -> RemotePush {
    RemotePush(id: id, instant: F.at(time), type: type, title: "T", body: "B", sound: sound, collapseID: collapse, expiration: expiration)
  }

  @Test func whileOfflineThePushServiceKeepsOnlyTheLastPushAndDeliversItOnReconnect() throws {
    var device = DeviceSetup()
    device.network = [NetworkChange(instant: F.at("07:00"), online: false), NetworkChange(instant: F.at("08:00"), online: true)]
    var pushes = RemotePushes()
    pushes.pushes = [
      push("c1", at: "07:10", collapse: "post-1"), push("c2", at: "07:20", collapse: "post-1"),
      push("once", at: "07:30", expiration: F.at("07:30")), push("c3", at: "07:40", collapse: "post-2", expiration: F.at("07:50")),
      push("c4", at: "08:10", collapse: "post-1"),
    ]
    let report = try run(MedicineApp(), device: device, pushes: pushes)
    let pushLines = report.timeline.entries.filter { [.stored, .discarded, .received].contains($0.kind) }
      .map { "\($0.kind.rawValue) \($0.subject) \($0.localInstant)" }
    #expect(pushLines == [
      "stored c1 \(F.local("07:10"))",
      "discarded c1 \(F.local("07:20"))", "stored c2 \(F.local("07:20"))",
      "discarded once \(F.local("07:30"))",
      "discarded c2 \(F.local("07:40"))", "stored c3 \(F.local("07:40"))",
      "discarded c3 \(F.local("08:00"))",  // expired at 07:50
      "received c4 \(F.local("08:10"))",
    ])
    #expect(report.timeline.entries(.received).first?[field: "replaces"] == nil)
  }

  @Test func aLaterPushWithTheSameCollapseIdentifierReplacesTheShownOne() throws {
    var pushes = RemotePushes()
    pushes.pushes = [push("c1", at: "07:10", collapse: "post-1"), push("c2", at: "07:20", collapse: "post-1")]
    let report = try run(MedicineApp(), pushes: pushes)
    #expect(report.timeline.entries(.received).map { $0[field: "replaces"] } == [nil, "c1"])
  }

  @Test func theAppsTogglesAndQuietHoursFilterOnTheServerOrInTheApp() throws {
    for filter in AppPreferenceFilter.allCases {
      var pushes = RemotePushes()
      pushes.filter = filter
      pushes.preferenceChanges = [
        AppPreferenceChange(instant: F.at("06:00"), types: [("new_comment", false)], quietHours: .some(QuietHours(from: F.time("22:00"), to: F.time("07:00"))))
      ]
      pushes.pushes = [
        push("comment", at: "08:00", type: "new_comment"), push("night", at: "06:30", type: "achievement_unlocked"),
        push("day", at: "08:00", type: "achievement_unlocked"),
      ]
      let report = try run(MedicineApp(), pushes: pushes)
      let filtered = report.timeline.entries(.filtered)
      #expect(filtered.map(\.subject) == ["night", "comment"])
      #expect(filtered.allSatisfy { $0[field: "where"] == filter.rawValue })
      #expect(report.timeline.entries(.received).map(\.subject) == (filter == .server ? ["day"] : ["night", "comment", "day"]))
      #expect(report.summary.perceptions.map(\.subject) == ["day"])
    }
  }

  @Test func backgroundPushesAreThrottledAndNotDeliveredToAForceQuitApp() throws {
    var pushes = RemotePushes()
    pushes.pushes = (0..<4).map { RemotePush(id: PushID("bg\($0)"), instant: F.at("07:\(10 + $0)"), contentAvailable: true, priority: 5) }
      + [RemotePush(id: "late", instant: F.at("09:00"), contentAvailable: true, priority: 5)]
    let report = try run(
      MedicineApp(appChanges: [AppChange(instant: F.at("08:30"), state: .forceQuit)]), pushes: pushes)
    #expect(report.timeline.entries(.received).map(\.subject) == ["bg0", "bg1"])
    let suppressed = report.timeline.entries(.suppressed)
    #expect(suppressed.map(\.subject) == ["bg2", "bg3", "late"])
    #expect(suppressed.prefix(2).allSatisfy { $0[field: "reason"]!.hasPrefix("background push not delivered: throttled: the app already had 2 background pushes in the last hour") })
    #expect(suppressed.last?[field: "reason"] == "background push not delivered: the patient force-quit the app: the system does not launch it for background pushes")
  }

  // MARK: - Badge

  @Test func aBadgeFixedAtAddTimeStopsCountingTheWaitingDoses() throws {
    var app = MedicineApp(medicineChanges: [F.create(medicine("a", times: ["07:00", "08:00"]), at: "06:00")])
    app.badge = .countAtAdd
    let report = try run(app)
    #expect(report.timeline.entries(.badge).map { "\($0.localInstant) \($0[field: "to"]!)" } == ["\(F.local("07:00")) 1"])
    #expect(report.summary.badgeHistory.map(\.value) == [1])
    #expect(report.summary.waitingDosesHistory.map(\.count) == [1, 2])
    let failure = RunAssertion(.badgeCountsDoses).check(report)
    #expect(failure?.evidence == ["\(F.local("08:00")): badge 1, 2 doses waiting in Notification Center"])
    #expect(RunAssertion(.badgeEquals(at: F.at("09:00"), label: "09:00", value: 1)).check(report) == nil)
  }

  @Test func appCodeKeepsTheBadgeRightWhenItRuns() throws {
    var app = MedicineApp(
      medicineChanges: [F.create(medicine("a", times: ["07:00", "08:00"]), at: "06:00")],
      appChanges: [AppChange(instant: F.at("06:00"), state: .foreground)])
    app.badge = .appCode
    let report = try run(app)
    #expect(report.summary.badgeHistory.map(\.value) == [1, 2])
    #expect(RunAssertion(.badgeCountsDoses).check(report) == nil)
  }
}
