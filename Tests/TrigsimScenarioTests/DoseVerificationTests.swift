import Foundation
import Testing
import TrigsimCore
import TrigsimScenario
import TrigsimTestSupport

/// `ScenarioVerifier` with a dose table beside the expected timeline: the
/// doses are compared and reported first, recorded as `record` says, and a
/// missing table fails like a missing timeline.
@Suite struct DoseVerificationTests {
  /// A folder holding a copy of the bundled `focus-sleep-breakthrough` scenario,
  /// its reviewed timeline and dose table, with Levothyroxine's 07:00 replaced by `levoTime`.
  static func focusFolder(levoTime: String = "07:00", withDoses: Bool = true) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trigsim-doses-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let name = "focus-sleep-breakthrough"
    var yaml = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent("\(name).yaml"), encoding: .utf8)
    let levo = "{ id: levo, name: Levothyroxine, dosage: 50, unit: µg, times: [\"07:00\"]"
    #expect(yaml.contains(levo))
    yaml = yaml.replacingOccurrences(of: levo, with: levo.replacingOccurrences(of: "07:00", with: levoTime))
    try yaml.write(to: folder.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
    for suffix in [".timeline"] + (withDoses ? [".doses"] : []) {
      try FileManager.default.copyItem(
        at: RepositoryPaths.scenarios.appendingPathComponent(name + suffix), to: folder.appendingPathComponent(name + suffix))
    }
    return folder
  }

  static func scenario(in folder: URL) -> String { folder.appendingPathComponent("focus-sleep-breakthrough.yaml").path }

  @Test func movingASleepFocusDoseTo0800ReportsTheDoseChangeFirst() throws {
    let folder = try Self.focusFolder(levoTime: "08:00")
    defer { try? FileManager.default.removeItem(at: folder) }
    var verifier = ScenarioVerifier()
    verifier.diffStyle = .compact
    let result = verifier.verify(path: Self.scenario(in: folder))
    #expect(result.outcome == .failed)
    let dosesPath = folder.appendingPathComponent("focus-sleep-breakthrough.doses").path
    #expect(result.expectedDosesPath == dosesPath)
    let comparison = try #require(result.doseComparison)
    #expect(comparison.changes.map(\.description).map { $0.prefix { $0 != ";" } } == [
      "Levothyroxine 2026-05-05 07:00 → 08:00 (better for the patient): notified 07:45 lock screen → 08:00 alert",
      "Levothyroxine 2026-05-06 07:00 → 08:00 (better for the patient): notified 07:45 lock screen → 08:00 alert",
    ])
    #expect(result.headline.hasPrefix("doses differ: 2 of 4 doses changed (2 better for the patient); timeline differs: "), "\(result.headline)")
    #expect(
      result.failureMessage.hasPrefix("dose changed: Levothyroxine 2026-05-05 07:00 → 08:00 (better for the patient): notified 07:45 lock screen → 08:00 alert; "),
      "\(result.failureMessage)")
    #expect(result.failureMessage.contains(" (and 1 more); timeline differs: "))
    // The dose report leads the details, each dose at its line of the dose table, then the timeline's groups.
    let details = result.details.split(separator: "\n").map(String.init)
    #expect(details.first == "doses differ from \(dosesPath): 2 of 4 doses changed (2 better for the patient)")
    #expect(details[1].hasSuffix("(\(dosesPath):4)"))
    #expect(details[2].hasSuffix("(\(dosesPath):5)"))
    #expect(details[3].hasPrefix("timeline differs from "))
  }

  @Test func theUnchangedScenarioPassesWithItsDoseTable() throws {
    let folder = try Self.focusFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = ScenarioVerifier().verify(path: Self.scenario(in: folder))
    #expect(result.outcome == .passed, "\(result.details)")
    #expect(result.doseComparison?.matches == true)
  }

  @Test func aMissingDoseTableFailsAndRecordingMissingWritesIt() throws {
    let folder = try Self.focusFolder(withDoses: false)
    defer { try? FileManager.default.removeItem(at: folder) }
    let dosesPath = folder.appendingPathComponent("focus-sleep-breakthrough.doses").path
    let checked = ScenarioVerifier().verify(path: Self.scenario(in: folder))
    #expect(checked.outcome == .failed)
    #expect(checked.missingDoseBaseline)
    #expect(checked.headline == "no expected dose table")
    #expect(checked.details.hasPrefix("no expected dose table at \(Diagnostic.quotePath(dosesPath))\nnote: record it with 'trigsim record "))
    #expect(!FileManager.default.fileExists(atPath: dosesPath))

    let onCI = ScenarioVerifier(record: .missing, isCI: true).verify(path: Self.scenario(in: folder))
    #expect(onCI.outcome == .failed)
    #expect(onCI.refusedToRecord)
    #expect(!FileManager.default.fileExists(atPath: dosesPath))

    let recorded = ScenarioVerifier(record: .missing).verify(path: Self.scenario(in: folder))
    #expect(recorded.outcome == .passed)
    #expect(recorded.dosesRecorded == .created)
    #expect(recorded.headline == "passed; dose table recorded")
    let written = try String(contentsOfFile: dosesPath, encoding: .utf8)
    let reviewed = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent("focus-sleep-breakthrough.doses"), encoding: .utf8)
    #expect(written == reviewed)
  }

  /// On CI, `--record missing` with the timeline missing would write the timeline only: a
  /// differing dose table is not one it would rewrite, so its report has no CI note.
  @Test func aCINoteNamesOnlyTheBaselineThatWouldHaveBeenWritten() throws {
    let folder = try Self.focusFolder(levoTime: "08:00")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.removeItem(at: folder.appendingPathComponent("focus-sleep-breakthrough.timeline"))
    let result = ScenarioVerifier(record: .missing, isCI: true).verify(path: Self.scenario(in: folder))
    #expect(result.outcome == .failed)
    #expect(result.refusedToRecord)
    #expect(!result.refusedToRecordDoses)
    #expect(result.details.contains("doses differ from "))
    #expect(!result.details.contains("the expected dose table was not rewritten"))
    #expect(result.details.contains("no expected timeline at "))
    // Asked to rewrite what differs, the dose table is the one refused.
    let failed = ScenarioVerifier(record: .failed, isCI: true).verify(path: Self.scenario(in: folder))
    #expect(failed.refusedToRecordDoses)
    #expect(failed.details.contains("note: CI is set, so the expected dose table was not rewritten (pass --force to write it)\n"))
  }

  @Test func aMalformedDoseTableIsInvalidInputAtItsLine() throws {
    let folder = try Self.focusFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let dosesURL = folder.appendingPathComponent("focus-sleep-breakthrough.doses")
    let text = try String(contentsOf: dosesURL, encoding: .utf8)
    try text.replacingOccurrences(of: "# pending peak: 2 at", with: "# pending peak: x at").write(to: dosesURL, atomically: true, encoding: .utf8)
    let result = ScenarioVerifier().verify(path: Self.scenario(in: folder))
    #expect(result.outcome == .error(.invalidInput, "\(dosesURL.path):2:17: error: the pending peak 'x' is not a count\nnote: write it as '# pending peak: 12 at 2026-05-04T07:00:00.000+02:00'"))
    #expect(result.diagnostics.map(\.location.line) == [2])
    // Recording everything rewrites it.
    let recorded = ScenarioVerifier(record: .all).verify(path: Self.scenario(in: folder))
    #expect(recorded.outcome == .passed)
    #expect(recorded.dosesRecorded == .rewritten)
    #expect(try String(contentsOf: dosesURL, encoding: .utf8) == text)
  }

  @Test func aScenarioWithoutMedicinesHasNoDoseTable() throws {
    let result = ScenarioVerifier().verify(path: RepositoryPaths.scenarios.appendingPathComponent("morning-walk.yaml").path)
    #expect(result.outcome == .passed)
    #expect(result.expectedDosesPath == nil)
  }

  @Test func theDoseTableSitsBesideTheExpectedTimeline() {
    #expect(ScenarioVerifier.dosesPath(forTimeline: "scenarios/a.timeline") == "scenarios/a.doses")
    #expect(ScenarioVerifier.dosesPath(forTimeline: "a.b/base.json") == "a.b/base.doses")
    #expect(ScenarioVerifier.dosesPath(forTimeline: "expected") == "expected.doses")
  }
}
