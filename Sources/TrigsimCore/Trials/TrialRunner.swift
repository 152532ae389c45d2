import Dispatch
import Foundation

/// Replays one scenario many times, each time with its own seeded device
/// variation, and reports how often each location request fired and each
/// dose was notified, with latency percentiles.
///
/// ```swift
/// let report = try TrialRunner(scenario).run(TrialPlan(count: 1000, seed: 7))   // the scenario's medicine app (import TrigsimMedicineApp)
/// print(report.text)
/// ```
///
/// What varies between trials is the device, never the world (see
/// `DeviceVariation`): GPS error on every observed fix, drawn from the fix's
/// horizontal accuracy and correlated along the track; the phase of the
/// coarse location-update grid; and each report's latency. The geometry, the
/// clock, the app and the patient are the same in every trial.
///
/// **Determinism.** Trial `i` draws from a stream seeded by `seed` and `i`
/// alone. Workers tally trials into order-free aggregates (counts and sorted
/// latency multisets), so the report is byte-identical for the same seed
/// whatever the number of workers and however the scheduler interleaves them.
///
/// **Memory.** The track is read and decoded once, with its geometry
/// recorded sparsely (`RecordedPathGeometry`), and shared by every worker:
/// as an array up to 2^20 fixes, beyond as a `CompactTrack` (about 6 bytes a
/// fix) that each trial decodes as it goes (see `sharedReplay`). A trial's
/// timeline entries are counted, never kept (each trial is bounded by the
/// scenario's `limits`, as a single run is).
/// What grows with the number of trials is one latency per fired request or
/// notified dose per trial (8 bytes each), for exact percentiles.
public struct TrialRunner {
  public let scenario: Scenario
  /// The longest track trials replay from an array of fixes (see `sharedReplay`).
  var arrayReplayLimit = TrialRunner.defaultArrayReplayLimit

  /// 2^20 fixes: 56 MB as an array of `TrackSample` (12 days at 1 Hz).
  static let defaultArrayReplayLimit = 1 << 20

  /// The app under test: each trial makes its own (`HostedApp.make`).
  public let app: HostedApp

  /// Trials of `scenario` with `app`, a team's app or the scenario's medicine
  /// app (`TrialRunner(scenario)` in `TrigsimMedicineApp`).
  public init(_ scenario: Scenario, app: HostedApp) {
    self.scenario = scenario
    self.app = app
  }

