import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// One test per rule of the `android` location profile (`GeofencingService`).
/// Tracks run along the meridian through a geofence's centre, so distances
/// from the centre are the metres written in each test.
@Suite struct GeofencingRuleTests {
  static let centre = Coordinate(latitude: 55.67, longitude: 12.56)
  static let start = Build.instant("2026-05-04T06:00:00Z")

  /// A fix every second: `north(t)` metres north of the centre (negative: south) at second t.
  static func track(seconds: Int, accuracy: Double? = nil, _ north: (Int) -> Double) -> [TrackSample] {
    (0...seconds).map { t in
      let y = north(t)
      let position = y == 0 ? centre : Geodesic.destination(from: centre, azimuth: y > 0 ? 0 : 180, distance: abs(y))
      return TrackSample(instant: start.advanced(by: .seconds(Int64(t))), coordinate: position, horizontalAccuracy: accuracy)
    }
  }

  /// Feeds `samples` to `service` (started at the first), with the
  /// geometric crossings of `region`, then finishes at `end` (default: 10
  /// minutes after the last fix). `atStart` runs right after the first fix.
  static func drive(
    _ service: inout GeofencingService, _ samples: [TrackSample], region: CircularRegion, foreground: Bool = true,
    end: SimulationInstant? = nil, atStart: (inout GeofencingService, inout [DeviceRegionReport]) -> Void = { _, _ in }
  ) -> [DeviceRegionReport] {
    var reports: [DeviceRegionReport] = []
    var inside = region.contains(samples[0].coordinate)
    var visit = inside ? 1 : 0
    service.start(at: samples[0], geometricInside: [inside])
    atStart(&service, &reports)
    for (a, b) in zip(samples, samples.dropFirst()) {
      var boundary: [BoundaryCrossing] = []
      region.appendCrossings(from: a, to: b, insideAtStart: inside, into: &boundary)
      let crossings = boundary.map { crossing -> GeometricCrossing in
        if crossing.entering { visit += 1 }
        inside = crossing.entering
        return GeometricCrossing(region: 0, entering: crossing.entering, instant: crossing.instant, visit: max(visit, 1))
      }
      service.advance(from: a, to: b, crossings: crossings, appInForeground: foreground, into: &reports)
    }
    let last = samples[samples.count - 1]
    service.finish(last: last, until: end ?? last.instant.advanced(by: .minutes(10)), into: &reports)
    return reports
  }

  static func service(radius: Double, rules: AndroidGeofenceRules, options: GeofenceOptions = GeofenceOptions()) -> (GeofencingService, CircularRegion) {
    let region = CircularRegion(center: centre, radius: radius)
    var service = GeofencingService(rules: rules, regions: [MonitoredRegion(id: "place", shape: region)], variation: nil)
    service.setOptions(options, forRegion: 0)
    return (service, region)
  }

  /// Seconds from the start.
  static func seconds(_ instant: SimulationInstant?) -> Double {
    Double((instant?.millisecondsSinceEpoch ?? .min) - start.millisecondsSinceEpoch) / 1000
  }

  static func noLatency() -> AndroidGeofenceRules {
    var rules = AndroidGeofenceRules()
    rules.foregroundLatency = .zero
    rules.backgroundLatency = .zero
    return rules
  }

  /// The fraction of a circle of radius `r` at distance `d` from the centre
  /// of a circle of radius `R` inside the latter, counted on a fine grid (an
  /// oracle independent of the closed form).
  static func countedFraction(d: Double, r: Double, R: Double) -> Double {
    let n = 600
    var inside = 0, total = 0
    for i in 0..<n {
      for j in 0..<n {
        let x = (Double(i) + 0.5) / Double(n) * 2 * r - r
        let y = (Double(j) + 0.5) / Double(n) * 2 * r - r
        guard x * x + y * y <= r * r else { continue }
        total += 1
        if (x + d) * (x + d) + y * y <= R * R { inside += 1 }
      }
    }
    return Double(inside) / Double(total)
  }

