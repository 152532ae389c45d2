import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// A trial replays runs of quiet fixes in one call to the location service
/// (`SimulationRun.replay(block:)`, `LocationService.advanceQuietly`). Over
/// seeded 1 Hz walks with stops, GPS jitter, gaps, segment breaks, changing
/// accuracy, app state and location authorization changes, a trial with quiet
/// stretches makes the same timeline, the same location log and the same
/// dose outcomes as the same trial replayed fix by fix.
@Suite struct QuietStretchPropertyTests {
  static let seeds: [UInt64] = Array(0..<40)
  static let start = SimulationInstant(millisecondsSinceEpoch: 1_780_000_000_000)

  /// A walk of about `fixes` seconds from a random place: stops with a few
  /// metres of jitter, walks at 1.3 m/s, an occasional gap or new segment.
  static func walk(_ random: inout SplitMix64, fixes: Int) -> [TrackSample] {
    var samples: [TrackSample] = []
    var position = Coordinate(latitude: Double.random(in: -60...60, using: &random), longitude: Double.random(in: -170...170, using: &random))
    var instant = start
    var heading = 0.0
    var legLeft = 0
    var standing = true
    var newSegment = false
    while samples.count < fixes {
      if legLeft == 0 {
        standing.toggle()
        legLeft = Int.random(in: standing ? 60...400 : 30...300, using: &random)
        heading = Double.random(in: 0..<360, using: &random)
      }
      legLeft -= 1
      if standing {
        let jitter = Geodesic.destination(from: position, azimuth: Double.random(in: 0..<360, using: &random), distance: Double.random(in: 0...3, using: &random))
        samples.append(sample(instant, jitter, &random, startsSegment: newSegment))
      } else {
        position = Geodesic.destination(from: position, azimuth: heading, distance: 1.3)
        samples.append(sample(instant, position, &random, startsSegment: newSegment))
      }
      newSegment = Int.random(in: 0..<1500, using: &random) == 0
      // Mostly 1 s apart; now and then a gap longer than the limit.
      instant = instant.advanced(byMilliseconds: Int.random(in: 0..<700, using: &random) == 0 ? Int64.random(in: 20_000...120_000, using: &random) : 1000)
    }
    return samples
  }

  static func sample(_ instant: SimulationInstant, _ position: Coordinate, _ random: inout SplitMix64, startsSegment: Bool) -> TrackSample {
    // Accuracy drifts between fixes, is sometimes missing, sometimes poor.
    let accuracy: Double? = switch Int.random(in: 0..<20, using: &random) {
    case 0: nil
    case 1: Double.random(in: 40...120, using: &random)
    default: Double(Int.random(in: 50...200, using: &random)) / 10
    }
    return TrackSample(instant: instant, coordinate: position, horizontalAccuracy: accuracy, startsSegment: startsSegment)
  }

