import Foundation
import Testing
import TrigsimCore

@testable import TrigsimScenario

/// Issue 41, items 10 and 11: the `.assumptions` and `.platforms` diffs
/// printed a baseline's lines as they were (ESC, BEL, NUL and binary bytes
/// raw; a 50 MB line whole). A diff now quotes at most
/// `Diagnostic.diffLineLimit` scalars of a line, escaped, and at most
/// `limit` lines of each side.
@Suite struct BaselineTextDifferenceTests {
  @Test func theLinesOnlyOneSideHasAreListedInFileOrderWithTheirNumbers() {
    let difference = BaselineTextDifference(expected: "a\nb\nc\n", actual: "a\nc\nd\ne\n")
    #expect(difference.removed == [.init(number: 2, text: "b")])
    #expect(difference.added == [.init(number: 3, text: "d"), .init(number: 4, text: "e")])
    #expect(difference.report(expectedName: "x.assumptions", actualName: "assumption report of x.yaml")
      == "--- x.assumptions\n+++ assumption report of x.yaml\n-b\n+d\n+e\n")
    #expect(BaselineTextDifference(expected: "a\nb\n", actual: "b\na\n").isEmpty)
  }

  @Test func controlCharactersAreEscapedAndALongLineIsCut() {
    let hostile = "assumptions consulted: 1\u{1B}[2J\u{07}\u{00}\r"
    let long = String(repeating: "x", count: 1000)
    let report = BaselineTextDifference(expected: hostile + "\n" + long + "\n", actual: "assumptions consulted: none\n")
      .report(expectedName: "x\u{1B}.assumptions", actualName: "run")
    #expect(!report.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    #expect(report.contains(#"-assumptions consulted: 1\u{1B}[2J\u{7}\u{0}\u{D}"#))
    #expect(report.contains("-" + String(repeating: "x", count: Diagnostic.diffLineLimit) + "…\n"))
    #expect(!report.contains(String(repeating: "x", count: Diagnostic.diffLineLimit + 1)))
    #expect(report.hasPrefix(#"--- x\u{1B}.assumptions"#))
  }

  @Test func atMostLimitLinesOfEachSideAndTheCountOfTheRest() {
    let expected = (1...50).map { "old \($0)" }.joined(separator: "\n")
    let actual = (1...3).map { "new \($0)" }.joined(separator: "\n")
    let report = BaselineTextDifference(expected: expected, actual: actual).report(expectedName: "e", actualName: "a", limit: 20)
    #expect(report.components(separatedBy: "\n-old").count - 1 == 20)
    #expect(report.contains("... and 30 more changed lines of the baseline\n"))
    #expect(report.hasSuffix("+new 1\n+new 2\n+new 3\n"))
  }

  @Test func aTrialReportDiffQuotesItsLinesTheSameWay() {
    let report = TrialReportDifference(expected: "# trigsim trials\n\u{1B}]0;pwned\u{07}\n", actual: "# trigsim trials\nok\n")
      .report(expectedName: "s.trials", actualName: "trials of s.yaml")
    #expect(report.contains(#"- \u{1B}]0;pwned\u{7}"#))
    #expect(!report.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }
}
