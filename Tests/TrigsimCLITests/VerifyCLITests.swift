import Foundation
import Testing
import TrigsimTestSupport

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A temporary folder of scenarios for the checking commands.
struct Workspace {
  let root: URL

  init() throws { root = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-verify") }

  func path(_ name: String) -> String { root.appendingPathComponent(name).path }

  func write(_ name: String, _ text: String) throws {
    let url = root.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  func read(_ name: String) -> String? { try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8) }

  func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

  /// The morning walk (geofences, a calendar and an interval trigger) with its track by absolute path, plus `extra` YAML.
  static func walk(_ extra: String = "") -> String {
    let track = RepositoryPaths.fixtures.appendingPathComponent("tracks/morning-walk.gpx").path
    return """
      trigsim: 1
      name: walk
      clock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T12:00:00+01:00, timezone: Europe/Copenhagen }
      platform: { location: ideal }
      track: { file: \(track) }
      regions:
        - { id: home, center: [55.6761, 12.5683] }
        - { id: clinic, polygon: [[55.6800, 12.5700], [55.6810, 12.5700], [55.6810, 12.5720], [55.6800, 12.5720]] }
      notifications:
        - { id: water, title: Drink water, trigger: { interval: 2h, repeats: true } }
        - { id: pills, title: Morning pills, trigger: { calendar: { hour: 8, minute: 0 }, repeats: true } }
        - { id: pickup, title: Pick up prescription, trigger: { region: clinic, on: [enter] } }
      \(extra)
      """
  }

  /// Replaces the first line containing `marker` in the file using `transform`.
  func edit(_ name: String, line marker: String, _ transform: (String) -> String) throws {
    let text = try #require(read(name))
    var lines = text.components(separatedBy: "\n")
    let index = try #require(lines.firstIndex { $0.contains(marker) }, "no line with '\(marker)' in \(name)")
    lines[index] = transform(lines[index])
    try write(name, lines.joined(separator: "\n"))
  }
}

/// `verify`, `record`, `run --expect`: end to end through the built binary.
@Suite struct VerifyCLITests {
  /// A workspace with walk.yaml and its recorded walk.timeline.
  func recordedWalk(_ extra: String = "") throws -> Workspace {
    let workspace = try Workspace()
    try workspace.write("walk.yaml", Workspace.walk(extra))
    let recorded = try TrigsimBinary.run(["record", "walk.yaml"], in: workspace.root)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    #expect(recorded.stdout == "recorded  walk.timeline\n")
    return workspace
  }

  @Test func aRecordedTimelineVerifies() throws {
    let workspace = try recordedWalk()
    let result = try TrigsimBinary.run(["verify", "walk.yaml"], in: workspace.root)
    #expect(result.status == 0)
    #expect(result.stdout == "walk.yaml: passed\n")
    #expect(workspace.read("walk.timeline")?.hasPrefix("# trigsim timeline 1\n# scenario: walk\n") == true)
  }

  @Test func aShiftedCrossingFailsWithADiffAndTheOneLineSummary() throws {
    let workspace = try recordedWalk()
    // Move the expected clinic entry 2 s earlier: the actual run is then 2 s late.
    try workspace.edit("walk.timeline", line: "enter       clinic") { $0.replacingOccurrences(of: "07:38:33.000", with: "07:38:31.000") }
    let result = try TrigsimBinary.run(["verify", "walk.yaml"], in: workspace.root)
    #expect(result.status == 1)
    #expect(result.stdout.hasPrefix("timeline differs from walk.timeline: 0 missing, 0 unexpected, 1 shifted by +2s\n"))
    #expect(result.stdout.contains("- 2026-03-28T07:38:31.000+01:00 enter       clinic visit=1\n+ 2026-03-28T07:38:33.000+01:00 enter       clinic visit=1\n!   shifted by +2s (tolerance 0s)\n"))
    #expect(result.stdout.hasSuffix("walk.yaml: FAILED: timeline differs: 0 missing, 0 unexpected, 1 shifted by +2s\n"))
  }

  @Test func aToleranceOfExactlyTheShiftPassesAndOneMillisecondLessFails() throws {
    let workspace = try recordedWalk()
    try workspace.edit("walk.timeline", line: "enter       clinic") { $0.replacingOccurrences(of: "07:38:33.000", with: "07:38:31.000") }
    let justPasses = try TrigsimBinary.run(["verify", "walk.yaml", "--tolerance", "geofence=2s"], in: workspace.root)
    #expect(justPasses.status == 0)
    #expect(justPasses.stdout == "walk.yaml: passed (1 entry within tolerance, largest offset +2s)\n")
    let justFails = try TrigsimBinary.run(["verify", "walk.yaml", "--tolerance", "geofence=1999ms"], in: workspace.root)
    #expect(justFails.status == 1)
    #expect(justFails.stdout.contains("shifted by +2s (tolerance 1.999s)"))
    // A tolerance for calendar fires (`fired`) does not cover the crossing.
    let otherKind = try TrigsimBinary.run(["verify", "walk.yaml", "--tolerance", "fired=1h"], in: workspace.root)
    #expect(otherKind.status == 1)
  }

