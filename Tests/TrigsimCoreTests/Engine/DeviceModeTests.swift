import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

/// The device rules of issue 23: deliveries before the first unlock, Low
/// Power Mode, airplane mode (see the manual, "From fired to seen", Power).
@Suite struct DeviceModeTests {
  /// The ideal location profile, with the power-off catch-up these tests are about (the default is none).
  static let catchingUp: PlatformSettings = {
    var platform = PlatformSettings.idealLocation
    platform.attention.powerOffCatchUp = .all
    return platform
  }()

  func run(
    _ app: MedicineApp, power: [PowerEvent], platform: PlatformSettings = Self.catchingUp, pushes: RemotePushes = RemotePushes(),
    end: String = "2026-03-28T12:00:00Z", regions: [MonitoredRegion] = [], track: (any TrackSource)? = nil
  ) throws -> SimulationReport {
    var scenario = F.scenario(app, start: "2026-03-28T06:00:00Z", end: end, regions: regions, track: track, platform: platform)
    scenario.device.power = power
    scenario.pushes = pushes
    return try Simulation(scenario).report()
  }

  func medicine(_ id: MedicineID, times: [String]) -> Medicine { F.medicine(id, times: times, snooze: nil) }

  // MARK: - Before the first unlock

  @Test func aDoseDueAfterSwitchOnBeforeTheFirstUnlockIsHeldUntilTheUnlock() throws {
    let app = MedicineApp(medicineChanges: [F.create(medicine("a", times: ["08:00"]), at: "06:00")])
    let power = [
      PowerEvent(instant: F.at("07:00"), kind: .switchOff), PowerEvent(instant: F.at("07:30"), kind: .switchOn),
      PowerEvent(instant: F.at("08:20"), kind: .unlock),
    ]
    let report = try run(app, power: power)
    let held = try #require(report.timeline.entries(.held).first)
    #expect(held.instant == F.at("08:00") && held[field: "until"] == "the first unlock")
    let fired = try #require(report.timeline.entries(.fired).first)
    #expect(fired.instant == F.at("08:20"))
    #expect(fired[field: "due"] == F.local("08:00") && fired[field: "cause"] == "came due after switch-on, before the first unlock")
    #expect(report.summary.dose("a", .time(F.time("08:00")))?.notified == F.at("08:20"))
    // `delivered`: at its time, the phone locked.
    var platform = PlatformSettings.idealLocation
    platform.attention.deliveryBeforeFirstUnlock = .delivered
    let old = try run(app, power: power, platform: platform)
    #expect(old.timeline.entries(.fired).map(\.instant) == [F.at("08:00")])
    #expect(old.timeline.entries(.held).isEmpty)
  }

