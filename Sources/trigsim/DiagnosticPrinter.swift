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
    var lineCache: [String: [Substring]] = [:]
    var text = ""
    for diagnostic in diagnostics {
      text += "\(diagnostic.location): \(diagnostic.severity.rawValue): \(diagnostic.message)\n"
      if diagnostic.showsSourceLine, let snippet = snippet(for: diagnostic.location, cache: &lineCache) { text += snippet }
      for note in diagnostic.notes { text += "note: \(note)\n" }
    }
    let errors = diagnostics.filter { $0.severity == .error }.count
    text += "\(errors) error\(errors == 1 ? "" : "s") found; nothing was written.\n"
    writeToStandardError(text)
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
    var line = String(lines[location.line - 1])
    if line.hasSuffix("\r") { line.removeLast() }
    guard line.count <= 240 else { return nil }
    let prefix = line.unicodeScalars.prefix(max(0, location.column - 1))
    let indent = String(String.UnicodeScalarView(prefix).map { $0 == "\t" ? "\t" : " " })
    return "    \(line)\n    \(indent)^\n"
  }
}