  @Test func theScenarioStatesItsOwnToleranceAndFilters() throws {
    let workspace = try recordedWalk("expect: { file: walk.timeline, tolerance: { enter: 2s }, ignoreFields: [title] }")
    try workspace.edit("walk.timeline", line: "enter       clinic") { $0.replacingOccurrences(of: "07:38:33.000", with: "07:38:31.000") }
    try workspace.edit("walk.timeline", line: "fired       pills") { $0.replacingOccurrences(of: "title=\"Morning pills\"", with: "title=Pills") }
    #expect(try TrigsimBinary.run(["verify", "walk.yaml"], in: workspace.root).status == 0)
    // The command line lays a stricter tolerance over the scenario's.
    let stricter = try TrigsimBinary.run(["verify", "walk.yaml", "--tolerance", "enter=1s"], in: workspace.root)
    #expect(stricter.status == 1)
    #expect(stricter.stdout.contains("1 shifted by +2s"))
  }

  @Test func aMissingBaselineFailsWithoutRecording() throws {
    let workspace = try Workspace()
    try workspace.write("walk.yaml", Workspace.walk())
    let result = try TrigsimBinary.run(["verify", "walk.yaml"], in: workspace.root)
    #expect(result.status == 1)
    #expect(result.stdout.contains("no expected timeline at 'walk.timeline'"))
    #expect(!workspace.exists("walk.timeline"))
  }

  @Test func recordMissingWritesOnlyAbsentBaselines() throws {
    let workspace = try recordedWalk()
    try workspace.write("second.yaml", Workspace.walk())
    try workspace.edit("walk.timeline", line: "enter       clinic") { $0 + " edited=yes" }
    let before = workspace.read("walk.timeline")
    let result = try TrigsimBinary.run(["verify", "second.yaml", "--record", "missing"], in: workspace.root)
    #expect(result.status == 0)
    #expect(workspace.exists("second.timeline"))
    let again = try TrigsimBinary.run(["record", "--mode", "missing", "walk.yaml", "second.yaml"], in: workspace.root)
    #expect(again.status == 1)  // walk.timeline differs and is kept
    #expect(workspace.read("walk.timeline") == before)
  }

  @Test func recordFailedRewritesOnlyDifferingBaselines() throws {
    let workspace = try recordedWalk()
    try workspace.write("second.yaml", Workspace.walk())
    _ = try TrigsimBinary.run(["record", "second.yaml"], in: workspace.root)
    try workspace.edit("walk.timeline", line: "enter       clinic") { $0 + " edited=yes" }
    let result = try TrigsimBinary.run(["record", "--mode", "failed", "walk.yaml", "second.yaml"], in: workspace.root)
    #expect(result.status == 0)
    #expect(result.stdout == "kept      second.timeline\nrewrote   walk.timeline\n")
    // Both scenarios are the same walk, so the rewritten baseline equals the kept one.
    #expect(workspace.read("walk.timeline") == workspace.read("second.timeline"))
  }

  @Test func onCINothingIsWrittenAndAMissingBaselineFails() throws {
    let workspace = try recordedWalk()
    try workspace.write("new.yaml", Workspace.walk())
    try workspace.edit("walk.timeline", line: "enter       clinic") { $0 + " edited=yes" }
    let before = workspace.read("walk.timeline")
    for arguments in [["record", "walk.yaml", "new.yaml"], ["verify", "new.yaml", "--record", "missing"], ["test", ".", "--record", "all"]] {
      let result = try TrigsimBinary.run(arguments, in: workspace.root, environment: ["CI": "true"])
      #expect(result.status == 1, "\(arguments)")
      #expect(!workspace.exists("new.timeline"), "\(arguments) wrote a baseline on CI")
      #expect(workspace.read("walk.timeline") == before, "\(arguments) rewrote a baseline on CI")
      #expect((result.stdout + result.stderr).contains("CI is set"), "\(arguments)")
    }
    // --force writes anyway.
    let forced = try TrigsimBinary.run(["record", "--force", "new.yaml"], in: workspace.root, environment: ["CI": "true"])
    #expect(forced.status == 0)
    #expect(workspace.exists("new.timeline"))
  }

