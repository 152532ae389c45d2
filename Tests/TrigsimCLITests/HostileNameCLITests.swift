import Foundation
import Testing
import TrigsimTestSupport

/// Issue 41, finding 10: one escaping rule for every text output. A
/// scenario named with ESC, BEL, NUL, CR and LF, in a file whose name holds
/// ESC, BEL, CR and LF (a file name cannot hold NUL), goes through every
/// output that names it: `run --trials`, `merge` of trial and test partials,
/// `test`'s headline, table and `report:` line, `verify`, `record`; none of
/// them writes one of those characters raw, and JUnit stays well-formed.
@Suite struct HostileNameCLITests {
  static let hostileFileName = "x\u{1B}[2J\u{7}y\rz\nw.yaml"
  static let rawControls: [Character] = ["\u{1B}", "\u{7}", "\u{0}", "\r"]

  /// The scenario: a name with all five, a reminder whose expected title is changed so `test` fails.
  static func workspace() throws -> URL {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-hostile-name")
    try """
      trigsim: 1
      name: "Quick\\e[2J\\e]0;pwned\\a\\0\\r\\nforged line"
      clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T07:00:00Z, timezone: UTC }
      platform: { location: ideal }
      notifications:
        - { id: tea, title: Tea, trigger: { interval: 10m, repeats: false } }

      """.write(to: folder.appendingPathComponent(hostileFileName), atomically: true, encoding: .utf8)
    return folder
  }

  /// `text` has none of the raw controls, and no line begins with what follows a line break in the names.
  static func expectNoRawControl(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for control in rawControls {
      #expect(!text.contains(control), "\(what) holds U+\(String(control.unicodeScalars.first!.value, radix: 16)) raw: \(text.debugDescription)", sourceLocation: sourceLocation)
    }
    #expect(!text.split(separator: "\n").contains { $0.hasPrefix("forged line") || $0.hasPrefix("w.yaml") || $0.hasPrefix("w.timeline") },
            "\(what) has a line the name chose: \(text.debugDescription)", sourceLocation: sourceLocation)
  }

  @Test func theTrialReportAndItsMergeEscapeTheScenarioName() throws {
    let folder = try Self.workspace()
    let run = try TrigsimBinary.run(["run", Self.hostileFileName, "--trials", "3"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("# scenario: Quick\\u{1B}[2J\\u{1B}]0;pwned\\u{7}\\u{0}\\u{D}\\u{A}forged line\n"), "\(run.stdout)")
    Self.expectNoRawControl(run.stdout + run.stderr, "run --trials")
    let shard = try TrigsimBinary.run(["run", Self.hostileFileName, "--trials", "3", "--shard", "1/1", "--output", "p.json"], in: folder)
    #expect(shard.status == 0, "\(shard.stderr)")
    let merged = try TrigsimBinary.run(["merge", "p.json"], in: folder)
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout == run.stdout)
    Self.expectNoRawControl(merged.stdout + merged.stderr, "merge of trial partials")
  }

  @Test func testPrintsAHostileFileNameEscapedInEveryLineAndJUnitStaysWellFormed() throws {
    let folder = try Self.workspace()
    let record = try TrigsimBinary.run(["record", Self.hostileFileName], in: folder)
    #expect(record.status == 0, "\(record.stderr)")
    Self.expectNoRawControl(record.stdout + record.stderr, "record")
    let timeline = folder.appendingPathComponent("x\u{1B}[2J\u{7}y\rz\nw.timeline")
    let recorded = try String(contentsOf: timeline, encoding: .utf8)
    try recorded.replacingOccurrences(of: "title=Tea", with: "title=Coffee").write(to: timeline, atomically: true, encoding: .utf8)

    let test = try TrigsimBinary.run(
      ["test", Self.hostileFileName, "--reports", "out", "--junit", "j.xml", "--partial", "p.json"], in: folder)
    #expect(test.status == 1, "\(test.stderr)")
    let escapedName = "x\\u{1B}[2J\\u{7}y\\u{D}z\\u{A}w.yaml"
    #expect(test.stdout.contains("=== FAIL \(escapedName): timeline differs"), "\(test.stdout)")
    #expect(test.stdout.contains("\n\(escapedName)  FAIL "), "\(test.stdout)")
    #expect(test.stdout.hasSuffix("report: out/x_x1B_[2J_x7_y_xD_z_xA_w.yaml.html\n"), "\(test.stdout)")
    Self.expectNoRawControl(test.stdout + test.stderr, "test")
    let junit = try JUnitDocument(Data(contentsOf: folder.appendingPathComponent("j.xml")))
    #expect(junit.cases.count == 1)

    let merged = try TrigsimBinary.run(["merge", "p.json"], in: folder)
    #expect(merged.status == 1, "\(merged.stderr)")
    #expect(merged.stdout.contains("=== FAIL \(escapedName): timeline differs"), "\(merged.stdout)")
    Self.expectNoRawControl(merged.stdout + merged.stderr, "merge of test partials")

    let verify = try TrigsimBinary.run(["verify", Self.hostileFileName], in: folder)
    #expect(verify.status == 1)
    Self.expectNoRawControl(verify.stdout + verify.stderr, "verify")
  }

  @Test func aDiagnosticNamesAHostileFileEscaped() throws {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-hostile-name")
    try "trigsim: 1\nclock: nonsense\n".write(to: folder.appendingPathComponent(Self.hostileFileName), atomically: true, encoding: .utf8)
    let run = try TrigsimBinary.run(["run", Self.hostileFileName], in: folder)
    #expect(run.status == 65)
    #expect(run.stderr.hasPrefix("x\\u{1B}[2J\\u{7}y\\u{D}z\\u{A}w.yaml:2:8: error:"), "\(run.stderr)")
    Self.expectNoRawControl(run.stderr, "a diagnostic")
  }
}
