import Foundation

/// One shard's share of a trial run (`trigsim run S --trials N --seed S
/// --shard I/K`): the order-free aggregates of its trials, and everything
/// the report prints besides them, so that `trigsim merge` rebuilds the
/// unsharded report without the scenario or its track.
///
/// The file is JSON, written by `canonicalJSON()`: members sorted by name,
/// two-space indentation, latencies in ascending order, rows in the
/// report's order. The same inputs give the same bytes whatever `--jobs`.
/// Format `trigsim-trial-partial-1`; the manual's "Sharding across
/// machines" describes every member.
public struct PartialTrialReport: Codable, Sendable, Equatable {
  public static let formatName = "trigsim-trial-partial-1"

  /// The input files that decide the run (the scenario, then the track, regions and places files it reads).
  public struct ScenarioIdentity: Codable, Sendable, Equatable {
    /// The scenario's path as the shard was given it (for messages only).
    public var path: String
    /// `sha256:` and the SHA-256 of one line `ROLE SHA256` per input file
    /// (`ScenarioFile.inputDigest`): another scenario, track, regions or
    /// places file is another digest, wherever it lies.
    public var digest: String

    public init(path: String, digest: String) {
      self.path = path
      self.digest = digest
    }
  }

  /// `--shard I/K` as stored.
  public struct ShardNumber: Codable, Sendable, Equatable {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) {
      self.index = index
      self.count = count
    }
  }

  /// The trial numbers the shard ran: `first ..< end`.
  public struct TrialNumbers: Codable, Sendable, Equatable {
    public var first: Int
    public var end: Int
  }

  public struct LocationRow: Codable, Sendable, Equatable {
    public var request: String
    public var region: String
    /// `enter` or `exit`.
    public var event: String
    public var visit: Int
    /// The true crossing, milliseconds since the Unix epoch.
    public var crossingMs: Int64
    /// The device's UTC offset at the crossing, seconds.
    public var utcOffsetSeconds: Int
    public var pending: Int
    public var fired: Int
    /// One per firing trial, ascending.
    public var latenciesMs: [Int64]
    /// Absent when the request fired in every trial in which it was pending.
    public var firstMissTrial: Int?
  }

  public struct FalseFiringRow: Codable, Sendable, Equatable {
    public var request: String
    public var trials: Int
  }

  public struct Miss: Codable, Sendable, Equatable {
    public var trial: Int
    public var reason: String
  }

  public struct DoseRow: Codable, Sendable, Equatable {
    public var medicine: String
    public var medicineName: String
    /// `HH:MM` for a daily time, `location` for the location reminder.
    public var slot: String
    public var occurrence: Int64
    public var repeatOnDay: Int
    public var reminder: String
    public var scheduledMs: Int64
    public var utcOffsetSeconds: Int
    public var due: Int
    public var latenciesMs: [Int64]
    /// Absent when the dose was notified in every trial in which it was due.
    public var firstMiss: Miss?
    /// The scenario's visit expectations that say the dose's visit is silent; absent when none does.
    public var expectedSilent: [Int]? = nil
    /// A place set's location dose: its place (`DoseKey.place`); absent otherwise.
    public var place: String? = nil
  }

  public var format: String
  /// The version of trigsim that wrote it (`TrigsimVersion.current`).
  public var trigsim: String
  public var scenario: ScenarioIdentity
  /// The report's header lines.
  public var name: String
  public var platform: String
  public var varied: String
  public var seed: UInt64
  /// N, the trial count of the whole run.
  public var trials: Int
  public var shard: ShardNumber
  public var trialNumbers: TrialNumbers
  public var locationRequests: [LocationRow]
  public var falseFirings: [FalseFiringRow]
  public var doses: [DoseRow]

  /// The partial of `report`, the report of one shard's trials (`plan.trials`).
  public init(_ report: TrialReport, shard: Shard, scenario: ScenarioIdentity) {
    format = Self.formatName
    trigsim = TrigsimVersion.current
    self.scenario = scenario
    name = report.scenarioName
    platform = report.platformSummary
    varied = report.variationSummary
    seed = report.plan.seed
    trials = report.plan.count
    self.shard = ShardNumber(index: shard.index, count: shard.count)
    trialNumbers = TrialNumbers(first: report.plan.trials.lowerBound, end: report.plan.trials.upperBound)
    locationRequests = report.locationChances.map { chance in
      LocationRow(
        request: chance.request.rawValue, region: chance.region.rawValue, event: chance.entering ? "enter" : "exit", visit: chance.visit,
        crossingMs: chance.crossing.millisecondsSinceEpoch, utcOffsetSeconds: report.utcOffsets[chance.crossing] ?? 0,
        pending: chance.pending, fired: chance.fired, latenciesMs: chance.latencies.sorted, firstMissTrial: chance.firstMissTrial)
    }
    falseFirings = report.falseFirings.map { FalseFiringRow(request: $0.request.rawValue, trials: $0.trials) }
    doses = report.doses.map { dose in
      let slot: String
      switch dose.key.slot {
      case .time(let time): slot = time.description
      case .location: slot = "location"
      }
      return DoseRow(
        medicine: dose.key.medicine.rawValue, medicineName: dose.medicineName, slot: slot, occurrence: dose.key.occurrence,
        repeatOnDay: dose.key.repeatOnDay, reminder: dose.reminder, scheduledMs: dose.scheduled.millisecondsSinceEpoch,
        utcOffsetSeconds: report.utcOffsets[dose.scheduled] ?? 0, due: dose.due, latenciesMs: dose.latencies.sorted,
        firstMiss: dose.firstMiss.map { Miss(trial: $0.trial, reason: $0.reason) }, expectedSilent: dose.expectedSilent.isEmpty ? nil : dose.expectedSilent,
        place: dose.key.place?.rawValue)
    }
  }

  /// The file's text: sorted members, two-space indentation, a final line end.
  public func canonicalJSON() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    // Every member is a string, an integer, an array or an object: encoding cannot fail.
    guard let data = try? encoder.encode(self) else { preconditionFailure("a partial trial report did not encode") }
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// `--shard I/K` as a `Shard`, when it is one.
  public var shardNumber: Shard? { Shard(index: shard.index, count: shard.count) }
}

