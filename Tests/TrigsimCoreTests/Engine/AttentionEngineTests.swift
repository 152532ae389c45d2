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
    regions: [MonitoredRegion] = [], track: (any TrackSource)? = nil, looks: [String] = []
  ) throws -> SimulationReport {
    var scenario = F.scenario(app, start: start, end: end, regions: regions, track: track, platform: platform)
    scenario.patientAttention.looks = looks.map { ScriptedLook(instant: F.at($0)) }
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
      ]), device: device, looks: ["07:45"])
    let lines = report.timeline.entries.filter { $0.instant >= F.at("07:00") }.map { "\($0.kind.rawValue) \($0.subject) \($0[field: "how"] ?? $0[field: "until"] ?? $0[field: "state"] ?? "")" }
    #expect(lines == [
      "fired medicine_a_reminder_0 ",
      "held medicine_a_reminder_0 \(F.local("07:30"))",
      "fired medicine_t_reminder_0 ",
      "presented medicine_t_reminder_0 banner+lock-screen+sound",
      "focus Sleep off",
      "presented medicine_a_reminder_0 lock-screen",
      "looked medicine_a_reminder_0 lock-screen",
    ])
    // Listed silently on the lock screen when the Focus ended: seen at the patient's look at 07:45, not at 07:30.
    #expect(report.summary.dose("a", .time(F.time("07:00")))?.notified == F.at("07:45"))
    #expect(report.summary.dose("t", .time(F.time("07:00")))?.notified == F.at("07:00"))
    // How and by what: the held reminder on the lock screen, seen at a look; the other as a full alert.
    #expect(report.summary.dose("a", .time(F.time("07:00")))?.perception
      == DosePerception(notification: "medicine_a_reminder_0", role: "daily reminder", kind: .afterFocus, how: "lock-screen, seen at a look"))
    #expect(report.summary.dose("t", .time(F.time("07:00")))?.perception
      == DosePerception(notification: "medicine_t_reminder_0", role: "daily reminder", kind: .alert, how: "banner+lock-screen+sound"))
    #expect(report.summary.json.contains(
      #""notified": "2026-03-28T07:45:00.000+00:00", "perceived": {"by": "medicine_a_reminder_0", "role": "daily reminder", "kind": "after-focus", "how": "lock-screen, seen at a look"}, "reminderDelivered""#))
    // The alert, the listing (which draws no eye), the look.
    #expect(report.summary.perceptions.map { "\($0.audible) \($0.isPerceptible)" } == ["true true", "false false", "false true"])
    // The Focus began the evening before the run: it is on at the start.
    #expect(report.timeline.entries.first?.kindAndSubject == "focus Sleep")
    #expect(report.timeline.entries.first?.instant == F.at("06:00"))
  }

  @Test func aDoseListedAfterAFocusIsMissedWhenThePatientNeverLooks() throws {
    var device = DeviceSetup()
    device.focus = [sleep()]
    let report = try run(MedicineApp(medicineChanges: [F.create(medicine("a", times: ["07:00"]), at: "06:00")]), device: device)
    let dose = try #require(report.summary.dose("a", .time(F.time("07:00"))))
    #expect(dose.outcome == .missed)
    #expect(dose.reason == "never perceived: listed at \(F.local("07:30")) (Focus 'Sleep' ended), and the patient did not look at the phone after it")
    #expect(report.timeline.entries(.looked).isEmpty)
  }

  @Test func aLookDuringTheFocusSeesNothingUnlessTheFocusShowsSilencedNotifications() throws {
    var device = DeviceSetup()
    device.focus = [sleep()]
    let app = MedicineApp(medicineChanges: [F.create(medicine("a", times: ["07:00"]), at: "06:00")])
    let hidden = try run(app, device: device, looks: ["07:10", "07:50"])
    #expect(hidden.summary.dose("a", .time(F.time("07:00")))?.notified == F.at("07:50"))
    var platform = PlatformSettings.idealLocation
    platform.attention.focusSilencedOnLockScreen = .shown
    let shown = try run(app, device: device, platform: platform, looks: ["07:10", "07:50"])
    #expect(shown.summary.dose("a", .time(F.time("07:00")))?.notified == F.at("07:10"))
    // Listed once, at the delivery: the Focus's end lists nothing again.
    #expect(shown.timeline.entries(.looked).map(\.instant) == [F.at("07:10")])
    #expect(shown.timeline.entries(.presented).isEmpty)
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
        responseRules: [ResponseRule(pattern: IdentifierPattern("medicine_a_*"), after: .minutes(5), actions: [.complete])]), device: device,
      looks: ["07:40"])
    #expect(report.summary.dose("a", .time(F.time("07:00")))?.completed == F.at("07:45"))
  }

  // MARK: - Scheduled Summary

  @Test func scheduledSummaryHoldsActiveDosesUntilTheNextSummaryTime() throws {
    var device = DeviceSetup()
    device.summary = ScheduledSummary(times: [F.time("18:00"), F.time("08:00")])
    let report = try run(MedicineApp(medicineChanges: [
      F.create(medicine("a", times: ["07:00", "08:00"]), at: "06:00"),
    ]), device: device, looks: ["07:50", "08:20"])
    let presented = report.timeline.entries(.presented).map { "\($0.subject) \($0.localInstant) \($0[field: "how"]!)" }
    #expect(presented == [
      "medicine_a_reminder_0 \(F.local("08:00")) summary", "medicine_a_reminder_1 \(F.local("08:00")) summary",
    ])
    // Held until the 08:00 summary (the 07:50 look finds nothing listed), seen at the 08:20 look.
    #expect(report.summary.dose("a", .time(F.time("07:00")))?.notified == F.at("08:20"))
    #expect(report.summary.dose("a", .time(F.time("08:00")))?.notified == F.at("08:20"))
    #expect(report.summary.dose("a", .time(F.time("07:00")))?.perception
      == DosePerception(notification: "medicine_a_reminder_0", role: "daily reminder", kind: .summary, how: "summary, seen at a look"))
    #expect(report.summary.perceptions.allSatisfy { $0.kind == .summary && !$0.audible })
  }

  // MARK: - Authorization

  @Test func provisionalAuthorizationDeliversQuietlyAndTheDoseIsSeenOnlyAtALook() throws {
    let app = MedicineApp(
      medicineChanges: [F.create(medicine("a", times: ["07:00"]), at: "06:00")],
      appChanges: [AppChange(instant: F.at("06:00"), permission: .provisional)])
    let report = try run(app)
    #expect(report.timeline.entries(.fired).count == 1)
    #expect(report.timeline.entries(.presented).map { $0[field: "how"] } == ["notification-center"])
    let dose = try #require(report.summary.dose("a", .time(F.time("07:00"))))
    #expect(dose.outcome == .missed)
    #expect(dose.perception == nil)
    #expect(dose.reason == "never perceived: listed at \(F.local("07:00")) (delivered quietly to Notification Center, no alert), and the patient did not look at the phone after it")

    let looked = try run(app, looks: ["07:20"])
    let seen = try #require(looked.summary.dose("a", .time(F.time("07:00"))))
    #expect(seen.notified == F.at("07:20"))
    #expect(seen.perception?.kind == .quiet)
    #expect(seen.reason == nil)
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

  /// The platform with `powerOffCatchUp: all` (the default is `none`, an assumption).
  var catchingUpAll: PlatformSettings {
    var platform = PlatformSettings.idealLocation
    platform.attention.powerOffCatchUp = .all
    return platform
  }

  @Test func byDefaultNothingDueWhileThePhoneIsOffIsDelivered() throws {
    let report = try run(
      MedicineApp(medicineChanges: [F.create(medicine("a", times: ["08:00"]), at: "06:00")]), device: phoneOff("07:00", "09:00"))
    #expect(report.timeline.entries(.fired).isEmpty)
    #expect(report.summary.dose("a", .time(F.time("08:00")))?.outcome == .missed)
    #expect(report.summary.consultedAssumptions == [.powerOffCatchUp])
  }

  @Test func aDoseDueWhileThePhoneIsOffIsDeliveredOnceWhenItComesOnWithItsChain() throws {
    let chain = SnoozeChainPolicy(every: .minutes(6), count: 3, scheduling: .upfront)
    let report = try run(
      MedicineApp(medicineChanges: [F.create(F.medicine("a", times: ["08:00"], snooze: chain), at: "06:00")]),
      device: phoneOff("07:00", "09:00"), platform: catchingUpAll, looks: ["09:05"])
    let fired = report.timeline.entries(.fired)
    #expect(fired.map(\.subject) == ["medicine_a_reminder_0", "medicine_a_snooze_1", "medicine_a_snooze_2", "medicine_a_snooze_3"])
    #expect(fired.allSatisfy { $0.instant == F.at("09:00") })
    #expect(fired.map { $0[field: "due"] } == ["08:00", "08:06", "08:12", "08:18"].map { F.local($0) })
    let dose = try #require(report.summary.dose("a", .time(F.time("08:00"))))
    #expect(dose.scheduled == F.at("08:00"))
    // Listed without sound at the first unlock (09:00), which is a look: seen then, once for the burst.
    #expect(dose.notified == F.at("09:00"))
    #expect(dose.perception?.kind == .catchUp)
    #expect(dose.reason == nil)
    #expect(report.timeline.entries(.looked).count == 4)
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
    var scenario = Scenario(name: "water", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T07:15:00Z"), actions: [add], platform: catchingUpAll)
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
      platform: platform, looks: ["09:10"])
    #expect(report.timeline.entries(.fired).map(\.subject) == ["medicine_a_reminder_1"])
    #expect(report.summary.dose("a", .time(F.time("07:30")))?.outcome == .missed)
    // Seen at the first unlock, 09:00 (a look).
    #expect(report.summary.dose("a", .time(F.time("08:50")))?.notified == F.at("09:00"))
  }

  @Test func withCatchUpAlertsTheBurstAlertsWhenThePhoneComesOn() throws {
    var platform = PlatformSettings.idealLocation
    platform.attention.powerOffCatchUp = .all
    platform.attention.catchUpPresentation = .alert
    let report = try run(
      MedicineApp(medicineChanges: [F.create(medicine("a", times: ["08:00"]), at: "06:00")]), device: phoneOff("07:00", "09:00"),
      platform: platform)
    #expect(report.summary.dose("a", .time(F.time("08:00")))?.notified == F.at("09:00"))
    #expect(report.summary.dose("a", .time(F.time("08:00")))?.perception?.kind == .alert)
    #expect(report.timeline.entries(.looked).isEmpty)
  }

  @Test func switchingOffTerminatesTheApp() throws {
    let report = try run(
      MedicineApp(medicineChanges: [F.create(medicine("a", times: ["08:00"]), at: "06:00")],
                  appChanges: [AppChange(instant: F.at("06:00"), state: .foreground)]),
      device: phoneOff("07:00", "09:00"), platform: catchingUpAll)
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

  // MARK: - Priority-5 pushes and the push service's choice (audit A15, A17)

  func priorityPush(_ id: PushID, at time: String, priority: Int, expiration: SimulationInstant? = nil) -> RemotePush {
    RemotePush(id: id, instant: F.at(time), title: "T", sound: true, priority: priority, expiration: expiration)
  }

  func platform(_ change: (inout AttentionRules) -> Void) -> PlatformSettings {
    var platform = PlatformSettings.idealLocation
    change(&platform.attention)
    return platform
  }

  /// "kind subject local-time" of the push entries after `sent`.
  func pushLines(_ report: SimulationReport) -> [String] {
    report.timeline.entries.filter { [.stored, .discarded, .received].contains($0.kind) }.map { "\($0.kind.rawValue) \($0.subject) \($0.localInstant)" }
  }

  @Test func aPriorityFivePushThatShowsSomethingIsDroppedByDefault() throws {
    var pushes = RemotePushes()
    pushes.pushes = [
      priorityPush("p10", at: "07:10", priority: 10), priorityPush("p5", at: "07:10", priority: 5), priorityPush("p1", at: "07:20", priority: 1),
      RemotePush(id: "badge5", instant: F.at("07:30"), badge: 2, priority: 5),
      RemotePush(id: "sync", instant: F.at("07:40"), contentAvailable: true, priority: 5),
    ]
    let report = try run(MedicineApp(), pushes: pushes)
    #expect(pushLines(report) == [
      "received p10 \(F.local("07:10"))", "discarded p5 \(F.local("07:10"))", "discarded p1 \(F.local("07:20"))",
      "discarded badge5 \(F.local("07:30"))",
      "received sync \(F.local("07:40"))",  // a background push has its own throttle
    ])
    let dropped = try #require(report.timeline.entries(.discarded).first)
    #expect(dropped[field: "reason"] == "apns-priority 5 is sent when the device's power allows and is in some cases not delivered "
      + "(Apple, \"Sending notification requests to APNs\"); trigsim assumes it is not delivered (platform priority5Alerts: dropped)")
    #expect(dropped[field: "other-readings"] == "priority5Alerts: delayed <span> or at-once")
    #expect(report.summary.perceptions.map(\.subject) == ["p10"])
    // The default is not printed in the header; another reading is.
    #expect(report.timeline.header.first { $0.key == "device" }?.value == "power-off-catch-up=none boot=1m background-pushes=2/h entitlements=time-sensitive")
  }

  @Test func aPriorityFivePushIsDelayedOrDeliveredAtOnceUnderTheOtherReadings() throws {
    var pushes = RemotePushes()
    pushes.pushes = [priorityPush("p5", at: "07:10", priority: 5), priorityPush("short", at: "07:10", priority: 5, expiration: F.at("07:30"))]
    let delayed = try run(MedicineApp(), pushes: pushes, platform: platform { $0.priority5Alerts = .delayed(.minutes(30)) })
    #expect(pushLines(delayed) == [
      "stored p5 \(F.local("07:10"))", "stored short \(F.local("07:10"))",
      "received p5 \(F.local("07:40"))", "discarded short \(F.local("07:40"))",
    ])
    #expect(delayed.timeline.entries(.stored).first?[field: "until"] == F.local("07:40"))
    #expect(delayed.timeline.entries(.received).first?[field: "sent"] == F.local("07:10"))
    #expect(delayed.timeline.entries(.discarded).first?[field: "reason"] == "expired at \(F.local("07:30")), before the push service delivered it")
    #expect(delayed.timeline.header.first { $0.key == "device" }?.value.contains("priority-5-alerts=delayed-30m") == true)
    let atOnce = try run(MedicineApp(), pushes: pushes, platform: platform { $0.priority5Alerts = .atOnce })
    #expect(pushLines(atOnce) == ["received p5 \(F.local("07:10"))", "received short \(F.local("07:10"))"])
  }

  @Test func aDelayedPriorityFivePushThatComesDueWhileOfflineWaitsAtThePushService() throws {
    var device = DeviceSetup()
    device.network = [NetworkChange(instant: F.at("07:20"), online: false), NetworkChange(instant: F.at("08:00"), online: true)]
    var pushes = RemotePushes()
    pushes.pushes = [priorityPush("p5", at: "07:10", priority: 5)]
    let report = try run(MedicineApp(), device: device, pushes: pushes, platform: platform { $0.priority5Alerts = .delayed(.minutes(30)) })
    // Delayed once, then stored while offline, then delivered: the power rule is not applied twice.
    #expect(pushLines(report) == ["stored p5 \(F.local("07:10"))", "stored p5 \(F.local("07:40"))", "received p5 \(F.local("08:00"))"])
  }

  func offlinePushes(_ ids: [PushID], expiring: [PushID: String] = [:]) -> (DeviceSetup, RemotePushes) {
    var device = DeviceSetup()
    device.network = [NetworkChange(instant: F.at("07:00"), online: false), NetworkChange(instant: F.at("08:00"), online: true)]
    var pushes = RemotePushes()
    pushes.pushes = ids.enumerated().map { index, id in
      RemotePush(id: id, instant: F.at("07:\(10 + 10 * index)"), title: "T", expiration: expiring[id].map { F.at($0) })
    }
    return (device, pushes)
  }

  @Test func whichStoredPushIsKeptIsASettingAndMarkedUncertain() throws {
    let (device, pushes) = offlinePushes(["a", "b"])
    let latest = try run(MedicineApp(), device: device, pushes: pushes)
    #expect(pushLines(latest) == ["stored a \(F.local("07:10"))", "discarded a \(F.local("07:20"))", "stored b \(F.local("07:20"))", "received b \(F.local("08:00"))"])
    let uncertainty = "APNs keeps one push per app while the device is unreachable and chooses which non-deterministically (Apple DTS, forum thread 775455)"
    #expect(latest.timeline.entries(.stored).map { $0[field: "uncertain"] } == [nil, uncertainty])
    #expect(latest.timeline.entries(.received).first?[field: "uncertain"] == uncertainty)
    #expect(latest.timeline.entries(.discarded).first?[field: "reason"]
      == "replaced at the push service by 'b': it keeps one notification per app while the device is unreachable, here the latest (platform storedPush: latest)")

    let earliest = try run(MedicineApp(), device: device, pushes: pushes, platform: platform { $0.storedPush = .earliest })
    #expect(pushLines(earliest) == ["stored a \(F.local("07:10"))", "discarded b \(F.local("07:20"))", "received a \(F.local("08:00"))"])
    #expect(earliest.timeline.entries(.discarded).first?[field: "uncertain"] == uncertainty)
    #expect(earliest.timeline.entries(.received).first?[field: "uncertain"] == uncertainty)
    #expect(earliest.timeline.header.first { $0.key == "device" }?.value.contains("stored-push=earliest") == true)

    // One push alone: nothing was chosen, nothing is uncertain.
    let (_, alone) = offlinePushes(["only"])
    let single = try run(MedicineApp(), device: device, pushes: alone)
    #expect(single.timeline.entries.allSatisfy { $0[field: "uncertain"] == nil })
    #expect(pushLines(single) == ["stored only \(F.local("07:10"))", "received only \(F.local("08:00"))"])
  }

  @Test func underEarliestAnExpiredKeptPushMakesRoomForTheNext() throws {
    let (device, pushes) = offlinePushes(["a", "b"], expiring: ["a": "07:15"])
    let report = try run(MedicineApp(), device: device, pushes: pushes, platform: platform { $0.storedPush = .earliest })
    #expect(pushLines(report) == ["stored a \(F.local("07:10"))", "discarded a \(F.local("07:20"))", "stored b \(F.local("07:20"))", "received b \(F.local("08:00"))"])
    // b was the only live push: no choice was made.
    #expect(report.timeline.entries(.received).first?[field: "uncertain"] == nil)
  }

  @Test func inTrialsTheKeptPushIsDrawnUniformlyAmongTheLiveOnesAndRepeatable() throws {
    let (device, pushes) = offlinePushes(["a", "b", "c", "gone"], expiring: ["gone": "07:45"])
    var scenario = F.scenario(MedicineApp(), start: "2026-03-28T06:00:00Z", end: "2026-03-28T12:00:00Z", platform: .idealLocation)
    scenario.device = device
    scenario.pushes = pushes
    var delivered: [String: Int] = [:]
    for trial in 0..<60 {
      let report = try Simulation(scenario).report(trial: trial, seed: 23)
      let received = report.timeline.entries(.received).map(\.subject)
      #expect(received.count == 1)
      delivered[received.first ?? "-", default: 0] += 1
      // Trials keep every push until the phone is reachable, then draw.
      #expect(report.timeline.entries(.discarded).filter { $0.instant == F.at("08:00") }.map(\.subject).sorted()
        == (["a", "b", "c", "gone"].filter { $0 != received.first }))
      // The same trial is the same run.
      #expect(try Simulation(scenario).report(trial: trial, seed: 23).timeline.entries == report.timeline.entries)
    }
    // Each live push is kept in some trials; the expired one never.
    #expect(delivered.keys.sorted() == ["a", "b", "c"])
  }

  @Test func inTrialsAPriorityFivePushIsDeliveredInSomeTrialsAfterADrawnDelay() throws {
    var pushes = RemotePushes()
    pushes.pushes = [priorityPush("p5", at: "07:10", priority: 5)]
    var scenario = F.scenario(MedicineApp(), start: "2026-03-28T06:00:00Z", end: "2026-03-28T12:00:00Z", platform: platform {
      $0.priority5DeliveryProbability = 0.5
      $0.priority5MaxDelay = .minutes(20)
    })
    scenario.pushes = pushes
    var deliveredTrials: [Int] = []
    var delays: [SimulationDuration] = []
    for trial in 0..<40 {
      let report = try Simulation(scenario).report(trial: trial, seed: 5)
      if let received = report.timeline.entries(.received).first {
        deliveredTrials.append(trial)
        delays.append(F.at("07:10").duration(to: received.instant))
      } else {
        #expect(report.timeline.entries(.discarded).first?[field: "reason"]?.hasSuffix(
          "trigsim assumes it is not delivered (drawn in this trial: delivered with probability 0.5, after up to 20m)") == true)
      }
      // Drawn from the trial's own stream: the same in every replay, whatever ran before.
      #expect(try Simulation(scenario).report(trial: trial, seed: 5).timeline.entries == report.timeline.entries)
    }
    #expect(deliveredTrials.count > 5 && deliveredTrials.count < 35)
    #expect(delays.allSatisfy { $0 >= .zero && $0 <= .minutes(20) })
    #expect(Set(delays).count > 1)
    // A single run follows the setting (dropped).
    #expect(try Simulation(scenario).report().timeline.entries(.received).isEmpty)
  }

  @Test func trialReportsWithPushesAreTheSameWhateverTheNumberOfWorkers() throws {
    let (device, offline) = offlinePushes(["a", "b"])
    var scenario = F.scenario(
      MedicineApp(medicineChanges: [F.create(medicine("m", times: ["07:30"]), at: "06:00")]), start: "2026-03-28T06:00:00Z",
      end: "2026-03-28T12:00:00Z", platform: .idealLocation)
    scenario.device = device
    scenario.pushes = offline
    scenario.pushes.pushes.append(priorityPush("p5", at: "09:00", priority: 5))
    let runner = TrialRunner(scenario)
    let one = try runner.run(TrialPlan(count: 30, seed: 9, jobs: 1))
    for jobs in [2, 4] { #expect(try runner.run(TrialPlan(count: 30, seed: 9, jobs: jobs)).text == one.text, "jobs \(jobs)") }
    #expect(one.variationSummary == "the push service's choices: each priority-5 push delivered with probability 0.5 after a delay uniform up to 1h, "
      + "and the push it keeps while the phone is unreachable (the ideal profile has no GPS error, update grid or latency)")
    // Pushes are not tallied in the report (they are not doses); each trial's push outcome is its own draw, shown by its timeline.
    let outcomes = try (0..<30).map { try Simulation(scenario).report(trial: $0, seed: 9).timeline.entries(.received).map(\.subject) }
    #expect(Set(outcomes.map { $0.contains("p5") }) == [true, false])
    #expect(Set(outcomes.map { $0.first ?? "" }) .isSuperset(of: ["a", "b"]))
  }

  // MARK: - Focus readings (audit A2, A3)

  func work(from: String, to: String) -> FocusPeriod {
    FocusPeriod(name: "Work", schedule: .once(from: F.at(from), to: F.at(to)), allowsApp: true)
  }

  @Test func aReplacedFocusResumesByDefaultAndNotWhenSetSo() throws {
    var device = DeviceSetup()
    device.focus = [sleep(), work(from: "06:30", to: "07:15")]
    let app = MedicineApp(medicineChanges: [F.create(medicine("a", times: ["06:10", "07:20"]), at: "06:00")])
    // The patient looks at 06:30 and 07:30: a dose held by a Focus is seen at the first look after it is listed.
    let looks = ["06:30", "07:30"]
    let resumes = try run(app, device: device, looks: looks)
    #expect(resumes.summary.dose("a", .time(F.time("07:20")))?.notified == F.at("07:30"))  // Sleep back after Work
    #expect(resumes.summary.dose("a", .time(F.time("06:10")))?.notified == F.at("07:30"))

    let ends = try run(app, device: device, platform: platform { $0.focusResumes = .doesNotResume }, looks: looks)
    let focus = ends.timeline.entries(.focus).map { "\($0.subject) \($0[field: "state"]!) \($0.localInstant)" }
    #expect(focus == ["Sleep on \(F.local("06:00"))", "Sleep off \(F.local("06:30"))", "Work on \(F.local("06:30"))", "Work off \(F.local("07:15"))"])
    #expect(ends.timeline.entries(.focus)[1][field: "reason"] == "replaced by Focus 'Work'; it does not come back when that one ends (platform focusResumes: no)")
    // The 06:10 dose Sleep held is seen when Sleep was replaced by a Focus that allows the app; the 07:20 one alerts at once.
    #expect(ends.summary.dose("a", .time(F.time("06:10")))?.notified == F.at("06:30"))
    #expect(ends.summary.dose("a", .time(F.time("07:20")))?.notified == F.at("07:20"))
    #expect(ends.timeline.header.first { $0.key == "device" }?.value.contains("focus-resumes=no") == true)
  }

  @Test func anUnstatedFocusTimeSensitiveSwitchFollowsThePlatformDefault() throws {
    var device = DeviceSetup()
    device.focus = [
      FocusPeriod(name: "Sleep", schedule: .once(from: F.at("06:30"), to: F.at("07:30"))),
      FocusPeriod(name: "Nap", schedule: .once(from: F.at("09:00"), to: F.at("10:00")), allowsTimeSensitive: false),
    ]
    #expect(device.focus.map(\.timeSensitiveStated) == [false, true])
    let app = MedicineApp(medicineChanges: [F.create(medicine("t", times: ["07:00", "09:30"], level: .timeSensitive), at: "06:00")])
    // The patient looks when each Focus ends.
    let looks = ["07:30", "10:00"]
    let silenced = try run(app, device: device, looks: looks)
    #expect(silenced.summary.dose("t", .time(F.time("07:00")))?.notified == F.at("07:30"))
    let allowed = try run(app, device: device, platform: platform { $0.focusTimeSensitiveDefault = .allowed }, looks: looks)
    #expect(allowed.summary.dose("t", .time(F.time("07:00")))?.notified == F.at("07:00"))
    #expect(allowed.timeline.entries(.focus).first?[field: "time-sensitive"] == "allowed")
    // A Focus that states its switch keeps it.
    #expect(allowed.summary.dose("t", .time(F.time("09:30")))?.notified == F.at("10:00"))
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
