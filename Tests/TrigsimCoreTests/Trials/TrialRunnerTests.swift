import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// `TrialRunner`: seeded trials, order-free tallies, the report's numbers.
/// Tracks run along the meridian through the region's centre, as in the rule tests.
@Suite struct TrialRunnerTests {
  static let centre = Coordinate(latitude: 55.67, longitude: 12.56)
  static let start = Build.instant("2026-05-04T06:00:00Z")

  /// A fix every second, `north(t)` metres north of the centre, each with `accuracy`.
  static func track(seconds: Int, accuracy: Double, _ north: (Int) -> Double) -> InMemoryTrack {
    InMemoryTrack(samples: (0...seconds).map { t in
      let y = north(t)
      let position = y == 0 ? centre : Geodesic.destination(from: centre, azimuth: y > 0 ? 0 : 180, distance: abs(y))
      return TrackSample(instant: start.advanced(by: .seconds(Int64(t))), coordinate: position, horizontalAccuracy: accuracy)
    })
  }

  /// One repeating entry request on a 100 m circle; the app in the background unless `foreground`.
  static func scenario(_ track: InMemoryTrack, profile: LocationProfile = .ios(RegionMonitoringRules()), foreground: Bool = false) -> Scenario {
    var platform = PlatformSettings()
    platform.location = profile
    let end = track.samples.last!.instant.advanced(by: .minutes(15))
    return Scenario(
      name: "trials", clock: ClockSettings(start: start, end: end, timeZone: TimeZone(identifier: "UTC")!),
      regions: [MonitoredRegion(id: "place", shape: CircularRegion(center: centre, radius: 100))],
      actions: [ScheduledAppAction(instant: start, action: .add(NotificationRequest(
        id: "arrive", title: "", trigger: .region(RegionTrigger(region: "place", notifyOnEntry: true, notifyOnExit: false, repeats: true)))))],
      track: track, platform: platform,
      medicineApp: MedicineApp(appChanges: foreground ? [AppChange(instant: start, state: .foreground)] : []))
  }

  /// Walks in at 1.3 m/s from 250 m south, stands `depth` metres inside for `stay` seconds, walks out.
  static func stop(depth: Double, stay: Int, accuracy: Double) -> InMemoryTrack {
    let inward = Int((250 - (100 - depth)) / 1.3)
    return track(seconds: 2 * inward + stay, accuracy: accuracy) { t in
      let standing = -(100 - depth)
      if t < inward { return -250 + 1.3 * Double(t) }
      if t < inward + stay { return standing }
      return standing - 1.3 * Double(t - inward - stay)
    }
  }

  @Test func theReportIsTheSameBytesWhateverTheNumberOfWorkers() throws {
    let runner = TrialRunner(Self.scenario(Self.stop(depth: 60, stay: 90, accuracy: 25)))
    let one = try runner.run(TrialPlan(count: 120, seed: 11, jobs: 1))
    for jobs in [2, 3, 7] {
      let many = try runner.run(TrialPlan(count: 120, seed: 11, jobs: jobs))
      #expect(many.text == one.text, "jobs \(jobs)")
      #expect(many.json == one.json, "jobs \(jobs)")
    }
    // The scenario is one where trials disagree, so the comparison above is not vacuous.
    let chance = try #require(one.locationChances.first)
    #expect(chance.fired > 0 && chance.fired < chance.pending)
  }

  @Test func anotherSeedDrawsOtherErrors() throws {
    let runner = TrialRunner(Self.scenario(Self.stop(depth: 60, stay: 90, accuracy: 25)))
    let a = try runner.run(TrialPlan(count: 60, seed: 1, jobs: 2))
    let b = try runner.run(TrialPlan(count: 60, seed: 2, jobs: 2))
    #expect(a.locationChances[0].latencies != b.locationChances[0].latencies)
  }

  @Test func eachTrialCanBeReplayedAloneAndTheTallyCountsWhatTheReplaysShow() throws {
    let scenario = Self.scenario(Self.stop(depth: 60, stay: 90, accuracy: 25))
    let report = try TrialRunner(scenario).run(TrialPlan(count: 40, seed: 5, jobs: 2))
    var fired: [Int64] = []
    var firstMiss: Int?
    for trial in 0..<40 {
      let timeline = try Simulation(scenario).report(trial: trial, seed: 5).timeline
      let enter = try #require(timeline.entries(.enter).first)
      if let firing = timeline.entries(.fired).first(where: { $0.subject == "arrive" }) {
        fired.append(firing.instant.millisecondsSinceEpoch - enter.instant.millisecondsSinceEpoch)
      } else if firstMiss == nil {
        firstMiss = trial
      }
    }
    let chance = try #require(report.locationChances.first)
    #expect(chance.pending == 40)
    #expect(chance.fired == fired.count)
    #expect(chance.latencies.sorted == fired.sorted())
    #expect(chance.firstMissTrial == firstMiss)
  }