  /// Runs the trials `plan.trials` (all `plan.count` of them unless the plan
  /// is one shard's, `Shard`) on `plan.jobs` workers.
  ///
  /// - Throws: `InputError` when the track has bad input or a scripted user
  ///   action is impossible (found by the first trial, as in a single run).
  public func run(_ plan: TrialPlan) throws -> TrialReport {
    try Simulation.checkAppUnderTest(of: scenario, app: app)
    if let problem = scenario.limits.clockSpanProblem(scenario.clock) { throw InputError(problem) }
    var shared = scenario
    var geometry: RecordedPathGeometry?
    if let track = scenario.track {
      let replay = try Self.sharedReplay(of: track, in: scenario, arrayLimit: arrayReplayLimit)
      shared.track = replay.track
      geometry = replay.geometry
    }
    let frozen = UncheckedSendable(shared)
    let recorded = geometry
    let app = self.app
    let workers = max(1, min(plan.jobs, plan.trials.count))
    let trials = IndexedResults<Never>(count: plan.trials.count)  // hands out trial numbers; the tallies are per worker
    let tallies = IndexedResults<TrialTally>(count: workers)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      // Every worker replays the same immutable track; region shapes that
      // hold per-thread state are copied.
      var scenario = frozen.value
      if worker > 0 {
        for index in scenario.regions.indices { scenario.regions[index].shape = scenario.regions[index].shape.copyForAnotherThread() }
      }
      // Whichever worker runs a trial, it draws from the trial's own stream,
      // and the tallies merge in any grouping to the same report.
      var tally = TrialTally()
      while let claimed = trials.claimNext() {
        let trial = plan.trials.lowerBound + claimed
        do {
          try Self.runTrial(trial, of: scenario, app: app, geometry: recorded, seed: plan.seed, into: &tally)
        } catch {
          tally.failure = (trial, error)
          break
        }
      }
      tallies.store(tally, at: worker)
    }
    var merged = TrialTally()
    for tally in tallies.all() { if let tally { merged.merge(tally) } }
    if let failure = merged.failure { throw failure.error }
    return TrialReport(scenario: scenario, plan: plan, tally: merged)
  }

  /// The track as every trial replays it, read once, and the geometry of
  /// the true path, computed in the same pass. Reading stops after the first
  /// fix at or after the clock's end, as a run's does.
  ///
  /// A track of at most `arrayLimit` fixes is kept as an array, which
  /// trials read for nothing. Past that, the fixes read so far move into a
  /// `CompactTrack` (about 6 bytes a fix) and the rest go there as they are
  /// read; trials then decode it as they go (about a tenth of a trial's
  /// time), so that memory stays about 6 bytes a fix however long the track.
  static func sharedReplay(
    of track: any TrackSource, in scenario: Scenario, arrayLimit: Int
  ) throws -> (track: any TrackSource & Sendable, geometry: RecordedPathGeometry) {
    var samples: [TrackSample] = []
    var compact = CompactTrack.Builder(name: track.name)
    var isCompact = false
    var geometry = RecordedPathGeometry.Recorder(shapes: scenario.regions.map(\.shape), gapLimit: scenario.platform.trackGapLimit)
    try track.readSamples { sample in
      if !isCompact && samples.count >= arrayLimit {
        for earlier in samples { compact.append(earlier) }
        samples = []
        isCompact = true
      }
      if isCompact { compact.append(sample) } else { samples.append(sample) }
      geometry.record(sample)
      return sample.instant < scenario.clock.end
    }
    if isCompact { return (compact.finish(), geometry.recorded) }
    return (InMemoryTrack(name: track.name, samples: samples), geometry.recorded)
  }

  /// The variation trial `index` of a run seeded with `seed` gets.
  public static func variation(trial index: Int, seed: UInt64, profile: LocationProfile) -> DeviceVariation {
    var random = TrialRandom(seed: TrialRandom.trialSeed(seed, trial: index))
    let trialSeed = random.next()
    var phase: Int64 = 0
    if case .ios(let rules) = profile {
      let interval = max(rules.backgroundInterval.milliseconds, rules.foregroundInterval.milliseconds)
      if interval > 0 { phase = random.next(below: interval) }
    }
    return DeviceVariation(gridPhase: phase, seed: trialSeed)
  }

  /// The stream index a trial's patient draws its pickups from (beside the device's own stream).
  static let patientStream = 0x7061_7469

  /// The patient of a trial: the scenario's, with pickups drawn from the
  /// trial's own stream, separate from the device's so that looks never shift
  /// the device's draws. A single run's patient (no variation) looks evenly.
  static func patient(of variation: DeviceVariation?) -> ScriptedPatient {
    guard let variation else { return ScriptedPatient() }
    return ScriptedPatient(lookRandom: TrialRandom(seed: TrialRandom.trialSeed(variation.seed, trial: patientStream)))
  }

  static func runTrial(
    _ index: Int, of scenario: Scenario, app: HostedApp, geometry: RecordedPathGeometry?, seed: UInt64,
    into tally: inout TrialTally
  ) throws {
    // A trial's outcome is its summary and location log: its entries are counted (and bounded) but not kept.
    let variation = variation(trial: index, seed: seed, profile: scenario.platform.location)
    var run = SimulationRun(
      scenario, variation: variation, sink: TimelineEntryCounter(),
      layers: SimulationLayers(scenario, variation: variation, app: HostedAppLayer.make(app, for: scenario), patient: Self.patient(of: variation)))
    run.replay.recordedGeometry = geometry
    run.layers.phone.core.locationLog = LocationRequestLog()
    try run.execute()
    tally.add(log: run.layers.phone.core.locationLog!, doses: run.summary().doses, trial: index)
  }
}

/// How many trials, from which seed, on how many workers.
public struct TrialPlan: Sendable, Equatable {
  /// The run's trial count N: the report's "of N trials".
  public var count: Int
  public var seed: UInt64
  /// Worker threads; the report does not depend on it.
  public var jobs: Int
  /// The trial numbers this plan runs: all of `0..<count`, or one shard's
  /// block of them (`Shard.trials(of:)`).
  public var trials: Range<Int>

  public init(count: Int, seed: UInt64, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, shard: Shard = .whole) {
    self.count = count
    self.seed = seed
    self.jobs = max(1, jobs)
    trials = shard.trials(of: count)
  }
}

// MARK: - What one run logs

/// A location request that was pending for its kind when the true path
/// crossed its region: a chance for it to fire.
struct LocationOpportunity {
  var request: NotificationID
  var region: Int
  var entering: Bool
  var visit: Int
  var crossing: SimulationInstant
}

/// A location request the device's detection delivered (and the platform showed).
struct LocationDelivery {
  var request: NotificationID
  var region: Int
  var entering: Bool
  /// The geometric visit, and its crossing; nil when the true path was not
  /// on that side (GPS error or the minimum radius).
  var visit: Int?
  var crossing: SimulationInstant?
  var at: SimulationInstant
}

/// What a run keeps for trials (see `SimulationRun.locationLog`).
struct LocationRequestLog {
  var opportunities: [LocationOpportunity] = []
  var deliveries: [LocationDelivery] = []
}

