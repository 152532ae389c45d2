import Foundation

/// The result of `TrialRunner`: for every chance a location request had to
/// fire, and for every dose, how often it happened over the trials and how
/// late. Rows are in a fixed order (time, then identifier), so the report is
/// the same bytes for the same scenario, trial count and seed.
public struct TrialReport: Sendable {
  public var scenarioName: String
  public var platformSummary: String
  public var plan: TrialPlan
  /// What varies between trials, in words (for the header).
  public var variationSummary: String
  public var locationChances: [LocationChance]
  public var falseFirings: [FalseFiring]
  public var doses: [DoseChance]
  /// The device's UTC offset, in seconds, at each instant the report prints
  /// (crossings and due times): the report prints in device time without
  /// the scenario's clock, so a merge of partial reports needs no time-zone data.
  var utcOffsets: [SimulationInstant: Int]

  /// A location request that was pending when the true path crossed its region.
  public struct LocationChance: Sendable {
    public var request: NotificationID
    public var region: RegionID
    public var entering: Bool
    /// The geometric visit (`visit=N` in the timeline).
    public var visit: Int
    /// When the true path crossed the boundary.
    public var crossing: SimulationInstant
    /// Trials in which the request was pending at the crossing.
    public var pending: Int
    /// Trials in which the device's detection of this crossing fired it.
    public var fired: Int
    /// Crossing-to-fired latencies of the firing trials, sorted.
    public var latencies: LatencyDistribution
    /// The lowest-numbered trial in which it was pending and did not fire (replay it with `--trial`).
    public var firstMissTrial: Int?

    /// fired / pending.
    public var probability: Double { pending == 0 ? 0 : Double(fired) / Double(pending) }
  }

  /// A request the device fired although the true path was not on that
  /// side of the region (GPS error, or a region smaller than the minimum radius).
  public struct FalseFiring: Sendable {
    public var request: NotificationID
    /// Trials with at least one such firing.
    public var trials: Int
  }

  /// A dose that was due in at least one trial.
  public struct DoseChance: Sendable {
    public var key: DoseKey
    public var medicineName: String
    /// `08:00`, or the location reminder's `home on=enter`.
    public var reminder: String
    public var scheduled: SimulationInstant
    /// Trials in which the dose was due.
    public var due: Int
    /// Due-to-notified delays of the notified trials, sorted.
    public var latencies: LatencyDistribution
    /// The lowest-numbered trial in which it was missed, and why.
    public var firstMiss: (trial: Int, reason: String)?
    /// The visit expectations that say the dose's visit is silent (`DoseRecord.expectedSilent`;
    /// the true path is the same in every trial); partial reports keep them, so a merge reports them as the unsharded run does.
    public var expectedSilent: [Int] = []

    public var notified: Int { latencies.count }
    /// notified / due.
    public var probability: Double { due == 0 ? 0 : Double(notified) / Double(due) }
    /// The fraction of due trials in which it was notified no later than `within` after it was due.
    public func probability(within: SimulationDuration) -> Double {
      due == 0 ? 0 : Double(latencies.count(atMost: within.milliseconds)) / Double(due)
    }
  }

  init(scenario: Scenario, plan: TrialPlan, tally: TrialTally) {
    scenarioName = scenario.name
    platformSummary = scenario.platform.summary
    self.plan = plan
    // The push service's draws (`PushService`), said only for scenarios with pushes, so other reports read as before.
    let attention = scenario.platform.attention
    let pushServiceDraws = scenario.pushes.pushes.isEmpty ? nil
      : "the push service's choices: each priority-5 push delivered with probability \(attention.priority5DeliveryProbability) "
        + "after a delay uniform up to \(attention.priority5MaxDelay), and the push it keeps while the phone is unreachable"
    // The reminder server's draws (the manual, "Server side", "Trials"), said only for scenarios with a server.
    let draws = [pushServiceDraws, scenario.server.trialDraws].compactMap { $0 }
    let extraDraws = draws.isEmpty ? nil : draws.joined(separator: "; ")
    if let android = scenario.platform.android {
      // The Android device's draws (the manual, "Android profile", "Trials").
      let geofencing = android.geofencing
      variationSummary =
        "where each inexact or window alarm fires in its window (uniform); when Doze begins (uniform over \(android.doze.enterSpread) after \(android.doze.enterAfter)); "
        + "when each maintenance window opens (uniform up to \(android.doze.maintenanceSpread) after its idle span); "
        + "GPS error from each fix's accuracy (its 68% radius; in the background at least ±\(RegionMonitoringService.metres(geofencing.backgroundAccuracy))), "
        + "correlated over \(geofencing.errorCorrelation); geofence latency log-normal with median \(geofencing.backgroundLatency) in the background "
        + "and spread \(String(format: "%.2f", geofencing.latencySpread))" + (extraDraws.map { "; \($0)" } ?? "")
    } else {
    switch scenario.platform.location {
    case .ideal:
      variationSummary = extraDraws.map { "\($0) (the ideal profile has no GPS error, update grid or latency)" }
        ?? "nothing (the ideal profile has no GPS error, update grid or latency: every trial is the same)"
    case .ios(let rules):
      variationSummary =
        "GPS error from each fix's accuracy (its 68% radius; at background updates at least ±\(RegionMonitoringService.metres(rules.backgroundAccuracy))), "
        + "correlated over \(rules.errorCorrelation); "
        + "the phase of the location-update grid; latency log-normal with median \(rules.latency) and spread \(rules.latencySpread)"
        + (extraDraws.map { "; \($0)" } ?? "")
    }
    }
    let regionIDs = scenario.regions.map(\.id)
    locationChances = Self.inReportOrder(tally.chances.map { key, chance in
      LocationChance(
        request: key.request, region: regionIDs[key.region], entering: key.entering, visit: key.visit, crossing: chance.crossing,
        pending: chance.pending, fired: chance.fired, latencies: LatencyDistribution(chance.latencies), firstMissTrial: chance.firstMiss)
    })
    falseFirings = Self.inReportOrder(tally.falseFirings.map { FalseFiring(request: $0.key, trials: $0.value) })
    doses = Self.inReportOrder(tally.doses.values.map { dose in
      DoseChance(
        key: dose.record.key, medicineName: dose.record.medicineName, reminder: dose.record.reminder, scheduled: dose.record.scheduled,
        due: dose.due, latencies: LatencyDistribution(dose.latencies), firstMiss: dose.firstMiss, expectedSilent: dose.record.expectedSilent)
    })
    utcOffsets = [:]
    for instant in locationChances.map(\.crossing) + doses.map(\.scheduled) { utcOffsets[instant] = scenario.clock.utcOffset(at: instant) }
  }