  @Test func theOverlapIsTheExactCircleCircleIntersectionArea() {
    for (d, r, R) in [(150.0, 50.0, 200.0), (180, 50, 200), (60, 20, 60), (0, 300, 100), (250, 50, 200)] {
      #expect(abs(GeofenceOverlap.fraction(d: d, accuracy: r, radius: R) - Self.countedFraction(d: d, r: r, R: R)) < 0.005, "d \(d) r \(r) R \(R)")
    }
    // The threshold distances: the fraction is the threshold there.
    let enter = GeofenceOverlap.enterDistance(threshold: 0.85, accuracy: 50, radius: 200)
    let exit = GeofenceOverlap.exitDistance(threshold: 0.15, accuracy: 50, radius: 200)
    #expect(abs(Self.countedFraction(d: enter, r: 50, R: 200) - 0.85) < 0.005)
    #expect(abs(Self.countedFraction(d: exit, r: 50, R: 200) - 0.15) < 0.005)
    #expect(enter > 150 && enter < 200 && exit > 200 && exit < 250)
    // An accuracy circle too large for the geofence never holds 85 % inside.
    #expect(GeofenceOverlap.enterDistance(threshold: 0.85, accuracy: 300, radius: 100) == -1)
  }

  /// A large geofence (200 m ≥ the 100 m small radius): enter at 85 %, exit at 15 %.
  @Test func enterOverlapAndExitOverlapOfALargeGeofence() {
    var (service, region) = Self.service(radius: 200, rules: Self.noLatency())
    // 1 m/s from 400 m south to the centre, then back out to 400 m north.
    let reports = Self.drive(&service, Self.track(seconds: 800, accuracy: 50) { t in Double(t) - 400 }, region: region)
    let enterDistance = GeofenceOverlap.enterDistance(threshold: 0.85, accuracy: 50, radius: 200)
    let exitDistance = GeofenceOverlap.exitDistance(threshold: 0.15, accuracy: 50, radius: 200)
    #expect(reports.count == 2)
    let entry = reports[0], exit = reports[1]
    #expect(entry.kind == .detected && entry.entering && entry.transition == .enter && entry.visit == 1)
    #expect(abs(Self.seconds(entry.conditionInstant) - (400 - enterDistance)) < 0.01)
    #expect(abs(Self.seconds(entry.crossingInstant) - 200) < 0.01)
    #expect(entry.reason == "at least 85% of the ±50m accuracy circle inside")
    #expect(exit.kind == .detected && !exit.entering && exit.transition == .exit)
    #expect(abs(Self.seconds(exit.conditionInstant) - (400 + exitDistance)) < 0.01)
    #expect(exit.reason == "at most 15% of the ±50m accuracy circle inside")
  }

  /// A small geofence (60 m < 100 m): enter at 75 %, exit at 25 %.
  @Test func smallEnterOverlapAndSmallExitOverlapOfASmallGeofence() {
    var (service, region) = Self.service(radius: 60, rules: Self.noLatency())
    let reports = Self.drive(&service, Self.track(seconds: 400, accuracy: 20) { t in Double(t) - 200 }, region: region)
    let enterDistance = GeofenceOverlap.enterDistance(threshold: 0.75, accuracy: 20, radius: 60)
    let exitDistance = GeofenceOverlap.exitDistance(threshold: 0.25, accuracy: 20, radius: 60)
    // Not the large geofence's thresholds.
    #expect(abs(enterDistance - GeofenceOverlap.enterDistance(threshold: 0.85, accuracy: 20, radius: 60)) > 1)
    #expect(reports.count == 2)
    #expect(abs(Self.seconds(reports[0].conditionInstant) - (200 - enterDistance)) < 0.01)
    #expect(abs(Self.seconds(reports[1].conditionInstant) - (200 + exitDistance)) < 0.01)
    #expect(reports[0].reason == "at least 75% of the ±20m accuracy circle inside")
  }

