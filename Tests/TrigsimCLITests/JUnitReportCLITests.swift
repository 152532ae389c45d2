import Foundation
import Testing
import TrigsimTestSupport

/// `test --junit`: the report is valid against the JUnit schemas Jenkins'
/// xUnit plugin and Apache Ant publish (Tests/JUnitSchemas), names what
/// failed in one line, and is written where asked, folders and all.
@Suite struct JUnitReportCLITests {
  /// The schemas the report must satisfy, written from the published element and attribute lists.
  static let schemas = ["jenkins-xunit-junit-10.xsd", "ant-junit.xsd"].map {
    RepositoryPaths.root.appendingPathComponent("Tests/JUnitSchemas/\($0)").path
  }

  /// `xmllint` (Debian's libxml2-utils) on the PATH, or nil.
  static let xmllint: URL? = {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
    return folders.map { URL(fileURLWithPath: String($0)).appendingPathComponent("xmllint") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  /// Runs `xmllint --noout --schema schema document`; nil when the document is valid, else what xmllint said.
  static func schemaViolations(_ document: String, against schema: String) throws -> String? {
    let xmllint = try #require(Self.xmllint)
    let result = try TrigsimBinary.runProcess(xmllint, ["--noout", "--schema", schema, document], in: RepositoryPaths.root)
    return result.status == 0 ? nil : result.stderr
  }

  /// top.yaml passes; scenarios/corpus/diff.yaml differs from its timeline
  /// (one renamed notification); scenarios/corpus/assert.yaml fails two
  /// assertions; skip.yaml is skipped; broken.yaml is bad input.
  func corpus() throws -> Workspace {
    let workspace = try Workspace()
    for name in ["top", "scenarios/corpus/diff"] {
      try workspace.write("\(name).yaml", Workspace.walk())
      _ = try TrigsimBinary.run(["record", "\(name).yaml"], in: workspace.root)
    }
    try workspace.edit("scenarios/corpus/diff.timeline", line: "fired       pickup") { $0.replacingOccurrences(of: "pickup", with: "pick-up") }
    try workspace.write("scenarios/corpus/assert.yaml", Workspace.walk("""
      expect: none
      assert:
        - nothingFired: { from: "07:30", to: "08:00" }
        - count: { fired: water, equals: 2 }
      """))
    try workspace.write("skip.yaml", """
      trigsim: 1
      clock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T12:00:00+01:00, timezone: Europe/Copenhagen }
      track: { file: absent/track.gpx, ifMissing: skip }
      """)
    try workspace.write("broken.yaml", "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: soon, timezone: UTC }\n")
    return workspace
  }

  @Test(.enabled(if: xmllint != nil, "xmllint is absent: install Debian's libxml2-utils to validate JUnit reports against the schemas"))
  func withASourceDateTheReportIsValidAgainstTheJenkinsXUnitAndAntSchemas() throws {
    let workspace = try corpus()
    let result = try TrigsimBinary.run(["test", ".", "--junit", "junit.xml"], in: workspace.root, environment: ["SOURCE_DATE_EPOCH": "1780000000"])
    #expect(result.status == 65)
    #expect(try #require(workspace.read("junit.xml")).contains(" timestamp=\"2026-05-28T20:26:40\" hostname=\"localhost\">"))
    for schema in Self.schemas {
      #expect(try Self.schemaViolations(workspace.path("junit.xml"), against: schema) == nil, "\(schema)")
    }
  }

  /// Without `SOURCE_DATE_EPOCH` the report has no timestamp: Jenkins'
  /// schema allows that; Ant's requires one (the manual, "Checking runs").
  @Test(.enabled(if: xmllint != nil, "xmllint is absent: install Debian's libxml2-utils to validate JUnit reports against the schemas"))
  func withoutASourceDateTheReportHasNoTimestampAndIsValidAgainstTheJenkinsXUnitSchema() throws {
    let workspace = try corpus()
    let result = try TrigsimBinary.run(["test", ".", "--junit", "junit.xml"], in: workspace.root, environment: ["SOURCE_DATE_EPOCH": ""])
    #expect(result.status == 65)
    let xml = try #require(workspace.read("junit.xml"))
    #expect(!xml.contains("timestamp="))
    #expect(!xml.contains("1970"))
    #expect(try Self.schemaViolations(workspace.path("junit.xml"), against: Self.schemas[0]) == nil)
  }

  @Test func aMalformedSourceDateIsAUsageErrorBeforeAnyScenarioRuns() throws {
    let workspace = try corpus()
    let result = try TrigsimBinary.run(["test", ".", "--junit", "junit.xml"], in: workspace.root, environment: ["SOURCE_DATE_EPOCH": "yesterday"])
    #expect(result.status == 64)
    #expect(result.stderr.contains(
      "SOURCE_DATE_EPOCH is 'yesterday', not a date: it must be whole seconds since 1970-01-01T00:00:00Z (as 'git log -1 --format=%ct' prints), or unset to leave the JUnit timestamp out"))
    #expect(result.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: workspace.path("junit.xml")))
  }

