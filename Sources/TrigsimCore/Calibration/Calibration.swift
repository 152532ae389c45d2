import Foundation

/// One published measurement or documented figure that a default of
/// trigsim rests on, and how trigsim is held against it (the manual,
/// "Calibration"). The corpus is `CalibrationCorpus.entries`; the
/// `calibrate` command measures each entry and prints the table.
public struct CalibrationEntry: Sendable {
  /// A short kebab-case name, unique in the corpus (`apple-region-3-to-5-minutes`).
  public var id: String
  /// The part of the simulated world it calibrates (`iOS region monitoring`).
  public var area: String
  /// The figure as the source gives it, quoted where the source has words for it.
  public var figure: String
  /// Author or organisation, title, year.
  public var source: String
  /// Where to read it.
  public var link: String
  /// Platform and version, radius, motion, app state, Wi-Fi, power: what the source measured or documents.
  public var conditions: String
  /// The figure's own uncertainty: sample size, range, "on average", or "a documented constant".
  public var uncertainty: String
  /// What trigsim measures and how.
  public var measure: CalibrationMeasure
  /// The acceptance band, derived from `uncertainty`, in the measure's unit.
  public var band: CalibrationBand
  /// The defaults this figure is fitted to or checks (`location.latency`, `backgroundAccuracy`).
  public var parameters: [String]
  /// When trigsim's value is outside the band on purpose: why, and the
  /// assumption in the registry that carries the other reading. Nil for a
  /// row that must agree: a row outside its band without one fails the corpus test.
  public var disagreement: String?

  public init(
    id: String, area: String, figure: String, source: String, link: String, conditions: String, uncertainty: String,
    measure: CalibrationMeasure, band: CalibrationBand, parameters: [String], disagreement: String? = nil
  ) {
    self.id = id
    self.area = area
    self.figure = figure
    self.source = source
    self.link = link
    self.conditions = conditions
    self.uncertainty = uncertainty
    self.measure = measure
    self.band = band
    self.parameters = parameters
    self.disagreement = disagreement
  }
}

/// What trigsim measures for an entry.
public enum CalibrationMeasure: Sendable {
  /// The trials of a probe scenario (a file in the probes folder, by name):
  /// a statistic of its first dose (the one due at the true crossing).
  case probe(file: String, statistic: CalibrationStatistic)
  /// A documented constant: the default as trigsim's rules hold it,
  /// compared with the platform's value (no trials).
  case constant(unit: CalibrationUnit, value: @Sendable () -> Double)
}

/// A statistic of a probe's first dose over its trials.
public enum CalibrationStatistic: Sendable, Equatable {
  /// The fraction of trials in which the dose was notified no later than
  /// `within` after it was due (any time before the run ended when nil).
  case notified(within: SimulationDuration?)
  /// The `percentile` of the due-to-notified delay over the trials in which
  /// the dose was due, a trial that never notified counting as an infinite delay.
  case delay(percentile: Int)
  /// The mean due-to-notified delay over the trials in which the dose was
  /// due (infinite when a trial never notified): what "on average" states.
  case meanDelay

  var unit: CalibrationUnit {
    switch self {
    case .notified: .fraction
    case .delay, .meanDelay: .milliseconds
    }
  }

  /// `notified within 10m`, `p50 delay`.
  public var description: String {
    switch self {
    case .notified(let within): within.map { "notified within \($0)" } ?? "notified"
    case .delay(let percentile): "p\(percentile) delay"
    case .meanDelay: "mean delay"
    }
  }
}

/// How a value is written in the table.
public enum CalibrationUnit: Sendable, Equatable {
  /// A proportion, three decimals.
  case fraction
  /// A duration (stored in milliseconds), as the timeline writes durations.
  case milliseconds
  /// A count or a size, as an integer with its unit (`64 requests`).
  case count(String)

  func format(_ value: Double) -> String {
    guard value.isFinite else { return value > 0 ? "never" : "-" }
    switch self {
    case .fraction: return String(format: "%.3f", value)
    case .milliseconds: return SimulationDuration(milliseconds: Int64(value.rounded())).description
    case .count(let unit): return "\(Int64(value.rounded())) \(unit)"
    }
  }
}

/// An acceptance band, both ends included, in the measure's unit.
public struct CalibrationBand: Sendable, Equatable {
  public var low: Double
  public var high: Double

  public init(_ low: Double, _ high: Double) {
    self.low = low
    self.high = high
  }

  /// A band of durations.
  public static func durations(_ low: SimulationDuration, _ high: SimulationDuration) -> CalibrationBand {
    CalibrationBand(Double(low.milliseconds), Double(high.milliseconds))
  }

  /// The band of exactly one documented value.
  public static func exactly(_ value: Double) -> CalibrationBand { CalibrationBand(value, value) }

  public func contains(_ value: Double) -> Bool { low <= value && value <= high }
}

/// What trigsim gave for one entry.
public struct CalibrationResult: Sendable {
  public var entry: CalibrationEntry
  /// The point value (a fraction, a duration in milliseconds, a count).
  public var value: Double
  /// Its 95 % interval (the value itself for a constant).
  public var interval: (low: Double, high: Double)
  /// Trials the statistic rests on (0 for a constant).
  public var trials: Int

  public init(entry: CalibrationEntry, value: Double, interval: (low: Double, high: Double), trials: Int) {
    self.entry = entry
    self.value = value
    self.interval = interval
    self.trials = trials
  }

