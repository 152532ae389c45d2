import Dispatch
import Foundation
import Testing
import TrigsimTestSupport
import TrigsimScenario

/// `run --shard`, `test --partial` and `merge`, through K `trigsim` processes.
@Suite struct MergeCLITests {
  static let scenario = "scenarios/pharmacy-quick-stop.yaml"

  /// Runs the argument lists as concurrent `trigsim` processes in `directory`; their results in order.
  static func runConcurrently(_ argumentLists: [[String]], in directory: URL) -> [TrigsimBinary.Result] {
    let results = ResultSlots(count: argumentLists.count)
    DispatchQueue.concurrentPerform(iterations: argumentLists.count) { index in
      results.store((try? TrigsimBinary.run(argumentLists[index], in: directory)) ?? TrigsimBinary.Result(status: -1, stdout: "", stderr: "did not start"), at: index)
    }
    return results.values
  }

  final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [TrigsimBinary.Result?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func store(_ result: TrigsimBinary.Result, at index: Int) { lock.withLock { slots[index] = result } }
    var values: [TrigsimBinary.Result] { lock.withLock { slots.map { $0! } } }
  }

  /// Writes the 4 shards of `trials` trials with `seed` into `folder` as `trials-I.json`, concurrently.
  static func writeShards(trials: Int, seed: Int, count: Int = 4, scenario: String = scenario, into folder: URL) throws {
    let results = runConcurrently((1...count).map { index in
      ["run", scenario, "--trials", String(trials), "--seed", String(seed), "--shard", "\(index)/\(count)", "--jobs", "1",
       "--output", folder.appendingPathComponent("trials-\(index).json").path]
    }, in: RepositoryPaths.root)
    for result in results { #expect(result.status == 0, "\(result.stderr)") }
  }

  @Test func fourShardProcessesMergeToTheUnshardedReportByteForByte() throws {
    let workspace = try Workspace()
    try Self.writeShards(trials: 200, seed: 2026, into: workspace.root)
    let parts = ["trials-3.json", "trials-1.json", "trials-4.json", "trials-2.json"].map(workspace.path)
    for format in ["text", "json"] {
      let whole = try TrigsimBinary.run(["run", Self.scenario, "--trials", "200", "--seed", "2026", "--format", format])
      #expect(whole.status == 0, "\(whole.stderr)")
      let merged = try TrigsimBinary.run(["merge"] + parts + ["--format", format])
      #expect(merged.status == 0, "\(merged.stderr)")
      #expect(merged.stdout == whole.stdout, "--format \(format)")
    }
    // Not vacuous: the report has a dose, a miss and latencies to merge.
    let text = try TrigsimBinary.run(["merge"] + parts).stdout
    #expect(text.contains("\ndoses: ") && text.contains("missed in trial ") && text.contains("latency p50 "))
    // --output goes through the writer.
    let written = try TrigsimBinary.run(["merge"] + parts + ["--output", workspace.path("report.txt")])
    #expect(written.status == 0 && written.stdout.isEmpty && workspace.read("report.txt") == text)
  }

  /// A dose whose visit the scenario expects to be silent (`silentVisit:`) is reported as such, merged or not.
  @Test func anExpectedSilentVisitSurvivesTheMerge() throws {
    let workspace = try Workspace()
    let scenario = "scenarios/drive-by-pharmacy.yaml"
    try Self.writeShards(trials: 40, seed: 7, count: 2, scenario: scenario, into: workspace.root)
    let parts = ["trials-2.json", "trials-1.json"].map(workspace.path)
    for format in ["text", "json"] {
      let whole = try TrigsimBinary.run(["run", scenario, "--trials", "40", "--seed", "7", "--format", format])
      #expect(whole.status == 0, "\(whole.stderr)")
      let merged = try TrigsimBinary.run(["merge"] + parts + ["--format", format])
      #expect(merged.stdout == whole.stdout, "--format \(format)")
    }
    let text = try TrigsimBinary.run(["merge"] + parts).stdout
    #expect(text.contains(" ins (pharmacy on=enter) #1, a visit expected to be silent\n    silent 1.000 (40 of 40 trials; "), "\(text)")
  }

  @Test func aShardsPartialIsTheSameBytesWhateverTheJobs() throws {
    let one = try TrigsimBinary.run(["run", Self.scenario, "--trials", "100", "--shard", "2/3", "--jobs", "1"])
    let three = try TrigsimBinary.run(["run", Self.scenario, "--trials", "100", "--shard", "2/3", "--jobs", "3"])
    #expect(one.status == 0 && !one.stdout.isEmpty && one.stdout == three.stdout)
    #expect(one.stdout.contains("\"format\" : \"trigsim-trial-partial-1\"") && one.stdout.contains("\"first\" : 33"))
  }

  /// The durations of a `test` summary or JUnit report (wall-clock times) replaced by `T`.
  static func withoutDurations(_ text: String) -> String {
    text.replacingOccurrences(of: #"[0-9]+\.[0-9]+s"#, with: "Ts", options: .regularExpression)
      .replacingOccurrences(of: #"time="[0-9.]+""#, with: #"time="T""#, options: .regularExpression)
  }

  @Test func threeTestShardsMergeToTheUnshardedSummaryJUnitAndExitCode() throws {
    let workspace = try JUnitReportCLITests().corpus()
    let whole = try TrigsimBinary.run(["test", ".", "--jobs", "2", "--junit", "whole.xml"], in: workspace.root)
    #expect(whole.status == 65)
    let shards = Self.runConcurrently((1...3).map { ["test", ".", "--jobs", "1", "--shard", "\($0)/3", "--partial", "parts/test-\($0).json"] }, in: workspace.root)
    #expect(shards.map(\.status).contains(65) && shards.allSatisfy { $0.stdout.contains(", shard ") })
    let merged = try TrigsimBinary.run(
      ["merge", "parts/test-2.json", "parts/test-3.json", "parts/test-1.json", "--junit", "merged.xml"], in: workspace.root)
    #expect(merged.status == whole.status)
    // Byte for byte once the wall-clock durations are replaced; the jobs of every shard were 1.
    #expect(Self.withoutDurations(merged.stdout) == Self.withoutDurations(whole.stdout).replacingOccurrences(of: "(2 jobs)", with: "(1 job)"))
    #expect(Self.withoutDurations(workspace.read("merged.xml") ?? "") == Self.withoutDurations(workspace.read("whole.xml") ?? "-"))
    #expect(merged.stdout.contains("=== FAIL scenarios/corpus/diff.yaml: timeline differs"))
    // The merge shows the durations the shards measured.
    let partial = try #require(workspace.read("parts/test-1.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(partial.utf8)) as? [String: Any])
    let first = try #require((object["results"] as? [[String: Any]])?.first?["result"] as? [String: Any])
    let path = try #require(first["scenarioPath"] as? String)
    let seconds = try #require(first["seconds"] as? Double)
    let row = try #require(merged.stdout.split(separator: "\n").first { $0.hasPrefix(path + " ") })
    #expect(row.hasSuffix(" " + String(format: "%.3fs", seconds)), "\(row)")
  }

  /// Issue 41, finding 5: the partial of `test --shard 1/10000000` made an
  /// 89 MB error line naming every missing shard.
  @Test func missingShardsAreNamedAsRangesAndCounted() throws {
    let workspace = try Workspace()
    let shard = try TrigsimBinary.run(
      ["test", Self.scenario, "--shard", "1/10000000", "--partial", workspace.path("a.json"), "--jobs", "1"], in: RepositoryPaths.root)
    #expect(shard.status == 0, "\(shard.stderr)")
    let clock = ContinuousClock()
    let start = clock.now
    let merged = try TrigsimBinary.run(["merge", "a.json"], in: workspace.root)
    #expect(start.duration(to: clock.now) < .seconds(5))
    #expect(merged.status == 65)
    #expect(merged.stderr == """
      error: shards 2–10000000 of 10000000 are missing (9999999 shards; given: shard 1 in 'a.json')
      note: merge the partial files of every shard, 1 to 10000000, of one run

      """)
  }

  @Test func aMissingShardsMessageNamesTheFirstRangesAndFiles() {
    let given = [1, 3, 5, 7, 9, 11, 13].map { (index: $0, file: "p\($0).json") }
    let missing = MissingShards(count: 20, given: given)
    #expect(missing.missingRanges == [2...2, 4...4, 6...6, 8...8, 10...10, 12...12, 14...20])
    #expect(missing.description == "shards 2, 4, 6, 8, 10 and 2 more of 20 are missing (13 shards; given: shard 1 in 'p1.json', shard 3 in 'p3.json', shard 5 in 'p5.json', shard 7 in 'p7.json', shard 9 in 'p9.json' and 2 more)")
    #expect(MissingShards(count: 4, given: [(1, "a"), (2, "b"), (4, "c")]).description == "shard 3 of 4 is missing (given: shard 1 in 'a', shard 2 in 'b', shard 4 in 'c')")
  }

  @Test func missingDuplicatedAndMismatchedShardsAreErrorsNamingTheFileAndNothingIsWritten() throws {
    let workspace = try Workspace()
    try Self.writeShards(trials: 40, seed: 2026, into: workspace.root)
    try FileManager.default.createDirectory(at: workspace.root.appendingPathComponent("other"), withIntermediateDirectories: true)
    try Self.writeShards(trials: 40, seed: 7, into: workspace.root.appendingPathComponent("other"))
    func merge(_ parts: [String]) throws -> TrigsimBinary.Result {
      let result = try TrigsimBinary.run(["merge"] + parts + ["--output", "report.txt"], in: workspace.root)
      #expect(!workspace.exists("report.txt"), "\(parts)")
      #expect(result.stdout.isEmpty)
      return result
    }
    let missing = try merge(["trials-1.json", "trials-3.json"])
    #expect(missing.status == 65)
    #expect(missing.stderr == """
      error: shards 2 and 4 of 4 are missing (given: shard 1 in 'trials-1.json', shard 3 in 'trials-3.json')
      note: merge the partial files of every shard, 1 to 4, of one run

      """)
    try FileManager.default.copyItem(atPath: workspace.path("trials-2.json"), toPath: workspace.path("copy.json"))
    let twice = try merge(["trials-1.json", "trials-2.json", "copy.json", "trials-3.json", "trials-4.json"])
    #expect(twice.status == 65)
    #expect(twice.stderr.hasPrefix("copy.json:") && twice.stderr.contains(": error: shard 2/4 is given twice: 'trials-2.json' and 'copy.json'\n"))
    let seed = try merge(["trials-1.json", "trials-2.json", "other/trials-3.json", "trials-4.json"])
    #expect(seed.status == 65)
    #expect(seed.stderr.hasPrefix("other/trials-3.json:") && seed.stderr.contains(": error: the seed is 7, but the first part, 'trials-1.json', has 2026\n"))
    // Another track: the same scenario text, one byte of the track changed.
    let folder = workspace.root.appendingPathComponent("moved")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    _ = try TrialCLITests.writeQuickStop(to: folder, trials: 40)
    let trackPath = RepositoryPaths.root.appendingPathComponent("fixtures/tracks/pharmacy-quick-stop.csv").path
    var track = try String(contentsOfFile: trackPath, encoding: .utf8)
    track += "\n"
    try track.write(toFile: workspace.path("track.csv"), atomically: true, encoding: .utf8)
    let yaml = try #require(workspace.read("moved/stop.yaml")).replacingOccurrences(of: trackPath, with: workspace.path("track.csv"))
    try workspace.write("moved/stop.yaml", yaml)
    let otherTrack = try TrigsimBinary.run(
      ["run", "moved/stop.yaml", "--trials", "40", "--seed", "2026", "--shard", "4/4", "--output", "moved/trials-4.json"], in: workspace.root)
    #expect(otherTrack.status == 0, "\(otherTrack.stderr)")
    let scenario = try merge(["trials-1.json", "trials-2.json", "trials-3.json", "moved/trials-4.json"])
    #expect(scenario.status == 65)
    #expect(scenario.stderr.hasPrefix("moved/trials-4.json:") && scenario.stderr.contains(": error: the scenario's digest (its text, track, regions and places files) is 'sha256:"))
  }

  @Test func aDamagedOrForeignPartIsALocatedErrorThatQuotesNothingForeign() throws {
    let workspace = try Workspace()
    try Self.writeShards(trials: 40, seed: 2026, count: 2, into: workspace.root)
    let good = try #require(workspace.read("trials-2.json"))
    try workspace.write("secret.json", "password=hunter2\n")
    try workspace.write("cut.json", String(good.prefix(good.count - 40)))
    try workspace.write("typed.json", good.replacingOccurrences(of: "\"seed\" : 2026", with: "\"seed\" : \"2026\""))
    func merge(_ part: String) throws -> TrigsimBinary.Result {
      let result = try TrigsimBinary.run(["merge", "trials-1.json", part, "--output", "report.txt"], in: workspace.root)
      #expect(result.status == 65 && !workspace.exists("report.txt"), "\(part)")
      return result
    }
    let foreign = try merge("secret.json")
    #expect(foreign.stderr.hasPrefix("secret.json:1:1: error: the file is not a trigsim partial report: it does not begin as an object with a \"format\": \"trigsim-…-partial-1\" member\n"))
    #expect(!foreign.stderr.contains("hunter2"))
    let cut = try merge("cut.json")
    let lines = good.split(separator: "\n", omittingEmptySubsequences: false).count
    #expect(cut.stderr.hasPrefix("cut.json:") && cut.stderr.contains(": error: invalid JSON: "), "\(cut.stderr)")
    #expect(cut.stderr.range(of: #"^cut\.json:[0-9]+:[0-9]+: "#, options: .regularExpression) != nil && lines > 10)
    let typed = try merge("typed.json")
    let seedLine = try #require(good.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("\"seed\"") }) + 1
    #expect(typed.stderr.hasPrefix("typed.json:\(seedLine):12: error: 'seed' is not a whole number\n"), "\(typed.stderr)")
    let unreadable = try TrigsimBinary.run(["merge", "trials-1.json", "absent.json"], in: workspace.root)
    #expect(unreadable.status == 66 && unreadable.stderr.contains("absent.json"))
  }

  @Test func misusedShardOptionsAreUsageErrors() throws {
    for (arguments, message) in [
      (["--shard", "1/4"], "--shard I/K goes with --trials N"),
      (["--trials", "3", "--shard", "1/4"], "--shard 1/4: 4 shards of 3 trials; a shard holds at least one trial"),
      (["--trials", "10", "--shard", "5/4"], "--shard"),
      (["--trials", "10", "--shard", "1/4", "--format", "json"], "choose the report's format there: 'trigsim merge --format json'"),
    ] {
      let result = try TrigsimBinary.run(["run", Self.scenario] + arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    let junit = try TrigsimBinary.run(["merge", "--help"])
    #expect(junit.status == 0 && junit.stdout.contains("trigsim run S --trials N") && junit.stdout.contains("--junit"))
  }
}

/// The manual's recipes (Checking runs, "Recipes") for GitHub Actions, GitLab CI and a Kubernetes
/// Indexed Job, run locally: every `mkdir` and `trigsim` command of each
/// recipe, with the engine's variables set for each shard, in a copy of the
/// repository's scenarios and fixtures; the merge step last.
@Suite struct ShardRecipeCLITests {
  /// The shell commands of the recipe marked `<!-- recipe: NAME -->`: its
  /// lines (less a leading `- ` or `run: `) that begin with `trigsim ` or `mkdir `.
  static func commands(_ recipe: String) throws -> [String] {
    let manual = try Manual.text()
    let marker = try #require(manual.range(of: "<!-- recipe: \(recipe) -->\n```yaml\n"))
    let block = manual[marker.upperBound...].prefix { _ in true }
    let end = try #require(block.range(of: "\n```\n"))
    return block[..<end.lowerBound].split(separator: "\n").compactMap { line in
      var text = line.drop { $0 == " " }
      for prefix in ["- ", "run: "] where text.hasPrefix(prefix) { text = text.dropFirst(prefix.count) }
      return text.hasPrefix("trigsim ") || text.hasPrefix("mkdir ") ? String(text) : nil
    }
  }

  /// A folder holding copies of `scenarios/` and `fixtures/`.
  static func checkout() throws -> URL {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-recipe")
    for name in ["scenarios", "fixtures"] {
      try FileManager.default.copyItem(at: RepositoryPaths.root.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    return folder
  }

  /// Runs `command` with `/bin/sh -c` in `folder`, `trigsim` on the PATH and `environment` set.
  static func shell(_ command: String, in folder: URL, environment: [String: String] = [:]) throws -> TrigsimBinary.Result {
    var environment = environment
    environment["PATH"] = TrigsimBinary.url.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    return try TrigsimBinary.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: folder, environment: environment)
  }

  static let reviewedReport = RepositoryPaths.scenarios.appendingPathComponent("pharmacy-quick-stop.trials")

  /// Runs `recipe`'s shard commands once per shard (with `variables(shard)`) and then its merge commands.
  /// `volume`: a folder the engine mounts (made here, as the recipe does not).
  static func run(
    _ recipe: String, volume: String? = nil, variables: (Int) -> [String: String],
    substituting: (String, Int) -> String = { command, _ in command }
  ) throws -> URL {
    let folder = try checkout()
    if let volume { try FileManager.default.createDirectory(at: folder.appendingPathComponent(volume), withIntermediateDirectories: true) }
    let commands = try Self.commands(recipe)
    let shardCommands = commands.filter { !$0.hasPrefix("trigsim merge") }
    let mergeCommands = commands.filter { $0.hasPrefix("trigsim merge") }
    #expect(shardCommands.contains { $0.contains("--shard") } && !mergeCommands.isEmpty, "\(commands)")
    for shard in 1...4 {
      for command in shardCommands {
        let result = try shell(substituting(command, shard), in: folder, environment: variables(shard))
        #expect(result.status == 0, "\(recipe) shard \(shard): \(command)\n\(result.stderr)")
      }
    }
    for command in mergeCommands {
      let result = try shell(command, in: folder)
      #expect(result.status == 0, "\(recipe): \(command)\n\(result.stderr)")
    }
    return folder
  }

  @Test func theGitHubActionsMatrixRecipeMergesToTheReviewedReportAndAPassingBatch() throws {
    let folder = try Self.run("github", variables: { _ in [:] }) { command, shard in
      command.replacingOccurrences(of: "${{ matrix.shard }}", with: String(shard))
    }
    let merged = try String(contentsOf: folder.appendingPathComponent("trials.txt"), encoding: .utf8)
    #expect(merged == (try String(contentsOf: Self.reviewedReport, encoding: .utf8)))
    let junit = try String(contentsOf: folder.appendingPathComponent("trigsim-junit.xml"), encoding: .utf8)
    #expect(junit.contains(" failures=\"0\" errors=\"0\" "))
  }

  @Test func theGitLabParallelRecipeMergesToTheReviewedReport() throws {
    let folder = try Self.run("gitlab", variables: { ["CI_NODE_INDEX": String($0), "CI_NODE_TOTAL": "4"] })
    let merged = try String(contentsOf: folder.appendingPathComponent("trials.txt"), encoding: .utf8)
    #expect(merged == (try String(contentsOf: Self.reviewedReport, encoding: .utf8)))
  }

  @Test func theKubernetesIndexedJobRecipeMergesToTheReviewedReport() throws {
    let folder = try Self.run("kubernetes", volume: "shards", variables: { ["JOB_COMPLETION_INDEX": String($0 - 1)] })
    let merged = try String(contentsOf: folder.appendingPathComponent("shards/trials.txt"), encoding: .utf8)
    #expect(merged == (try String(contentsOf: Self.reviewedReport, encoding: .utf8)))
  }
}