  /// The schemas are strict where the old report was wrong: `file` on a
  /// testcase, `skipped` on the root, no timestamp or hostname.
  @Test(.enabled(if: xmllint != nil, "xmllint is absent: install Debian's libxml2-utils to validate JUnit reports against the schemas"))
  func theSchemasRejectWhatTheFormerReportWrote() throws {
    let workspace = try Workspace()
    let valid = """
      <testsuites><testsuite name="trigsim" package="trigsim" id="0" tests="1" failures="0" errors="0" time="0.1" \
      timestamp="1970-01-01T00:00:00" hostname="localhost"><properties/>\
      <testcase classname="scenarios" name="a.yaml" time="0.1"/><system-out/><system-err/></testsuite></testsuites>
      """
    try workspace.write("valid.xml", valid)
    try workspace.write("file.xml", valid.replacingOccurrences(of: "name=\"a.yaml\"", with: "name=\"a.yaml\" file=\"scenarios/a.yaml\""))
    try workspace.write("root.xml", valid.replacingOccurrences(of: "<testsuites>", with: "<testsuites tests=\"1\" skipped=\"0\">"))
    try workspace.write("undated.xml", valid.replacingOccurrences(of: " timestamp=\"1970-01-01T00:00:00\" hostname=\"localhost\"", with: ""))
    let (jenkins, ant) = (Self.schemas[0], Self.schemas[1])
    #expect(try Self.schemaViolations(workspace.path("valid.xml"), against: jenkins) == nil)
    #expect(try Self.schemaViolations(workspace.path("valid.xml"), against: ant) == nil)
    #expect(try Self.schemaViolations(workspace.path("file.xml"), against: jenkins)?.contains("'file'") == true)
    #expect(try Self.schemaViolations(workspace.path("file.xml"), against: ant)?.contains("'file'") == true)
    #expect(try Self.schemaViolations(workspace.path("root.xml"), against: jenkins)?.contains("'skipped'") == true)
    #expect(try Self.schemaViolations(workspace.path("undated.xml"), against: ant)?.contains("'timestamp'") == true)
  }