  /// Between the enter and the exit circle the device stays on its side.
  @Test func hysteresisBetweenTheEnterAndExitOverlap() {
    let enterDistance = GeofenceOverlap.enterDistance(threshold: 0.85, accuracy: 50, radius: 200)
    let exitDistance = GeofenceOverlap.exitDistance(threshold: 0.15, accuracy: 50, radius: 200)
    // Outside, the device approaches to 2 m short of the enter circle and goes back: no entry,
    // although the true path entered the geofence (an undetected entry explains it).
    var (outside, region) = Self.service(radius: 200, rules: Self.noLatency())
    let approach = Self.drive(&outside, Self.track(seconds: 600, accuracy: 50) { t in
      -(enterDistance + 2) - abs(Double(t) - 300)
    }, region: region)
    #expect(!approach.contains { $0.kind == .detected })
    #expect(approach.contains { $0.kind == .undetected && $0.entering && $0.visit == 1 })
    // Inside, it goes out to 2 m short of the exit circle and back: no exit.
    var (inside, region2) = Self.service(radius: 200, rules: Self.noLatency())
    let excursion = Self.drive(&inside, Self.track(seconds: 600, accuracy: 50) { t in
      (exitDistance - 2) - abs(Double(t) - 300)
    }, region: region2)
    #expect(!excursion.contains { $0.kind == .detected && !$0.entering })
    #expect(inside.believesInside(0))
  }

  static let dwelling = GeofenceOptions(transitions: [.enter, .exit, .dwell], loiteringDelay: .minutes(5))

  @Test func dwellIsReportedAfterTheLoiteringDelay() {
    var (service, region) = Self.service(radius: 200, rules: Self.noLatency(), options: Self.dwelling)
    // In at 1 m/s, then stays at the centre for 20 minutes.
    let reports = Self.drive(&service, Self.track(seconds: 1600, accuracy: 0) { t in min(0, Double(t) - 400) }, region: region)
    #expect(reports.count == 2)
    let dwell = reports[1]
    #expect(dwell.transition == .dwell && dwell.entering && dwell.kind == .detected && dwell.visit == 1)
    #expect(abs(Self.seconds(dwell.conditionInstant) - (200 + 300)) < 0.01)
    #expect(dwell.instant == dwell.conditionInstant)
    #expect(dwell.reason == "inside for the 5m loitering delay")
    // The rules' loitering delay when the app set none.
    var rules = Self.noLatency()
    rules.loiteringDelay = .minutes(8)
    var (byDefault, region2) = Self.service(radius: 200, rules: rules, options: GeofenceOptions(transitions: [.enter, .dwell]))
    let defaulted = Self.drive(&byDefault, Self.track(seconds: 1600, accuracy: 0) { t in min(0, Double(t) - 400) }, region: region2)
    #expect(abs(Self.seconds(defaulted.first { $0.transition == .dwell }?.conditionInstant) - (200 + 480)) < 0.01)
  }

  @Test func noDwellWhenTheDeviceLeavesBeforeTheLoiteringDelay() {
    var (service, region) = Self.service(radius: 200, rules: Self.noLatency(), options: Self.dwelling)
    // Straight through at 2 m/s: in at 100 s, out at 300 s (3m20s inside, under the 5m delay).
    let reports = Self.drive(&service, Self.track(seconds: 1600, accuracy: 0) { t in 2 * Double(t) - 400 }, region: region)
    #expect(Self.seconds(reports.last?.conditionInstant) == 300)
    #expect(!reports.contains { $0.transition == .dwell })
    #expect(reports.map(\.transition) == [.enter, .exit])
  }

