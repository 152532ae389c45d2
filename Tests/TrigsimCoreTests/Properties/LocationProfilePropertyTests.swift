import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// Seeded properties relating the `ios` location profile to the geometry,
/// over the random walks and circles of `SimulationPropertyTests`.
@Suite struct LocationProfilePropertyTests {
  static let seeds: [UInt64] = Array(0..<150)

  static func run(_ scenario: Scenario, _ profile: LocationProfile, foreground: Bool = true) throws -> Timeline {
    var scenario = scenario
    scenario.platform.location = profile
    if foreground {
      scenario.medicineApp.appChanges = [AppChange(instant: scenario.clock.start, state: .foreground)]
    }
    return try Simulation(scenario).run()
  }

  /// Random rules: margins, dwell and accuracy assumptions, no minimum radius
  /// (a region smaller than the minimum is entered before its own boundary, by design).
  static func randomRules(_ random: inout SplitMix64) -> RegionMonitoringRules {
    var rules = RegionMonitoringRules()
    rules.minimumRadius = 0
    rules.entryMargin = Double.random(in: 0...30, using: &random)
    rules.exitMargin = Double.random(in: 0...30, using: &random)
    rules.dwell = .init(milliseconds: Int64.random(in: 0...15_000, using: &random))
    rules.latency = .zero
    rules.assumedAccuracy = Double.random(in: 0...10, using: &random)
    return rules
  }

  @Test(arguments: seeds)
  func withEveryRuleAtZeroTheIOSProfileEqualsIdeal(seed: UInt64) throws {
    let (scenario, _, _) = SimulationPropertyTests.randomScenario(seed: seed)
    for foreground in [true, false] {
      let ideal = try Self.run(scenario, .ideal, foreground: foreground)
      let exact = try Self.run(scenario, .ios(.exact), foreground: foreground)
      #expect(exact.entries == ideal.entries, "seed \(seed) foreground \(foreground)")
    }
  }

  @Test(arguments: seeds)
  func everyDetectionFollowsAGeometricCrossingOfTheSameKindNoLaterThanIt(seed: UInt64) throws {
    let (scenario, _, _) = SimulationPropertyTests.randomScenario(seed: seed)
    var random = SplitMix64(seed: seed &+ 7)
    for foreground in [true, false] {
      var rules = Self.randomRules(&random)
      rules.latency = .init(milliseconds: Int64.random(in: 0...60_000, using: &random))
      rules.backgroundInterval = .seconds(Int64.random(in: 1...30, using: &random))
      let timeline = try Self.run(scenario, .ios(rules), foreground: foreground)
      for detection in timeline.entries(.detected) {
        let kind: TimelineEntry.Kind = detection[field: "event"] == "enter" ? .enter : .exit
        let crossing = timeline.entries.first {
          $0.kind == kind && $0.subject == detection.subject && $0[field: "visit"] == detection[field: "visit"]
        }
        #expect(crossing != nil && crossing!.instant <= detection.instant, "seed \(seed): \(detection.canonicalLine)")
      }
    }
  }

  @Test(arguments: seeds)
  func aLargerMarginOrDwellNeverAddsDetections(seed: UInt64) throws {
    let (scenario, _, _) = SimulationPropertyTests.randomScenario(seed: seed)
    var random = SplitMix64(seed: seed &+ 11)
    for foreground in [true, false] {
      var smaller = Self.randomRules(&random)
      smaller.backgroundInterval = .seconds(Int64.random(in: 1...30, using: &random))
      var larger = smaller
      larger.entryMargin += Double.random(in: 0...20, using: &random)
      larger.exitMargin += Double.random(in: 0...20, using: &random)
      larger.dwell = larger.dwell + .init(milliseconds: Int64.random(in: 0...10_000, using: &random))
      let few = try Self.run(scenario, .ios(larger), foreground: foreground).entries(.detected)
      let many = try Self.run(scenario, .ios(smaller), foreground: foreground).entries(.detected)
      for region in scenario.regions.map(\.id.rawValue) {
        #expect(few.count { $0.subject == region } <= many.count { $0.subject == region }, "seed \(seed) region \(region)")
      }
    }
  }