// MARK: - Tallies

/// A location request's chance: the request, and the true crossing it may fire for.
struct OpportunityKey: Hashable {
  var request: NotificationID
  var region: Int
  var entering: Bool
  var visit: Int
}

struct DoseInstance: Hashable {
  var key: DoseKey
  var scheduled: SimulationInstant
}

/// Order-free aggregates of any number of trials: merging tallies in any
/// grouping gives the same result once latencies are sorted.
struct TrialTally {
  struct Chance {
    var crossing: SimulationInstant
    /// The lowest-numbered trial in which the request was pending but did not fire.
    var firstMiss: Int?
    /// Trials in which the request was pending at the crossing.
    var pending = 0
    /// Trials in which it fired for this crossing.
    var fired = 0
    /// Crossing-to-fired latency of each firing trial, milliseconds.
    var latencies: [Int64] = []
  }

  struct DoseTally {
    var record: DoseRecord
    /// Trials in which the dose existed (was due within the run).
    var due = 0
    /// Due-to-notified latency of each notified trial, milliseconds.
    var latencies: [Int64] = []
    /// The lowest-numbered trial in which the dose was missed, with the reason.
    var firstMiss: (trial: Int, reason: String)?
  }

  var trials = 0
  var chances: [OpportunityKey: Chance] = [:]
  /// Per request: trials in which it fired with the true path not on that side.
  var falseFirings: [NotificationID: Int] = [:]
  /// Keyed by dose and due instant: a location dose's number counts the
  /// crossings that made one due, so the same number could in principle name
  /// another crossing in another trial.
  var doses: [DoseInstance: DoseTally] = [:]
  var failure: (trial: Int, error: any Error)?

  mutating func add(log: LocationRequestLog, doses records: [DoseRecord], trial: Int) {
    trials += 1
    for opportunity in log.opportunities {
      let key = OpportunityKey(request: opportunity.request, region: opportunity.region, entering: opportunity.entering, visit: opportunity.visit)
      chances[key, default: Chance(crossing: opportunity.crossing)].pending += 1
    }
    var falselyFired: Set<NotificationID> = []
    var firedFor: Set<OpportunityKey> = []
    for delivery in log.deliveries {
      guard let crossing = delivery.crossing, let visit = delivery.visit else {
        falselyFired.insert(delivery.request)
        continue
      }
      let key = OpportunityKey(request: delivery.request, region: delivery.region, entering: delivery.entering, visit: visit)
      // One firing per crossing counts (a repeating request fires once per detection).
      guard firedFor.insert(key).inserted else { continue }
      chances[key, default: Chance(crossing: crossing)].fired += 1
      chances[key]!.latencies.append(crossing.duration(to: delivery.at).milliseconds)
    }
    for opportunity in log.opportunities {
      let key = OpportunityKey(request: opportunity.request, region: opportunity.region, entering: opportunity.entering, visit: opportunity.visit)
      if !firedFor.contains(key) && chances[key]!.firstMiss == nil { chances[key]!.firstMiss = trial }
    }
    for request in falselyFired { falseFirings[request, default: 0] += 1 }
    for record in records {
      let instance = DoseInstance(key: record.key, scheduled: record.scheduled)
      var tally = doses[instance] ?? DoseTally(record: record)
      tally.due += 1
      if let notified = record.notified {
        // A dose notified before its true crossing (detected ahead of the path) counts no delay.
        tally.latencies.append(max(0, record.scheduled.duration(to: notified).milliseconds))
      } else if tally.firstMiss == nil {
        tally.firstMiss = (trial, record.reason ?? "no reason recorded")
      }
      doses[instance] = tally
    }
  }

  mutating func merge(_ other: TrialTally) {
    trials += other.trials
    for (key, chance) in other.chances {
      if var mine = chances[key] {
        mine.pending += chance.pending
        mine.fired += chance.fired
        mine.latencies += chance.latencies
        mine.firstMiss = Self.earlier(mine.firstMiss, chance.firstMiss)
        chances[key] = mine
      } else {
        chances[key] = chance
      }
    }
    for (request, count) in other.falseFirings { falseFirings[request, default: 0] += count }
    for (key, dose) in other.doses {
      if var mine = doses[key] {
        mine.due += dose.due
        mine.latencies += dose.latencies
        if let theirs = dose.firstMiss, theirs.trial < (mine.firstMiss?.trial ?? .max) { mine.firstMiss = theirs }
        doses[key] = mine
      } else {
        doses[key] = dose
      }
    }
    if let failure = other.failure, failure.trial < (self.failure?.trial ?? .max) { self.failure = failure }
  }

  private static func earlier(_ a: Int?, _ b: Int?) -> Int? {
    switch (a, b) {
    case (let a?, let b?): min(a, b)
    default: a ?? b
    }
  }
}
