import Foundation
import Testing
import TrigsimTestSupport

/// Runs the built `trigsim` binary: exit codes, stdout, stderr.
@Suite(.serialized) struct CLITests {
  typealias Result = TrigsimBinary.Result

  static func run(_ arguments: [String], in directory: URL = RepositoryPaths.root) throws -> Result {
    try TrigsimBinary.run(arguments, in: directory)
  }

  func temporaryDirectory() throws -> URL { try TrigsimBinary.temporaryDirectory(prefix: "trigsim-cli") }

  @Test func runPrintsTheScenarioTimelineAndExitsZero() throws {
    let result = try Self.run(["run", "scenarios/morning-walk.yaml"])
    #expect(result.status == 0, "\(result.stderr)")
    let expected = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent("morning-walk.timeline"), encoding: .utf8)
    #expect(result.stdout == expected)
    // The track covers 06:30–07:07 UTC of a 30-hour clock: both gaps are said on standard error too.
    #expect(result.stderr == """
      warning: scenarios/morning-walk.yaml: the position was unknown from the clock's start (2026-03-28T06:00:00.000+01:00) to the track's first fix at 2026-03-28T07:30:00.000+01:00, 1h30m later: no region was monitored and no location trigger could fire before it
      warning: scenarios/morning-walk.yaml: the track ends at 2026-03-28T08:07:00.000+01:00, 1d2h53m before the clock's end (2026-03-29T12:00:00.000+02:00): from then on the device stays at its last fix, so no region is entered or left

      """)
  }

  /// Each run is a new process with its own hash seed, so dictionary order leaking into output would show here.
  @Test func everyBundledScenarioPrintsItsBaselineFromTheBinary() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: RepositoryPaths.scenarios.path).filter { $0.hasSuffix(".yaml") }.sorted()
    #expect(names.count >= 5)
    for name in names {
      let base = name.replacingOccurrences(of: ".yaml", with: "")
      let own = RepositoryPaths.scenarios.appendingPathComponent(base + ".timeline")
      // A scenario on several phones: each phone's baseline, run with `--platform` naming it.
      let runs: [(arguments: [String], baseline: URL)] = FileManager.default.fileExists(atPath: own.path)
        ? [(["run", "scenarios/\(name)"], own)]
        : ["ios", "android"].map { (["run", "scenarios/\(name)", "--platform", $0], RepositoryPaths.scenarios.appendingPathComponent("\(base).\($0).timeline")) }
      for (arguments, baseline) in runs {
        let result = try Self.run(arguments)
        let expected = try String(contentsOf: baseline, encoding: .utf8)
        #expect(result.status == 0, "\(name): \(result.stderr)")
        #expect(result.stdout == expected, "\(arguments)")
      }
    }
  }

  @Test func missingTrackFileIsReportedAtTheScenarioLineThatNamesIt() throws {
    let folder = try temporaryDirectory()
    try """
      trigsim: 1
      clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T07:00:00Z, timezone: UTC }
      track: { file: missing.gpx }

      """.write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    let result = try Self.run(["run", "s.yaml"], in: folder)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("s.yaml:3:16: error: "))
  }

  @Test func invalidScenarioExitsSixtyFiveWithLocatedErrorsAndCaret() throws {
    let folder = try temporaryDirectory()
    let file = folder.appendingPathComponent("bad.yaml")
    try """
      trigsim: 1
      clock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T12:00:00+01:00, timezone: Europe/Copenhagen }
      regions:
        - { id: office, center: [55.6761, 12.5683] }
      notifications:
        - { id: a, trigger: { region: ofice } }
        - { id: b, trigger: { interval: 30s, repeats: true } }

      """.write(to: file, atomically: true, encoding: .utf8)
    let result = try Self.run(["run", "bad.yaml"], in: folder)
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("bad.yaml:6:33: error: unknown region 'ofice'\n"))
    #expect(result.stderr.contains("note: did you mean 'office'?"))
    #expect(result.stderr.contains("bad.yaml:7:35: error: a repeating interval must be at least 60s, not 30s"))
    // The caret sits under column 33 of the quoted line.
    #expect(result.stderr.contains("\n    " + String(repeating: " ", count: 32) + "^\n"))
  }

  @Test func missingScenarioFileExitsSixtySix() throws {
    let result = try Self.run(["run", "no-such-scenario.yaml"])
    #expect(result.status == 66)
    #expect(result.stderr == "error: cannot read 'no-such-scenario.yaml': no such file\n")
  }

  @Test func unknownOptionIsAUsageErrorSixtyFour() throws {
    let result = try Self.run(["run", "scenarios/morning-walk.yaml", "--colour"])
    #expect(result.status == 64)
  }

  @Test func outputFileIsWrittenWhole() throws {
    let folder = try temporaryDirectory()
    let output = folder.appendingPathComponent("out.json")
    let result = try Self.run(["run", "scenarios/morning-walk.yaml", "--format", "json", "--output", output.path])
    #expect(result.status == 0, "\(result.stderr)")
    let data = try Data(contentsOf: output)
    let document = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    #expect(document?["format"] as? String == "trigsim-timeline-2")
    #expect(((document?["entries"] as? [Any])?.count ?? 0) > 5)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.json"])
  }

  @Test func failedRunLeavesNoOutputFileBehind() throws {
    let folder = try temporaryDirectory()
    try "trigsim: 2\n".write(to: folder.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
    let result = try Self.run(["run", "bad.yaml", "--output", "out.txt"], in: folder)
    #expect(result.status == 65)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["bad.yaml"])
  }

  @Test func unwritableOutputExitsSeventyThree() throws {
    let result = try Self.run(["run", "scenarios/morning-walk.yaml", "--output", "/nonexistent-folder/out.txt"])
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("error: cannot write '/nonexistent-folder/out.txt'"))
  }

  @Test(arguments: ["jsonl", "csv"])
  func everyFormatHasOneLinePerEntry(format: String) throws {
    let text = try Self.run(["run", "scenarios/morning-walk.yaml"]).stdout
    let entries = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
    let other = try Self.run(["run", "scenarios/morning-walk.yaml", "--format", format])
    #expect(other.status == 0)
    let lines = other.stdout.split(whereSeparator: \.isNewline).count
    #expect(lines == entries + (format == "csv" ? 1 : 0))
  }
}
