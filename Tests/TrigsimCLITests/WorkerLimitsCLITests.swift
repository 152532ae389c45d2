import Foundation
import Testing
import TrigsimTestSupport

/// `test` and `record` stop a scenario that runs past `--timeout` or whose
/// worker grows past `--memory-limit`: its row names the limit, the batch
/// exits 124, a new worker verifies the rest, and the killed worker is gone.
/// Made fast with the testing-only `TRIGSIM_TEST_CRASH_ON=NAME:hang` and
/// `:allocate`, and shown once with issue 27's real runaway scenario.
@Suite struct WorkerLimitsCLITests {
  let supervisor = WorkerSupervisorCLITests()

  /// The runaway fixtures, copied into `workspace` under `folder` (the trial
  /// one with its track, at the same relative path).
  func copyHostileFixtures(into workspace: Workspace, folder: String) throws {
    for name in ["runaway-interval.yaml", "runaway-trials.yaml"] {
      let text = try String(contentsOf: RepositoryPaths.fixtures.appendingPathComponent("hostile/\(name)"), encoding: .utf8)
      try workspace.write("\(folder)/hostile/\(name)", text)
    }
    let track = try String(contentsOf: RepositoryPaths.fixtures.appendingPathComponent("tracks/pharmacy-quick-stop.csv"), encoding: .utf8)
    try workspace.write("\(folder)/tracks/pharmacy-quick-stop.csv", track)
  }