  @Test func aJSONExpectedTimelineIsAccepted() throws {
    let workspace = try Workspace()
    try workspace.write("walk.yaml", Workspace.walk("expect: walk.json"))
    let recorded = try TrigsimBinary.run(["record", "walk.yaml"], in: workspace.root)
    #expect(recorded.stdout == "recorded  walk.json\n")
    #expect(workspace.read("walk.json")?.hasPrefix("{\n  \"format\": \"trigsim-timeline-2\"") == true)
    #expect(try TrigsimBinary.run(["verify", "walk.yaml"], in: workspace.root).status == 0)
  }

  @Test func runWithExpectPrintsTheTimelineAndTheDiffAndExitsOne() throws {
    let workspace = try recordedWalk()
    try workspace.edit("walk.timeline", line: "fired       pills") { $0.replacingOccurrences(of: "title=\"Morning pills\"", with: "title=Pills") }
    let result = try TrigsimBinary.run(["run", "walk.yaml", "--expect", "walk.timeline"], in: workspace.root)
    #expect(result.status == 1)
    #expect(result.stdout.hasPrefix("# trigsim timeline 1\n"))
    #expect(result.stderr.contains("!   changed: title\n"))
    #expect(result.stderr.hasSuffix("walk.yaml: FAILED: timeline differs: 0 missing, 0 unexpected, 0 shifted, 1 changed\n"))
    let ignoring = try TrigsimBinary.run(["run", "walk.yaml", "--expect", "walk.timeline", "--ignore-field", "fired.title"], in: workspace.root)
    #expect(ignoring.status == 0)
    // Without --expect there is nothing to compare: comparison options are a usage error.
    let noExpect = try TrigsimBinary.run(["run", "walk.yaml", "--tolerance", "1s"], in: workspace.root)
    #expect(noExpect.status == 64)
    #expect(noExpect.stdout.isEmpty)
  }

  @Test func anExpectedFileThatIsNotTextIsInvalidInputNamingIt() throws {
    let workspace = try recordedWalk()
    try Data([0xFF, 0xFE, 0x00]).write(to: workspace.root.appendingPathComponent("walk.timeline"))
    let result = try TrigsimBinary.run(["verify", "walk.yaml"], in: workspace.root)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("walk.timeline:1:1: error: cannot read the expected timeline: the file is not UTF-8 text\n"))
  }

  @Test func aMalformedExpectedFileIsInvalidInputAtItsLine() throws {
    let workspace = try recordedWalk()
    try workspace.edit("walk.timeline", line: "enter       clinic") { $0.replacingOccurrences(of: "enter      ", with: "entered    ") }
    let result = try TrigsimBinary.run(["verify", "walk.yaml"], in: workspace.root)
    #expect(result.status == 65)
    let line = try #require(workspace.read("walk.timeline")?.components(separatedBy: "\n").firstIndex { $0.contains("entered") }) + 1
    #expect(result.stderr.hasPrefix("walk.timeline:\(line):31: error: "), "\(result.stderr)")
  }
}