  /// A report made of its parts (a merge of partial reports), rows in any order.
  init(
    scenarioName: String, platformSummary: String, plan: TrialPlan, variationSummary: String, locationChances: [LocationChance],
    falseFirings: [FalseFiring], doses: [DoseChance], utcOffsets: [SimulationInstant: Int]
  ) {
    self.scenarioName = scenarioName
    self.platformSummary = platformSummary
    self.plan = plan
    self.variationSummary = variationSummary
    self.locationChances = Self.inReportOrder(locationChances)
    self.falseFirings = Self.inReportOrder(falseFirings)
    self.doses = Self.inReportOrder(doses)
    self.utcOffsets = utcOffsets
  }

  /// Chances by crossing time, then request, region, enter before exit.
  static func inReportOrder(_ chances: [LocationChance]) -> [LocationChance] {
    chances.sorted {
      ($0.crossing, $0.request.rawValue, $0.region.rawValue, $0.entering ? 0 : 1)
        < ($1.crossing, $1.request.rawValue, $1.region.rawValue, $1.entering ? 0 : 1)
    }
  }

  /// False firings by request.
  static func inReportOrder(_ firings: [FalseFiring]) -> [FalseFiring] { firings.sorted { $0.request.rawValue < $1.request.rawValue } }

  /// Doses by due time, then medicine, reminder slot, occurrence.
  static func inReportOrder(_ doses: [DoseChance]) -> [DoseChance] {
    doses.sorted { a, b in
      (a.scheduled, a.key.medicine.rawValue, a.key.slot, a.key.occurrence, a.key.repeatOnDay)
        < (b.scheduled, b.key.medicine.rawValue, b.key.slot, b.key.occurrence, b.key.repeatOnDay)
    }
  }

  /// `instant` in device time, at the offset the report recorded for it.
  func local(_ instant: SimulationInstant) -> String {
    InstantFormatter.format(instant, offsetSeconds: utcOffsets[instant] ?? 0)
  }
}

/// A sorted multiset of latencies in milliseconds, with nearest-rank percentiles.
public struct LatencyDistribution: Sendable, Equatable {
  public let sorted: [Int64]

  public init(_ values: [Int64]) { sorted = values.sorted() }

  /// Values already in ascending order (checked by the caller).
  init(ascending values: [Int64]) { sorted = values }

  /// The multiset union of `self` and `other`, merged in linear time.
  public func merging(_ other: LatencyDistribution) -> LatencyDistribution {
    var merged: [Int64] = []
    merged.reserveCapacity(sorted.count + other.sorted.count)
    var left = 0, right = 0
    while left < sorted.count && right < other.sorted.count {
      if sorted[left] <= other.sorted[right] {
        merged.append(sorted[left])
        left += 1
      } else {
        merged.append(other.sorted[right])
        right += 1
      }
    }
    merged += sorted[left...]
    merged += other.sorted[right...]
    return LatencyDistribution(ascending: merged)
  }

  public var count: Int { sorted.count }

  /// The nearest-rank percentile: the smallest value with at least `p` % of
  /// the values at or below it (nil when empty).
  public func percentile(_ p: Double) -> SimulationDuration? {
    guard !sorted.isEmpty else { return nil }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return SimulationDuration(milliseconds: sorted[min(max(rank, 1), sorted.count) - 1])
  }

  /// How many values are at most `limit`.
  public func count(atMost limit: Int64) -> Int {
    var low = 0, high = sorted.count
    while low < high {
      let mid = (low + high) / 2
      if sorted[mid] <= limit { low = mid + 1 } else { high = mid }
    }
    return low
  }
}

/// The Wilson score interval for a binomial proportion at 95 % confidence
/// (Wilson 1927; Brown, Cai and DasGupta, Statistical Science 16(2), 2001,
/// recommend it over the normal approximation for small counts and
/// proportions near 0 or 1, which is where reminder probabilities live).
public func wilsonInterval(successes: Int, trials: Int) -> (low: Double, high: Double) {
  guard trials > 0 else { return (0, 1) }
  let z = 1.959_963_984_540_054
  let n = Double(trials), p = Double(successes) / n
  let denominator = 1 + z * z / n
  let centre = (p + z * z / (2 * n)) / denominator
  let half = z * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot() / denominator
  return (max(0, centre - half), min(1, centre + half))
}