  @Test func aLongDeepStayFiresInEveryTrialAndADriveThroughInNone() throws {
    // In the foreground (GPS: the fixes' ±5 m); in the background the ±65 m of Wi-Fi fixes
    // (`backgroundAccuracy`) loses some trials even of a long stay 90 m inside.
    let deep = try TrialRunner(Self.scenario(Self.stop(depth: 90, stay: 600, accuracy: 5), foreground: true)).run(TrialPlan(count: 100, seed: 3, jobs: 2))
    #expect(deep.locationChances.map(\.fired) == [100])
    // 15 m/s straight through the centre with continuous updates: 6.7 s at 50 m inside, never the 20 s dwell.
    let drive = Self.scenario(Self.track(seconds: 40, accuracy: 5) { t in 15 * Double(t) - 300 }, foreground: true)
    let through = try TrialRunner(drive).run(TrialPlan(count: 100, seed: 3, jobs: 2))
    #expect(through.locationChances.map(\.fired) == [0])
    #expect(through.locationChances.map(\.firstMissTrial) == [0])
  }

  @Test func underTheIdealProfileEveryTrialFiresAtTheCrossing() throws {
    let report = try TrialRunner(Self.scenario(Self.stop(depth: 60, stay: 90, accuracy: 25), profile: .ideal))
      .run(TrialPlan(count: 25, seed: 9, jobs: 2))
    let chance = try #require(report.locationChances.first)
    #expect(chance.fired == 25 && chance.pending == 25)
    #expect(chance.latencies.sorted == Array(repeating: 0, count: 25))
    #expect(report.variationSummary.hasPrefix("nothing"))
  }

  @Test func aFixedLatencyWithoutSpreadIsTheSameInEveryTrial() throws {
    var rules = RegionMonitoringRules()
    rules.latencySpread = 0
    rules.latency = .seconds(30)
    let deep = Self.scenario(Self.stop(depth: 90, stay: 600, accuracy: 5), profile: .ios(rules), foreground: true)
    let report = try TrialRunner(deep).run(TrialPlan(count: 30, seed: 4, jobs: 2))
    let latencies = try #require(report.locationChances.first).latencies.sorted
    // Only GPS error moves the instant the 50 m margin is reached: a few metres at 1.3 m/s.
    #expect(latencies.count == 30)
    #expect(latencies.allSatisfy { abs($0 - latencies[15]) < 15_000 })
    #expect(Set(latencies).count > 1)
  }

  @Test func aBadScriptedActionFailsTheTrialRunAsItFailsASingleRun() throws {
    var scenario = Self.scenario(Self.stop(depth: 60, stay: 90, accuracy: 25))
    scenario.medicineApp.userActions = [
      ScheduledUserAction(instant: Self.start.advanced(by: .seconds(5)), notification: NotificationID("nothing-here"), action: .complete)
    ]
    #expect(throws: InputError.self) { _ = try TrialRunner(scenario).run(TrialPlan(count: 4, seed: 1, jobs: 2)) }
  }

  /// The report trials gave before the compact track: every trial replays
  /// the fixes from an array and computes the geometry as it goes.
  static func reportReplayingAnArray(_ scenario: Scenario, _ plan: TrialPlan) throws -> TrialReport {
    var samples: [TrackSample] = []
    try scenario.track!.readSamples { sample in
      samples.append(sample)
      return sample.instant < scenario.clock.end
    }
    var replayed = scenario
    replayed.track = InMemoryTrack(name: scenario.track!.name, samples: samples)
    var tally = TrialTally()
    for trial in 0..<plan.count { try TrialRunner.runTrial(trial, of: replayed, app: MedicineReminderApp.hosted(for: replayed), geometry: nil, seed: plan.seed, into: &tally) }
    return TrialReport(scenario: scenario, plan: plan, tally: tally)
  }