  @Test func thePowerOffCatchUpWaitsForTheFirstUnlockAndIsLostWhenNoneComes() throws {
    let app = MedicineApp(medicineChanges: [F.create(medicine("a", times: ["08:00"]), at: "06:00")])
    let off = [PowerEvent(instant: F.at("07:00"), kind: .switchOff), PowerEvent(instant: F.at("09:00"), kind: .switchOn)]
    let unlocked = try run(app, power: off + [PowerEvent(instant: F.at("09:10"), kind: .unlock)])
    let fired = try #require(unlocked.timeline.entries(.fired).first)
    #expect(fired.instant == F.at("09:10") && fired[field: "cause"] == "came due while the phone was off")
    #expect(unlocked.timeline.entries(.power).first { $0.instant == F.at("09:00") }?[field: "reason"]
      == "what came due while the phone was off delivers at the first unlock (platform deliveryBeforeFirstUnlock: held)")
    #expect(unlocked.summary.dose("a", .time(F.time("08:00")))?.notes.contains("due while the phone was off; delivered at \(F.local("09:10")) at the first unlock") == true)
    let neverUnlocked = try run(app, power: off)
    #expect(neverUnlocked.timeline.entries(.fired).isEmpty)
    #expect(neverUnlocked.summary.dose("a", .time(F.time("08:00")))?.outcome == .missed)
  }

  @Test func recentCatchUpMeasuresLatenessToTheSwitchOnNotTheUnlock() throws {
    var platform = PlatformSettings.idealLocation
    platform.attention.powerOffCatchUp = .recent(.minutes(15))
    let app = MedicineApp(medicineChanges: [F.create(medicine("a", times: ["08:50"]), at: "06:00")])
    let report = try run(app, power: [
      PowerEvent(instant: F.at("07:00"), kind: .switchOff), PowerEvent(instant: F.at("09:00"), kind: .switchOn),
      PowerEvent(instant: F.at("09:30"), kind: .unlock),
    ], platform: platform)
    // 10 minutes late at switch-on (within 15), 40 at the unlock: delivered at the unlock.
    #expect(report.timeline.entries(.fired).map(\.instant) == [F.at("09:30")])
  }

  // MARK: - Low Power Mode and airplane mode: region monitoring

  static let track = InMemoryTrack(samples: [
    Build.fix("2026-03-28T07:58:00Z", 54.0, 12.0),
    Build.fix("2026-03-28T08:02:00Z", 56.0, 12.0),  // enters at 08:00
    Build.fix("2026-03-28T08:04:00Z", 54.0, 12.0),  // exits at 08:03
    Build.fix("2026-03-28T08:08:00Z", 54.0, 12.0),
    Build.fix("2026-03-28T08:12:00Z", 56.0, 12.0),  // enters at 08:10
  ])

  func locationRun(_ power: [PowerEvent], platform: PlatformSettings = .idealLocation) throws -> SimulationReport {
    let location = F.medicine(
      "home", times: [], location: LocationReminder(region: "home", onEntry: true, onExit: false, repeats: true), snooze: nil)
    return try run(
      MedicineApp(medicineChanges: [F.create(location, at: "06:00")]), power: power, platform: platform, end: "2026-03-28T09:00:00Z",
      regions: [MonitoredRegion(id: "home", shape: NorthOfLatitude(55.0))], track: Self.track)
  }

  @Test func lowPowerModePausesRegionMonitoringUnlessUnaffected() throws {
    let power = [PowerEvent(instant: F.at("07:55"), kind: .lowPowerOn), PowerEvent(instant: F.at("08:05"), kind: .lowPowerOff)]
    let report = try locationRun(power)
    #expect(report.timeline.entries(.fired).map(\.instant) == [F.at("08:10")])
    let doses = report.summary.doses
    #expect(doses.map(\.outcome) == [.missed, .unanswered])
    #expect(doses.first?.reason?.contains("Low Power Mode") == true)
    #expect(report.timeline.entries(.power).first?[field: "reason"] == "Background App Refresh stops; region monitoring pauses (platform lowPowerRegionMonitoring: paused)")
    var platform = PlatformSettings.idealLocation
    platform.attention.lowPowerRegionMonitoring = .unaffected
    #expect(try locationRun(power, platform: platform).timeline.entries(.fired).map(\.instant) == [F.at("08:00"), F.at("08:10")])
  }

  @Test func airplaneModeMakesRegionMonitoringUnavailableAndKeepsPushesAtThePushService() throws {
    let power = [PowerEvent(instant: F.at("07:55"), kind: .airplaneModeOn), PowerEvent(instant: F.at("08:05"), kind: .airplaneModeOff)]
    let report = try locationRun(power)
    #expect(report.timeline.entries(.fired).map(\.instant) == [F.at("08:10")])
    #expect(report.summary.doses.first?.reason?.contains("airplane mode") == true)
    let switches = report.timeline.entries(.power).map { "\($0[field: "event"]!) \($0[field: "airplane"]!)" }
    #expect(switches == ["airplane-mode-on on", "airplane-mode-off off"])

    var pushes = RemotePushes()
    pushes.pushes = [RemotePush(id: "p", instant: F.at("08:00"), title: "T", body: "B", sound: true)]
    let pushed = try run(MedicineApp(), power: power, pushes: pushes)
    let stored = try #require(pushed.timeline.entries(.stored).first)
    #expect(stored[field: "reason"]?.hasPrefix("the phone is in airplane mode:") == true)
    #expect(pushed.timeline.entries(.received).map(\.instant) == [F.at("08:05")])
  }

  // MARK: - Low Power Mode: background refresh

  @Test func backgroundRefreshDoesNotRunInLowPowerMode() throws {
    var policy = AppPolicy()
    policy.chainReAdds.backgroundRefresh = .all
    let chain = SnoozeChainPolicy(every: .minutes(6), count: 3, scheduling: .upfront)
    var refresh = AppChange(instant: F.at("12:00"))
    refresh.backgroundRefresh = true
    var app = MedicineApp(medicineChanges: [F.create(F.medicine("1", times: ["08:00"], snooze: chain), at: "07:00")], appChanges: [refresh])
    app.policy = policy
    let power = [PowerEvent(instant: F.at("11:00"), kind: .lowPowerOn)]
    let report = try run(app, power: power, end: "2026-03-28T13:00:00Z")
    let entry = try #require(report.timeline.entries.first { $0.subject == "background-refresh" })
    #expect(entry[field: "ran"] == "no")
    #expect(entry[field: "reason"] == "Low Power Mode: Background App Refresh does not run while it is on")
    let normal = try run(app, power: [], end: "2026-03-28T13:00:00Z")
    #expect(normal.timeline.entries.first { $0.subject == "background-refresh" }?[field: "ran"] == "yes")
  }
}
