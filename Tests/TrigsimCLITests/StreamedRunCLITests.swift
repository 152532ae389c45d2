import Foundation
import Testing
import TrigsimTestSupport

/// `trigsim run` writes its timeline as it is produced, and every command
/// is bounded by the scenario's `limits`: through the built binary.
@Suite(.serialized) struct StreamedRunCLITests {
  static let ticking = "notifications:\n  - { id: tick, title: Tick, trigger: { interval: 60s, repeats: true } }\n"

  func workspace(_ scenario: String) throws -> URL {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-stream")
    try scenario.write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    return folder
  }

  /// Issue 10: a clock of ten thousand years with a one-minute repeating
  /// interval grew memory without bound and wrote nothing. It now stops at
  /// once, at the clock's end, and leaves the output file as it was.
  @Test func aTenThousandYearClockExitsSixtyFiveAtTheClocksEnd() throws {
    let folder = try workspace(
      "trigsim: 1\nclock: { start: 0026-01-01T00:00:00Z, end: 9999-12-31T00:00:00Z, timezone: Europe/Copenhagen }\n" + Self.ticking)
    let previous = folder.appendingPathComponent("out.txt")
    try "previous run\n".write(to: previous, atomically: true, encoding: .utf8)
    let result = try TrigsimBinary.run(["run", "s.yaml", "--output", "out.txt"], in: folder)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("s.yaml:2:44: error: the clock spans 3642927d (about 9981 years), more than the 10y 'limits.clockSpan' allows\n"), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(try String(contentsOf: previous, encoding: .utf8) == "previous run\n")
  }

  static let limited = "trigsim: 1\nclock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T12:00:00Z, timezone: UTC }\n"
    + "limits: { timelineEntries: 100 }\n" + ticking

  /// The entry past the limit stops every kind of run, located at the
  /// setting; nothing is written to standard output or to `--output`.
  @Test(arguments: [
    ["run", "s.yaml"], ["run", "s.yaml", "--format", "json", "--output", "out.json"], ["run", "s.yaml", "--format", "csv", "--output", "out.csv"],
    ["run", "s.yaml", "--trial", "0", "--summary"], ["run", "s.yaml", "--trials", "3", "--output", "out.trials"],
    ["verify", "s.yaml"], ["test", "s.yaml"], ["record", "s.yaml"],
  ])
  func anExceededEntryLimitExitsSixtyFiveLocatedAtTheSetting(_ arguments: [String]) throws {
    let folder = try workspace(Self.limited)
    let result = try TrigsimBinary.run(arguments, in: folder)
    #expect(result.status == 65, "\(arguments): \(result.stderr)")
    // `test` prints its report, diagnostics included, to standard output.
    #expect((result.stderr + result.stdout).contains("s.yaml:3:28: error: the timeline would exceed 100 entries ('limits.timelineEntries'): the run stopped at 2026-03-28T07:40:00.000+00:00, before the clock's end\n"), "\(arguments): \(result.stderr)")
    #expect(!result.stdout.contains("tick"), "\(arguments)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["s.yaml"], "\(arguments)")
  }

  @Test func aSpillFileThatCannotBeMadeExitsSeventyThreeAndWritesNothing() throws {
    let folder = try workspace(Self.limited.replacingOccurrences(of: "timelineEntries: 100", with: "timelineEntries: 1000"))
    let missing = folder.appendingPathComponent("no-such-folder").path
    let result = try TrigsimBinary.run(["run", "s.yaml", "--output", "out.txt"], in: folder, environment: ["TMPDIR": missing])
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("error: cannot write 'out.txt': cannot create a temporary file in '\(missing)': No such file or directory"), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["s.yaml"])
  }

  /// The same bytes to a file as to standard output, and they are the
  /// complete document: header, every entry, the summary.
  @Test func aStreamedOutputFileHoldsWhatStandardOutputShows() throws {
    let folder = try workspace(Self.limited.replacingOccurrences(of: "timelineEntries: 100", with: "timelineEntries: 361"))
    let printed = try TrigsimBinary.run(["run", "s.yaml", "--format", "json"], in: folder)
    let written = try TrigsimBinary.run(["run", "s.yaml", "--format", "json", "--output", "out.json"], in: folder)
    #expect(printed.status == 0 && written.status == 0, "\(printed.stderr)\(written.stderr)")
    #expect(try String(contentsOf: folder.appendingPathComponent("out.json"), encoding: .utf8) == printed.stdout)
    #expect(printed.stdout.hasPrefix("{\n  \"format\": \"trigsim-timeline-2\",\n  \"header\": {\"scenario\": \"s\""))
    #expect(printed.stdout.components(separatedBy: "\"kind\": \"fired\"").count - 1 == 360)
    #expect(printed.stdout.hasSuffix("\"doses\": []\n  }\n}\n"))
  }
}
