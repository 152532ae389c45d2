import TrigsimCore
import Yams

/// The keys of `limits:`.
let limitKeys = ["timelineEntries", "clockSpan"]

extension ScenarioReader {
  /// `limits: { timelineEntries: N, clockSpan: 10y }`, both optional (see
  /// `RunLimits` for the defaults, each lowered to `limitCeiling` when that
  /// is less), and the clock span checked against it. A value above
  /// `limitCeiling` is an error at the value. A limit exceeded during the
  /// run is reported where the scenario can fix it: the `timelineEntries`
  /// value when written, else the clock's end.
  func readLimits(_ node: Node?, clock: ClockSettings?) -> RunLimits {
    var limits = RunLimits(
      timelineEntries: min(RunLimits.defaultTimelineEntries, limitCeiling.timelineEntries),
      clockSpan: min(RunLimits.defaultClockSpan, limitCeiling.clockSpan))
    limits.clockSpanOrigin = clockEndLocation
    limits.timelineEntriesOrigin = clockEndLocation
    if let node, let fields = document.mapping(node, what: "'limits'", keys: limitKeys) {
      if let valueNode = fields["timelineEntries"],
        let value = document.integer(valueNode, what: "timelineEntries", range: 1...ScenarioLimitCeiling.largestTimelineEntries),
        withinCeiling(value, limitCeiling.timelineEntries, at: valueNode, setting: "limits.timelineEntries", option: "--max-timeline-entries")
      {
        limits.timelineEntries = value
        limits.timelineEntriesOrigin = document.location(valueNode)
      }
      if let valueNode = fields["clockSpan"], let value = clockSpan(valueNode),
        withinCeiling(value, limitCeiling.clockSpan, at: valueNode, setting: "limits.clockSpan", option: "--max-clock-span", spelling: RunLimits.spelling)
      {
        limits.clockSpan = value
      }
    }
    if let clock, let problem = limits.clockSpanProblem(clock) { document.diagnostics.append(problem) }
    return limits
  }

  /// Whether `value` of `setting` is at most `ceiling` (one of
  /// `limitCeiling`'s); else reports it at `node`, naming the ceiling and the
  /// command-line `option` that raises it, both written with `spelling`.
  func withinCeiling<Value: Comparable>(
    _ value: Value, _ ceiling: Value, at node: Node, setting: String, option: String, spelling: (Value) -> String = { "\($0)" }
  ) -> Bool {
    guard value > ceiling else { return true }
    document.error(
      node, "'\(setting)' \(spelling(value)) is above the ceiling of \(spelling(ceiling))",
      notes: ScenarioLimitCeiling.raisingNotes(option: option, value: spelling(value)))
    return false
  }

  /// A whole number of years (`10y`, a year counts 365 days) or a duration.
  private func clockSpan(_ node: Node) -> SimulationDuration? {
    guard let text = document.string(node, what: "clockSpan") else { return nil }
    guard let value = ValueSyntax.clockSpan(text) else {
      document.error(node, "clockSpan '\(Diagnostic.excerpt(text))' is not a positive duration",
                     notes: ["write a number of years (10y, a year counts 365 days) or a duration (400d, 36h)"])
      return nil
    }
    return value
  }
}
