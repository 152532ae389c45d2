extension TimelineComparison {
  /// The counts in one line, for logs and CI annotations:
  ///
  ///     1 missing, 0 unexpected, 2 shifted by +1.5s to +2s, 1 changed
  ///
  /// Missing, unexpected and shifted are always stated; changed, reordered
  /// and header lines only when there are any.
  public var summaryLine: String {
    var parts = ["\(missingCount) missing", "\(unexpectedCount) unexpected"]
    let shifts = self.shifts.sorted()
    if let low = shifts.first, let high = shifts.last {
      parts.append("\(shifts.count) shifted by " + (low == high ? Self.signed(low) : "\(Self.signed(low)) to \(Self.signed(high))"))
    } else {
      parts.append("0 shifted")
    }
    if changedCount > 0 { parts.append("\(changedCount) changed") }
    if reorderedCount > 0 { parts.append("\(reorderedCount) reordered") }
    if !headerDifferences.isEmpty { parts.append("\(headerDifferences.count) header line\(headerDifferences.count == 1 ? "" : "s") differ\(headerDifferences.count == 1 ? "s" : "")") }
    return parts.joined(separator: ", ")
  }

  /// `+2s`, `-1.5s`, `+0s`.
  static func signed(_ duration: SimulationDuration) -> String {
    duration.milliseconds < 0 ? duration.description : "+" + duration.description
  }

  /// What passed thanks to a tolerance, for a passing run:
  /// `2 entries within tolerance, largest offset +3ms`; empty when everything was exact.
  public var toleranceNote: String {
    guard let largest = withinTolerance.max(by: { abs($0.offset.milliseconds) < abs($1.offset.milliseconds) }) else { return "" }
    let count = withinTolerance.count
    return "\(count) entr\(count == 1 ? "y" : "ies") within tolerance, largest offset \(Self.signed(largest.offset))"
  }

  /// A readable diff: the summary line, the header lines that differ, then
  /// each run of differences with `context` matching entries around it.
  ///
  ///     timeline differs from scenarios/walk.timeline: 0 missing, 0 unexpected, 1 shifted by +2s
  ///     --- expected scenarios/walk.timeline
  ///     +++ actual run of scenarios/walk.yaml
  ///     @@ expected line 12, actual line 12 @@
  ///       2026-03-28T07:34:15.600+01:00 exit        home visit=1
  ///     - 2026-03-28T07:38:33.000+01:00 enter       clinic visit=1
  ///     + 2026-03-28T07:38:35.000+01:00 enter       clinic visit=1
  ///     !   shifted by +2s (tolerance 0s)
  ///
  /// `-` lines are expected, `+` lines actual, and `!` lines say what the pair
  /// above is. Line numbers are those of `expectedLocations` when given (the
  /// file the expected timeline was read from), else of the canonical text;
  /// actual line numbers are those of the actual timeline's canonical text.
  /// Both names are written by `ControlCharacterEscape`'s rule.
  public func report(expectedName: String, actualName: String, expectedLocations: [InputLocation]? = nil, context: Int = 2) -> String {
    let expectedName = ControlCharacterEscape.escaping(expectedName)
    let actualName = ControlCharacterEscape.escaping(actualName)
    guard !matches else {
      let note = toleranceNote
      return "timeline matches \(expectedName)" + (note.isEmpty ? "" : " (\(note))") + "\n"
    }
    var text = "timeline differs from \(expectedName): \(summaryLine)\n"
    text += "--- expected \(expectedName)\n+++ actual \(actualName)\n"
    if !headerDifferences.isEmpty {
      text += "@@ header @@\n"
      for difference in headerDifferences {
        let key = ControlCharacterEscape.escaping(difference.key)
        if let value = difference.expected { text += "- # \(key): \(ControlCharacterEscape.escaping(value))\n" }
        if let value = difference.actual { text += "+ # \(key): \(ControlCharacterEscape.escaping(value))\n" }
        if difference.expected == nil { text += "!   header line not expected\n" }
        if difference.actual == nil { text += "!   header line missing\n" }
      }
    }
    func expectedLine(_ index: Int) -> Int { self.expectedLine(index, expectedLocations) }

    // Rows to show: each difference, and up to `context` rows either side.
    var shown = [Bool](repeating: false, count: rows.count)
    for (index, row) in rows.enumerated() where row.difference != nil {
      for near in max(0, index - context)...min(rows.count - 1, index + context) { shown[near] = true }
    }
    var index = 0
    while index < rows.count {
      guard shown[index] else {
        index += 1
        continue
      }
      var end = index
      while end + 1 < rows.count && shown[end + 1] { end += 1 }
      let hunk = rows[index...end]
      let firstExpected = hunk.lazy.compactMap(\.expectedIndex).first
      let firstActual = hunk.lazy.compactMap(\.actualIndex).first
      text += "@@ " + [firstExpected.map { "expected line \(expectedLine($0))" }, firstActual.map { "actual line \(actualLine($0))" }]
        .compactMap { $0 }.joined(separator: ", ") + " @@\n"
      for row in hunk { text += render(row, expectedLine: expectedLine) }
      index = end + 1
    }
    return text
  }

  private func render(_ row: Row, expectedLine: (Int) -> Int) -> String {
    let expectedText = row.expectedIndex.map { expected.entries[$0].canonicalLine }
    let actualText = row.actualIndex.map { actual.entries[$0].canonicalLine }
    guard let difference = row.difference else { return "  \(actualText ?? expectedText ?? "")\n" }
    switch difference.kind {
    case .missing:
      return "- \(expectedText!)\n!   missing\n"
    case .unexpected:
      return "+ \(actualText!)\n!   unexpected\n"
    case .shifted(let by):
      let tolerance = options.tolerance.tolerance(for: expected.entries[row.expectedIndex!])
      let expectedFields = options.comparedFields(of: expected.entries[row.expectedIndex!])
      let actualFields = options.comparedFields(of: actual.entries[row.actualIndex!])
      let moved = zip(expectedFields, actualFields).filter { $0.0.value != $0.1.value }.map(\.0.key)
      let movedNote = moved.isEmpty ? "" : "; \(moved.joined(separator: ", ")) moved with it"
      return "- \(expectedText!)\n+ \(actualText!)\n!   shifted by \(Self.signed(by)) (tolerance \(tolerance))\(movedNote)\n"
    case .changed(let fields):
      let offset = actual.entries[row.actualIndex!].instant.millisecondsSinceEpoch - expected.entries[row.expectedIndex!].instant.millisecondsSinceEpoch
      let moved = offset == 0 ? "" : ", instant within tolerance (\(Self.signed(SimulationDuration(milliseconds: offset))))"
      let fieldsMoved = self.fieldsMoved(difference).map { " (moved by \(Self.signed($0)))" } ?? ""
      return "- \(expectedText!)\n+ \(actualText!)\n!   changed: \(fields.joined(separator: ", "))\(fieldsMoved)\(moved)\n"
    case .reordered:
      return "+ \(actualText!)\n!   reordered: expected line \(expectedLine(row.expectedIndex!)) among the entries at this instant\n"
    }
  }
}