  @Test func responsivenessAddsLatency() {
    var rules = AndroidGeofenceRules()
    rules.foregroundLatency = .seconds(30)
    let walk = Self.track(seconds: 400, accuracy: 0) { t in min(0, Double(t) - 400) }
    var (bestEffort, region) = Self.service(radius: 200, rules: rules)
    var (lazy, region2) = Self.service(radius: 200, rules: rules, options: GeofenceOptions(responsiveness: .minutes(5)))
    let quick = Self.drive(&bestEffort, walk, region: region)[0]
    let slow = Self.drive(&lazy, walk, region: region2)[0]
    #expect(abs(Self.seconds(quick.instant) - (200 + 30)) < 0.01)
    #expect(abs(Self.seconds(slow.instant) - (200 + 30 + 300)) < 0.01)
    #expect(slow.reason == "then 30s foreground latency + 5m responsiveness")
  }

  @Test func backgroundLatencyAndForegroundLatency() {
    // Fixes at the background accuracy, so only the latency differs.
    let walk = Self.track(seconds: 600, accuracy: 50) { t in min(0, Double(t) - 400) }
    var (foreground, region) = Self.service(radius: 200, rules: AndroidGeofenceRules())
    var (background, region2) = Self.service(radius: 200, rules: AndroidGeofenceRules())
    let inForeground = Self.drive(&foreground, walk, region: region, foreground: true)[0]
    let inBackground = Self.drive(&background, walk, region: region2, foreground: false)[0]
    #expect(inForeground.conditionInstant == inBackground.conditionInstant)
    // The calibrated defaults (the manual, "Calibration"): 30 s in the foreground, 90 s in the background.
    #expect(inForeground.conditionInstant!.duration(to: inForeground.instant) == .seconds(30))
    #expect(inBackground.conditionInstant!.duration(to: inBackground.instant) == .seconds(90))
    #expect(inBackground.reason == "at least 85% of the ±50m accuracy circle inside; then 1m30s background latency")
  }

  @Test func backgroundAccuracyWidensTheAccuracyCircle() {
    // ±10 m fixes: in the background they count as ±50 m, so the entry comes later.
    let walk = Self.track(seconds: 600, accuracy: 10) { t in min(0, Double(t) - 400) }
    var (foreground, region) = Self.service(radius: 200, rules: Self.noLatency())
    var (background, region2) = Self.service(radius: 200, rules: Self.noLatency())
    let inForeground = Self.drive(&foreground, walk, region: region, foreground: true)[0]
    let inBackground = Self.drive(&background, walk, region: region2, foreground: false)[0]
    #expect(abs(Self.seconds(inForeground.conditionInstant) - (400 - GeofenceOverlap.enterDistance(threshold: 0.85, accuracy: 10, radius: 200))) < 0.01)
    #expect(abs(Self.seconds(inBackground.conditionInstant) - (400 - GeofenceOverlap.enterDistance(threshold: 0.85, accuracy: 50, radius: 200))) < 0.01)
  }

  @Test func initialTriggerEnterReportsAnEntryAtOnceForAGeofenceAddedInside() {
    var (service, region) = Self.service(radius: 200, rules: AndroidGeofenceRules())
    var initial: DeviceRegionReport?
    _ = Self.drive(&service, Self.track(seconds: 60, accuracy: 10) { _ in 0 }, region: region) { service, _ in
      initial = service.entryForMonitoringStartedInside(0, at: Self.start.advanced(by: .seconds(5)))
    }
    #expect(initial?.kind == .detected && initial?.entering == true && initial?.transition == .enter)
    #expect(initial?.instant == Self.start.advanced(by: .seconds(5)) && initial?.visit == nil)
    #expect(initial?.reason?.contains("INITIAL_TRIGGER_ENTER") == true)
    // Without INITIAL_TRIGGER_ENTER the device says why it reports nothing.
    var rules = AndroidGeofenceRules()
    rules.initialTrigger = [.dwell]
    var (silent, region2) = Self.service(radius: 200, rules: rules)
    var none: DeviceRegionReport?
    _ = Self.drive(&silent, Self.track(seconds: 60, accuracy: 10) { _ in 0 }, region: region2) { service, _ in
      none = service.entryForMonitoringStartedInside(0, at: Self.start)
    }
    #expect(none?.kind == .undetected)
  }

