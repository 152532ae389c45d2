import Foundation
import Testing
import TrigsimTestSupport

/// `trigsim calibrate` from the command line: the table on standard output,
/// its exit codes, and what a bad probe folder says (the manual, "Calibration").
@Suite struct CalibrateCLITests {
  @Test func theBundledProbesPrintTheManualsTableAndExitZero() throws {
    let result = try TrigsimBinary.run(["calibrate", "--trials", "300", "--seed", "1", "--jobs", "2"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    let article = try String(
      contentsOf: RepositoryPaths.root.appendingPathComponent("Sources/TrigsimCore/TrigsimCore.docc/Calibration.md"), encoding: .utf8)
    #expect(article.contains(result.stdout))
    #expect(result.stdout.hasPrefix("| entry | figure | source | measured | trigsim (95 % interval) | band | verdict |\n"))
  }

  @Test func aProbeWithoutADoseIsInvalidInputAtItsFile() throws {
    let workspace = try Workspace()
    try workspace.write("probes/ios-stay-at-centre.yaml", """
      trigsim: 1
      name: no dose
      clock: { start: 2026-05-04T08:00:00Z, end: 2026-05-04T09:00:00Z, timezone: UTC }
      """)
    let result = try TrigsimBinary.run(["calibrate", "--probes", workspace.path("probes"), "--trials", "5"])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("probes/ios-stay-at-centre.yaml:1:1: error: the probe has no dose in its trials"), "\(result.stderr)")
  }

  @Test func aMissingProbeCannotBeReadAndNothingIsPrinted() throws {
    let workspace = try Workspace()
    try workspace.write("probes/README", "no probes here\n")
    let result = try TrigsimBinary.run(["calibrate", "--probes", workspace.path("probes"), "--trials", "5"])
    #expect(result.status == 66, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("ios-stay-at-centre.yaml"))
  }

  @Test(arguments: [["--trials", "0"], ["--trials", "100001"], ["--jobs", "0"]])
  func anOutOfRangeOptionIsAUsageError(_ arguments: [String]) throws {
    let result = try TrigsimBinary.run(["calibrate"] + arguments)
    #expect(result.status == 64, "\(arguments): \(result.stderr)")
    #expect(result.stdout.isEmpty)
  }
}