  static func scenario(seed: UInt64) -> (Scenario, [TrackSample]) {
    var random = SplitMix64(seed: seed)
    let samples = walk(&random, fixes: 2500)
    let origin = samples[0].coordinate
    let regions = (0..<Int.random(in: 2...5, using: &random)).map { index in
      MonitoredRegion(
        id: RegionID("r\(index)"),
        shape: CircularRegion(
          center: Geodesic.destination(from: origin, azimuth: Double.random(in: 0..<360, using: &random), distance: Double.random(in: 0...400, using: &random)),
          radius: Double.random(in: 50...200, using: &random)))
    }
    var rules = RegionMonitoringRules()
    if seed % 2 == 1 {
      // Margins below the accuracy (the offset circles move with it), a dwell, a latency.
      rules = LocationProfilePropertyTests.randomRules(&random)
      rules.latency = .seconds(Int64.random(in: 0...60, using: &random))
    }
    rules.backgroundInterval = .seconds(Int64.random(in: 10...120, using: &random))
    var platform = PlatformSettings()
    platform.location = .ios(rules)
    platform.trackGapLimit = .seconds(10)
    let end = samples.last!.instant.advanced(by: .minutes(5))
    // The app comes and goes; location authorization is withdrawn and given back (monitoring restarts).
    var changes: [AppChange] = [AppChange(instant: start, state: .foreground)]
    var instant = start
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      instant = instant.advanced(byMilliseconds: Int64.random(in: 60_000...900_000, using: &random))
      switch Int.random(in: 0..<4, using: &random) {
      case 0: changes.append(AppChange(instant: instant, state: .background))
      case 1: changes.append(AppChange(instant: instant, state: .foreground))
      case 2:
        changes.append(AppChange(instant: instant, location: .denied))
        changes.append(AppChange(instant: instant.advanced(byMilliseconds: Int64.random(in: 1000...300_000, using: &random)), location: .always))
      default: break
      }
    }
    changes.sort { $0.instant < $1.instant }
    let scenario = Scenario(
      name: "quiet \(seed)",
      clock: ClockSettings(start: start, end: end, timeZone: TimeZone(identifier: "UTC")!),
      regions: regions,
      actions: regions.indices.map { index in
        ScheduledAppAction(instant: start, action: .add(NotificationRequest(
          id: NotificationID("n\(index)"), title: "",
          trigger: .region(RegionTrigger(region: regions[index].id, notifyOnEntry: true, notifyOnExit: index % 2 == 0, repeats: true)))))
      },
      track: InMemoryTrack(samples: samples), platform: platform,
      medicineApp: MedicineApp(appChanges: changes))
    return (scenario, samples)
  }

  /// One trial of `seed`'s scenario, with or without quiet stretches: what it
  /// recorded, how many fixes went through quiet stretches, and at how many of
  /// those the fast path's anchor moved or coarse updates skipped the fix.
  static func trial(seed: UInt64, quiet: Bool, compact: Bool = false) throws -> (
    entries: [String], log: String, doses: String, quietFixes: Int, anchorMoves: Int, coarseFixes: Int
  ) {
    var (scenario, samples) = scenario(seed: seed)
    if compact {
      // The compact track hands its decoded fixes out in chunks: stretches end at chunk boundaries too.
      var builder = CompactTrack.Builder(name: "compact")
      for sample in samples { builder.append(sample) }
      scenario.track = builder.finish()
    }
    var variation = TrialRunner.variation(trial: Int(seed), seed: 2026, profile: scenario.platform.location)
    // A drawn phase rarely puts a coarse update on a fix's instant; whole seconds always do.
    if seed % 3 == 0 { variation.gridPhase = variation.gridPhase / 1000 * 1000 }
    var run = SimulationRun(scenario, variation: variation)
    var recorder = RecordedPathGeometry.Recorder(shapes: scenario.regions.map(\.shape), gapLimit: scenario.platform.trackGapLimit)
    for sample in samples { recorder.record(sample) }
    run.replay.recordedGeometry = recorder.recorded
    run.replay.usesQuietStretches = quiet
    run.layers.phone.core.locationLog = LocationRequestLog()
    try run.execute()
    let service = try #require(run.layers.phone.core.locationService as? RegionMonitoringService)
    return (
      run.timeline().entries.map(\.canonicalLine), "\(run.layers.phone.core.locationLog!)", run.summary().text, run.replay.quietStretchFixes,
      service.quietAnchorMoves, service.quietCoarseFixes
    )
  }

  @Test(arguments: seeds)
  func aTrialWithQuietStretchesRecordsWhatItRecordsFixByFix(seed: UInt64) throws {
    let stretched = try Self.trial(seed: seed, quiet: true)
    let fixByFix = try Self.trial(seed: seed, quiet: false)
    let compact = try Self.trial(seed: seed, quiet: true, compact: true)
    #expect(fixByFix.quietFixes == 0)
    #expect(compact.quietFixes > 0 || stretched.quietFixes == 0)
    #expect(compact.entries == fixByFix.entries, "seed \(seed)")
    #expect(compact.log == fixByFix.log, "seed \(seed)")
    #expect(stretched.entries == fixByFix.entries, "seed \(seed)")
    #expect(stretched.log == fixByFix.log, "seed \(seed)")
    #expect(stretched.doses == fixByFix.doses, "seed \(seed)")
  }

  /// With coarse updates (the app in the background) a quiet stretch skips
  /// the fixes between two update instants. A walk straight through a circle
  /// and out, with the update grid on the fixes' whole seconds at every
  /// phase: the update instant at a fix is observed as fix by fix (it is
  /// where a dwell starts or ends), and the device reports the same.
  @Test(arguments: 0..<10)
  func aBackgroundWalkThroughACircleIsTheSameAtEveryUpdatePhase(phaseSeconds: Int64) throws {
    let centre = Coordinate(latitude: 52.37, longitude: 4.89)
    let samples = (0..<480).map { second in
      TrackSample(
        instant: Self.start.advanced(byMilliseconds: Int64(second) * 1000),
        coordinate: Geodesic.destination(from: centre, azimuth: 90, distance: 1.3 * Double(second) - 310), horizontalAccuracy: 5)
    }
    var rules = RegionMonitoringRules()
    rules.backgroundInterval = .seconds(10)
    // The fixes' own accuracy in the background too, so that every seed detects the entry (at
    // the default ±65 m GPS error loses it in some; the quiet stretch is the same either way).
    rules.backgroundAccuracy = 5
    var platform = PlatformSettings()
    platform.location = .ios(rules)
    let region = MonitoredRegion(id: RegionID("home"), shape: CircularRegion(center: centre, radius: 100))
    let scenario = Scenario(
      name: "background walk", clock: ClockSettings(start: Self.start, end: Self.start.advanced(by: .minutes(15)), timeZone: TimeZone(identifier: "UTC")!),
      regions: [region],
      actions: [
        ScheduledAppAction(instant: Self.start, action: .add(NotificationRequest(
          id: NotificationID("home"), title: "",
          trigger: .region(RegionTrigger(region: region.id, notifyOnEntry: true, notifyOnExit: true, repeats: true)))))
      ],
      track: InMemoryTrack(samples: samples), platform: platform,
      medicineApp: MedicineApp(appChanges: [AppChange(instant: Self.start, state: .background)]))
    var recorder = RecordedPathGeometry.Recorder(shapes: [region.shape], gapLimit: platform.trackGapLimit)
    for sample in samples { recorder.record(sample) }
    var outcomes: [[String]] = []
    var coarseFixes = 0
    for seed in 0..<6 as Range<UInt64> {
      for quiet in [true, false] {
        var run = SimulationRun(scenario, variation: DeviceVariation(gridPhase: phaseSeconds * 1000, seed: seed))
        run.replay.recordedGeometry = recorder.recorded
        run.replay.usesQuietStretches = quiet
        try run.execute()
        outcomes.append(run.timeline().entries.map(\.canonicalLine))
        if quiet { coarseFixes += try #require(run.layers.phone.core.locationService as? RegionMonitoringService).quietCoarseFixes }
      }
      #expect(outcomes[outcomes.count - 2] == outcomes[outcomes.count - 1], "seed \(seed)")
      #expect(outcomes.last!.contains { $0.contains(" detected ") && $0.contains("event=enter") }, "seed \(seed)")
    }
    #expect(coarseFixes > 6 * 300, "\(coarseFixes)")
  }

  /// The comparison above is not vacuous: most fixes of most cases go
  /// through quiet stretches, the stretches move the fast path's anchor and
  /// skip fixes between coarse updates (both compared above with `advance`
  /// fix by fix, which does neither), and the cases have device events to get right.
  @Test func quietStretchesCarryMostFixesOfTheCases() throws {
    var carried: [Double] = []
    var detections = 0
    var anchorMoves = 0
    var coarseFixes = 0
    for seed in Self.seeds.prefix(10) {
      let trial = try Self.trial(seed: seed, quiet: true)
      carried.append(Double(trial.quietFixes) / 2500)
      detections += trial.entries.count { $0.contains(" fired ") }
      anchorMoves += trial.anchorMoves
      coarseFixes += trial.coarseFixes
    }
    #expect(carried.count { $0 > 0.5 } >= 7, "\(carried)")
    #expect(detections >= 10)
    #expect(anchorMoves >= 100, "\(anchorMoves)")
    #expect(coarseFixes >= 1000, "\(coarseFixes)")
  }
}
