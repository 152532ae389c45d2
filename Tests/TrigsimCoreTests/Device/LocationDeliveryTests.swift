import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

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
    _ track: InMemoryTrack, radius: Double = 100, rules: RegionMonitoringRules = RegionMonitoringRuleTests.pinned, clockStart: Int = 0,
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

  @Test func crossingsBeforeTheClockStartAreNotExplainedAfterIt() throws {
    // Before the clock starts at 250 s: out from the centre (the exit detected at 170 s, reported at
    // 290 s), back in at 220 s and out again at 236 s, too briefly to be detected. That undetected entry
    // is told after the exit's report, at 290 s, but it is about the path before the clock's start.
    let walk: (Int) -> Double = { t in t <= 200 ? Double(t) : t <= 228 ? 200 - 5 * Double(t - 200) : min(300, 60 + 5 * Double(t - 228)) }
    let timeline = try Self.report(
      Rules.track(seconds: 600, walk), clockStart: 250, requests: [Request(id: "here", at: 250, onEntry: true, onExit: true)],
      appChanges: Self.foreground
    ).timeline
    #expect(timeline.entries(.detected).isEmpty)
    #expect(timeline.entries(.undetected).isEmpty)
    #expect(timeline.entries(.fired).isEmpty)
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

  // MARK: - Minimum radius: detections of the effective circle, doses of the declared one

  static let foreground = [AppChange(instant: start, state: .foreground)]

  @Test func aDetectionAheadOfThePathNotifiesTheDoseOfTheVisitItLeadsTo() throws {
    // A 30 m circle, monitored as 100 m. 0.5 m/s from 200 m south: 50 m from the centre (the inner
    // circle) at 300 s, the condition at 320 s (40 m south, still outside the declared circle), the
    // arrival at 340 s, the report at 440 s: the detection belongs to visit 1 and notifies its dose.
    let walk = Rules.track(seconds: 700) { t in min(0, 0.5 * Double(t) - 200) }
    let report = try Self.report(walk, radius: 30, medicines: [Self.locationMedicine()], appChanges: Self.foreground)
    let detected = try #require(report.timeline.entries(.detected).first)
    #expect(abs(Self.seconds(detected.instant) - 440) < 0.002)
    #expect(detected[field: "visit"] == "1")
    // The inner circle is reached at its first whole millisecond, 300.001 s.
    #expect(detected[field: "after"] == "1m40.001s")
    #expect(detected[field: "reason"] == "50m inside for 20s; then 2m latency; the true path entered the declared 30m circle 19.999s later (monitored as 100m)")
    #expect(report.summary.doses.count == 1)
    let dose = try #require(report.summary.doses.first)
    #expect(Self.seconds(dose.scheduled) == 340)
    #expect(dose.notified == detected.instant)
    #expect(dose.reason == nil)
  }

  @Test func aDetectionWhereThePathNeverReachedTheDeclaredCircleOpensItsOwnDose() throws {
    // A 30 m circle, monitored as 100 m. First a pass at 15 m/s through the centre (visit 1, too
    // short: missed); then back from 300 m north to 40 m north, where the device stays. That
    // detection (condition 310 s, reported 430 s) is of no visit: it must not notify visit 1's dose.
    let walk = Rules.track(seconds: 700) { t in t <= 40 ? 15 * Double(t) - 300 : max(40, 300 - Double(t - 40)) }
    let report = try Self.report(walk, radius: 30, medicines: [Self.locationMedicine()], appChanges: Self.foreground)
    let detected = try #require(report.timeline.entries(.detected).first)
    #expect(abs(Self.seconds(detected.instant) - 430) < 0.002)
    #expect(detected[field: "visit"] == nil)
    #expect(detected[field: "reason"] == "50m inside for 20s; then 2m latency; the true path was outside the declared 30m circle, monitored as 100m")
    let doses = report.summary.doses
    #expect(doses.map(\.key.occurrenceLabel) == ["#1", "#2"])
    #expect(doses.first?.outcome == .missed)
    #expect(doses.first?.reason?.hasPrefix("the device did not detect the entry of visit 1: inside 4") == true)
    #expect(doses.last?.notified == detected.instant && doses.last?.scheduled == detected.instant)
  }

  @Test func anArrivalTheDeviceHadAlreadyReportedAheadOfThePathIsExplained() throws {
    // A 30 m circle, monitored as 100 m. The device waits 40 m south from 160 s to 500 s: the entry is
    // reported at 290 s (its own dose), before the arrival at 510 s, which is no new entry for the device.
    let walk = Rules.track(seconds: 800) { t in t < 500 ? min(-40, Double(t) - 200) : min(0, -40 + Double(t - 500)) }
    let report = try Self.report(walk, radius: 30, medicines: [Self.locationMedicine()], appChanges: Self.foreground)
    let detected = try #require(report.timeline.entries(.detected).first)
    #expect(abs(Self.seconds(detected.instant) - 290) < 0.002)
    #expect(report.timeline.entries(.detected).first?[field: "visit"] == nil)
    let undetected = try #require(report.timeline.entries(.undetected).first)
    #expect(Self.seconds(undetected.instant) == 510)
    #expect(undetected[field: "reason"] == "the device had reported an entry before the true path reached the declared 30m circle (monitored as 100m)")
    let doses = report.summary.doses
    #expect(doses.map(\.scheduled) == [detected.instant, Self.at(510)])
    #expect(doses.map(\.outcome) == [.unanswered, .missed])
    #expect(doses.last?.reason == "the device did not detect the entry of visit 1: the device had reported an entry before the true path reached the declared 30m circle (monitored as 100m)")
  }

  // MARK: - Location authorization

  @Test func aDetectionWhoseConditionHeldWhileMonitoringWasBlockedDeliversNothing() throws {
    // Foreground, 1 m/s from 200 m south: the condition holds at 170 s, the report arrives at 290 s.
    // Location is denied from 100 s to 200 s: the platform monitored nothing when the device decided.
    let walk = Rules.track(seconds: 400) { t in min(0, Double(t) - 200) }
    let report = try Self.report(walk, medicines: [Self.locationMedicine()], appChanges: Self.foreground + [
      AppChange(instant: Self.at(100), location: .denied), AppChange(instant: Self.at(200), location: .whenInUse),
    ])
    let timeline = report.timeline
    #expect(timeline.entries(.fired).isEmpty)
    #expect(timeline.entries(.detected).isEmpty)
    let suppressed = try #require(timeline.entries(.suppressed).first)
    #expect(abs(Self.seconds(suppressed.instant) - 290) < 0.002)
    #expect(suppressed[field: "reason"]?.hasPrefix("the device's condition held at 2026-05-04T06:02:50.001+00:00, while location authorization is denied") == true)
    #expect(report.summary.doses.first?.outcome == .missed)
    #expect(report.summary.doses.first?.reason?.hasPrefix("not delivered at 2026-05-04T06:04:50.001+00:00: the device's condition held at") == true)
  }

  @Test func whenMonitoringStartsAgainTheDeviceTakesItsSideSilently() throws {
    // Location is denied from the start until 120 s; 1 m/s from 200 m south: inside the region from
    // 100 s, 80 m south at the re-grant. The device is inside when monitoring starts again, so no
    // entry follows (without the restart, the dwell would complete at 170 s and deliver at 290 s).
    let walk = Rules.track(seconds: 400) { t in min(0, Double(t) - 200) }
    let report = try Self.report(walk, medicines: [Self.locationMedicine()], appChanges: Self.foreground + [
      AppChange(instant: Self.at(0), location: .denied), AppChange(instant: Self.at(120), location: .whenInUse),
    ])
    let timeline = report.timeline
    #expect(timeline.entries(.fired).isEmpty)
    #expect(timeline.entries(.detected).isEmpty)
    #expect(timeline.entries(.suppressed).isEmpty)
    let undetected = try #require(timeline.entries(.undetected).first)
    #expect(undetected.instant == Self.at(120))
    #expect(undetected[field: "reason"] == "region monitoring started again with the device already inside: the platform reports no entry for it")
    #expect(report.summary.doses.first?.reason == "the device did not detect the entry of visit 1: region monitoring started again with the device already inside: the platform reports no entry for it")
  }

  @Test func monitoringStartsAgainAtTheReGrantNotAtTheNextFix() throws {
    // Sparse fixes: 300 m south at 0 s, the centre at 100 s. Location is denied until 50 s, when the
    // device is 150 m south, outside: the entry at 66.667 s comes after the re-grant and is detected
    // (50 m inside from 83.334 s, held 20 s, reported 2 minutes later).
    let track = Rules.fixes([(0, -300)] + (100...400).map { ($0, 0) })
    let report = try Self.report(track, requests: [Request(id: "here")], appChanges: Self.foreground + [
      AppChange(instant: Self.at(0), location: .denied), AppChange(instant: Self.at(50), location: .whenInUse),
    ])
    #expect(report.timeline.entries(.fired).map { Self.seconds($0.instant) } == [223.334])
  }
}
