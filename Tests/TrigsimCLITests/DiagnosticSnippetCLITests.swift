import Foundation
import Testing
import TrigsimTestSupport

/// The source line printed under a diagnostic: cut around the column when
/// long, and never carrying the file's control characters to the terminal.
@Suite struct DiagnosticSnippetCLITests {
  static let header = "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T12:00:00+01:00, timezone: UTC }\n"

  func stderr(ofScenario text: String) throws -> String {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-snippet")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("s.yaml").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try TrigsimBinary.run(["run", path])
    #expect(result.status == 65)
    return result.stderr
  }

  @Test func aLongLineIsCutToAWindowAroundTheColumnWithTheCaretInPlace() throws {
    let title = String(repeating: "t", count: 300)
    let line = "notifications: [ { id: a, title: \(title), trigger: { interval: 2hours } } ]"
    let column = line.distance(from: line.startIndex, to: line.range(of: "2hours")!.lowerBound) + 1
    let lines = try stderr(ofScenario: Self.header + line + "\n").split(separator: "\n", omittingEmptySubsequences: false)
    let at = try #require(lines.firstIndex { $0.contains(":3:\(column): error: interval '2hours' is not a duration") })
    let shown = String(lines[at + 1])
    let caret = String(lines[at + 2])
    // 4 spaces, "…", then the line from 60 scalars before the column, at most
    // 120 scalars (here the rest of the line, so no "…" after it).
    let start = line.index(line.startIndex, offsetBy: column - 1 - 60)
    #expect(line[start...].count < 120)
    #expect(shown == "    …" + String(line[start...]))
    #expect(caret == String(repeating: " ", count: 4 + 1 + 60) + "^")
    // The caret sits under the value's first character.
    let caretColumn = caret.count - 1
    #expect(Array(shown)[caretColumn] == "2")
  }

  @Test func aLineCutOnBothSidesShowsOneHundredAndTwentyScalars() throws {
    let padding = String(repeating: "p", count: 300)
    let line = "notifications: [ { id: a, title: \(padding), trigger: { interval: 2hours }, body: \(padding) } ]"
    let lines = try stderr(ofScenario: Self.header + line + "\n").split(separator: "\n", omittingEmptySubsequences: false)
    let at = try #require(lines.firstIndex { $0.contains("error: interval '2hours' is not a duration") })
    let shown = String(lines[at + 1])
    #expect(shown.hasPrefix("    …") && shown.hasSuffix("…"))
    #expect(shown.unicodeScalars.count == 4 + 1 + 120 + 1)
    #expect(Array(shown)[String(lines[at + 2]).count - 1] == "2")
  }

  /// A raw ESC in the file: libyaml refuses it, and neither the message nor
  /// the snippet carries it to the terminal; the error is at its position.
  @Test func aControlCharacterInTheFileIsLocatedAndNeverPrinted() throws {
    let text = Self.header + "notifications: [ { id: a, title: \"\u{1B}[31m\", trigger: { interval: 2h } } ]\n"
    let output = try stderr(ofScenario: text)
    #expect(!output.contains("\u{1B}"))
    #expect(output.contains("s.yaml:3:35: error: invalid YAML: control characters are not allowed (U+001B)\n"))
    #expect(output.contains("    notifications: [ { id: a, title: \"\u{FFFD}[31m\", trigger: { interval: 2h } } ]\n"))
  }

  /// `test` shows bad input as `run` does: the message, the source line, a
  /// caret under the column, then the notes (the worker reads the file).
  @Test func testOutputShowsTheSourceLineAndCaretOfBadInput() throws {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-snippet-test")
    defer { try? FileManager.default.removeItem(at: folder) }
    let line = "notifications: [ { id: a, trigger: { calendar: { weekday: Sundy } } } ]"
    try (Self.header + line + "\n").write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    let result = try TrigsimBinary.run(["test", "s.yaml", "--jobs", "1"], in: folder)
    #expect(result.status == 65)
    let expected = """
      === ERROR s.yaml: invalid input
      s.yaml:3:59: error: weekday must be a day name (monday) or 1...7 with 1 = Sunday, not 'Sundy'
          \(line)
                                                                    ^
      note: did you mean 'Sunday'?
      note: e.g. 'weekday: monday' or 'weekday: 2' (1 = Sunday … 7 = Saturday)

      """
    #expect(result.stdout.hasPrefix(expected), "\(result.stdout)")
  }
}