  @Test func aFailedDiffAndAFailedAssertionNameWhatFailedAndCarryTheirDetail() throws {
    let workspace = try corpus()
    let result = try TrigsimBinary.run(["test", ".", "--junit", "junit.xml"], in: workspace.root)
    #expect(result.status == 65)
    let report = try JUnitDocument(#require(FileManager.default.contents(atPath: workspace.path("junit.xml"))))
    #expect(report.suites == [JUnitDocument.Suite(name: "trigsim", tests: 5, failures: 2, errors: 1, skipped: 1)])
    #expect(report.cases.map(\.name) == ["broken.yaml", "assert.yaml", "diff.yaml", "skip.yaml", "top.yaml"])
    #expect(report.cases.map(\.classname) == ["trigsim", "scenarios.corpus", "scenarios.corpus", "trigsim", "trigsim"])

    let broken = report.cases[0]
    #expect(broken.errorType == "InvalidInput")
    #expect(broken.errorMessage == "invalid input: broken.yaml:2:49: error: clock end 'soon' is not an ISO 8601 date-time")
    #expect(broken.errorText?.hasPrefix("broken.yaml:2:49: error: clock end 'soon' is not an ISO 8601 date-time\nnote: write it like ") == true)

    // The assertion: its text and finding in the message, every failed assertion in full as the body.
    let assertion = report.cases[1]
    #expect(assertion.failureMessage == "assertion failed: nothing fired from 07:30 to 08:00 (every day, device time): 1 notification fired in the window (and 1 more)")
    let verifyAssertion = try TrigsimBinary.run(["verify", "scenarios/corpus/assert.yaml"], in: workspace.root)
    #expect(verifyAssertion.stdout.hasSuffix("scenarios/corpus/assert.yaml: FAILED: 2 assertions failed\n"))
    #expect(assertion.failureText.map { $0 + "scenarios/corpus/assert.yaml: FAILED: 2 assertions failed\n" } == verifyAssertion.stdout)
    #expect(assertion.failureText?.contains("scenarios/corpus/assert.yaml:16:5: assertion failed: count of 'fired water' is 2\n  found 3 matching entries\n") == true)

    // The diff: its summary line as the message, the diff verify prints as the body.
    let diff = report.cases[2]
    #expect(diff.failureMessage == "timeline differs: 1 missing, 1 unexpected, 0 shifted")
    let verifyDiff = try TrigsimBinary.run(["verify", "scenarios/corpus/diff.yaml"], in: workspace.root)
    #expect(diff.failureText.map { $0 + "scenarios/corpus/diff.yaml: FAILED: \(diff.failureMessage!)\n" } == verifyDiff.stdout)

    #expect(report.cases[3].skippedMessage?.contains("track file 'absent/track.gpx' is absent") == true)
    #expect(report.cases[3].skippedText == report.cases[3].skippedMessage)  // GitLab shows the text, Jenkins the attribute
    #expect(report.cases[4].failureMessage == nil && report.cases[4].errorMessage == nil && report.cases[4].time != nil)
  }

  /// Issue 26: a skipped scenario's message named its absent track by the
  /// host's absolute path. It names it as the scenario's own path is named,
  /// relative to the working folder, both in the attribute and the text.
  @Test func aSkipMessageNamesTheAbsentTrackRelativeToTheWorkingFolder() throws {
    let workspace = try Workspace()
    try workspace.write("scenarios/corpus/skip.yaml", """
      trigsim: 1
      clock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T12:00:00+01:00, timezone: Europe/Copenhagen }
      track: { file: ../../tracks/absent.gpx, ifMissing: skip }
      """)
    for (folder, path, looked) in [("", ".", "tracks/absent.gpx"), ("scenarios", "corpus", "../tracks/absent.gpx")] {
      let directory = folder.isEmpty ? workspace.root : workspace.root.appendingPathComponent(folder)
      let result = try TrigsimBinary.run(["test", path, "--junit", "junit.xml"], in: directory)
      #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
      let report = try JUnitDocument(#require(FileManager.default.contents(atPath: directory.appendingPathComponent("junit.xml").path)))
      let message = try #require(report.cases.first?.skippedMessage)
      #expect(message.contains("track file '../../tracks/absent.gpx' is absent (looked for '\(looked)')"), "\(message)")
      #expect(!message.contains("'/") && !message.contains(workspace.root.path) && !message.contains(FileManager.default.temporaryDirectory.path), "\(message)")
      #expect(report.cases.first?.skippedText == message)
    }
  }

  @Test func missingFoldersOfTheReportPathAreCreated() throws {
    let workspace = try corpus()
    #expect(!workspace.exists("build"))
    let result = try TrigsimBinary.run(["test", "top.yaml", "--junit", "build/reports/x.xml"], in: workspace.root)
    #expect(result.status == 0, "\(result.stderr)")
    let report = try JUnitDocument(#require(FileManager.default.contents(atPath: workspace.path("build/reports/x.xml"))))
    #expect(report.cases.map(\.name) == ["top.yaml"])
    // Only the report is left in the new folder: no temporary file.
    #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("build/reports")) == ["x.xml"])

    // A file where a folder must be: nothing written, exit 73, and what to do.
    let blocked = try TrigsimBinary.run(["test", "top.yaml", "--junit", "top.yaml/reports/x.xml"], in: workspace.root)
    #expect(blocked.status == 73)
    #expect(blocked.stderr.contains(
      "error: cannot write 'top.yaml/reports/x.xml': 'top.yaml' is a file, so the folder 'top.yaml/reports' cannot be created: remove it or name a file in another folder\n"))
  }
}
