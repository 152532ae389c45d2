import Foundation

/// Text the manual shows (a command's output, an excerpt of a file) held
/// against the real text, as a doctest holds its examples.
///
/// The rules, which the manual's conventions (Layout, "The manual is
/// executed") state for authors:
/// - A shown line `...` alone stands for lines left out (any number, none
///   included). It cuts the shown text into pieces; each piece must appear
///   in the real text as consecutive lines, in order.
/// - Unless the shown text begins with `...`, its first piece begins the real
///   text when `anchored` (a command's output); unless it ends with `...`,
///   its last piece ends it. An excerpt of a file is not anchored.
/// - Within a line, `…` stands for any text (none included); a line without
///   it must equal the real line. Trailing spaces never count (editors strip
///   them).
public enum ShownText {
  /// Whether `shown` line matches `actual`.
  public static func lineMatches(_ shown: String, _ actual: String) -> Bool {
    let shown = trimmingTrailingSpaces(shown), actual = trimmingTrailingSpaces(actual)
    let parts = shown.components(separatedBy: "…")
    if parts.count == 1 { return shown == actual }
    guard actual.hasPrefix(parts[0]) else { return false }
    var rest = actual.dropFirst(parts[0].count)
    for part in parts.dropFirst().dropLast() where !part.isEmpty {
      guard let range = rest.range(of: part) else { return false }
      rest = rest[range.upperBound...]
    }
    let last = parts[parts.count - 1]
    return rest.count >= last.count && rest.hasSuffix(last)
  }

  static func trimmingTrailingSpaces(_ line: String) -> String {
    var line = Substring(line)
    while let last = line.last, last == " " || last == "\t" { line = line.dropLast() }
    return String(line)
  }

  /// The first shown line that cannot be placed, with the real line nearest
  /// to it, or nil when `shown` matches `actual`.
  public struct Mismatch: Error, CustomStringConvertible, Sendable {
    /// The 0-based index of the shown line where matching failed.
    public var shownLine: Int
    public var message: String
    public var description: String { message }
  }

  /// Holds `shown` against `actual` by the rules above.
  public static func match(shown: [String], actual: [String], anchored: Bool) -> Mismatch? {
    // Pieces between `...` lines, each with the index of its first shown line.
    var pieces: [(start: Int, lines: [String])] = []
    var current: (start: Int, lines: [String]) = (0, [])
    for (index, line) in shown.enumerated() {
      if line.trimmingCharacters(in: .whitespaces) == "..." {
        if !current.lines.isEmpty { pieces.append(current) }
        current = (index + 1, [])
      } else {
        current.lines.append(line)
      }
    }
    if !current.lines.isEmpty { pieces.append(current) }
    let openStart = !anchored || shown.first?.trimmingCharacters(in: .whitespaces) == "..."
    let openEnd = !anchored || shown.last?.trimmingCharacters(in: .whitespaces) == "..."
    if pieces.isEmpty {
      return anchored && !openStart && !actual.isEmpty
        ? Mismatch(shownLine: 0, message: "nothing is shown, but it printed \(actual.count) lines, from: \(actual[0])") : nil
    }

    func fits(_ piece: [String], at position: Int) -> Bool {
      position + piece.count <= actual.count && zip(piece, actual[position...]).allSatisfy { lineMatches($0, $1) }
    }
    // The deepest failure, for the message: the piece and where it was looked for.
    var deepest = (piece: 0, from: 0)
    func place(_ index: Int, from position: Int) -> Bool {
      if index == pieces.count { return openEnd || position == actual.count }
      if index > deepest.piece || (index == deepest.piece && position > deepest.from) { deepest = (index, position) }
      let piece = pieces[index].lines
      let candidates: [Int]
      if index == 0 && !openStart {
        candidates = [0]
      } else if index == pieces.count - 1 && !openEnd {
        candidates = [actual.count - piece.count].filter { $0 >= position }
      } else {
        candidates = Array(stride(from: position, through: actual.count - piece.count, by: 1))
      }
      for candidate in candidates where fits(piece, at: candidate) {
        if place(index + 1, from: candidate + piece.count) { return true }
      }
      return false
    }
    if place(0, from: 0) { return nil }

    let piece = pieces[deepest.piece]
    // The piece's longest prefix that fits somewhere after `from`, to name the first line that does not.
    var best = (matched: 0, at: deepest.from)
    for position in deepest.from..<max(deepest.from, actual.count) {
      var matched = 0
      while matched < piece.lines.count, position + matched < actual.count, lineMatches(piece.lines[matched], actual[position + matched]) {
        matched += 1
      }
      if matched > best.matched { best = (matched, position) }
    }
    let failing = piece.start + min(best.matched, piece.lines.count - 1)
    let near = best.at + best.matched < actual.count ? "; the real line there: \(actual[best.at + best.matched])" : "; the real text ends there"
    let where_ = deepest.piece == 0 && !openStart ? " (the first piece must begin the real text)"
      : deepest.piece == pieces.count - 1 && !openEnd ? " (the last piece must end the real text)" : ""
    return Mismatch(
      shownLine: failing,
      message: "shown line \(failing + 1) is not where the rules put it\(where_): \(shown[failing])\(best.matched > 0 ? near : "")")
  }
}