  @Test func initialTriggerDwellReportsADwellAfterTheLoiteringDelay() {
    var (service, region) = Self.service(radius: 200, rules: Self.noLatency(), options: Self.dwelling)
    let reports = Self.drive(&service, Self.track(seconds: 900, accuracy: 10) { _ in 0 }, region: region) { service, _ in
      _ = service.entryForMonitoringStartedInside(0, at: Self.start)
    }
    let dwell = reports.first { $0.transition == .dwell }
    #expect(Self.seconds(dwell?.instant) == 300)
    #expect(dwell?.reason == "inside for the 5m loitering delay (INITIAL_TRIGGER_DWELL)")
    // A geofence that does not ask for DWELL gets none.
    var (plain, region2) = Self.service(radius: 200, rules: Self.noLatency())
    let none = Self.drive(&plain, Self.track(seconds: 900, accuracy: 10) { _ in 0 }, region: region2) { service, _ in
      _ = service.entryForMonitoringStartedInside(0, at: Self.start)
    }
    #expect(none.isEmpty)
  }

  @Test func onlyTheTransitionsTheAppAskedForAreReported() {
    var (service, region) = Self.service(radius: 200, rules: Self.noLatency(), options: GeofenceOptions(transitions: [.exit]))
    let reports = Self.drive(&service, Self.track(seconds: 800, accuracy: 0) { t in Double(t) - 400 }, region: region)
    #expect(reports.map(\.transition) == [.exit])
  }

  @Test func polygonRegionsAreNeverDetected() {
    let service = GeofencingService(
      rules: AndroidGeofenceRules(), regions: [MonitoredRegion(id: "square", shape: SquareRegion(centre: Self.centre, halfSide: 100))],
      variation: nil)
    #expect(service.regionWarnings.first?.reason.hasPrefix("the android profile monitors circular geofences only") == true)
  }

  @Test func limitAdmitsAHundredGeofences() {
    let rules = AndroidGeofenceRules()
    #expect(rules.admitsGeofence(registered: 99))
    #expect(!rules.admitsGeofence(registered: 100))
  }

  @Test func trialsDrawTheLatencyAroundItsMedian() {
    let walk = Self.track(seconds: 600, accuracy: 0) { t in min(0, Double(t) - 400) }
    var latencies: [Int64] = []
    for seed in UInt64(0)..<200 {
      let region = CircularRegion(center: Self.centre, radius: 200)
      var service = GeofencingService(
        rules: AndroidGeofenceRules(), regions: [MonitoredRegion(id: "place", shape: region)],
        variation: DeviceVariation(gridPhase: 0, seed: seed))
      let entry = Self.drive(&service, walk, region: region, foreground: false)[0]
      latencies.append(entry.conditionInstant!.duration(to: entry.instant).milliseconds)
    }
    let sorted = latencies.sorted()
    let median = Double(sorted[99] + sorted[100]) / 2
    // Median near the 90 s latency, spread both ways (log-normal, spread 0.5), a tail past 6 minutes rare.
    #expect(abs(median - 90_000) < 15_000, "median \(median)")
    #expect(sorted.first! < 60_000 && sorted.last! > 150_000)
    #expect(latencies.count { $0 > 360_000 } <= 2)
  }