  /// The seed's random walk under random `ios` rules (latency, coarse
  /// updates, a minimum radius up to `minimumRadius`), with the app changes
  /// `changes` makes at random instants of the run.
  static func randomIOSScenario(
    seed: UInt64, salt: UInt64, minimumRadius: Double,
    changes: (_ instant: () -> SimulationInstant) -> [AppChange]
  ) -> (Scenario, RegionMonitoringRules) {
    var (scenario, _, _) = SimulationPropertyTests.randomScenario(seed: seed)
    var random = SplitMix64(seed: seed &+ salt)
    var rules = randomRules(&random)
    rules.minimumRadius = Double.random(in: 0...minimumRadius, using: &random)
    rules.latency = .init(milliseconds: Int64.random(in: 0...60_000, using: &random))
    rules.backgroundInterval = .seconds(Int64.random(in: 0...30, using: &random))
    scenario.platform.location = .ios(rules)
    let start = scenario.clock.start
    let span = start.duration(to: scenario.clock.end).milliseconds
    scenario.medicineApp.appChanges = changes { start.advanced(byMilliseconds: Int64.random(in: 0...span, using: &random)) }
      .sorted { $0.instant < $1.instant }
    return (scenario, rules)
  }

  /// The `LocationService` contract: reports about one region come in
  /// non-decreasing instant order, with latency, minimum radius, coarse
  /// updates and location authorization changes in play.
  @Test(arguments: seeds)
  func reportsAboutOneRegionComeInNonDecreasingInstantOrder(seed: UInt64) throws {
    let (scenario, _) = Self.randomIOSScenario(seed: seed, salt: 13, minimumRadius: 100) { instant in
      [AppChange(instant: instant(), state: .foreground), AppChange(instant: instant(), state: .background),
       AppChange(instant: instant(), location: .denied), AppChange(instant: instant(), location: .whenInUse)]
    }
    let log = ReportLog()
    var run = SimulationRun(scenario)
    run.layers.phone.core.locationService = RecordingLocationService(recorded: run.layers.phone.core.locationService, log: log)
    try run.execute()
    for region in scenario.regions.indices {
      let instants = log.reports.filter { $0.region == region }.map(\.instant)
      #expect(zip(instants, instants.dropFirst()).allSatisfy { $0 <= $1 }, "seed \(seed) region \(region): \(instants)")
    }
  }
}

extension LocationProfilePropertyTests {
  /// The service's fast path (segments within the slack of the last full
  /// evaluation skip every region) is an optimisation only: with GPS error
  /// from a trial's variation, app-state and authorization changes, the
  /// reports and the timeline are the same with it and without it.
  @Test(arguments: seeds)
  func theFastPathChangesNothing(seed: UInt64) throws {
    _ = try compareWithAndWithoutFastPath(seed: seed)
  }

