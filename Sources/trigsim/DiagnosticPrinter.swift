import Foundation
import TrigsimCore

/// Prints diagnostics as `file:line:column: error: message`, followed by the
/// offending source line and a caret under the column (unless the diagnostic's
/// `showsSourceLine` is false), and the notes:
///
///     scenarios/commute.yaml:14:13: error: unknown region 'ofice'
///         region: ofice
///                 ^
///     note: did you mean 'office'?
struct DiagnosticPrinter {
  static let standardError = DiagnosticPrinter()

  /// Source files are read once per print for their snippets; larger ones are not quoted.
  static let largestQuotedFile = 32 << 20

  func print(_ diagnostics: [Diagnostic]) {
    var text = render(diagnostics)
    let errors = diagnostics.filter { $0.severity == .error }.count
    text += "\(errors) error\(errors == 1 ? "" : "s") found; nothing was written.\n"
    writeToStandardError(text)
  }

  /// Each diagnostic with its source line, caret and notes, as `print`
  /// writes them but without the closing count; `test` shows a scenario's
  /// diagnostics this way (its worker renders them, where the files are read).
  func render(_ diagnostics: [Diagnostic]) -> String {
    var lineCache: [String: [Substring]] = [:]
    var text = ""
    for diagnostic in diagnostics {
      text += "\(diagnostic.location): \(diagnostic.severity.rawValue): \(diagnostic.message)\n"
      if diagnostic.showsSourceLine, let snippet = snippet(for: diagnostic.location, cache: &lineCache) { text += snippet }
      for note in diagnostic.notes { text += "note: \(note)\n" }
    }
    return text
  }

  func snippet(for location: InputLocation, cache: inout [String: [Substring]]) -> String? {
    if cache[location.file] == nil {
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: location.file),
        let size = attributes[.size] as? Int, size <= Self.largestQuotedFile,
        let data = FileManager.default.contents(atPath: location.file)
      else { return nil }
      let text = String(decoding: data, as: UTF8.self)
      cache[location.file] = text.split(separator: "\n", omittingEmptySubsequences: false)
    }
    guard let lines = cache[location.file], location.line >= 1, location.line <= lines.count else { return nil }
    var line = lines[location.line - 1]
    if line.hasSuffix("\r") { line = line.dropLast() }
    return Self.snippet(line: line, column: location.column)
  }

  /// The widest source line shown, in Unicode scalars; a longer line is cut
  /// to this many around the column, with "…" where it was cut.
  static let widestSnippet = 120

  /// The source line (cut around `column` when wider than `widestSnippet`)
  /// and a caret under `column`, each indented by four spaces. Control
  /// characters other than tabs show as U+FFFD, one for one, so the terminal
  /// is never driven by the file and the caret stays in place.
  static func snippet(line: Substring, column: Int) -> String {
    let scalars = line.unicodeScalars
    let caretOffset = max(0, column - 1)
    var start = scalars.startIndex
    var end = scalars.endIndex
    var cutBefore = false
    var cutAfter = false
    // Only the window is read: a 30 MB line costs its first `column` scalars.
    if let widest = scalars.index(start, offsetBy: widestSnippet, limitedBy: end), widest < end {
      let firstShown = max(0, caretOffset - widestSnippet / 2)
      start = scalars.index(start, offsetBy: firstShown, limitedBy: end) ?? end
      end = scalars.index(start, offsetBy: widestSnippet, limitedBy: scalars.endIndex) ?? scalars.endIndex
      cutBefore = firstShown > 0
      cutAfter = end < scalars.endIndex
    }
    let firstShown = scalars.distance(from: scalars.startIndex, to: start)
    var shown = String.UnicodeScalarView()
    var indent = ""
    if cutBefore {
      shown.append("…")
      indent += " "
    }
    for (offset, scalar) in scalars[start..<end].enumerated() {
      let isControl = (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
      shown.append(isControl ? "\u{FFFD}" : scalar)
      if firstShown + offset < caretOffset { indent += scalar == "\t" ? "\t" : " " }
    }
    if cutAfter { shown.append("…") }
    return "    \(String(shown))\n    \(indent)^\n"
  }
}