  /// Through the engine: the detection's timeline line gives the overlap and the latency, and the request fires then.
  @Test func theEngineDeliversAtTheReportedTransition() throws {
    let samples = Self.track(seconds: 600, accuracy: 50) { t in min(0, Double(t) - 400) }
    let end = samples.last!.instant.advanced(by: .minutes(10))
    let scenario = Scenario(
      name: "android geofence", clock: ClockSettings(start: Self.start, end: end, timeZone: TimeZone(identifier: "UTC")!),
      regions: [MonitoredRegion(id: "place", shape: CircularRegion(center: Self.centre, radius: 200))],
      actions: [ScheduledAppAction(instant: Self.start, action: .add(NotificationRequest(
        id: "here", title: "", trigger: .region(RegionTrigger(region: "place", notifyOnEntry: true, notifyOnExit: false, repeats: true)))))],
      track: InMemoryTrack(samples: samples), platform: PlatformSettings(),
      medicineApp: MedicineApp(appChanges: [AppChange(instant: Self.start, state: .foreground)]))
    var run = SimulationRun(scenario)
    run.layers.phone.core.locationService = GeofencingService(rules: AndroidGeofenceRules(), regions: scenario.regions, variation: nil)
    try run.execute()
    let timeline = run.timeline()
    let detected = try #require(timeline.entries(.detected).first)
    let fired = try #require(timeline.entries(.fired).first)
    let condition = 400 - GeofenceOverlap.enterDistance(threshold: 0.85, accuracy: 50, radius: 200)
    #expect(abs(Self.seconds(detected.instant) - (condition + 30)) < 0.01)
    #expect(fired.instant == detected.instant)
    #expect(detected[field: "reason"] == "at least 85% of the ±50m accuracy circle inside; then 30s foreground latency")
    #expect(detected[field: "event"] == "enter" && detected[field: "visit"] == "1")
  }

  @Test func summaryListsEveryRule() {
    #expect(AndroidGeofenceRules().summary == "geofence-limit=100 initial-trigger=enter,dwell loitering-delay=5m responsiveness=0s "
      + "background-latency=1m30s foreground-latency=30s enter-overlap=85% exit-overlap=15% small-enter-overlap=75% small-exit-overlap=25% "
      + "small-radius=100m assumed-accuracy=10m background-accuracy=50m background-location=required")
  }
}