  /// Runs the seed's scenario with and without the fast path, checks they
  /// agree, and returns how many segments the fast path took.
  func compareWithAndWithoutFastPath(seed: UInt64) throws -> Int {
    let (scenario, rules) = Self.randomIOSScenario(seed: seed, salt: 17, minimumRadius: 60) { instant in
      [AppChange(instant: instant(), state: .foreground), AppChange(instant: instant(), state: .background),
       AppChange(instant: instant(), state: .foreground), AppChange(instant: instant(), location: .denied),
       AppChange(instant: instant(), location: .whenInUse)]
    }
    let variation = TrialRunner.variation(trial: Int(seed), seed: 99, profile: scenario.platform.location)
    var outcomes: [(reports: [DeviceRegionReport], entries: [TimelineEntry])] = []
    for fastPath in [true, false] {
      var service = RegionMonitoringService(rules: rules, regions: scenario.regions, variation: variation)
      service.usesFastPath = fastPath
      let log = ReportLog()
      var run = SimulationRun(scenario, variation: variation)
      run.layers.phone.core.locationService = RecordingLocationService(recorded: service, log: log)
      try run.execute()
      outcomes.append((log.reports, run.timeline().entries))
    }
    // The comparison is not vacuous: the fast path ran.
    var plain = SimulationRun(scenario, variation: variation)
    plain.layers.phone.core.locationService = RegionMonitoringService(rules: rules, regions: scenario.regions, variation: variation)
    try plain.execute()
    #expect(outcomes[0].entries == outcomes[1].entries, "seed \(seed)")
    #expect(outcomes[0].reports.map(\.summary) == outcomes[1].reports.map(\.summary), "seed \(seed)")
    return (plain.layers.phone.core.locationService as! RegionMonitoringService).fastPathSegments
  }
}

extension LocationProfilePropertyTests {
  /// The comparison above is not vacuous: the fast path takes segments in
  /// most of its cases (counted over the first 20 seeds).
  @Test func theFastPathRunsInThePropertyCases() throws {
    let counts = try Self.seeds.prefix(20).map { try compareWithAndWithoutFastPath(seed: $0) }
    #expect(counts.reduce(0, +) > 20)
    #expect(counts.count { $0 > 0 } >= 10, "\(counts)")
  }
}

extension DeviceRegionReport {
  /// Everything a report says, for comparing two runs.
  var summary: String {
    "\(kind) r\(region) \(entering ? "enter" : "exit") v\(visit.map(String.init) ?? "-") @\(instant) "
      + "crossing \(crossingInstant.map(\.description) ?? "-") reason \(reason ?? "-") both \(concernsBothKinds)"
  }
}

/// The reports a location service made, in the order it made them.
final class ReportLog {
  var reports: [DeviceRegionReport] = []
}

/// A location service that records what the service it wraps reports.
struct RecordingLocationService: LocationService {
  var recorded: any LocationService
  let log: ReportLog

  var regionWarnings: [(region: Int, reason: String)] { recorded.regionWarnings }

  mutating func start(at fix: TrackSample, geometricInside: [Bool]) { recorded.start(at: fix, geometricInside: geometricInside) }

  mutating func advance(
    from a: TrackSample, to b: TrackSample, crossings: [GeometricCrossing], appInForeground: Bool, into reports: inout [DeviceRegionReport]
  ) {
    let first = reports.count
    recorded.advance(from: a, to: b, crossings: crossings, appInForeground: appInForeground, into: &reports)
    log.reports += reports[first...]
  }

  mutating func resume(
    after a: TrackSample, at b: TrackSample, crossings: [GeometricCrossing], appInForeground: Bool, into reports: inout [DeviceRegionReport]
  ) {
    let first = reports.count
    recorded.resume(after: a, at: b, crossings: crossings, appInForeground: appInForeground, into: &reports)
    log.reports += reports[first...]
  }

  mutating func restartMonitoring(at instant: SimulationInstant, into reports: inout [DeviceRegionReport]) {
    let first = reports.count
    recorded.restartMonitoring(at: instant, into: &reports)
    log.reports += reports[first...]
  }

  mutating func finish(last: TrackSample, until end: SimulationInstant, into reports: inout [DeviceRegionReport]) {
    let first = reports.count
    recorded.finish(last: last, until: end, into: &reports)
    log.reports += reports[first...]
  }

  func believesInside(_ region: Int) -> Bool { recorded.believesInside(region) }

  mutating func entryForMonitoringStartedInside(_ region: Int, at instant: SimulationInstant) -> DeviceRegionReport {
    let report = recorded.entryForMonitoringStartedInside(region, at: instant)
    log.reports.append(report)
    return report
  }
}
