import Foundation
import Testing
import TrigsimCore
import TrigsimScenario
import TrigsimTestSupport

/// Issue 26: problems are listed in the order the file has them, not the
/// order trigsim checks them: loader errors by line and column, and failed
/// assertions (run and probability ones, checked apart) by where they are written.
@Suite struct ProblemOrderTests {
  @Test func anAssertMistakeAboveAMedicinesMistakeIsReportedFirst() throws {
    let yaml = """
      trigsim: 1
      clock: { start: 2026-05-04T07:00:00+02:00, end: 2026-05-04T09:00:00+02:00, timezone: Europe/Copenhagen }
      assert:
        - count: { fired: "medicine_*", equals: many }
      medicines:
        - { id: 1, name: Metformin, dosage: 500, unit: mg, times: ["25:00"] }
      """
    do {
      _ = try ScenarioLoader().load(yaml: yaml, file: "s.yaml")
      Issue.record("the scenario loaded")
    } catch let error as InputError {
      let lines = error.diagnostics.map(\.location.line)
      #expect(lines == lines.sorted(), "\(error.diagnostics.map(\.description))")
      #expect(lines.first == 4)
      #expect(lines.contains(6))
    }
  }

  @Test func aProbabilityAssertionWrittenAboveARunAssertionFailsFirst() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trigsim-order-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let track = RepositoryPaths.fixtures.appendingPathComponent("tracks/pharmacy-quick-stop.csv").path
    try """
      trigsim: 1
      name: Quick stop, assertions out of check order
      clock: { start: 2026-05-04T08:00:00+02:00, end: 2026-05-04T08:20:00+02:00, timezone: Europe/Copenhagen }
      platform: { location: ios }
      track: { file: \(track) }
      regions:
        - { id: pharmacy, center: [55.6700, 12.5600] }
      medicines:
        - { id: vitd, name: Vitamin D, dosage: 1, unit: tablet, times: [], location: { region: pharmacy, on: [enter] }, snooze: none }
      trials: { count: 50, seed: 2026 }
      expect: none
      assert:
        - locationFired: { request: medicine_vitd_location, probability: { atLeast: 0.99 } }
        - count: { fired: medicine_vitd_location, equals: 5 }
      """.write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    var verifier = ScenarioVerifier(record: .all, trialJobs: 1)
    verifier.pathPolicy = .unrestricted
    let result = verifier.verify(path: folder.appendingPathComponent("s.yaml").path)
    #expect(result.outcome == .failed)
    #expect(result.assertionFailures.map { $0.origin?.line } == [13, 14])
    #expect(result.assertionFailures.map(\.assertion) == [
      "every location request matching 'medicine_vitd_location' fired at each true crossing with probability at least 0.99",
      "count of 'fired medicine_vitd_location' is 5",
    ])
  }
}