/// The `android` profile against the geometry, over the random walks and
/// circles of `SimulationPropertyTests` (as `LocationProfilePropertyTests` does for `ios`).
@Suite struct GeofencingPropertyTests {
  /// With no latency, point fixes and overlap 50/50, the service reports
  /// exactly the geometric crossings: the timeline is the `ideal` profile's.
  @Test(arguments: LocationProfilePropertyTests.seeds)
  func withEveryRuleAtZeroTheAndroidProfileEqualsIdeal(seed: UInt64) throws {
    let (scenario, _, _) = SimulationPropertyTests.randomScenario(seed: seed)
    for foreground in [true, false] {
      var scenario = scenario
      scenario.platform.location = .ideal
      if foreground { scenario.medicineApp.appChanges = [AppChange(instant: scenario.clock.start, state: .foreground)] }
      let idealLog = ReportLog(), androidLog = ReportLog()
      var ideal = SimulationRun(scenario)
      ideal.layers.phone.core.locationService = RecordingLocationService(recorded: ideal.layers.phone.core.locationService, log: idealLog)
      try ideal.execute()
      var android = SimulationRun(scenario)
      android.layers.phone.core.locationService = RecordingLocationService(
        recorded: GeofencingService(rules: .exact, regions: scenario.regions, variation: nil), log: androidLog)
      try android.execute()
      #expect(android.timeline().entries == ideal.timeline().entries, "seed \(seed) foreground \(foreground)")
      // Region by region (the ideal service reports a segment's crossings in time order across regions).
      for region in scenario.regions.indices {
        #expect(
          androidLog.reports.filter { $0.region == region }.map(\.summary) == idealLog.reports.filter { $0.region == region }.map(\.summary),
          "seed \(seed) foreground \(foreground) region \(region)")
      }
    }
  }

  /// The comparison above is not vacuous: the random walks cross their circles.
  @Test func theRandomWalksCrossTheirGeofences() throws {
    var detections = 0
    for seed in LocationProfilePropertyTests.seeds.prefix(20) {
      let (scenario, _, _) = SimulationPropertyTests.randomScenario(seed: seed)
      let log = ReportLog()
      var run = SimulationRun(scenario)
      run.layers.phone.core.locationService = RecordingLocationService(
        recorded: GeofencingService(rules: .exact, regions: scenario.regions, variation: nil), log: log)
      try run.execute()
      detections += log.reports.count { $0.kind == .detected }
    }
    #expect(detections > 20)
  }

  /// The `LocationService` contract with latency, accuracy and GPS error:
  /// reports about one geofence come in non-decreasing instant order.
  @Test(arguments: LocationProfilePropertyTests.seeds.prefix(60))
  func reportsAboutOneGeofenceComeInNonDecreasingInstantOrder(seed: UInt64) throws {
    var (scenario, _, _) = SimulationPropertyTests.randomScenario(seed: seed)
    let start = scenario.clock.start
    scenario.medicineApp.appChanges = [
      AppChange(instant: start, state: .foreground), AppChange(instant: start.advanced(by: .seconds(60)), state: .background),
    ]
    var rules = AndroidGeofenceRules()
    rules.assumedAccuracy = 15
    let log = ReportLog()
    let variation = DeviceVariation(gridPhase: 0, seed: seed)
    var run = SimulationRun(scenario, variation: variation)
    var service = GeofencingService(rules: rules, regions: scenario.regions, variation: variation)
    for index in scenario.regions.indices { service.setOptions(GeofencingRuleTests.dwelling, forRegion: index) }
    run.layers.phone.core.locationService = RecordingLocationService(recorded: service, log: log)
    try run.execute()
    for region in scenario.regions.indices {
      let instants = log.reports.filter { $0.region == region }.map(\.instant)
      #expect(zip(instants, instants.dropFirst()).allSatisfy { $0 <= $1 }, "seed \(seed) region \(region): \(instants)")
    }
  }
}

/// Issue 42: a detection the GPS error puts ahead of the true path belongs to
/// the visit whose crossing comes before its report reaches the app, as on
/// iOS; before, it had no visit, and the dose of the crossing that followed
/// was missed ("the device had not reported this crossing") in about one
/// Android trial in ten of a walk home.
extension GeofencingRuleTests {
  @Test func aDetectionAheadOfThePathBelongsToTheVisitWhoseCrossingComesBeforeItsReport() {
    // From 300 m south at 1.4 m/s to the centre of a 100 m geofence, the app in the background (±50 m).
    let walk = Self.track(seconds: 900) { t in min(0, -300 + 1.4 * Double(t)) }
    let crossing = Self.start.advanced(byMilliseconds: Int64((200 / 1.4) * 1000))
    var attributedAhead = 0
    for seed in UInt64(0)..<300 {
      let region = CircularRegion(center: Self.centre, radius: 100)
      var service = GeofencingService(
        rules: AndroidGeofenceRules(), regions: [MonitoredRegion(id: "place", shape: region)],
        variation: DeviceVariation(gridPhase: 0, seed: seed))
      let entries = Self.drive(&service, walk, region: region, foreground: false).filter { $0.kind == .detected && $0.entering }
      guard let first = entries.first else { continue }
      // No entry without a visit reaches the app after the true crossing: it would be that crossing's detection.
      if first.visit == nil { #expect(first.instant < crossing, "seed \(seed)") }
      if first.visit == 1, let condition = first.conditionInstant, condition < crossing {
        attributedAhead += 1
        #expect(first.reason?.hasSuffix("GPS error") == true)
      }
    }
    // The rule applied: some trials detected the entry ahead of the path and gave it its visit.
    #expect(attributedAhead > 0)
  }
}
