import Foundation
import Testing
import TrigsimCore
import TrigsimScenario
import TrigsimTestSupport

/// Every `scenarios/*.yaml` runs and must reproduce its reviewed timeline
/// `scenarios/<name>.timeline` byte for byte; a scenario with medicines must
/// also reproduce its reviewed dose table `scenarios/<name>.summary` (the
/// text `trigsim run --summary` prints after the timeline).
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
    let scenario = try ScenarioLoader().load(path: scenarioPath)
    let report = try Simulation(scenario).report()
    try compare(report.timeline.canonicalText, with: file.replacingOccurrences(of: ".yaml", with: ".timeline"), scenario: file)
    let summaryFile = file.replacingOccurrences(of: ".yaml", with: ".summary")
    if scenario.medicineApp.isEmpty {
      #expect(!FileManager.default.fileExists(atPath: RepositoryPaths.scenarios.appendingPathComponent(summaryFile).path),
              "\(summaryFile) exists but \(file) has no medicines")
    } else {
      try compare(report.summary.text, with: summaryFile, scenario: file)
    }
  }

  func compare(_ actual: String, with expectedName: String, scenario file: String) throws {
    let expectedURL = RepositoryPaths.scenarios.appendingPathComponent(expectedName)
    if ProcessInfo.processInfo.environment["TRIGSIM_RECORD"] == "1" {
      try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
      Issue.record("recorded new baseline \(expectedName); review the diff, then run again without TRIGSIM_RECORD")
      return
    }
    guard FileManager.default.fileExists(atPath: expectedURL.path) else {
      Issue.record("scenarios/\(expectedName) is missing for '\(file)'; record it with TRIGSIM_RECORD=1 and review it")
      return
    }
    let expected = try String(contentsOf: expectedURL, encoding: .utf8)
    #expect(
      actual == expected,
      """
      Output for '\(file)' differs from scenarios/\(expectedName).
      If the change is intended, re-run with TRIGSIM_RECORD=1 and review the diff.
      \(TextDiff.lines(expected: expected, actual: actual))
      """)
  }

  @Test(arguments: scenarioFiles)
  func scenarioRunsAreByteIdenticalAcrossRuns(_ file: String) throws {
    let path = RepositoryPaths.scenarios.appendingPathComponent(file).path
    let firstReport = try Simulation(ScenarioLoader().load(path: path)).report()
    let secondReport = try Simulation(ScenarioLoader().load(path: path)).report()
    let first = firstReport.timeline
    #expect(first.canonicalText == secondReport.timeline.canonicalText)
    #expect(firstReport.json == secondReport.json)
    #expect(firstReport.summary.text == secondReport.summary.text)
    #expect(zip(first.entries, first.entries.dropFirst()).allSatisfy { $0.instant <= $1.instant }, "timeline goes back in time")
  }
}
