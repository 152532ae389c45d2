import TrigsimCore

/// The most a scenario may raise its own bounds to: `limits: {
/// timelineEntries: N, clockSpan: S }` and `trials: { count: N }`.
///
/// The rule: a scenario may lower its limits freely, but a value above the
/// ceiling is an error at that value (exit 65) that names the ceiling and
/// the command-line option raising it. A ceiling below a default lowers the
/// default too (a scenario that writes no `clockSpan` is bounded by
/// `clockSpan` when it is less than ten years).
///
/// Scenarios the user trusts get `syntaxMaximum` (what the format accepts at
/// all); scenarios under `--root` (untrusted, from a pull request) get
/// `defaults`, so they cannot ask for runs longer than the defaults allow.
/// The command line sets either with `--max-timeline-entries`,
/// `--max-clock-span` and `--max-trials`.
public struct ScenarioLimitCeiling: Sendable, Equatable {
  /// The most `limits.timelineEntries` may be.
  public var timelineEntries: Int
  /// The most `limits.clockSpan` may be.
  public var clockSpan: SimulationDuration
  /// The most `trials.count` may be.
  public var trialCount: Int

  public init(timelineEntries: Int, clockSpan: SimulationDuration, trialCount: Int) {
    self.timelineEntries = timelineEntries
    self.clockSpan = clockSpan
    self.trialCount = trialCount
  }

  /// The largest `timelineEntries` the format accepts.
  public static let largestTimelineEntries = 1_000_000_000
  /// The largest `clockSpan` the format accepts, in years (`100000y`).
  public static let largestClockSpanYears: Int64 = 100_000
  /// The largest `trials.count` the format accepts (as `run --trials` does).
  public static let largestTrialCount = 1_000_000
  /// The trial count an untrusted scenario may ask for: ten times the
  /// bundled trial scenario's 1000, a few seconds of a small scenario's runs.
  public static let untrustedTrialCount = 10_000

  /// What the scenario format accepts at all: no ceiling beyond its syntax.
  public static let syntaxMaximum = ScenarioLimitCeiling(
    timelineEntries: largestTimelineEntries, clockSpan: SimulationDuration(milliseconds: largestClockSpanYears * RunLimits.year),
    trialCount: largestTrialCount)

  /// The default limits (`RunLimits`) and `untrustedTrialCount` trials: the
  /// ceiling under `--root`.
  public static let defaults = ScenarioLimitCeiling(
    timelineEntries: RunLimits.defaultTimelineEntries, clockSpan: RunLimits.defaultClockSpan, trialCount: untrustedTrialCount)

  /// `defaults` for scenarios confined to a root folder (untrusted), else `syntaxMaximum`.
  public static func standard(for pathPolicy: ScenarioPathPolicy) -> ScenarioLimitCeiling {
    pathPolicy.root == nil ? syntaxMaximum : defaults
  }

  /// The note that says what a ceiling is and how to raise it: `option` is
  /// the command-line option, `value` the value the scenario asked for.
  static func raisingNotes(option: String, value: String) -> [String] {
    [
      "the ceiling is the default under --root, or what the command line sets; a scenario may lower its limits but not raise them above it",
      "if you trust this scenario, run it with \(option) \(value)",
    ]
  }
}
