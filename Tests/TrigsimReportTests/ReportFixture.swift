import Foundation
import Testing
import TrigsimCore
import TrigsimReport
import TrigsimScenario
import TrigsimTestSupport

/// Scenarios for the report tests, built in code: YAML for the world and the
/// app, fixes in memory for the track (no file is read).
enum ReportFixture {
  /// Loads `yaml`, puts `fixes` in as its track, runs it, and compares it
  /// with `expected(actual)` when given.
  static func input(_ yaml: String, fixes: [TrackSample] = [], expected: ((Timeline) -> Timeline)? = nil) throws -> ReportInput {
    var scenario = try ScenarioLoader().load(yaml: "trigsim: 1\n" + yaml)
    if !fixes.isEmpty { scenario.track = InMemoryTrack(name: "fixes", samples: fixes) }
    let run = try Simulation(scenario).report()
    let comparison = expected.map { TimelineComparison(expected: $0(run.timeline), actual: run.timeline) }
    return ReportInput(scenario: scenario, path: "test.yaml", run: run, comparison: comparison, verdict: comparison.map { ReportInput.Verdict($0.matches ? "passed" : "FAILED", passed: $0.matches) })
  }

  /// The report `trigsim report` draws for the bundled scenario `file`
  /// (relative to `scenarios/`): its run, and the comparison with its
  /// expected timeline; nil when the scenario is skipped here (a corpus
  /// scenario where `../shared/tracks` is absent).
  static func bundled(_ file: String) throws -> ReportInput? {
    try scenarioFile(RepositoryPaths.scenarios.appendingPathComponent(file).path, shownAs: file)
  }

  /// The report `trigsim report` draws for the scenario file at `path`,
  /// named `shownAs` on the page; nil when it is skipped (its track is absent).
  static func scenarioFile(_ path: String, shownAs name: String) throws -> ReportInput? {
    let loaded: ScenarioFile
    do { loaded = try ScenarioLoader().loadFile(path: path) } catch is ScenarioSkipped { return nil }
    var verifier = ScenarioVerifier()
    verifier.checksTrials = false
    let verification = verifier.verify(loaded)
    let run = try #require(verification.report, "\(name): \(verification.headline)")
    var input = ReportInput(
      scenario: loaded.scenario, path: name, run: run, comparison: verification.comparison,
      verdict: ReportInput.Verdict(verification.headline, passed: verification.outcome == .passed))
    input.assumptions = verification.assumptionReport
    return input
  }

  /// A walk east along 55.68° N at 1.25 m/s, one fix every `every` seconds
  /// from 06:00 UTC for `minutes` minutes, starting at 12.57° E.
  static func walkEast(minutes: Int, every: Int = 10, from start: String = "2026-03-28T06:00:00Z") -> [TrackSample] {
    let first = Build.instant(start)
    let metresPerDegree = LocalProjection(center: Coordinate(latitude: 55.68, longitude: 12.57)).metresPerDegreeLongitude
    return stride(from: 0, through: minutes * 60, by: every).map { second in
      TrackSample(
        instant: first.advanced(by: .seconds(Int64(second))),
        coordinate: Coordinate(latitude: 55.68, longitude: 12.57 + 1.25 * Double(second) / metresPerDegree))
    }
  }
}