/// A value of a partial file that cannot be what trigsim wrote: where it is
/// (a path of member names and array positions from the document's root,
/// which the reader turns into a line and column), and what is wrong.
public struct PartialReportProblem: Error, Sendable, Equatable {
  public enum Step: Sendable, Equatable, CustomStringConvertible {
    case member(String)
    case element(Int)

    public var description: String {
      switch self {
      case .member(let name): name
      case .element(let index): "[\(index)]"
      }
    }
  }

  public var path: [Step]
  public var message: String
  public var notes: [String]

  public init(_ path: [Step], _ message: String, notes: [String] = []) {
    self.path = path
    self.message = message
    self.notes = notes
  }
}

extension PartialTrialReport {
  /// The earliest and latest instants a partial may name (years 1 to 9999), so any offset prints.
  static let instantRange: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999
  /// The widest UTC offset a partial may record (±26 h; real zones stay within ±14 h).
  static let offsetRange = -93_600...93_600

  /// The partial's rows as a report of its own trials, after checking that
  /// every value is one trigsim writes: the shard's trial numbers are its
  /// block (`Shard.trials(of:)`), counts lie between 0 and the shard's trial
  /// count, each row has one latency per firing or notified trial, a first
  /// miss lies among the shard's trials, instants and offsets are in range.
  ///
  /// - Parameter largestTrialCount: the most trials a run may have.
  /// - Throws: the first value that is not, with where it is.
  public func report(largestTrialCount: Int) throws(PartialReportProblem) -> TrialReport {
    guard (1...largestTrialCount).contains(trials) else {
      throw PartialReportProblem([.member("trials")], "'trials' is \(trials), not a trial count from 1 to \(largestTrialCount)")
    }
    guard let shard = shardNumber else {
      throw PartialReportProblem([.member("shard")], "'shard' is \(self.shard.index)/\(self.shard.count), not I/K with 1 ≤ I ≤ K")
    }
    guard shard.count <= trials else {
      throw PartialReportProblem([.member("shard"), .member("count")], "\(shard.count) shards of \(trials) trials: a shard holds at least one trial")
    }
    let numbers = shard.trials(of: trials)
    guard trialNumbers.first == numbers.lowerBound && trialNumbers.end == numbers.upperBound else {
      throw PartialReportProblem(
        [.member("trialNumbers")], "shard \(shard) of \(trials) trials runs trials \(numbers.lowerBound) to \(numbers.upperBound - 1), not \(trialNumbers.first) to \(trialNumbers.end - 1)")
    }
    let shardTrials = numbers.count
    func count(_ value: Int, _ path: [PartialReportProblem.Step], _ what: String) throws(PartialReportProblem) {
      guard (0...shardTrials).contains(value) else {
        throw PartialReportProblem(path, "\(what) is \(value), not a count from 0 to the shard's \(shardTrials) trials")
      }
    }
    func latencies(_ values: [Int64], count expected: Int, _ path: [PartialReportProblem.Step], what: String) throws(PartialReportProblem) -> LatencyDistribution {
      guard values.count == expected else {
        throw PartialReportProblem(path, "\(values.count) latencies for \(expected) \(what) trials: there is one per \(what) trial")
      }
      for index in values.indices.dropFirst() where values[index] < values[index - 1] {
        throw PartialReportProblem(path + [.element(index)], "latencies are in ascending order; this one is smaller than the one before it")
      }
      return LatencyDistribution(ascending: values)
    }
    func instant(_ milliseconds: Int64, offset: Int, _ path: [PartialReportProblem.Step], _ member: String) throws(PartialReportProblem) -> SimulationInstant {
      guard Self.instantRange.contains(milliseconds) else {
        throw PartialReportProblem(path + [.member(member)], "'\(member)' is outside the years 1 to 9999")
      }
      guard Self.offsetRange.contains(offset) else {
        throw PartialReportProblem(path + [.member("utcOffsetSeconds")], "'utcOffsetSeconds' is \(offset), beyond ±26 hours")
      }
      return SimulationInstant(millisecondsSinceEpoch: milliseconds)
    }
    func trialNumber(_ trial: Int, _ path: [PartialReportProblem.Step]) throws(PartialReportProblem) {
      guard numbers.contains(trial) else {
        throw PartialReportProblem(path, "trial \(trial) is not one of the shard's trials (\(numbers.lowerBound) to \(numbers.upperBound - 1))")
      }
    }

    var offsets: [SimulationInstant: Int] = [:]
    var chances: [TrialReport.LocationChance] = []
    for (index, row) in locationRequests.enumerated() {
      let path: [PartialReportProblem.Step] = [.member("locationRequests"), .element(index)]
      guard row.event == "enter" || row.event == "exit" else {
        throw PartialReportProblem(path + [.member("event")], "'event' is 'enter' or 'exit'")
      }
      try count(row.pending, path + [.member("pending")], "'pending'")
      try count(row.fired, path + [.member("fired")], "'fired'")
      let crossing = try instant(row.crossingMs, offset: row.utcOffsetSeconds, path, "crossingMs")
      offsets[crossing] = row.utcOffsetSeconds
      if let miss = row.firstMissTrial { try trialNumber(miss, path + [.member("firstMissTrial")]) }
      chances.append(TrialReport.LocationChance(
        request: NotificationID(row.request), region: RegionID(row.region), entering: row.event == "enter", visit: row.visit,
        crossing: crossing, pending: row.pending, fired: row.fired,
        latencies: try latencies(row.latenciesMs, count: row.fired, path + [.member("latenciesMs")], what: "firing"),
        firstMissTrial: row.firstMissTrial))
    }
    var firings: [TrialReport.FalseFiring] = []
    for (index, row) in falseFirings.enumerated() {
      try count(row.trials, [.member("falseFirings"), .element(index), .member("trials")], "'trials'")
      firings.append(TrialReport.FalseFiring(request: NotificationID(row.request), trials: row.trials))
    }
    var doseChances: [TrialReport.DoseChance] = []
    for (index, row) in doses.enumerated() {
      let path: [PartialReportProblem.Step] = [.member("doses"), .element(index)]
      guard let slot = Self.slot(row.slot) else {
        throw PartialReportProblem(path + [.member("slot")], "'slot' is a daily time HH:MM (00:00 to 23:59) or 'location'")
      }
      guard row.repeatOnDay >= 0 else { throw PartialReportProblem(path + [.member("repeatOnDay")], "'repeatOnDay' is 0 or more") }
      try count(row.due, path + [.member("due")], "'due'")
      let scheduled = try instant(row.scheduledMs, offset: row.utcOffsetSeconds, path, "scheduledMs")
      offsets[scheduled] = row.utcOffsetSeconds
      if let miss = row.firstMiss { try trialNumber(miss.trial, path + [.member("firstMiss"), .member("trial")]) }
      guard row.latenciesMs.count <= row.due else {
        throw PartialReportProblem(path + [.member("latenciesMs")], "\(row.latenciesMs.count) delays for a dose due in \(row.due) trials")
      }
      let notified = try latencies(row.latenciesMs, count: row.latenciesMs.count, path + [.member("latenciesMs")], what: "notified")
      if let indices = row.expectedSilent, indices.contains(where: { $0 < 0 }) || indices.isEmpty {
        throw PartialReportProblem(path + [.member("expectedSilent")], "'expectedSilent' lists visit expectations by their index (0 or more), or is left out")
      }
      doseChances.append(TrialReport.DoseChance(
        key: DoseKey(
          medicine: MedicineID(row.medicine), slot: slot, occurrence: row.occurrence, repeatOnDay: row.repeatOnDay, place: row.place.map { PlaceID($0) }),
        medicineName: row.medicineName, reminder: row.reminder, scheduled: scheduled, due: row.due, latencies: notified,
        firstMiss: row.firstMiss.map { ($0.trial, $0.reason) }, expectedSilent: row.expectedSilent ?? []))
    }
    let plan = TrialPlan(count: trials, seed: seed, jobs: 1, shard: shard)
    return TrialReport(
      scenarioName: name, platformSummary: platform, plan: plan, variationSummary: varied, locationChances: chances, falseFirings: firings,
      doses: doseChances, utcOffsets: offsets)
  }

