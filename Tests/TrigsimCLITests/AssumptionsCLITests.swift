import Foundation
import Testing
import TrigsimTestSupport

/// `run --assumptions`, and `robust: true` through `verify` (the manual, "Assumptions").
@Suite struct AssumptionsCLITests {
  static func run(_ arguments: [String], in directory: URL = RepositoryPaths.root) throws -> TrigsimBinary.Result {
    try TrigsimBinary.run(arguments, in: directory)
  }

  @Test func runWithAssumptionsPrintsTheReviewedReportAfterTheTimeline() throws {
    let result = try Self.run(["run", "scenarios/assumption-report-phone-off.yaml", "--assumptions"])
    #expect(result.status == 0, "\(result.stderr)")
    let timeline = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent("assumption-report-phone-off.timeline"), encoding: .utf8)
    let report = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent("assumption-report-phone-off.assumptions"), encoding: .utf8)
    let commented = "# assumptions\n" + report.split(separator: "\n").map { "# \($0)\n" }.joined()
    #expect(result.stdout == timeline + commented)
  }

  @Test func assumptionsGoWithATextTimelineOnly() throws {
    let result = try Self.run(["run", "scenarios/assumption-report-phone-off.yaml", "--assumptions", "--format", "json"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--assumptions prints its report after a text timeline: use --format text"))
  }

  /// The manual's example (Assumptions), whose output the manual shows in full.
  @Test func verifyNamesTheAlternativeUnderWhichARobustScenarioFails() throws {
    let result = try Self.run(["verify", "fixtures/manual/robust-power-off.yaml"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("robust-power-off.yaml:15:5: assertion failed: robust: every assertion holds under every alternative of the assumptions consulted (powerOffCatchUp)\n"
      + "  under powerOffCatchUp=all: fixtures/manual/robust-power-off.yaml:14:5: assertion failed: count of 'suppressed medicine_levo_reminder_0' is 1: found 0 matching entries (and 1 more)\n"), "\(result.stdout)")
  }
}