  @Test func theCompactTrackGivesTheReportOfReplayingTheFixesFromAnArray() throws {
    // In and out of the circle for three hours (past two blocks of fixes), with
    // gaps past the limit, segment breaks, absent and changing accuracies, and
    // coordinates both as a file gives them (7 decimals) and computed.
    var random = SplitMix64(seed: 28)
    var samples: [TrackSample] = []
    for sample in Self.track(seconds: 3 * 3600, accuracy: 12, { t in 180 * sin(Double(t) / 400) - 60 }).samples {
      let t = sample.instant.millisecondsSinceEpoch / 1000 - Self.start.millisecondsSinceEpoch / 1000
      if t % 2500 < 420 && t > 2500 { continue }  // a 7-minute gap every 2500 s
      var fix = sample
      if t % 1700 == 0 && t > 0 { fix.startsSegment = true }
      if t % 3 == 0 {
        fix.coordinate = Coordinate(
          latitude: Double(String(format: "%.7f", fix.coordinate.latitude))!, longitude: Double(String(format: "%.7f", fix.coordinate.longitude))!)
      }
      fix.horizontalAccuracy = random.next(below: 10) == 0 ? nil : (5 + Double(random.next(below: 300)) / 10)
      fix.line = samples.count + 2
      samples.append(fix)
    }
    let broken = Self.scenario(InMemoryTrack(name: "broken", samples: samples), foreground: true)
    let quickStop = Self.scenario(Self.stop(depth: 60, stay: 90, accuracy: 25))
    for (name, scenario, count) in [("broken", broken, 12), ("quick stop", quickStop, 60)] {
      let plan = TrialPlan(count: count, seed: 2026, jobs: 2)
      var runner = TrialRunner(scenario)
      runner.arrayReplayLimit = 0  // compact, as a track past 2^20 fixes
      let compact = try runner.run(plan)
      let array = try Self.reportReplayingAnArray(scenario, plan)
      #expect(compact.text == array.text, "\(name)")
      #expect(compact.json == array.json, "\(name)")
      #expect(try TrialRunner(scenario).run(plan).text == array.text, "\(name), from an array")
      // Not vacuous: trials fire, and the broken walk has several chances.
      #expect(compact.locationChances.contains { $0.fired > 0 }, "\(name)")
    }
    let chances = try TrialRunner(broken).run(TrialPlan(count: 2, seed: 1, jobs: 1)).locationChances.count
    #expect(chances >= 5)
  }

  @Test func aTrackPastTheArrayLimitIsReplayedCompactAndAShorterOneFromAnArray() throws {
    let scenario = Self.scenario(Self.stop(depth: 60, stay: 90, accuracy: 25))
    let fixes = (scenario.track as! InMemoryTrack).samples.count
    let short = try TrialRunner.sharedReplay(of: scenario.track!, in: scenario, arrayLimit: fixes)
    #expect((short.track as? InMemoryTrack)?.samples == (scenario.track as! InMemoryTrack).samples)
    let long = try TrialRunner.sharedReplay(of: scenario.track!, in: scenario, arrayLimit: fixes - 1)
    let compact = try #require(long.track as? CompactTrack)
    #expect(compact.count == fixes)
    // The fixes read before the track passed the limit moved into the compact track, in order.
    var replayed: [TrackSample] = []
    try compact.readSamples { replayed.append($0); return true }
    #expect(replayed == (scenario.track as! InMemoryTrack).samples)
    #expect(long.geometry.count == fixes && short.geometry.count == fixes)
  }
}

/// The statistics the report prints.
@Suite struct TrialStatisticsTests {
  @Test func percentilesAreNearestRank() {
    let values = LatencyDistribution((1...100).map { Int64($0) }.reversed())
    #expect(values.percentile(50)?.milliseconds == 50)
    #expect(values.percentile(90)?.milliseconds == 90)
    #expect(values.percentile(99)?.milliseconds == 99)
    #expect(LatencyDistribution([7]).percentile(99)?.milliseconds == 7)
    #expect(LatencyDistribution([]).percentile(50) == nil)
    #expect(values.count(atMost: 10) == 10 && values.count(atMost: 0) == 0 && values.count(atMost: 1000) == 100)
  }

  @Test func theIntervalIsWilsons() {
    // Reference values: Brown, Cai and DasGupta (2001), and R's prop.test(correct = FALSE).
    let none = wilsonInterval(successes: 0, trials: 10)
    #expect(none.low == 0 && abs(none.high - 0.2775) < 0.0001)
    let half = wilsonInterval(successes: 5, trials: 10)
    #expect(abs(half.low - 0.2366) < 0.0001 && abs(half.high - 0.7634) < 0.0001)
    let most = wilsonInterval(successes: 95, trials: 100)
    #expect(abs(most.low - 0.8883) < 0.0001 && abs(most.high - 0.9785) < 0.0001)
  }

  @Test func gaussianDrawsAreStandardNormalIncludingTheTail() {
    var random = TrialRandom(seed: 46)
    let count = 2_000_000
    var sum = 0.0, squares = 0.0, aboveOne = 0, aboveTwo = 0, beyondTail = 0
    for _ in 0..<count {
      let z = random.nextGaussian()
      sum += z
      squares += z * z
      if z > 1 { aboveOne += 1 }
      if z > 2 { aboveTwo += 1 }
      if abs(z) > 3.5 { beyondTail += 1 }  // only the ziggurat's tail path draws these (r = 3.44)
    }
    let n = Double(count)
    #expect(abs(sum / n) < 0.003)
    #expect(abs(squares / n - 1) < 0.005)
    // Φ(−1) = 0.158655, Φ(−2) = 0.022750, 2Φ(−3.5) = 0.000465.
    #expect(abs(Double(aboveOne) / n - 0.158655) < 0.0012)
    #expect(abs(Double(aboveTwo) / n - 0.022750) < 0.0005)
    #expect(abs(Double(beyondTail) / n - 0.000465) < 0.00005)
  }

