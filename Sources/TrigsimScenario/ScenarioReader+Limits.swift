import TrigsimCore
import Yams

/// The keys of `limits:`.
let limitKeys = ["timelineEntries", "clockSpan"]

extension ScenarioReader {
  /// `limits: { timelineEntries: N, clockSpan: 10y }`, both optional (see
  /// `RunLimits` for the defaults), and the clock span checked against it.
  /// A limit exceeded during the run is reported where the scenario can fix
  /// it: the `timelineEntries` value when written, else the clock's end.
  func readLimits(_ node: Node?, clock: ClockSettings?) -> RunLimits {
    var limits = RunLimits()
    limits.clockSpanOrigin = clockEndLocation
    limits.timelineEntriesOrigin = clockEndLocation
    if let node, let fields = document.mapping(node, what: "'limits'", keys: limitKeys) {
      if let valueNode = fields["timelineEntries"],
        let value = document.integer(valueNode, what: "timelineEntries", range: 1...1_000_000_000)
      {
        limits.timelineEntries = value
        limits.timelineEntriesOrigin = document.location(valueNode)
      }
      if let valueNode = fields["clockSpan"], let value = clockSpan(valueNode) { limits.clockSpan = value }
    }
    if let clock, let problem = limits.clockSpanProblem(clock) { document.diagnostics.append(problem) }
    return limits
  }

  /// A duration, or a whole number of years: `10y` (a year counts 365 days).
  private func clockSpan(_ node: Node) -> SimulationDuration? {
    guard let text = document.string(node, what: "clockSpan") else { return nil }
    let value: SimulationDuration?
    if text.hasSuffix("y"), let years = Int64(text.dropLast()), years >= 0 {
      value = years <= 100_000 ? SimulationDuration(milliseconds: years * RunLimits.year) : nil
    } else {
      value = ValueSyntax.duration(text)
    }
    guard let value, value.milliseconds > 0 else {
      document.error(node, "clockSpan '\(text)' is not a positive duration",
                     notes: ["write a number of years (10y, a year counts 365 days) or a duration (400d, 36h)"])
      return nil
    }
    return value
  }
}
