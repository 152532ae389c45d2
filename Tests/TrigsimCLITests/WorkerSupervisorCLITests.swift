import Foundation
import Testing
import TrigsimTestSupport

/// `test` and `record` verify each scenario in a supervised worker process:
/// a scenario that crashes trigsim is reported, and the others complete.
/// The crash is made with the testing-only `TRIGSIM_TEST_CRASH_ON`.
@Suite struct WorkerSupervisorCLITests {
  /// What a Swift trap (fatalError, precondition, index out of range) raises on this machine.
  #if arch(x86_64)
    static let trapSignal = "SIGILL"
  #else
    static let trapSignal = "SIGTRAP"
  #endif

  /// a.yaml, b.yaml and c.yaml (the walk), each with its recorded timeline.
  func threeScenarios() throws -> Workspace {
    let workspace = try Workspace()
    for name in ["a", "b", "c"] { try workspace.write("\(name).yaml", Workspace.walk()) }
    let recorded = try TrigsimBinary.run(["record", "."], in: workspace.root)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    return workspace
  }

  /// The table's rows as `scenario result entries`, without the durations.
  func rows(_ stdout: String) -> [String] {
    let lines = stdout.components(separatedBy: "\n")
    guard let header = lines.firstIndex(where: { $0.hasPrefix("scenario ") }) else { return [] }
    return lines[(header + 1)...].prefix { !$0.isEmpty && !$0.contains(" passed, ") }
      .map { $0.split(separator: " ").dropLast().joined(separator: " ") }
  }

  /// Standard output with every wall-clock figure (`0.123s`) replaced, for comparing runs.
  func withoutDurations(_ stdout: String) -> String {
    stdout.replacing(/[0-9]+\.[0-9]+s/, with: "#s").replacing(/\([0-9]+ jobs?\)/, with: "(# jobs)")
  }

