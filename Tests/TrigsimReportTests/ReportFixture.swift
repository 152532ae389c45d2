import Foundation
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