  @Test func positionErrorIsCorrelatedOverTheCorrelationTime() {
    var random = TrialRandom(seed: 42)
    var error = PositionError()
    var previous: Double?
    var products = 0.0, squares = 0.0
    for _ in 0..<200_000 {
      let (east, _) = error.advance(by: 1000, correlationMilliseconds: 60_000, random: &random)
      if let previous { products += previous * east }
      squares += east * east
      previous = east
    }
    // An Ornstein–Uhlenbeck process sampled every second: lag-1 correlation exp(−1/60) = 0.9835, unit variance.
    #expect(abs(products / squares - exp(-1.0 / 60)) < 0.003)
    #expect(abs(squares / 200_000 - 1) < 0.05)
  }

  @Test func withoutCorrelationEachFixDrawsAFreshError() {
    var random = TrialRandom(seed: 43)
    var error = PositionError()
    var previous: Double?
    var products = 0.0, squares = 0.0
    for _ in 0..<100_000 {
      let (east, _) = error.advance(by: 1000, correlationMilliseconds: 0, random: &random)
      if let previous { products += previous * east }
      squares += east * east
      previous = east
    }
    #expect(abs(products / squares) < 0.01)
  }

  @Test func sixtyEightPercentOfFixesFallWithinTheirAccuracy() {
    var random = TrialRandom(seed: 44)
    var error = PositionError()
    var within = 0
    let count = 100_000
    for _ in 0..<count {
      let (east, north) = error.advance(by: 1000, correlationMilliseconds: 0, random: &random)
      let metres = (east * east + north * north).squareRoot() * 20 / PositionError.accuracyPerSigma
      if metres <= 20 { within += 1 }
    }
    #expect(abs(Double(within) / Double(count) - 0.68) < 0.01)
  }

  @Test func latencyDrawsHaveTheConfiguredMedian() {
    var rules = RegionMonitoringRules()
    rules.latency = .minutes(2)
    rules.latencySpread = 0.5
    var sampler = LatencySampler(rules: rules, random: TrialRandom(seed: 45))
    let draws = (0..<20_001).map { _ in sampler.next() }.sorted()
    #expect(abs(Double(draws[10_000]) - 120_000) < 120_000 * 0.03)
    // ln-spread 0.5: the 84th percentile is e^0.5 = 1.65 times the median.
    #expect(abs(Double(draws[16_827]) / Double(draws[10_000]) - exp(0.5)) < 0.05)
    var fixed = LatencySampler(rules: rules, random: nil)
    #expect(fixed.next() == 120_000)
  }
}

/// Issue 42: the trial report lists a dose due in fewer than one trial in 20
/// in a group per medicine and reminder, not on a line of its own.
@Suite struct RareDoseGroupingTests {
  func chance(_ medicine: String, _ occurrence: Int64, at second: Int64, due: Int, notified: Int, silent: Bool = false) -> TrialReport.DoseChance {
    var chance = TrialReport.DoseChance(
      key: DoseKey(medicine: MedicineID(medicine), slot: .location, occurrence: occurrence), medicineName: medicine,
      reminder: "home on=enter", scheduled: SimulationInstant(millisecondsSinceEpoch: second * 1000), due: due,
      latencies: LatencyDistribution(Array(repeating: 0, count: notified)), firstMiss: nil)
    if silent { chance.expectedSilent = [0] }
    return chance
  }

  @Test func dosesDueInFewerThanOneTrialInTwentyAreGroupedByMedicineAndReminder() {
    let doses = [
      chance("a", 1, at: 0, due: 300, notified: 290),
      chance("a", 2, at: 10, due: 14, notified: 14),  // 14 × 20 = 280 < 300: rare
      chance("b", 2, at: 20, due: 1, notified: 0),
      chance("a", 2, at: 30, due: 15, notified: 15),  // 15 × 20 = 300: not rare
      chance("a", 3, at: 40, due: 1, notified: 1),
      chance("b", 3, at: 50, due: 2, notified: 2, silent: true),  // a silent visit stays on its own line
    ]
    let (common, rare) = TrialReport.splitRare(doses, trials: 300)
    #expect(common.map(\.scheduled.millisecondsSinceEpoch) == [0, 30_000, 50_000])
    #expect(rare.map { $0.map(\.scheduled.millisecondsSinceEpoch) } == [[10_000, 40_000], [20_000]])
  }
}