  /// The processes alive now whose environment holds `entry` (a worker
  /// keeps the crash request it was started with).
  func processes(withEnvironment entry: String) -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.filter { name in
      guard name.allSatisfy(\.isNumber), let environment = FileManager.default.contents(atPath: "/proc/\(name)/environ") else { return false }
      return environment.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == entry }
    }
  }

  @Test func aScenarioPastTheTimeoutIsOneTimeoutRowAndTheOthersPass() throws {
    let workspace = try supervisor.threeScenarios()
    // A name of its own, so that the check for a surviving worker sees only this test's.
    let name = "b-\(UUID().uuidString).yaml"
    try FileManager.default.moveItem(atPath: workspace.path("b.yaml"), toPath: workspace.path(name))
    try FileManager.default.moveItem(atPath: workspace.path("b.timeline"), toPath: workspace.path(name.replacingOccurrences(of: ".yaml", with: ".timeline")))
    let request = "TRIGSIM_TEST_CRASH_ON=\(name):hang"
    let result = try TrigsimBinary.run(
      ["test", ".", "--jobs", "2", "--timeout", "2", "--junit", "junit.xml"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "\(name):hang"])
    #expect(result.status == 124)
    let headline = "exceeded the 2 s per-scenario time limit (--timeout)"
    #expect(result.stdout.hasPrefix("""
      === TIMEOUT \(name): \(headline)
      error: the scenario \(headline); its worker process was stopped
      note: a scenario meant to run this long needs a larger --timeout SECONDS (or --timeout none); check the scenario's clock, repeating intervals, 'limits:' and 'trials: { count: N }'
      note: the other scenarios ran in other processes and are not affected

      """))
    #expect(supervisor.rows(result.stdout) == ["a.yaml pass 14", "\(name) TIMEOUT -", "c.yaml pass 14"])
    #expect(result.stdout.contains("\n2 passed, 0 failed, 1 errors, 0 skipped in "))
    #expect(processes(withEnvironment: request).isEmpty, "the stopped worker is still running")

    let report = try JUnitDocument(#require(FileManager.default.contents(atPath: workspace.path("junit.xml"))))
    #expect(report.suites == [JUnitDocument.Suite(name: "trigsim", tests: 3, failures: 0, errors: 1, skipped: 0)])
    #expect(report.cases.map(\.errorType) == [nil, "Timeout", nil])
    #expect(report.cases.map(\.errorMessage) == [nil, headline, nil])
    #expect(report.cases[1].errorText?.hasPrefix("error: the scenario \(headline); its worker process was stopped\n") == true)
  }

  /// The stopped scenario keeps its place: the output is the same with one
  /// job (every later scenario waits for the timeout) as with three.
  @Test func theOutputDoesNotDependOnJobsWhenAScenarioTimesOut() throws {
    let workspace = try supervisor.threeScenarios()
    let outputs = try [1, 3].map { jobs in
      let result = try TrigsimBinary.run(
        ["test", ".", "--jobs", "\(jobs)", "--timeout", "1"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "a.yaml:hang"])
      #expect(result.status == 124)
      return supervisor.withoutDurations(result.stdout)
    }
    #expect(supervisor.rows(outputs[0]) == ["a.yaml TIMEOUT -", "b.yaml pass 14", "c.yaml pass 14"])
    #expect(outputs[1] == outputs[0])
  }

  @Test func aWorkerPastTheMemoryLimitIsOneMemoryRowAndTheOthersPass() throws {
    let workspace = try supervisor.threeScenarios()
    let result = try TrigsimBinary.run(
      ["test", ".", "--jobs", "1", "--memory-limit", "200", "--timeout", "120", "--junit", "junit.xml"], in: workspace.root,
      environment: ["TRIGSIM_TEST_CRASH_ON": "b.yaml:allocate"])
    #expect(result.status == 124)
    let headline = "exceeded the 200 MiB per-worker memory limit (--memory-limit)"
    #expect(result.stdout.hasPrefix("""
      === MEMORY b.yaml: \(headline)
      error: the scenario \(headline); its worker process was stopped
      note: a scenario meant to use this much memory needs a larger --memory-limit MIB (or --memory-limit none); check
      """))
    #expect(supervisor.rows(result.stdout) == ["a.yaml pass 14", "b.yaml MEMORY -", "c.yaml pass 14"])
    let report = try JUnitDocument(#require(FileManager.default.contents(atPath: workspace.path("junit.xml"))))
    #expect(report.cases.map(\.errorType) == [nil, "MemoryLimit", nil])
    #expect(report.cases.map(\.errorMessage) == [nil, headline, nil])
  }

  /// Issue 27's reproducers, unchanged, beside an ordinary scenario: each
  /// runaway is stopped at the time limit and the walk passes.
  @Test func theRealRunawayScenariosAreStoppedAndTheBatchGoesOn() throws {
    let workspace = try Workspace()
    try copyHostileFixtures(into: workspace, folder: "ci")
    try workspace.write("ci/walk.yaml", Workspace.walk())
    #expect(try TrigsimBinary.run(["record", "ci/walk.yaml"], in: workspace.root).status == 0)
    let result = try TrigsimBinary.run(["test", "ci", "--jobs", "2", "--timeout", "2"], in: workspace.root)
    #expect(result.status == 124)
    #expect(supervisor.rows(result.stdout) == [
      "ci/hostile/runaway-interval.yaml TIMEOUT -", "ci/hostile/runaway-trials.yaml TIMEOUT -", "ci/walk.yaml pass 14",
    ])
    #expect(result.stdout.contains("=== TIMEOUT ci/hostile/runaway-interval.yaml: exceeded the 2 s per-scenario time limit (--timeout)\n"))
    // The same scenario fills memory at about 20 MB/s: a memory limit stops it too.
    let memory = try TrigsimBinary.run(
      ["test", "ci/hostile/runaway-interval.yaml", "--memory-limit", "100", "--timeout", "120"], in: workspace.root)
    #expect(memory.status == 124)
    #expect(supervisor.rows(memory.stdout) == ["ci/hostile/runaway-interval.yaml MEMORY -"])
  }

  @Test(.enabled(if: JUnitReportCLITests.xmllint != nil, "xmllint is absent: install Debian's libxml2-utils to validate JUnit reports against the schemas"))
  func theReportOfAStoppedScenarioIsValidAgainstTheJenkinsXUnitAndAntSchemas() throws {
    let workspace = try supervisor.threeScenarios()
    for (how, options) in [("hang", ["--timeout", "1"]), ("allocate", ["--memory-limit", "200"])] {
      let result = try TrigsimBinary.run(
        ["test", ".", "--junit", "junit-\(how).xml"] + options, in: workspace.root,
        // Ant's schema requires a timestamp, which the report writes only from SOURCE_DATE_EPOCH.
        environment: ["TRIGSIM_TEST_CRASH_ON": "a.yaml:\(how)", "SOURCE_DATE_EPOCH": "1780000000"])
      #expect(result.status == 124)
      for schema in JUnitReportCLITests.schemas {
        #expect(try JUnitReportCLITests.schemaViolations(workspace.path("junit-\(how).xml"), against: schema) == nil, "\(how) \(schema)")
      }
    }
  }

  @Test func recordStopsARunawayScenarioAndWritesTheOthers() throws {
    let workspace = try Workspace()
    for name in ["a", "b", "c"] { try workspace.write("\(name).yaml", Workspace.walk()) }
    let result = try TrigsimBinary.run(
      ["record", ".", "--jobs", "1", "--timeout", "1"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "b.yaml:hang"])
    #expect(result.status == 124)
    #expect(result.stdout == "recorded  a.timeline\nrecorded  c.timeline\n")
    #expect(result.stderr.hasPrefix("error: the scenario exceeded the 1 s per-scenario time limit (--timeout); its worker process was stopped\n"))
    #expect(workspace.exists("a.timeline") && !workspace.exists("b.timeline") && workspace.exists("c.timeline"))
  }

  /// 70, then 124, then 65: a limit outranks bad input and is outranked by a crash.
  @Test func aStoppedScenarioOutranksBadInputButNotACrash() throws {
    let workspace = try supervisor.threeScenarios()
    try workspace.write("broken.yaml", "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: soon, timezone: UTC }\n")
    let stopped = try TrigsimBinary.run(["test", ".", "--timeout", "1"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "c.yaml:hang"])
    #expect(stopped.status == 124)
    #expect(supervisor.rows(stopped.stdout) == ["a.yaml pass 14", "b.yaml pass 14", "broken.yaml ERROR -", "c.yaml TIMEOUT -"])
    let runaway = try String(contentsOf: RepositoryPaths.fixtures.appendingPathComponent("hostile/runaway-interval.yaml"), encoding: .utf8)
    try workspace.write("runaway.yaml", runaway)
    let crashed = try TrigsimBinary.run(["test", ".", "--timeout", "1"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "c.yaml"])
    #expect(crashed.status == 70)
    #expect(supervisor.rows(crashed.stdout) == ["a.yaml pass 14", "b.yaml pass 14", "broken.yaml ERROR -", "c.yaml CRASH -", "runaway.yaml TIMEOUT -"])
  }

  /// Under `--root` the defaults are the ceiling: both runaways are refused
  /// when loaded, at the values that raise them; the ceiling options let a
  /// trusted one through, to the time limit.
  @Test func underARootTheRunawaysAreRefusedAtTheirLimitsUnlessTheCommandLineRaisesTheCeiling() throws {
    let workspace = try Workspace()
    try copyHostileFixtures(into: workspace, folder: "pr")
    let result = try TrigsimBinary.run(["test", "pr", "--root", "pr", "--junit", "junit.xml"], in: workspace.root)
    #expect(result.status == 65)
    #expect(supervisor.rows(result.stdout) == ["pr/hostile/runaway-interval.yaml ERROR -", "pr/hostile/runaway-trials.yaml ERROR -"])
    #expect(result.stdout.contains("""
      pr/hostile/runaway-interval.yaml:10:28: error: 'limits.timelineEntries' 1000000000 is above the ceiling of 1000000
          limits: { timelineEntries: 1000000000, clockSpan: 20y }
                                     ^
      note: the ceiling is the default under --root, or what the command line sets; a scenario may lower its limits but not raise them above it
      note: if you trust this scenario, run it with --max-timeline-entries 1000000000
      pr/hostile/runaway-interval.yaml:10:51: error: 'limits.clockSpan' 20y is above the ceiling of 10y
      """))
    #expect(result.stdout.contains("note: if you trust this scenario, run it with --max-clock-span 20y\n"))
    #expect(result.stdout.contains("""
      pr/hostile/runaway-trials.yaml:14:18: error: 'trials.count' 1000000 is above the ceiling of 10000
          trials: { count: 1000000, seed: 2026 }
                           ^
      """))
    #expect(result.stdout.contains("note: if you trust this scenario, run it with --max-trials 1000000\n"))

    let raised = try TrigsimBinary.run(
      ["test", "pr", "--root", "pr", "--max-timeline-entries", "1000000000", "--max-clock-span", "20y", "--max-trials", "1000000", "--timeout", "2"],
      in: workspace.root)
    #expect(raised.status == 124)
    #expect(supervisor.rows(raised.stdout) == ["pr/hostile/runaway-interval.yaml TIMEOUT -", "pr/hostile/runaway-trials.yaml TIMEOUT -"])
  }

  /// `run` and `verify` apply the same ceiling when loading.
  @Test func verifyAndRunRefuseTheRaisedLimitsUnderARoot() throws {
    let workspace = try Workspace()
    try copyHostileFixtures(into: workspace, folder: "pr")
    for command in ["verify", "run"] {
      let result = try TrigsimBinary.run([command, "pr/hostile/runaway-interval.yaml", "--root", "pr"], in: workspace.root)
      #expect(result.status == 65, "\(command)")
      // In file order: the clock (line 9), too long for the limit that stands, then the refused limits (line 10).
      #expect(result.stderr.hasPrefix("pr/hostile/runaway-interval.yaml:9:44: error: the clock spans 7300d (about 20 years), more than the 10y 'limits.clockSpan' allows\n"), "\(command)")
      #expect(result.stderr.contains("\npr/hostile/runaway-interval.yaml:10:28: error: 'limits.timelineEntries' 1000000000 is above the ceiling of 1000000\n"), "\(command)")
    }
    let lowered = try TrigsimBinary.run(["run", "pr/hostile/runaway-interval.yaml", "--max-clock-span", "1y"], in: workspace.root)
    #expect(lowered.status == 65)
    #expect(lowered.stderr.hasPrefix("pr/hostile/runaway-interval.yaml:9:44: error: the clock spans 7300d (about 20 years), more than the 1y 'limits.clockSpan' allows\n"))
    #expect(lowered.stderr.contains("\npr/hostile/runaway-interval.yaml:10:51: error: 'limits.clockSpan' 20y is above the ceiling of 1y\n"))
  }

  @Test(arguments: [
    (["--timeout", "0"], "--timeout takes a whole number of seconds from 1 to 1048576, or 'none' for no limit; not '0'"),
    (["--memory-limit", "2GB"], "--memory-limit takes a whole number of MiB from 1 to 1048576, or 'none' for no limit; not '2GB'"),
    (["--max-trials", "0"], "--max-trials takes 1 to 1000000, not 0"),
    (["--max-timeline-entries", "1000000001"], "--max-timeline-entries takes 1 to 1000000000, not 1000000001"),
    (["--max-clock-span", "soon"], "--max-clock-span 'soon' is not a positive duration: write years (20y, at most 100000y) or a duration (400d)"),
  ])
  func aBadLimitOptionIsAUsageError(options: [String], message: String) throws {
    let workspace = try supervisor.threeScenarios()
    let result = try TrigsimBinary.run(["test", "."] + options, in: workspace.root)
    #expect(result.status == 64)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  /// `none` lifts a limit: a scenario slower than a second passes with no time limit.
  @Test func noneLiftsTheLimits() throws {
    let workspace = try supervisor.threeScenarios()
    let result = try TrigsimBinary.run(["test", ".", "--timeout", "none", "--memory-limit", "none"], in: workspace.root)
    #expect(result.status == 0)
    #expect(supervisor.rows(result.stdout) == ["a.yaml pass 14", "b.yaml pass 14", "c.yaml pass 14"])
  }
}

/// Issue 41, finding 7: in `test`, a side-by-side scenario whose Android run
/// timed out became one `TIMEOUT` row naming no phone, and the iPhone's pass
/// was lost. Each platform is its own unit: its own row and its own limit.
extension WorkerLimitsCLITests {
  /// `chain-UUID.yaml` on both phones, recorded; its file name.
  func sideBySideChain(in workspace: Workspace) throws -> String {
    let name = "chain-\(UUID().uuidString).yaml"
    try workspace.write(name, PlatformCLITests.chain("platforms: [ios, android]\n"))
    let record = try TrigsimBinary.run(["record", name], in: workspace.root)
    #expect(record.status == 0, "\(record.stdout)\(record.stderr)")
    return name
  }

  @Test func anAndroidRunPastTheTimeoutIsItsOwnRowAndTheIPhonesPassIsKept() throws {
    let workspace = try Workspace()
    let name = try sideBySideChain(in: workspace)
    let result = try TrigsimBinary.run(
      ["test", name, "--jobs", "1", "--timeout", "2", "--junit", "junit.xml"], in: workspace.root,
      environment: ["TRIGSIM_TEST_CRASH_ON": "\(name)@android:hang"])
    #expect(result.status == 124)
    let headline = "the android run exceeded the 2 s per-scenario time limit (--timeout)"
    #expect(result.stdout.hasPrefix("""
      === TIMEOUT \(name) [android]: \(headline)
      error: the scenario's android run exceeded the 2 s per-scenario time limit (--timeout); its worker process was stopped

      """), "\(result.stdout)")
    #expect(result.stdout.contains("note: the other scenarios, and this scenario's other platforms, keep their own results\n"))
    let rows = supervisor.rows(result.stdout)
    #expect(rows.count == 2, "\(result.stdout)")
    #expect(rows.first?.hasPrefix("\(name) [ios] pass ") == true, "\(rows)")
    #expect(rows.last == "\(name) [android] TIMEOUT -", "\(rows)")
    #expect(result.stdout.contains("\n1 passed, 0 failed, 1 errors, 0 skipped in "))
    #expect(processes(withEnvironment: "TRIGSIM_TEST_CRASH_ON=\(name)@android:hang").isEmpty, "the stopped worker is still running")
    let report = try JUnitDocument(#require(FileManager.default.contents(atPath: workspace.path("junit.xml"))))
    #expect(report.cases.map(\.name) == ["\(name) [ios]", "\(name) [android]"])
    #expect(report.cases.map(\.errorType) == [nil, "Timeout"])
  }

  @Test func anIPhoneRunPastTheTimeoutLeavesTheAndroidRunToAnotherWorker() throws {
    let workspace = try Workspace()
    let name = try sideBySideChain(in: workspace)
    let result = try TrigsimBinary.run(
      ["test", name, "--jobs", "1", "--timeout", "2"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "\(name)@ios:hang"])
    #expect(result.status == 124)
    let rows = supervisor.rows(result.stdout)
    #expect(rows.count == 2, "\(result.stdout)")
    #expect(rows.first == "\(name) [ios] TIMEOUT -", "\(rows)")
    #expect(rows.last?.hasPrefix("\(name) [android] pass ") == true, "\(rows)")
    #expect(result.stdout.contains("=== TIMEOUT \(name) [ios]: the ios run exceeded the 2 s per-scenario time limit (--timeout)\n"))
  }

  @Test func aCrashInOnePlatformsRunNamesItsPhone() throws {
    let workspace = try Workspace()
    let name = try sideBySideChain(in: workspace)
    let result = try TrigsimBinary.run(["test", name, "--jobs", "1"], in: workspace.root, environment: ["TRIGSIM_TEST_CRASH_ON": "\(name)@android:abort"])
    #expect(result.status == 70)
    let rows = supervisor.rows(result.stdout)
    #expect(rows.first?.hasPrefix("\(name) [ios] pass ") == true, "\(rows)")
    #expect(rows.last == "\(name) [android] CRASH -", "\(rows)")
    #expect(result.stdout.contains("=== CRASH \(name) [android]: trigsim crashed (SIGABRT) while verifying this scenario's android run; please report it\n"), "\(result.stdout)")
  }
}
