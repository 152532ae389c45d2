import Testing

@testable import trigsim

/// `JUnitReport`'s class names, bounded bodies and one-line messages.
@Suite struct JUnitReportTests {
  @Test(arguments: [
    ("scenarios/corpus/cycle.yaml", "scenarios.corpus"),
    ("scenarios/a.yaml", "scenarios"),
    ("a.yaml", "trigsim"),
    ("./a.yaml", "trigsim"),
    ("./scenarios//corpus/./a.yaml", "scenarios.corpus"),
    ("/ci/v1.2/a.yaml", "ci.v1_2"),
    ("../shared/a.yaml", "__.shared"),
  ])
  func theClassNameIsTheFolderWithDotsForSlashes(path: String, className: String) {
    #expect(JUnitReport.className(of: path) == className)
  }

  @Test func aBodyUpToTheLimitIsKeptWhole() {
    let text = (1...JUnitReport.bodyLineLimit).map { "line \($0)" }.joined(separator: "\n") + "\n"
    #expect(JUnitReport.boundedBody(text, scenarioPath: "s.yaml") == text)
  }

  @Test func aLongerBodyIsCutWithALineSayingHowManyLinesAndWhereToSeeThem() {
    let limit = JUnitReport.bodyLineLimit
    let text = (1...(limit + 658)).map { "line \($0)" }.joined(separator: "\n") + "\n"
    let body = JUnitReport.boundedBody(text, scenarioPath: "scenarios/week.yaml")
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == limit + 2)  // the kept lines, the cut line, and the final empty piece
    #expect(lines[limit - 1] == "line \(limit)")
    #expect(lines[limit] == "... 658 more lines cut; 'trigsim verify scenarios/week.yaml' (with the same options) prints the whole report")
  }

  @Test func aMessageIsOneLine() {
    #expect(JUnitReport.oneLine("a\nb\r\nc\td\n") == "a b c d")
  }

  @Test func withoutASourceDateTheSuiteHasNoTimestampRatherThanAMeaninglessOne() {
    let xml = JUnitReport.xml([], suiteSeconds: 0.25)
    #expect(xml == """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuites>
        <testsuite name="trigsim" package="trigsim" id="0" tests="0" failures="0" errors="0" skipped="0" time="0.250" \
      hostname="localhost">
          <properties/>
          <system-out/>
          <system-err/>
        </testsuite>
      </testsuites>

      """)
  }

  @Test func theTimestampIsTheSourceDateInUTCWithoutAZone() throws {
    // 1780000000 s after the epoch is 2026-05-28T20:26:40Z.
    #expect(try JUnitReport.timestamp(sourceDateEpoch: "1780000000") == "2026-05-28T20:26:40")
    #expect(try JUnitReport.timestamp(sourceDateEpoch: "0") == "1970-01-01T00:00:00")
    #expect(try JUnitReport.timestamp(sourceDateEpoch: nil) == nil)
    #expect(try JUnitReport.timestamp(sourceDateEpoch: "") == nil)
    let xml = JUnitReport.xml([], suiteSeconds: 0.25, timestamp: "2026-05-28T20:26:40")
    #expect(xml.contains(" time=\"0.250\" timestamp=\"2026-05-28T20:26:40\" hostname=\"localhost\">\n"))
  }

  @Test(arguments: ["yesterday", "-1", "1.5", " 1780000000", "99999999999999999999"])
  func aSourceDateThatIsNotWholeSecondsIsRefusedNamingTheVariable(_ value: String) {
    #expect {
      _ = try JUnitReport.timestamp(sourceDateEpoch: value)
    } throws: { error in
      "\(error)" == "SOURCE_DATE_EPOCH is '\(value)', not a date: it must be whole seconds since 1970-01-01T00:00:00Z "
        + "(as 'git log -1 --format=%ct' prints), or unset to leave the JUnit timestamp out"
    }
  }

  @Test func theSuiteWithASourceDateHasEveryAttributeAntRequires() {
    let xml = JUnitReport.xml([], suiteSeconds: 0.25, timestamp: "2026-05-28T20:26:40")
    #expect(xml == """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuites>
        <testsuite name="trigsim" package="trigsim" id="0" tests="0" failures="0" errors="0" skipped="0" time="0.250" \
      timestamp="2026-05-28T20:26:40" hostname="localhost">
          <properties/>
          <system-out/>
          <system-err/>
        </testsuite>
      </testsuites>

      """)
  }
}