  @Test func theMiddleOfThreeScenariosCrashesAndTheBatchReportsAllThree() throws {
    let workspace = try threeScenarios()
    let result = try TrigsimBinary.run(
      ["test", ".", "--jobs", "2", "--junit", "junit.xml"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "b.yaml"])
    #expect(result.status == 70)
    let headline = "trigsim crashed (\(Self.trapSignal)) while verifying this scenario; please report it"
    #expect(result.stdout.hasPrefix("""
      === CRASH b.yaml: \(headline)
      error: trigsim crashed (\(Self.trapSignal)) while verifying this scenario; please report it with the scenario
      note: its last message: trigsim/ScenarioWorker.swift:
      """))
    #expect(result.stdout.contains("Fatal error: TRIGSIM_TEST_CRASH_ON names this scenario\nnote: the other scenarios ran in other processes and are not affected\n"))
    #expect(rows(result.stdout) == ["a.yaml pass 14", "b.yaml CRASH -", "c.yaml pass 14"])
    #expect(result.stdout.contains("\n2 passed, 0 failed, 1 errors, 0 skipped in "))

    let report = try JUnitDocument(#require(FileManager.default.contents(atPath: workspace.path("junit.xml"))))
    #expect(report.suites == [JUnitDocument.Suite(name: "trigsim", tests: 3, failures: 0, errors: 1, skipped: 0)])
    #expect(report.cases.map(\.name) == ["a.yaml", "b.yaml", "c.yaml"])
    #expect(report.cases.map(\.errorMessage) == [nil, headline, nil])
    #expect(report.cases.map(\.errorType) == [nil, "InternalError", nil])
    #expect(report.cases[1].errorText?.hasPrefix("error: trigsim crashed (\(Self.trapSignal))") == true)
    #expect(report.cases.allSatisfy { $0.failureMessage == nil && $0.time != nil })
  }

  @Test func theOutputDoesNotDependOnJobs() throws {
    let workspace = try threeScenarios()
    try workspace.edit("c.timeline", line: "fired       pickup") { $0.replacingOccurrences(of: "pickup", with: "pick-up") }
    let outputs = try [1, 2, 3].map { jobs in
      let result = try TrigsimBinary.run(["test", ".", "--jobs", "\(jobs)"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "a.yaml"])
      #expect(result.status == 70)
      return withoutDurations(result.stdout)
    }
    #expect(rows(outputs[0]) == ["a.yaml CRASH -", "b.yaml pass 14", "c.yaml FAIL 14"])
    #expect(outputs[1] == outputs[0])
    #expect(outputs[2] == outputs[0])
  }

  /// Every way a worker can die, with one job: the crash is reported and a
  /// new worker takes over the scenarios after it.
  @Test(arguments: [
    ("index", WorkerSupervisorCLITests.trapSignal), ("stack", "SIGSEGV"), ("segv", "SIGSEGV"), ("abort", "SIGABRT"), ("kill", "SIGKILL"),
  ])
  func aWorkerKilledByASignalIsReplaced(how: String, signal: String) throws {
    let workspace = try threeScenarios()
    let result = try TrigsimBinary.run(["test", ".", "--jobs", "1"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "b.yaml:\(how)"])
    #expect(result.status == 70)
    #expect(result.stdout.hasPrefix("=== CRASH b.yaml: trigsim crashed (\(signal)) while verifying this scenario; please report it\n"))
    #expect(rows(result.stdout) == ["a.yaml pass 14", "b.yaml CRASH -", "c.yaml pass 14"])
  }

  @Test func aWorkerThatExitsWithoutAnAnswerIsReportedWithItsStatus() throws {
    let workspace = try threeScenarios()
    let result = try TrigsimBinary.run(["test", ".", "--jobs", "1"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "a.yaml:exit"])
    #expect(result.status == 70)
    #expect(result.stdout.hasPrefix("""
      === CRASH a.yaml: trigsim exited with status 3 while verifying this scenario; please report it
      error: trigsim exited with status 3 while verifying this scenario; please report it with the scenario
      note: the other scenarios ran in other processes and are not affected

      """))
    #expect(rows(result.stdout) == ["a.yaml CRASH -", "b.yaml pass 14", "c.yaml pass 14"])
  }

  @Test func aCrashOutranksBadInputInTheExitCode() throws {
    let workspace = try threeScenarios()
    try workspace.write("broken.yaml", "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: soon, timezone: UTC }\n")
    let result = try TrigsimBinary.run(["test", "."], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "c.yaml"])
    #expect(result.status == 70)
    #expect(rows(result.stdout) == ["a.yaml pass 14", "b.yaml pass 14", "broken.yaml ERROR -", "c.yaml CRASH -"])
  }

  @Test func recordGoesOnAfterACrashAndWritesTheOthers() throws {
    let workspace = try Workspace()
    for name in ["a", "b", "c"] { try workspace.write("\(name).yaml", Workspace.walk()) }
    let result = try TrigsimBinary.run(["record", ".", "--jobs", "1"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "b.yaml"])
    #expect(result.status == 70)
    #expect(result.stdout == "recorded  a.timeline\nrecorded  c.timeline\n")
    #expect(result.stderr.hasPrefix("error: trigsim crashed (\(Self.trapSignal)) while verifying this scenario; please report it with the scenario\n"))
    #expect(workspace.exists("a.timeline") && !workspace.exists("b.timeline") && workspace.exists("c.timeline"))
  }

  @Test func onlyWorkersReadTheCrashVariableAndTheWorkerIsNotInTheHelp() throws {
    let workspace = try threeScenarios()
    let verify = try TrigsimBinary.run(["verify", "b.yaml"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "b.yaml"])
    #expect(verify.status == 0)
    #expect(verify.stdout == "b.yaml: passed\n")
    let help = try TrigsimBinary.run(["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("  test "))
    #expect(!help.stdout.contains("scenario-worker"))
  }
}