  /// The value lies in the band.
  public var agrees: Bool { entry.band.contains(value) }

  /// In the band, or outside it with the reason and the assumption that carries the other reading.
  public var isAccountedFor: Bool { agrees || entry.disagreement != nil }

  var unit: CalibrationUnit {
    switch entry.measure {
    case .probe(_, let statistic): statistic.unit
    case .constant(let unit, _): unit
    }
  }

  /// The statistic of a probe's dose over its trials: the value and its 95 % interval.
  ///
  /// - Parameters:
  ///   - statistic: what to compute.
  ///   - dose: the probe's first dose, as the trial report gives it.
  /// - Returns: the value, its interval and the trials it rests on.
  public static func measure(_ statistic: CalibrationStatistic, of dose: TrialReport.DoseChance) -> (
    value: Double, interval: (low: Double, high: Double), trials: Int
  ) {
    switch statistic {
    case .notified(let within):
      let successes = within.map { dose.latencies.count(atMost: $0.milliseconds) } ?? dose.notified
      let fraction = dose.due == 0 ? 0 : Double(successes) / Double(dose.due)
      return (fraction, wilsonInterval(successes: successes, trials: dose.due), dose.due)
    case .delay(let percentile):
      let (value, interval) = percentileWithInterval(dose.latencies.sorted, of: dose.due, percentile: Double(percentile))
      return (value, interval, dose.due)
    case .meanDelay:
      let (value, interval) = meanWithInterval(dose.latencies.sorted, of: dose.due)
      return (value, interval, dose.due)
    }
  }

  /// The mean of `total` values, of which `finite` are known and the rest
  /// infinite, with the normal 95 % interval mean ± 1.96·s/√n (the central
  /// limit theorem: the probes run hundreds of trials).
  static func meanWithInterval(_ finite: [Int64], of total: Int) -> (value: Double, interval: (low: Double, high: Double)) {
    guard total > 0, finite.count == total else { return (.infinity, (.infinity, .infinity)) }
    let n = Double(total)
    let mean = finite.reduce(0.0) { $0 + Double($1) } / n
    guard total > 1 else { return (mean, (mean, mean)) }
    let variance = finite.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / (n - 1)
    let half = 1.959_963_984_540_054 * (variance / n).squareRoot()
    return (mean, (mean - half, mean + half))
  }

  /// The nearest-rank `percentile` of `total` values, of which `finite`
  /// (ascending) are known and the rest are infinite, with a distribution-free
  /// 95 % interval from the order statistics: ranks n·q ∓ 1.96·√(n·q·(1−q))
  /// (the normal approximation of the binomial count below the quantile;
  /// Conover, *Practical Nonparametric Statistics*, 3rd ed., §3.2).
  static func percentileWithInterval(_ finite: [Int64], of total: Int, percentile: Double) -> (
    value: Double, interval: (low: Double, high: Double)
  ) {
    guard total > 0 else { return (.infinity, (.infinity, .infinity)) }
    let n = Double(total), q = percentile / 100
    func value(atRank rank: Int) -> Double {
      let index = min(max(rank, 1), total) - 1
      return index < finite.count ? Double(finite[index]) : .infinity
    }
    let half = 1.959_963_984_540_054 * (n * q * (1 - q)).squareRoot()
    let point = value(atRank: Int((q * n).rounded(.up)))
    let low = value(atRank: Int((n * q - half).rounded(.down)))
    let high = value(atRank: Int((n * q + half).rounded(.up)) + 1)
    return (point, (low, high))
  }
}

/// The calibration table: one row per entry, in corpus order.
public enum CalibrationTable {
  /// The table in Markdown, as the manual's "Calibration" article holds it:
  /// figure, source, trigsim's value with its 95 % interval, the band, and
  /// agreement (or the assumption that explains a difference).
  ///
  /// - Parameters:
  ///   - results: the measured entries, in corpus order.
  ///   - trials: the trials each probe ran.
  ///   - seed: the seed of the probes' trials.
  /// - Returns: the Markdown table and a line under it naming the run.
  public static func markdown(_ results: [CalibrationResult], trials: Int, seed: UInt64) -> String {
    func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
    var text = "| entry | figure | source | measured | trigsim (95 % interval) | band | verdict |\n"
    text += "|---|---|---|---|---|---|---|\n"
    for result in results {
      let entry = result.entry, unit = result.unit
      let measured: String
      switch entry.measure {
      case .probe(let file, let statistic): measured = "\(statistic.description), `\(file)`"
      case .constant: measured = "the default"
      }
      let value = result.trials == 0
        ? unit.format(result.value)
        : "\(unit.format(result.value)) (\(unit.format(result.interval.low)) to \(unit.format(result.interval.high)))"
      let band = entry.band.low == entry.band.high
        ? unit.format(entry.band.low) : "\(unit.format(entry.band.low)) to \(unit.format(entry.band.high))"
      let verdict = result.agrees ? "agrees" : "differs: " + (entry.disagreement ?? "unexplained")
      let columns = [
        "`\(entry.id)`", entry.figure, "[\(entry.source)](\(entry.link))", measured, value, band, verdict,
      ]
      text += "| " + columns.map(cell).joined(separator: " | ") + " |\n"
    }
    text += "\nMeasured with `trigsim calibrate --trials \(trials) --seed \(seed)`.\n"
    return text
  }
}
