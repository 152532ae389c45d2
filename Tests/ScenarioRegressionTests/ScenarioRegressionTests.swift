import Foundation
import Testing
import TrigsimCore
import TrigsimScenario
import TrigsimTestSupport

/// Every scenario under `scenarios/` (the corpus in `scenarios/corpus/`
/// included) is verified as `trigsim verify` does: its run must match its
/// reviewed expected timeline (`<name>.timeline`, or what `expect:` names,
/// under the scenario's tolerances), a scenario with medicines its reviewed
/// dose table beside it (`<name>.doses`), and satisfy its `assert:` list.
/// Corpus scenarios over `../shared/tracks` are skipped when that folder is
/// absent (`ifMissing: skip`).
///
/// To accept an intended change, run with `TRIGSIM_RECORD=1`: the expected
/// files are rewritten and the test still fails, so that every re-recording is
/// a deliberate change that is read in review.
@Suite struct ScenarioRegressionTests {
  /// Paths relative to `scenarios/`, sorted.
  static let scenarioFiles = RepositoryPaths.bundledScenarioFiles

  /// `TRIGSIM_RECORD=1`, except on CI (the environment variable `CI` set), where baselines are never written.
  static var recording: Bool {
    let environment = ProcessInfo.processInfo.environment
    return environment["TRIGSIM_RECORD"] == "1" && !ScenarioVerifier.isCI(environment)
  }

  @Test func everyScenarioHasAnExpectedTimeline() throws {
    #expect(Self.scenarioFiles.count >= 5)
    for file in Self.scenarioFiles {
      guard let loaded = try ScenarioLoader().loadFileOrSkip(RepositoryPaths.scenarios.appendingPathComponent(file).path) else { continue }
      let expected = try #require(loaded.checks.expectedTimelinePath, "\(file) has 'expect: none'; bundled scenarios keep a reviewed timeline")
      // A scenario on several phones keeps one per phone (`x.ios.timeline`, `x.android.timeline`) and the side-by-side table.
      let platforms = ScenarioVerifier().platforms(of: loaded.scenario)
      let paths = ScenarioVerifier.keepsOwnFiles(platforms, of: loaded.scenario)
        ? [expected] : platforms.map { ScenarioVerifier.path(expected, on: $0) } + [ScenarioVerifier.platformsPath(forTimeline: expected)]
      for path in paths { #expect(FileManager.default.fileExists(atPath: path), "\(file) has no \(path)") }
    }
  }

  @Test(arguments: scenarioFiles)
  func scenarioReproducesItsReviewedTimeline(_ file: String) throws {
    // The header names the track as the scenario writes it, so the absolute path here does not reach the output.
    let scenarioPath = RepositoryPaths.scenarios.appendingPathComponent(file).path
    let verifications = ScenarioVerifier(record: Self.recording ? .failed : .none).verifyEach(path: scenarioPath)
    for verification in verifications { check(verification, file) }
    // A scenario whose track is absent (the corpus, without ../shared/tracks) is skipped, as its verification says.
    if verifications.contains(where: { if case .skipped = $0.outcome { true } else { false } }) { return }
    guard let verification = verifications.first, verifications.count == 1 else {
      // On several phones: a verification per phone and one of the side-by-side table, each checked above.
      #expect(verifications.count >= 3, "\(file): \(verifications.count) verifications")
      return
    }
    let scenario = try ScenarioLoader().load(path: scenarioPath)
    let dosesFile = file.replacingOccurrences(of: ".yaml", with: ".doses")
    if scenario.medicineApp.isEmpty {
      #expect(verification.expectedDosesPath == nil)
      #expect(!FileManager.default.fileExists(atPath: RepositoryPaths.scenarios.appendingPathComponent(dosesFile).path),
              "\(dosesFile) exists but \(file) has no medicines")
    } else {
      #expect(verification.expectedDosesPath == RepositoryPaths.scenarios.appendingPathComponent(dosesFile).path, "\(file) compares no dose table")
    }
  }

  /// One verification of a bundled scenario passed, or was skipped (its track is absent), and recorded nothing new.
  func check(_ verification: ScenarioVerification, _ file: String) {
    let file = file + (verification.platform.map { " [\($0.rawValue)]" } ?? "")
    switch verification.outcome {
    case .skipped:
      return
    case .passed:
      for (name, recording) in [
        ("timeline", verification.recorded), ("dose table", verification.dosesRecorded), ("assumption report", verification.assumptionsRecorded),
      ]
      where recording == .rewritten || recording == .created {
        Issue.record("recorded a new \(name) baseline for \(file); review the diff, then run again without TRIGSIM_RECORD")
      }
    case .failed, .error:
      Issue.record(Comment(rawValue: """
        '\(file)' does not verify: \(verification.headline)
        If the change is intended, re-run with TRIGSIM_RECORD=1 and review the diff.
        \(verification.details)
        """))
    }
  }

  @Test func noSummaryBaselinesAreLeft() throws {
    // The dose tables (`.doses`) replaced the `.summary` text baselines: a stray one would be checked by nothing.
    let enumerator = try #require(FileManager.default.enumerator(atPath: RepositoryPaths.scenarios.path))
    let strays = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".summary") }
    #expect(strays.isEmpty, "\(strays)")
  }

  @Test(arguments: scenarioFiles)
  func scenarioRunsAreByteIdenticalAcrossRuns(_ file: String) throws {
    let path = RepositoryPaths.scenarios.appendingPathComponent(file).path
    guard try ScenarioLoader().loadFileOrSkip(path) != nil else { return }
    let firstReport = try Simulation(ScenarioLoader().load(path: path)).report()
    let secondReport = try Simulation(ScenarioLoader().load(path: path)).report()
    let first = firstReport.timeline
    #expect(first.canonicalText == secondReport.timeline.canonicalText)
    #expect(firstReport.json == secondReport.json)
    #expect(firstReport.summary.text == secondReport.summary.text)
    #expect(zip(first.entries, first.entries.dropFirst()).allSatisfy { $0.instant <= $1.instant }, "timeline goes back in time")
  }
}

extension ScenarioLoader {
  /// The scenario file, or nil when it is skipped here (its optional track is absent).
  func loadFileOrSkip(_ path: String) throws -> ScenarioFile? {
    do { return try loadFile(path: path) } catch is ScenarioSkipped { return nil }
  }
}
