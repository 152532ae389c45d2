import TrigsimCore

/// Where a text baseline kept line by line (`.assumptions`, `.platforms`)
/// differs from what the run wrote: the baseline's lines the run does not
/// write, then the run's lines the baseline does not hold, each in file
/// order with its line number.
///
/// **What a report quotes.** At most `limit` lines of each side (then how
/// many more), each cut to `Diagnostic.diffLineLimit` scalars with its
/// control characters escaped (`BaselineTextDifference.quoted`): a baseline
/// is a file in the repository that anyone may have edited, so a diff never
/// prints more of it than a reviewer reads, nor anything that would move the
/// terminal's cursor.
public struct BaselineTextDifference: Sendable, Equatable {
  /// A line and its number (1-based) in its file.
  public struct Line: Sendable, Equatable {
    public var number: Int
    public var text: String
  }

  /// The baseline's lines the run does not write, in order.
  public private(set) var removed: [Line] = []
  /// The run's lines the baseline does not hold, in order.
  public private(set) var added: [Line] = []

  /// Compares as sets of lines (each report's lines are distinct facts, and
  /// their order follows from the run): linear in the two texts.
  public init(expected: String, actual: String) {
    let expectedLines = Self.lines(expected)
    let actualLines = Self.lines(actual)
    let expectedSet = Set(expectedLines)
    let actualSet = Set(actualLines)
    for (index, line) in expectedLines.enumerated() where !actualSet.contains(line) { removed.append(Line(number: index + 1, text: String(line))) }
    for (index, line) in actualLines.enumerated() where !expectedSet.contains(line) { added.append(Line(number: index + 1, text: String(line))) }
  }

  /// The lines of `text`, split at each LF scalar (so `\r\n`, one
  /// `Character`, ends a line too); a final newline does not start another line.
  static func lines(_ text: String) -> [Substring] {
    var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { Substring($0) }
    if lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// Whether the texts hold the same lines.
  public var isEmpty: Bool { removed.isEmpty && added.isEmpty }

  /// `--- expected` / `+++ actual` and the changed lines (`-` the baseline's,
  /// `+` the run's), at most `limit` of each side, quoted as the type says.
  public func report(expectedName: String, actualName: String, limit: Int = 20) -> String {
    var text = "--- \(ControlCharacterEscape.escaping(expectedName))\n+++ \(ControlCharacterEscape.escaping(actualName))\n"
    for (sign, lines, side) in [("-", removed, "of the baseline"), ("+", added, "of the run")] {
      for line in lines.prefix(limit) { text += "\(sign)\(Self.quoted(line.text))\n" }
      if lines.count > limit { text += "... and \(lines.count - limit) more changed lines \(side)\n" }
    }
    return text
  }

  /// One line as a diff shows it: control characters escaped
  /// (`ControlCharacterEscape`), cut after `Diagnostic.diffLineLimit`
  /// scalars with `…`.
  public static func quoted(_ line: some StringProtocol) -> String {
    var shown = ""
    var count = 0
    for scalar in line.unicodeScalars {
      if count == Diagnostic.diffLineLimit { return shown + "…" }
      if ControlCharacterEscape.isEscaped(scalar) { shown += ControlCharacterEscape.escape(scalar) } else { shown.unicodeScalars.append(scalar) }
      count += 1
    }
    return shown
  }
}