  /// `08:00` as a daily time, `location` as the location reminder.
  static func slot(_ text: String) -> DoseSlot? {
    if text == "location" { return .location }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }), let hour = Int(parts[0]), let minute = Int(parts[1]),
      (0...23).contains(hour), (0...59).contains(minute)
    else { return nil }
    return .time(DailyTime(hour: hour, minute: minute))
  }
}

extension TrialReport {
  /// The report of all the trials of `parts`, the reports of disjoint sets of
  /// trials of one run (same scenario, seed and trial count; the caller
  /// checks): counts add up, latency multisets unite, the lowest-numbered
  /// first miss is kept, rows are put in the report's order. Shards 1…K of a
  /// run merge to the report the unsharded run prints, byte for byte.
  ///
  /// - Precondition: `parts` is not empty.
  public static func merging(_ parts: [TrialReport]) -> TrialReport {
    precondition(!parts.isEmpty, "nothing to merge")
    struct ChanceKey: Hashable {
      var request: NotificationID, region: RegionID, entering: Bool, visit: Int
    }
    struct DoseInstanceKey: Hashable {
      var key: DoseKey, scheduled: SimulationInstant
    }
    var chances: [ChanceKey: LocationChance] = [:]
    var firings: [NotificationID: Int] = [:]
    var doses: [DoseInstanceKey: DoseChance] = [:]
    var offsets: [SimulationInstant: Int] = [:]
    for part in parts {
      offsets.merge(part.utcOffsets) { first, _ in first }
      for chance in part.locationChances {
        let key = ChanceKey(request: chance.request, region: chance.region, entering: chance.entering, visit: chance.visit)
        guard var mine = chances[key] else {
          chances[key] = chance
          continue
        }
        mine.pending += chance.pending
        mine.fired += chance.fired
        mine.latencies = mine.latencies.merging(chance.latencies)
        mine.firstMissTrial = [mine.firstMissTrial, chance.firstMissTrial].compactMap { $0 }.min()
        chances[key] = mine
      }
      for firing in part.falseFirings { firings[firing.request, default: 0] += firing.trials }
      for dose in part.doses {
        let key = DoseInstanceKey(key: dose.key, scheduled: dose.scheduled)
        guard var mine = doses[key] else {
          doses[key] = dose
          continue
        }
        mine.due += dose.due
        mine.latencies = mine.latencies.merging(dose.latencies)
        if let theirs = dose.firstMiss, theirs.trial < (mine.firstMiss?.trial ?? .max) { mine.firstMiss = theirs }
        if mine.expectedSilent.isEmpty { mine.expectedSilent = dose.expectedSilent }  // the same true path in every shard
        doses[key] = mine
      }
    }
    let first = parts[0]
    var plan = first.plan
    plan.trials = parts.map(\.plan.trials.lowerBound).min()!..<parts.map(\.plan.trials.upperBound).max()!
    return TrialReport(
      scenarioName: first.scenarioName, platformSummary: first.platformSummary, plan: plan, variationSummary: first.variationSummary,
      locationChances: Array(chances.values), falseFirings: firings.map { FalseFiring(request: $0.key, trials: $0.value) },
      doses: Array(doses.values), utcOffsets: offsets)
  }
}
