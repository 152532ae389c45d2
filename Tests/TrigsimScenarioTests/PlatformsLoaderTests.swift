import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// `platforms: [ios, android]`: the phones a scenario runs on side by side;
/// each problem at its item, with what to write instead.
@Suite struct PlatformsLoaderTests: LoaderDiagnosticAssertions {
  static let header = """
    trigsim: 1
    clock: { start: 2026-05-05T07:00:00+02:00, end: 2026-05-05T09:00:00+02:00, timezone: Europe/Copenhagen }
    medicines:
      - { id: met, name: Metformin, dosage: 500, unit: mg, times: ["08:00"] }

    """

  func load(_ yaml: String) throws -> Scenario { try ScenarioLoader().load(yaml: yaml, file: "s.yaml") }

  @Test func theListIsReadInTheOrderWritten() throws {
    #expect(try load(Self.header + "platforms: [android, ios]\n").platforms == [.android, .ios])
    #expect(try load(Self.header + "platforms: [ios]\n").platforms == [.ios])
  }

  @Test func withoutTheKeyTheScenarioRunsOnItsOwnPhoneOnly() throws {
    #expect(try load(Self.header).platforms.isEmpty)
  }

  @Test func anUnknownNameIsReportedAtItsItemWithASuggestion() {
    assertDiagnostics(
      Self.header + "platforms: [ios, 1️⃣andriod]\n",
      [Expected(marker: "1️⃣", message: "unknown platform 'andriod'", note: "did you mean 'android'?")])
  }

  @Test func aNameGivenTwiceIsReportedAtTheSecond() {
    assertDiagnostics(
      Self.header + "platforms: [ios, android, 1️⃣ios]\n",
      [Expected(marker: "1️⃣", message: "platform 'ios' is named twice in 'platforms'", note: "name each phone once, e.g. 'platforms: [ios, android]'")])
  }

  @Test func anEmptyListIsReportedWithWhatToWrite() {
    assertDiagnostics(
      Self.header + "platforms: 1️⃣[]\n",
      [
        Expected(
          marker: "1️⃣", message: "'platforms' is empty",
          note: "name the phones to run the scenario on, e.g. 'platforms: [ios, android]', or leave the key out to run it on the one 'platform:' names")
      ])
  }

  @Test func aSingleWordIsNotAList() {
    assertDiagnostics(Self.header + "platforms: 1️⃣ios\n", [Expected(marker: "1️⃣", message: "'platforms' must be a list")])
  }
}
