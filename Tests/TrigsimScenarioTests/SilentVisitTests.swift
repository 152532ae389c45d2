import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// `silentVisit:` (issue 26, item 2): a visit of a location reminder's region
/// that should not notify. Its dose is `silent` when nothing notified it, a
/// notification fails the assertion, and trials give it as a probability.
@Suite struct SilentVisitTests: LoaderDiagnosticAssertions {
  /// The drive through the pharmacy circle (13 s inside at 55 km/h), with `assertion` under `assert:`.
  static func driveThrough(_ assertion: String, location: String = "ios", extra: String = "") -> String {
    let track = RepositoryPaths.fixtures.appendingPathComponent("tracks/drive-through-pharmacy.csv").path
    return """
      trigsim: 1
      clock: { start: 2026-05-04T08:00:00+02:00, end: 2026-05-04T08:05:00+02:00, timezone: Europe/Copenhagen }
      platform: { location: \(location) }
      track: { file: \(track) }
      regions:
        - { id: pharmacy, center: [55.6700, 12.5600] }
      medicines:
        - { id: ins, name: Insulin, dosage: 10, unit: IU, times: [], location: { region: pharmacy, on: [enter] }, snooze: none }
        - { id: met, name: Metformin, dosage: 500, unit: mg, times: ["08:03"], snooze: none }
      app:
        - { at: 2026-05-04T08:00:00+02:00, state: foreground }
      \(extra)expect: none
      assert:
        - \(assertion)

      """
  }

  static func verify(_ yaml: String) throws -> ScenarioVerification {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trigsim-silent-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("s.yaml").path
    try yaml.write(toFile: path, atomically: true, encoding: .utf8)
    return ScenarioVerifier(record: .all, trialJobs: 1).verify(path: path)
  }

  @Test(arguments: [
    "silentVisit: { medicine: ins, visit: 1 }",
    "silentVisit: { medicine: ins, from: 2026-05-04T08:00:00+02:00, to: 2026-05-04T08:01:00+02:00 }",
    "silentVisit: { medicine: ins, from: \"08:00\", to: \"08:01\" }",
    "silentVisit: { medicine: ins, staysUnder: 1m }",
  ])
  func aSilentPassThroughPassesAndItsDoseIsSilentNotMissed(_ assertion: String) throws {
    let result = try Self.verify(Self.driveThrough(assertion))
    #expect(result.outcome == .passed, "\(result.details)")
    let dose = try #require(result.report?.summary.doses.first { $0.key.medicine == "ins" })
    #expect(dose.outcome == .silent)
    #expect(dose.visit == DoseVisit(region: "pharmacy", number: 1, entering: true, stay: SimulationDuration(milliseconds: 12_987)))
    #expect(dose.notes.count == 1)
    #expect(dose.notes.first?.hasPrefix("visit 1 expected silent (silentVisit: ") == true)
    // The reason it was not notified stays: the remark says it was expected.
    #expect(dose.reason?.hasPrefix("the device did not detect the entry of visit 1") == true)
  }

  @Test func theRemarkSaysWhatPickedTheVisitNotWhereTheScenarioSaysIt() throws {
    let picks = [
      ("silentVisit: { medicine: ins, visit: 1 }", "visit 1"),
      ("silentVisit: { medicine: ins, staysUnder: 1m }", "staying under 1m"),
      ("silentVisit: { medicine: ins, from: \"08:00\", to: \"08:01\" }", "beginning from 08:00 to 08:01 (every day, device time)"),
    ]
    for (assertion, words) in picks {
      let result = try Self.verify(Self.driveThrough(assertion))
      #expect(result.report?.summary.doses.first { $0.key.medicine == "ins" }?.notes == ["visit 1 expected silent (silentVisit: \(words))"])
    }
  }

  @Test func whenEveryDoseIsExpectedSilentDosesNotifiedHasNothingToCheckAndSaysSo() throws {
    let yaml = Self.driveThrough("silentVisit: { medicine: ins, visit: 1 }\n  - dosesNotified: { within: 0s, medicine: ins }")
    let result = try Self.verify(yaml)
    #expect(result.assertionFailures.map(\.finding) == ["the run has no doses of medicine 'ins' to check"])
  }

  @Test func withoutTheExpectationTheSameDoseIsMissed() throws {
    let result = try Self.verify(Self.driveThrough("count: { fired: medicine_ins_location, equals: 0 }"))
    #expect(result.outcome == .passed)
    #expect(result.report?.summary.doses.first { $0.key.medicine == "ins" }?.outcome == .missed)
  }

  @Test func aSilentVisitIsNotADoseThatDosesNotifiedCounts() throws {
    let silent = try Self.verify(Self.driveThrough("silentVisit: { medicine: ins, visit: 1 }\n  - dosesNotified: { within: 0s }"))
    #expect(silent.outcome == .passed, "\(silent.details)")
    let plain = try Self.verify(Self.driveThrough("dosesNotified: { within: 0s }"))
    #expect(plain.assertionFailures.map(\.finding) == ["1 dose missed or notified late"])
  }