/// Assertions stated in the scenario, through `verify`.
@Suite struct AssertionCLITests {
  @Test func aFailedAssertionNamesThePropertyTheEntriesAndTheScenarioLine() throws {
    let workspace = try Workspace()
    try workspace.write("walk.yaml", Workspace.walk("""
      expect: none
      assert:
        - nothingFired: { from: "07:30", to: "08:00" }
        - count: { fired: water, equals: 3 }
        - order: { first: "enter clinic", then: pickup }
      """))
    let result = try TrigsimBinary.run(["verify", "walk.yaml"], in: workspace.root)
    #expect(result.status == 1)
    // The walk's pickup fires at 07:38:33 in the window; water fires at 08:00, 10:00 and 12:00 (end inclusive): 3, so the count holds.
    #expect(result.stdout == """
      walk.yaml:15:5: assertion failed: nothing fired from 07:30 to 08:00 (every day, device time)
        1 notification fired in the window
          2026-03-28T07:38:33.000+01:00 fired       pickup trigger="region clinic on=enter" title="Pick up prescription" repeats=no
      walk.yaml: FAILED: 1 assertion failed

      """)
  }

  @Test func anUnknownAssertionAndAPatternMatchingNothingAreLocatedInputErrors() throws {
    let workspace = try Workspace()
    try workspace.write("walk.yaml", Workspace.walk("""
      assert:
        - nothingFire: { from: "22:00", to: "07:00" }
        - count: { fired: piils, atLeast: 1 }
      """))
    let result = try TrigsimBinary.run(["verify", "walk.yaml"], in: workspace.root)
    #expect(result.status == 65)
    #expect(result.stderr.contains("walk.yaml:14:5: error: unknown assertion 'nothingFire'\n"))
    #expect(result.stderr.contains("note: did you mean 'nothingFired'?\n"))
    #expect(result.stderr.contains("walk.yaml:15:21: error: pattern 'piils' matches no notification in this scenario\n"))
    #expect(result.stderr.contains("note: did you mean 'pills'?\n"))
  }
}

/// `test`: batches, the table, exit codes, JUnit and shards.
@Suite struct TestCommandCLITests {
  /// pass.yaml passes, fail.yaml differs, skip.yaml has an absent optional track, and more/*.yaml pass.
  func corpus() throws -> Workspace {
    let workspace = try Workspace()
    for name in ["pass", "fail", "more/a", "more/b", "more/c"] {
      try workspace.write("\(name).yaml", Workspace.walk())
      _ = try TrigsimBinary.run(["record", "\(name).yaml"], in: workspace.root)
    }
    try workspace.edit("fail.timeline", line: "fired       pickup") { $0.replacingOccurrences(of: "pickup", with: "pick-up") }
    try workspace.write("skip.yaml", """
      trigsim: 1
      clock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T12:00:00+01:00, timezone: Europe/Copenhagen }
      track: { file: absent/track.gpx, ifMissing: skip }
      """)
    return workspace
  }

  @Test func aBatchPrintsFailuresThenTheTableAndExitsOne() throws {
    let workspace = try corpus()
    let result = try TrigsimBinary.run(["test", ".", "--jobs", "2"], in: workspace.root)
    #expect(result.status == 1)
    #expect(result.stdout.hasPrefix("=== FAIL fail.yaml: timeline differs: 1 missing, 1 unexpected, 0 shifted\n"))
    let rows = tableRows(result.stdout).map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(3).joined(separator: " ") }
    #expect(rows == ["fail.yaml FAIL 14", "more/a.yaml pass 14", "more/b.yaml pass 14", "more/c.yaml pass 14", "pass.yaml pass 14", "skip.yaml skip -"])
    #expect(result.stdout.contains("\n4 passed, 1 failed, 0 errors, 1 skipped in "))
  }

  @Test func badInputOutranksAMismatchInTheExitCode() throws {
    let workspace = try corpus()
    try workspace.write("broken.yaml", "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: soon, timezone: UTC }\n")
    let result = try TrigsimBinary.run(["test", "."], in: workspace.root)
    #expect(result.status == 65)
    #expect(result.stdout.contains("=== ERROR broken.yaml: invalid input\nbroken.yaml:2:49: error: clock end 'soon' is not an ISO 8601 date-time"))
    // A failed JUnit write (a file where its folder must be) does not hide the more serious bad input.
    let unwritable = try TrigsimBinary.run(["test", ".", "--junit", "pass.yaml/junit.xml"], in: workspace.root)
    #expect(unwritable.status == 65)
    #expect(unwritable.stderr.contains("error: cannot write 'pass.yaml/junit.xml': 'pass.yaml' is a file, not a folder"))
  }

  @Test func junitReportParsesBackWithOneTestcasePerScenarioAndTheDiffAsFailureText() throws {
    let workspace = try corpus()
    let written = try TrigsimBinary.run(["test", ".", "--junit", "junit.xml"], in: workspace.root)
    #expect(written.status == 1)
    let data = try #require(FileManager.default.contents(atPath: workspace.path("junit.xml")))
    let parsed = try JUnitDocument(data)
    #expect(parsed.suites == [JUnitDocument.Suite(name: "trigsim", tests: 6, failures: 1, errors: 0, skipped: 1)])
    #expect(parsed.cases.map(\.name) == ["fail.yaml", "a.yaml", "b.yaml", "c.yaml", "pass.yaml", "skip.yaml"])
    #expect(parsed.cases.map(\.classname) == ["trigsim", "more", "more", "more", "trigsim", "trigsim"])
    let failing = try #require(parsed.cases.first)
    #expect(failing.failureMessage == "timeline differs: 1 missing, 1 unexpected, 0 shifted")
    // The failure text is the diff verify prints.
    let verify = try TrigsimBinary.run(["verify", "fail.yaml"], in: workspace.root)
    #expect(failing.failureText.map { $0 + "fail.yaml: FAILED: \(failing.failureMessage!)\n" } == verify.stdout)
    #expect(parsed.cases.last?.skippedMessage?.contains("track file 'absent/track.gpx' is absent") == true)
    #expect(parsed.cases.dropFirst().dropLast().allSatisfy { $0.failureMessage == nil && $0.skippedMessage == nil && $0.time != nil })
  }

  @Test func shardsCoverEveryScenarioExactlyOnce() throws {
    let workspace = try corpus()
    let all = tableRows(try TrigsimBinary.run(["test", "."], in: workspace.root).stdout).map { String($0.split(separator: " ")[0]) }
    #expect(all.count == 6)
    for count in 1...4 {
      var seen: [String] = []
      for index in 1...count {
        let result = try TrigsimBinary.run(["test", ".", "--shard", "\(index)/\(count)"], in: workspace.root)
        let names = tableRows(result.stdout).map { String($0.split(separator: " ")[0]) }
        seen += names
        // The same shard twice gives the same scenarios.
        let again = try TrigsimBinary.run(["test", ".", "--shard", "\(index)/\(count)"], in: workspace.root)
        #expect(tableRows(again.stdout).map { String($0.split(separator: " ")[0]) } == names)
      }
      #expect(seen.sorted() == all.sorted(), "shards of \(count)")
    }
    let bad = try TrigsimBinary.run(["test", ".", "--shard", "3/2"], in: workspace.root)
    #expect(bad.status == 64)
  }

  /// The rows of the summary table: the lines between its header and the count line.
  func tableRows(_ stdout: String) -> [String] {
    let lines = stdout.components(separatedBy: "\n")
    guard let header = lines.firstIndex(where: { $0.hasPrefix("scenario ") }) else { return [] }
    return Array(lines[(header + 1)...].prefix { !$0.isEmpty && !$0.contains(" passed, ") })
  }

  @Test func globsAndFilesSelectScenarios() throws {
    let workspace = try corpus()
    // One file named three ways (glob, plain, ./) runs once.
    let result = try TrigsimBinary.run(["test", "more/*.yaml", "pass.yaml", "./more/a.yaml", "more//a.yaml"], in: workspace.root)
    #expect(result.status == 0)
    let names = tableRows(result.stdout).map { String($0.split(separator: " ")[0]) }
    #expect(names == ["more/a.yaml", "more/b.yaml", "more/c.yaml", "pass.yaml"])
    let nothing = try TrigsimBinary.run(["test", "none/*.yaml"], in: workspace.root)
    #expect(nothing.status == 64)
    #expect(nothing.stderr.contains("'none/*.yaml' matches no file"))
  }
}

/// A JUnit XML document read back with Foundation's XML parser.
final class JUnitDocument: NSObject, XMLParserDelegate {
  struct Suite: Equatable {
    var name: String
    var tests, failures, errors, skipped: Int
  }

  struct Case {
    var classname: String
    var name: String
    var time: Double?
    var failureMessage: String?
    var failureText: String?
    var skippedMessage: String?
    var skippedText: String?
    var errorMessage: String?
    var errorType: String?
    var errorText: String?
  }

  var suites: [Suite] = []
  var cases: [Case] = []
  private var text = ""
  private var inFailure = false
  private var inError = false
  private var inSkipped = false
  private var parseError: Error?

  init(_ data: Data) throws {
    super.init()
    let parser = XMLParser(data: data)
    parser.delegate = self
    guard parser.parse() else { throw parser.parserError ?? parseError ?? CocoaError(.coderReadCorrupt) }
  }

  func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
    switch element {
    case "testsuite":
      suites.append(Suite(
        name: attributes["name"] ?? "", tests: Int(attributes["tests"] ?? "") ?? -1, failures: Int(attributes["failures"] ?? "") ?? -1,
        errors: Int(attributes["errors"] ?? "") ?? -1, skipped: Int(attributes["skipped"] ?? "") ?? -1))
    case "testcase":
      cases.append(Case(classname: attributes["classname"] ?? "", name: attributes["name"] ?? "", time: attributes["time"].flatMap(Double.init)))
    case "failure":
      cases[cases.count - 1].failureMessage = attributes["message"]
      inFailure = true
      text = ""
    case "skipped":
      cases[cases.count - 1].skippedMessage = attributes["message"]
      inSkipped = true
      text = ""
    case "error":
      cases[cases.count - 1].errorMessage = attributes["message"]
      cases[cases.count - 1].errorType = attributes["type"]
      inError = true
      text = ""
    default:
      break
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { if inFailure || inError || inSkipped { text += string } }

  func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
    if element == "failure" {
      cases[cases.count - 1].failureText = text
      inFailure = false
    }
    if element == "skipped" {
      cases[cases.count - 1].skippedText = text
      inSkipped = false
    }
    if element == "error" {
      cases[cases.count - 1].errorText = text
      inError = false
    }
  }
}
