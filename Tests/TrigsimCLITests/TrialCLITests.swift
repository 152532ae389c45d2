import Foundation
import Testing
import TrigsimTestSupport

/// `trigsim run --trials`, `--trial`, and trials in `verify`, through the binary.
@Suite struct TrialCLITests {
  static let scenario = "scenarios/pharmacy-quick-stop.yaml"

  static func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trigsim-trials-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// The quick-stop scenario as `stop.yaml` in `folder`, its track named by
  /// absolute path, with `trials` trials and an optional line replaced; returns its text.
  static func writeQuickStop(to folder: URL, trials: Int, replacing line: (String, String)? = nil) throws -> String {
    let track = RepositoryPaths.root.appendingPathComponent("fixtures/tracks/pharmacy-quick-stop.csv").path
    var yaml = try String(contentsOf: RepositoryPaths.root.appendingPathComponent(scenario), encoding: .utf8)
      .replacingOccurrences(of: "../fixtures/tracks/pharmacy-quick-stop.csv", with: track)
      .replacingOccurrences(of: "trials: { count: 1000, seed: 2026 }", with: "trials: { count: \(trials), seed: 2026 }")
    if let line { yaml = yaml.replacingOccurrences(of: line.0, with: line.1) }
    try yaml.write(to: folder.appendingPathComponent("stop.yaml"), atomically: true, encoding: .utf8)
    return yaml
  }

  @Test func theReportOfTheScenarioSeedIsItsReviewedReportWhateverTheJobs() throws {
    let expected = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent("pharmacy-quick-stop.trials"), encoding: .utf8)
    for jobs in ["1", "2", "4"] {
      let result = try TrigsimBinary.run(["run", Self.scenario, "--trials", "1000", "--jobs", jobs])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout == expected, "--jobs \(jobs)")
    }
  }

  @Test func anotherSeedIsStatedAndDrawsOtherTrials() throws {
    let result = try TrigsimBinary.run(["run", Self.scenario, "--trials", "50", "--seed", "99"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("# trials: 50, seed 99\n"))
    let json = try TrigsimBinary.run(["run", Self.scenario, "--trials", "50", "--seed", "99", "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["trials"] as? Int == 50 && object["seed"] as? Int == 99)
    let chances = try #require(object["locationRequests"] as? [[String: Any]])
    #expect(chances.count == 1 && chances[0]["pending"] as? Int == 50)
  }

  @Test func aTrialReplaysAsATimelineThatAgreesWithTheReport() throws {
    let report = try TrigsimBinary.run(["run", Self.scenario, "--trials", "20", "--seed", "5"])
    let line = try #require(report.stdout.split(separator: "\n").first { $0.contains("not fired in trial ") })
    let trial = try #require(line.split(separator: " ").last.map { $0.dropLast() }.flatMap { Int($0) })
    let timeline = try TrigsimBinary.run(["run", Self.scenario, "--trial", String(trial), "--seed", "5"])
    #expect(timeline.status == 0, "\(timeline.stderr)")
    #expect(timeline.stdout.contains(" undetected  pharmacy event=enter visit=1 "))
    #expect(!timeline.stdout.contains(" fired       medicine_vitd_location "))
  }

  @Test func misusedOptionsAreUsageErrors() throws {
    for arguments in [
      ["--trials", "0"], ["--seed", "3"], ["--jobs", "2"], ["--trials", "5", "--trial", "1"], ["--trials", "5", "--format", "csv"],
      ["--trials", "5", "--summary"], ["--trial", "-1"],
    ] {
      let result = try TrigsimBinary.run(["run", Self.scenario] + arguments)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
  }

  @Test func verifyFailsWhenTheTrialReportDiffersAndSaysWhere() throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try Self.writeQuickStop(to: folder, trials: 40)
    let recorded = try TrigsimBinary.run(["record", "stop.yaml"], in: folder)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    #expect(recorded.stdout.contains("recorded  stop.trials\n"))
    let reportURL = folder.appendingPathComponent("stop.trials")
    var report = try String(contentsOf: reportURL, encoding: .utf8)
    #expect(report.contains("# trials: 40, seed 2026\n"))
    #expect(try TrigsimBinary.run(["verify", "stop.yaml"], in: folder).status == 0)
    report = report.replacingOccurrences(of: "seed 2026", with: "seed 2025")
    try report.write(to: reportURL, atomically: true, encoding: .utf8)
    let differs = try TrigsimBinary.run(["verify", "stop.yaml"], in: folder)
    #expect(differs.status == 1)
    #expect(differs.stdout.contains("@@ stop.trials:4:1\n- # trials: 40, seed 2025\n+ # trials: 40, seed 2026\n"))
    #expect(differs.stdout.contains("trial report differs: 1 line changed"))
    try FileManager.default.removeItem(at: reportURL)
    let missing = try TrigsimBinary.run(["verify", "stop.yaml"], in: folder, environment: ["CI": "true"])
    #expect(missing.status == 1)
    #expect(missing.stdout.contains("no expected trial report at 'stop.trials'"))
    #expect(!FileManager.default.fileExists(atPath: reportURL.path))
  }

  @Test func aFailedProbabilityAssertionFailsVerifyAtItsLine() throws {
    let folder = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let yaml = try Self.writeQuickStop(
      to: folder, trials: 100,
      replacing: ("  - dosesNotified: { within: 10m, probability: { atLeast: 0.4, atMost: 0.7 } }", "  - dosesNotified: { within: 10m, probability: 0.95 }"))
    #expect(try TrigsimBinary.run(["record", "stop.yaml"], in: folder).status == 1)  // recorded, but the assertion fails
    let result = try TrigsimBinary.run(["verify", "stop.yaml"], in: folder)
    #expect(result.status == 1)
    let line = try #require(yaml.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("probability: 0.95") }) + 1
    #expect(result.stdout.contains("stop.yaml:\(line):5: assertion failed: every dose notified within 10m of its time with probability at least 0.95\n  1 of 1 chance is outside the bound\n"))
  }
}
