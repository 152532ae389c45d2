import Foundation
import Testing
import TrigsimCore
import TrigsimScenario
import TrigsimTestSupport

/// Every `scenarios/*.yaml` runs and must reproduce its reviewed timeline
/// `scenarios/<name>.timeline` byte for byte.
///
/// To accept an intended change, run with `TRIGSIM_RECORD=1`: the expected
/// file is rewritten and the test still fails, so that every re-recording is a
/// deliberate change that is read in review.
@Suite struct ScenarioRegressionTests {
  static let scenarioFiles: [String] = {
    let folder = RepositoryPaths.scenarios
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted()
  }()

  @Test func everyScenarioHasAnExpectedTimeline() {
    #expect(Self.scenarioFiles.count >= 5)
    for file in Self.scenarioFiles {
      let expected = RepositoryPaths.scenarios.appendingPathComponent(file.replacingOccurrences(of: ".yaml", with: ".timeline"))
      #expect(FileManager.default.fileExists(atPath: expected.path), "\(file) has no expected timeline")
    }
  }

  @Test(arguments: scenarioFiles)
  func scenarioReproducesItsReviewedTimeline(_ file: String) throws {
    // The header names the track as the scenario writes it, so the absolute path here does not reach the output.
    let scenarioPath = RepositoryPaths.scenarios.appendingPathComponent(file).path
    let timeline = try Simulation(ScenarioLoader().load(path: scenarioPath)).run()
    let actual = timeline.canonicalText
    let expectedURL = RepositoryPaths.scenarios.appendingPathComponent(file.replacingOccurrences(of: ".yaml", with: ".timeline"))
    if ProcessInfo.processInfo.environment["TRIGSIM_RECORD"] == "1" {
      try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
      Issue.record("recorded new baseline \(expectedURL.lastPathComponent); review the diff, then run again without TRIGSIM_RECORD")
      return
    }
    let expected = try String(contentsOf: expectedURL, encoding: .utf8)
    #expect(
      actual == expected,
      """
      Timeline for '\(file)' differs from scenarios/\(expectedURL.lastPathComponent).
      If the change is intended, re-run with TRIGSIM_RECORD=1 and review the diff.
      \(TextDiff.lines(expected: expected, actual: actual))
      """)
  }

  @Test(arguments: scenarioFiles)
  func scenarioRunsAreByteIdenticalAcrossRuns(_ file: String) throws {
    let path = RepositoryPaths.scenarios.appendingPathComponent(file).path
    let first = try Simulation(ScenarioLoader().load(path: path)).run()
    let second = try Simulation(ScenarioLoader().load(path: path)).run()
    #expect(first.canonicalText == second.canonicalText)
    #expect(first.json == second.json)
    #expect(zip(first.entries, first.entries.dropFirst()).allSatisfy { $0.instant <= $1.instant }, "timeline goes back in time")
  }
}
