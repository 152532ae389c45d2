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

  @Test func verifyNamesTheAlternativeUnderWhichARobustScenarioFails() throws {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-assumptions-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    try """
      trigsim: 1
      clock: { start: 2026-05-05T06:00:00+02:00, end: 2026-05-05T10:00:00+02:00, timezone: Europe/Copenhagen }
      medicines:
        - { id: levo, name: Levothyroxine, dosage: 50, times: ["07:00"], snooze: none }
      device:
        power:
          - { at: 2026-05-05T06:45:00, event: switch-off }
          - { at: 2026-05-05T07:30:00, event: switch-on }
      expect: none
      assert:
        - count: { entries: "suppressed medicine_levo_reminder_0", equals: 1 }
        - robust: true

      """.write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    let result = try Self.run(["verify", "s.yaml"], in: folder)
    #expect(result.status == 1)
    #expect(result.stdout.contains("s.yaml:12:5: assertion failed: robust: every assertion holds under every alternative of the assumptions consulted (powerOffCatchUp)\n"
      + "  under powerOffCatchUp=all: s.yaml:11:5: assertion failed: count of 'suppressed medicine_levo_reminder_0' is 1: found 0 matching entries (and 1 more)\n"), "\(result.stdout)")
  }
}
