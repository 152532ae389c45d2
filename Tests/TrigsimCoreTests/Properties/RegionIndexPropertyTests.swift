import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// The indexes that make a fix cost the same with 4 regions or 5,000
/// (`PathGeometry`'s and `RegionMonitoringService`'s threshold heaps) are
/// optimisations only: with them and without them (every region's budget
/// updated at every fix) the crossings, the device's reports and the
/// timeline are the same, and the indexes do skip work.
@Suite struct RegionIndexPropertyTests {
  static let seeds: [UInt64] = Array(0..<120)

  /// The seed's random walk with 60 more circles around it (many far from
  /// the path, some on it), and fixes whose stated accuracy varies: most
  /// give none, some are within the margins, some beyond them (which moves
  /// the device's offset circles).
  static func manyRegions(seed: UInt64) -> Scenario {
    var (scenario, samples, _) = SimulationPropertyTests.randomScenario(seed: seed)
    var random = SplitMix64(seed: seed &+ 31)
    let centre = samples[0].coordinate
    for index in 0..<60 {
      let circle = CircularRegion(
        center: Geodesic.destination(from: centre, azimuth: Double.random(in: 0..<360, using: &random), distance: Double.random(in: 0...1500, using: &random)),
        radius: Double.random(in: 20...150, using: &random))
      scenario.regions.append(MonitoredRegion(id: RegionID("m\(index)"), shape: circle))
    }
    samples = samples.map { sample in
      var sample = sample
      switch Int.random(in: 0..<10, using: &random) {
      case 0, 1: sample.horizontalAccuracy = Double.random(in: 1...25, using: &random)
      case 2: sample.horizontalAccuracy = Double.random(in: 30...90, using: &random)
      default: break
      }
      return sample
    }
    scenario.track = InMemoryTrack(samples: samples)
    return scenario
  }

  @Test(arguments: seeds)
  func thePathGeometryIndexFindsEveryCrossing(seed: UInt64) {
    let scenario = Self.manyRegions(seed: seed)
    let samples = (scenario.track as! InMemoryTrack).samples
    var indexed = PathGeometry(shapes: scenario.regions.map(\.shape), gapLimit: scenario.platform.trackGapLimit)
    var plain = indexed
    plain.usesIndex = false
    for sample in samples {
      var a: [StepCrossing] = [], b: [StepCrossing] = []
      let stepA = indexed.step(to: sample, into: &a)
      let stepB = plain.step(to: sample, into: &b)
      #expect("\(stepA)" == "\(stepB)", "seed \(seed)")
      #expect(a.map { "\($0.region) \($0.entering) \($0.instant)" } == b.map { "\($0.region) \($0.entering) \($0.instant)" }, "seed \(seed)")
    }
    #expect(indexed.inside == plain.inside, "seed \(seed)")
    // Not vacuous: far from every region at every fix (the plain geometry checks each region whose budget ran out).
    #expect(indexed.exactChecks < scenario.regions.count * samples.count / 2, "seed \(seed): \(indexed.exactChecks)")
  }

  /// With GPS error (a trial's variation), coarse and continuous updates,
  /// latency, and authorization changes that restart monitoring.
  @Test(arguments: seeds)
  func theMonitoringIndexChangesNoReport(seed: UInt64) throws {
    _ = try compare(seed: seed)
  }

  /// Runs the seed with and without the monitoring index; returns how many
  /// monitor evaluations each made.
  func compare(seed: UInt64) throws -> (indexed: Int, plain: Int) {
    var scenario = Self.manyRegions(seed: seed)
    var random = SplitMix64(seed: seed &+ 37)
    var rules = LocationProfilePropertyTests.randomRules(&random)
    rules.minimumRadius = Double.random(in: 0...80, using: &random)
    rules.latency = .init(milliseconds: Int64.random(in: 0...60_000, using: &random))
    rules.backgroundInterval = .seconds(Int64.random(in: 0...30, using: &random))
    scenario.platform.location = .ios(rules)
    scenario.actions += scenario.regions.indices.dropFirst(3).map { index in
      ScheduledAppAction(
        instant: scenario.clock.start,
        action: .add(NotificationRequest(id: NotificationID("m\(index)"), title: "", trigger: .region(RegionTrigger(region: scenario.regions[index].id, repeats: true)))))
    }
    scenario.platform.monitoredRegionLimit = 100
    let start = scenario.clock.start
    let span = start.duration(to: scenario.clock.end).milliseconds
    func instant() -> SimulationInstant { start.advanced(byMilliseconds: Int64.random(in: 0...span, using: &random)) }
    scenario.medicineApp.appChanges = [
      AppChange(instant: instant(), state: .foreground), AppChange(instant: instant(), state: .background),
      AppChange(instant: instant(), location: .denied), AppChange(instant: instant(), location: .whenInUse),
    ].sorted { $0.instant < $1.instant }
    let variation = seed % 2 == 0 ? TrialRunner.variation(trial: Int(seed), seed: 99, profile: scenario.platform.location) : nil
    var outcomes: [(reports: [String], entries: [TimelineEntry], evaluations: Int)] = []
    for usesIndex in [true, false] {
      var service = RegionMonitoringService(rules: rules, regions: scenario.regions, variation: variation)
      service.usesRegionIndex = usesIndex
      service.smallRegionCount = 0  // the index even for these 63 regions
      let log = ReportLog()
      var run = SimulationRun(scenario, variation: variation)
      run.layers.phone.core.locationService = RecordingLocationService(recorded: service, log: log)
      try run.execute()
      let evaluations = ((run.layers.phone.core.locationService as! RecordingLocationService).recorded as! RegionMonitoringService).monitorEvaluations
      outcomes.append((log.reports.map(\.summary), run.timeline().entries, evaluations))
    }
    #expect(outcomes[0].entries == outcomes[1].entries, "seed \(seed)")
    #expect(outcomes[0].reports == outcomes[1].reports, "seed \(seed)")
    return (outcomes[0].evaluations, outcomes[1].evaluations)
  }

  /// The comparison is not vacuous: the index evaluates far fewer monitors.
  @Test func theIndexSkipsMostMonitors() throws {
    let counts = try Self.seeds.prefix(20).map { try compare(seed: $0) }
    let indexed = counts.map(\.indexed).reduce(0, +), plain = counts.map(\.plain).reduce(0, +)
    // Small walks among 63 circles, a tenth of the fixes beyond the margins (which touch every monitor).
    #expect(indexed * 4 < plain * 3, "indexed \(indexed), plain \(plain)")
  }
}
