import TrigsimCore

/// What a report draws: one run of a scenario (its timeline and dose
/// summary), the scenario's world (clock, regions, track), and, when the
/// scenario has an expected timeline, the comparison with it.
public struct ReportInput {
  /// The scenario's name (its `name:`), the report's title.
  public var title: String
  /// The scenario file as the user named it, for the page's heading.
  public var scenarioPath: String
  public var clock: ClockSettings
  public var regions: [MonitoredRegion]
  /// The track, read again (streamed) to draw it; nil when the scenario has none.
  public var track: (any TrackSource)?
  /// A pause between fixes longer than this is drawn as a gap (the
  /// platform's `gap-limit`, the rule the engine applies).
  public var gapLimit: SimulationDuration
  /// The run: its timeline and its summary.
  public var run: SimulationReport
  /// The comparison with the expected timeline, when there is one.
  public var comparison: TimelineComparison?
  /// The expected timeline's file as the user named it (the scenario's
  /// `expect:` or `--expect`), for the diff's `---` line; nil: "the
  /// expected timeline".
  public var expectedPath: String?
  /// Where each expected entry was read from, so the diff's line numbers
  /// are the file's; nil: the lines of its canonical text.
  public var expectedLocations: [InputLocation]?
  /// What `verify` would say of the run, when it was checked.
  public var verdict: Verdict?
  /// The assumption report, when it was made (the scenario states `robust:
  /// true`, or `report --assumptions`): the page shows it in a section of its own.
  public var assumptions: AssumptionReport?

  /// What `verify` says of a run: its headline, whether it passed, and what
  /// it found, one line each (the changed doses, each failed assertion with
  /// its finding), so the page says why, not only how many.
  public struct Verdict: Sendable {
    public var text: String
    public var passed: Bool
    public var findings: [String]
    public init(_ text: String, passed: Bool, findings: [String] = []) {
      self.text = text
      self.passed = passed
      self.findings = findings
    }
  }

  public init(
    title: String, scenarioPath: String, clock: ClockSettings, regions: [MonitoredRegion], track: (any TrackSource)?,
    gapLimit: SimulationDuration, run: SimulationReport, comparison: TimelineComparison? = nil, verdict: Verdict? = nil,
    expectedPath: String? = nil, expectedLocations: [InputLocation]? = nil
  ) {
    self.title = title
    self.scenarioPath = scenarioPath
    self.clock = clock
    self.regions = regions
    self.track = track
    self.gapLimit = gapLimit
    self.run = run
    self.comparison = comparison
    self.verdict = verdict
    self.expectedPath = expectedPath
    self.expectedLocations = expectedLocations
  }

  /// The input for `scenario`'s run `run` (`title` from the scenario, its
  /// regions, track and gap limit).
  public init(
    scenario: Scenario, path: String, run: SimulationReport, comparison: TimelineComparison? = nil, verdict: Verdict? = nil,
    expectedPath: String? = nil, expectedLocations: [InputLocation]? = nil
  ) {
    self.init(
      title: scenario.name, scenarioPath: path, clock: scenario.clock, regions: scenario.regions, track: scenario.track,
      gapLimit: scenario.platform.trackGapLimit, run: run, comparison: comparison, verdict: verdict, expectedPath: expectedPath,
      expectedLocations: expectedLocations)
  }
}

/// How a report is drawn.
public struct ReportOptions: Sendable {
  /// The Douglas–Peucker tolerance for the track, in metres; nil: one pixel
  /// at the map's scale (what the eye cannot tell apart at 100 % zoom). A
  /// value that is not a finite number ≥ 0 is taken as nil.
  public var simplificationTolerance: Double?
  /// The width of the map and the chart, in pixels, drawn within
  /// `widthRange`; a value that is not a number is taken as 960.
  public var width: Double = 960

  /// The widths a report is drawn at: narrower has no room for the chart's
  /// labels, wider is no picture a browser shows.
  public static let widthRange = 320.0...20_000

  public init(simplificationTolerance: Double? = nil) { self.simplificationTolerance = simplificationTolerance }

  /// `width` as drawn: within `widthRange`.
  var drawingWidth: Double { width.isNaN ? 960 : min(max(width, Self.widthRange.lowerBound), Self.widthRange.upperBound) }

  /// `simplificationTolerance` as drawn: nil unless a finite number ≥ 0.
  var drawingTolerance: Double? { simplificationTolerance.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }
}
