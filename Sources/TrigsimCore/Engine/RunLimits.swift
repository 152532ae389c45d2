/// Bounds on one run, so that a mistake (a clock that ends in 9026 instead
/// of 2026, a one-minute repeating interval over years) stops at once with a
/// located error naming the setting, instead of running for hours and filling
/// memory or the disk. Set in a scenario's `limits:` section.
///
/// - `clockSpan`: the longest clock, from start to end. Checked before the
///   run starts (`ScenarioLoader` reports it with the file's other problems).
/// - `timelineEntries`: the most entries a run may make. The run stops at the
///   entry past the limit, before making it; nothing is written.
///
/// Every run is bounded: single runs, `verify`, `test`, `record`, each trial.
public struct RunLimits: Sendable, Equatable {
  /// Over three thousand times the longest bundled timeline (267 entries),
  /// a thousand times a 30-day 1 Hz daily-routine run (about 960 entries).
  public static let defaultTimelineEntries = 1_000_000
  /// Ten years (a year counts 365 days): four times the longest bundled
  /// clock (a 2.3-year corpus track).
  public static let defaultClockSpan = SimulationDuration(milliseconds: 10 * year)
  /// The length of a year in `limits.clockSpan` (`10y`): 365 days.
  public static let year: Int64 = 365 * 86_400_000

  /// The most entries a run may make.
  public var timelineEntries: Int
  /// The longest clock a run may cover.
  public var clockSpan: SimulationDuration
  /// Where an exceeded clock span is reported: the clock's end.
  public var clockSpanOrigin: InputLocation?
  /// Where an exceeded entry limit is reported: the `limits.timelineEntries`
  /// value when the scenario sets it, else the clock's end.
  public var timelineEntriesOrigin: InputLocation?

  public init(timelineEntries: Int = defaultTimelineEntries, clockSpan: SimulationDuration = defaultClockSpan) {
    self.timelineEntries = timelineEntries
    self.clockSpan = clockSpan
  }

  /// `10y` for a whole number of years, else the duration's own spelling.
  public static func spelling(of duration: SimulationDuration) -> String {
    duration.milliseconds > 0 && duration.milliseconds % year == 0 ? "\(duration.milliseconds / year)y" : duration.description
  }

  /// Where a problem is reported when the scenario was built in code.
  static let unlocated = InputLocation(file: "<scenario>", line: 1, column: 1)

  /// The error for a clock longer than `clockSpan`, or nil.
  public func clockSpanProblem(_ clock: ClockSettings) -> Diagnostic? {
    let span = clock.start.duration(to: clock.end)
    guard span > clockSpan else { return nil }
    let years = Double(span.milliseconds) / Double(Self.year)
    let about = years >= 1 ? " (about \(Int(years.rounded())) years)" : ""
    return Diagnostic(
      at: clockSpanOrigin ?? Self.unlocated,
      "the clock spans \(span)\(about), more than the \(Self.spelling(of: clockSpan)) 'limits.clockSpan' allows",
      notes: [
        "check the clock's start and end for a typo (the year)",
        "a run meant to be this long needs 'limits: { clockSpan: ... }' at least as long (default \(Self.spelling(of: Self.defaultClockSpan)))",
      ])
  }

  /// The error for a run that would make more than `timelineEntries`
  /// entries; `instant` is where the next entry would have been, in the
  /// device's local time.
  func timelineEntriesProblem(nextEntryAt instant: String) -> Diagnostic {
    Diagnostic(
      at: timelineEntriesOrigin ?? Self.unlocated,
      "the timeline would exceed \(timelineEntries) entries ('limits.timelineEntries'): the run stopped at \(instant), before the clock's end",
      notes: [
        "a repeating trigger makes an entry at every delivery; check the clock's end and the repeating intervals",
        "a run meant to make more entries needs a larger 'limits: { timelineEntries: N }' (default \(Self.defaultTimelineEntries))",
      ])
  }
}
