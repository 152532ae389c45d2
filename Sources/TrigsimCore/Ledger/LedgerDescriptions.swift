/// How a dose, a timeline entry and a run's summary describe themselves in
/// a failed expectation (`#expect(dose.outcome == .completed)`), a `print`
/// or the debugger: as the CLI prints them, not as a dump of their stored
/// properties (a `DoseRecord` dump runs to hundreds of characters per dose).

extension DoseRecord: CustomStringConvertible, CustomDebugStringConvertible {
  /// The dose table's row (`RunSummary.doseColumns`, two spaces apart):
  /// `levo  Levothyroxine  07:30  2026-05-04  completed  07:30  07:30  0  0  07:35  -`.
  /// Instants are in UTC: a record alone does not know the device's zone
  /// (its run's `RunSummary.text` shows them in it).
  public var description: String { RunSummary().doseCells(self).joined(separator: "  ") }

  /// The row with each cell named by its column: `dose(medicine=levo name=Levothyroxine … remarks=-)`.
  public var debugDescription: String {
    "dose(" + zip(RunSummary.doseColumns, RunSummary().doseCells(self)).map { "\($0)=\($1)" }.joined(separator: " ") + ")"
  }
}

extension TimelineEntry: CustomStringConvertible, CustomDebugStringConvertible {
  /// The entry's line of the canonical text timeline (`canonicalLine`).
  public var description: String { canonicalLine }

  /// `entry(` and the canonical line `)`.
  public var debugDescription: String { "entry(\(canonicalLine))" }
}

extension RunSummary: CustomStringConvertible, CustomDebugStringConvertible {
  /// The summary as `trigsim run --summary` prints it (`text`): the
  /// pending-slot accounting, then the dose table.
  public var description: String { text }

  public var debugDescription: String { text }
}
