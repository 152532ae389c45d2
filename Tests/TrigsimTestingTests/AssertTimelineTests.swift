import Foundation
import Testing
import TrigsimCore
import TrigsimScenario
import TrigsimTestSupport
import TrigsimTesting

/// The library's assertions record one issue carrying the readable diff, and none when the timelines agree.
@Suite struct AssertTimelineTests {
  static let walkScenario = RepositoryPaths.scenarios.appendingPathComponent("morning-walk.yaml").path
  static let walkTimeline = RepositoryPaths.scenarios.appendingPathComponent("morning-walk.timeline").path

  func walkRun() throws -> Timeline { try Simulation(ScenarioLoader().load(path: Self.walkScenario)).run() }

  @Test func aMatchingTimelineRecordsNoIssue() throws {
    let comparison = assertTimeline(try walkRun(), matches: Self.walkTimeline)
    #expect(comparison?.matches == true)
  }

  @Test func aShiftedEntryRecordsAnIssueWithTheDiff() throws {
    var actual = try walkRun()
    let index = try #require(actual.entries.firstIndex { $0.kind == .enter && $0.subject == "clinic" })
    actual.entries[index].instant = actual.entries[index].instant.advanced(byMilliseconds: 250)
    withKnownIssue {
      assertTimeline(actual, matches: Self.walkTimeline)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("0 missing, 0 unexpected, 1 shifted by +250ms") && text.contains("+ 2026-03-28T07:38:33.250+01:00 enter       clinic visit=1")
    }
    // The same shift passes under a geofence tolerance of 250 ms.
    var options = ComparisonOptions()
    options.tolerance.set(SimulationDuration(milliseconds: 250), for: EntrySelector(.geofence))
    #expect(assertTimeline(actual, matches: Self.walkTimeline, options: options)?.matches == true)
  }

  @Test func anUnreadableExpectedFileRecordsAnIssueNamingIt() throws {
    let actual = try walkRun()
    withKnownIssue {
      assertTimeline(actual, matches: "/nonexistent/walk.timeline")
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("cannot read the expected timeline '/nonexistent/walk.timeline'")
    }
  }

  @Test func assertScenarioPassesEveryBundledScenario() {
    let verification = assertScenario(at: Self.walkScenario)
    #expect(verification.outcome == .passed)
  }
}

/// Issue 41, finding 12: a failed expectation on a dose, an entry or a summary printed its struct dump.
@Suite struct LedgerDescriptionTests {
  static let scenario = RepositoryPaths.scenarios.appendingPathComponent("android-force-stop.yaml").path

  @Test func aDoseAnEntryAndASummaryDescribeThemselvesAsTheCLIPrintsThem() throws {
    let report = try Simulation(ScenarioLoader().load(path: Self.scenario)).report()
    let dose = try #require(report.summary.doses.first)
    let utcCells = RunSummary().doseCells(dose)
    #expect(String(describing: dose) == utcCells.joined(separator: "  "))
    #expect(String(describingForTest: dose) == String(describing: dose))
    #expect(String(reflecting: dose) == "dose(" + zip(RunSummary.doseColumns, utcCells).map { "\($0)=\($1)" }.joined(separator: " ") + ")")
    #expect(!String(describingForTest: dose).contains("DoseRecord("))
    #expect(String(describing: dose).count < 200)

    let entry = try #require(report.timeline.entries.first)
    #expect(String(describing: entry) == entry.canonicalLine)
    #expect(String(describingForTest: entry) == entry.canonicalLine)
    #expect(String(reflecting: entry) == "entry(\(entry.canonicalLine))")

    #expect(String(describingForTest: report.summary) == report.summary.text)
  }
}
