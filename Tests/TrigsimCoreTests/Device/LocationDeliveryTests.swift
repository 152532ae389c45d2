import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// How the engine turns the `ios` profile's reports into deliveries, doses
/// and explanations. Tracks run along the meridian through the region's
/// centre, as in `RegionMonitoringRuleTests`, whose track builders these use.
@Suite struct LocationDeliveryTests {
  typealias Rules = RegionMonitoringRuleTests
  static let start = Rules.start

  static func at(_ second: Int) -> SimulationInstant { start.advanced(by: .seconds(Int64(second))) }

  /// A raw location request on the region `place`, added at a second of the run.
  struct Request {
    var id: NotificationID
    var at: Int = 0
    var onEntry = true
    var onExit = false
  }

  /// Runs the `ios` profile over `track` with one circle `place` of `radius`;
  /// the clock runs from `clockStart` seconds to 10 minutes after the last fix.
  static func report(
    _ track: InMemoryTrack, radius: Double = 100, rules: RegionMonitoringRules = RegionMonitoringRules(), clockStart: Int = 0,
    requests: [Request] = [], medicines: [Medicine] = [], appChanges: [AppChange] = []
  ) throws -> SimulationReport {
    var platform = PlatformSettings()
    platform.location = .ios(rules)
    let end = track.samples.last!.instant.advanced(by: .minutes(10))
    let actions = requests.map { request in
      ScheduledAppAction(instant: at(request.at), action: .add(NotificationRequest(
        id: request.id, title: "",
        trigger: .region(RegionTrigger(region: "place", notifyOnEntry: request.onEntry, notifyOnExit: request.onExit, repeats: true)))))
    }
    return try Simulation(Scenario(
      name: "delivery", clock: ClockSettings(start: at(clockStart), end: end, timeZone: TimeZone(identifier: "UTC")!),
      regions: [MonitoredRegion(id: "place", shape: CircularRegion(center: Rules.centre, radius: radius))],
      actions: actions, track: track, platform: platform,
      medicineApp: MedicineApp(
        medicineChanges: medicines.map { MedicineChange(instant: at(clockStart), kind: .create($0)) }, appChanges: appChanges))
    ).report()
  }

  /// A medicine with only a location reminder on `place`, without follow-ups.
  static func locationMedicine(onEntry: Bool = true, onExit: Bool = false) -> Medicine {
    Medicine(
      id: "1", name: "Metformin", dosage: "500", unit: "mg", times: [],
      location: LocationReminder(region: "place", onEntry: onEntry, onExit: onExit, repeats: true), snooze: nil)
  }

  static func seconds(_ instant: SimulationInstant) -> Double {
    Double(instant.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / 1000
  }

  // MARK: - Monitoring starts with the request

  @Test func aDetectionWhoseConditionPrecedesTheClockStartDeliversNothing() throws {
    // In the background, 1 m/s from 200 m south: the updates at 180 s and 240 s see the device 50 m
    // inside, so the condition holds at 240 s, before the clock starts at 250 s; the report would
    // reach the platform at 360 s. Nothing monitored the region when the device decided.
    let walk = Rules.track(seconds: 400) { t in min(0, Double(t) - 200) }
    let timeline = try Self.report(walk, clockStart: 250, requests: [Request(id: "here", at: 250)]).timeline
    #expect(timeline.entries(.fired).isEmpty)
    #expect(timeline.entries(.detected).isEmpty)
  }

  @Test func aDetectionDeliversOnlyRequestsAddedAtOrBeforeItsCondition() throws {
    // The same walk from the clock's start: condition at 240 s, reported at 360 s. A request added
    // during the latency started monitoring with the device already inside: no entry for it.
    let walk = Rules.track(seconds: 400) { t in min(0, Double(t) - 200) }
    let timeline = try Self.report(walk, requests: [
      Request(id: "before", at: 160), Request(id: "onTheCondition", at: 240), Request(id: "duringTheLatency", at: 300),
    ]).timeline
    #expect(timeline.entries(.fired).map(\.subject) == ["before", "onTheCondition"])
    #expect(timeline.entries(.fired).allSatisfy { Self.seconds($0.instant) == 360 })
    #expect(timeline.entries(.detected).map { Self.seconds($0.instant) } == [360])
  }

  // MARK: - Doses and explanations

  @Test func anExitDoseAfterAMissedEntryIsMissedBecauseTheDeviceNeverEntered() throws {
    // 15 m/s straight through the centre: the device misses the entry, so it never leaves either.
    let pass = Rules.track(seconds: 40) { t in 15 * Double(t) - 300 }
    let report = try Self.report(pass, medicines: [Self.locationMedicine(onEntry: false, onExit: true)])
    #expect(report.timeline.entries(.fired).isEmpty)
    let dose = try #require(report.summary.doses.first)
    #expect(report.summary.doses.count == 1)
    #expect(dose.outcome == .missed)
    #expect(dose.reason == "the device did not detect the exit of visit 1: the device never detected the entry of visit 1, so for it the device never entered")
  }
}