  @Test func aNotifiedVisitFailsWithWhatNotifiedIt() throws {
    let result = try Self.verify(Self.driveThrough("silentVisit: { medicine: ins, staysUnder: 1m }", location: "ideal"))
    #expect(result.outcome == .failed)
    let failure = try #require(result.assertionFailures.first)
    #expect(failure.assertion == "visits of medicine 'ins' staying under 1m are silent")
    #expect(failure.finding == "1 visit of 1 notified")
    #expect(failure.evidence == [
      "visit 1 enter pharmacy (2026-05-04T08:00:32.468+02:00): notified 2026-05-04T08:00:32.468+02:00 by medicine_ins_location (banner+lock-screen+sound)"
    ])
    #expect(result.report?.summary.doses.first { $0.key.medicine == "ins" }?.outcome == .unanswered)
  }

  @Test(arguments: [
    "silentVisit: { medicine: ins, visit: 2 }",
    "silentVisit: { medicine: ins, staysUnder: 10s }",
    "silentVisit: { medicine: ins, from: \"09:00\", to: \"10:00\" }",
  ])
  func anExpectationThatPicksNoVisitFails(_ assertion: String) throws {
    // A check that picks nothing would pass whatever the app does.
    let result = try Self.verify(Self.driveThrough(assertion))
    #expect(result.outcome == .failed)
    #expect(result.assertionFailures.map(\.finding) == ["no visit of the run is one of them"])
  }

  @Test func overTrialsTheSilentFractionIsOneMinusTheNotifiedFraction() throws {
    // The quick stop at the pharmacy: a visit the iOS device detects in some trials only (about
    // one in two at the background accuracy of ±50 m).
    var yaml = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent("pharmacy-quick-stop.yaml"), encoding: .utf8)
    yaml = yaml.replacingOccurrences(of: "../fixtures/", with: RepositoryPaths.fixtures.path + "/")
    yaml = yaml.replacingOccurrences(of: "trials: { count: 1000, seed: 2026 }", with: "trials: { count: 200, seed: 2026 }\nexpect: none")
    yaml += "  - silentVisit: { medicine: vitd, staysUnder: 10m, probability: { atLeast: 0.35, atMost: 0.65 } }\n"
    yaml += "  - silentVisit: { medicine: vitd, visit: 1, probability: { atLeast: 0.99 } }\n"
    let result = try Self.verify(yaml)
    let dose = try #require(result.trialReport?.doses.first { $0.key.medicine == "vitd" })
    #expect(dose.expectedSilent == [0, 1])
    let silent = Double(dose.due - dose.notified) / Double(dose.due)
    #expect(abs(silent - (1 - dose.probability)) < 1e-12)
    #expect(silent >= 0.35 && silent <= 0.65, "silent \(silent)")
    // The first bound holds; the second does not, and says what it found.
    let failures = result.assertionFailures.filter { $0.assertion.hasPrefix("visit") }
    #expect(failures.map(\.assertion) == ["visit 1 of medicine 'vitd' is silent with probability at least 0.99"])
    #expect(failures.first?.evidence.first?.hasSuffix("silent \(String(format: "%.3f", silent)) (\(dose.due - dose.notified) of \(dose.due) trials)") == true)
    let text = try #require(result.trialReport?.text)
    #expect(text.contains(" vitd (pharmacy on=enter) #1, a visit expected to be silent\n    silent \(String(format: "%.3f", silent)) ("))
    #expect(text.contains("; when notified, delay p50 "))
    // The dose-notification probability leaves the expected-silent dose out: none is left to check.
    #expect(result.assertionFailures.contains { $0.finding == "no dose was due in any trial" })
  }

  @Test func mistakesAreLocated() {
    let header = Self.driveThrough("x: 1").components(separatedBy: "expect: none")[0]
    assertDiagnostics(header + "expect: none\nassert:\n  - silentVisit: { medicine: 1️⃣insulin, visit: 1 }\n", [
      Expected(marker: "1️⃣", message: "unknown medicine 'insulin'", note: "declared medicines: ins, met")
    ])
    assertDiagnostics(header + "expect: none\nassert:\n  - silentVisit: { medicine: 1️⃣met, visit: 1 }\n", [
      Expected(marker: "1️⃣", message: "medicine 'met' has no location reminder")
    ])
    assertDiagnostics(header + "expect: none\nassert:\n  - silentVisit: 1️⃣{ medicine: ins }\n", [
      Expected(marker: "1️⃣", message: "'silentVisit' needs which visits", note: "by number ('visit: 1'), by when they begin ('from', 'to'), or by a short stay ('staysUnder: 1m')")
    ])
    assertDiagnostics(header + "expect: none\nassert:\n  - silentVisit: { medicine: ins, visit: 1, staysUnder: 1️⃣1m }\n", [
      Expected(marker: "1️⃣", message: "'silentVisit' picks visits one way, not by 'visit' and 'staysUnder'")
    ])
    assertDiagnostics(header + "expect: none\nassert:\n  - silentVisit: { medicine: ins, visit: 1️⃣0 }\n", [
      Expected(marker: "1️⃣", message: "'visit' must be between 1 and 1000000000, not 0")
    ])
    assertDiagnostics(header + "expect: none\nassert:\n  - silentVisit: { medicine: ins, staysUnder: 1️⃣0s }\n", [
      Expected(marker: "1️⃣", message: "'staysUnder' must be longer than 0s")
    ])
    assertDiagnostics(header + "expect: none\nassert:\n  - silentVisit: { medicine: ins, visit: 1, to: 1️⃣\"09:00\" }\n", [
      Expected(marker: "1️⃣", message: "'to' goes with 'from': a window needs both")
    ])
    assertDiagnostics(header + "expect: none\nassert:\n  - 1️⃣silentVisit: { medicine: ins, visit: 1, probability: 0.5 }\n", [
      Expected(marker: "1️⃣", message: "an assertion with 'probability' is checked over trials, and the scenario has no 'trials:' section")
    ])
  }
}
