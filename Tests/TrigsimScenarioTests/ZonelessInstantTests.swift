import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// An instant written without a UTC offset is read as local time in the
/// device zone, as the manual says, and never silently: the loader records
/// the reading as a warning at the value (`ScenarioFile.readings`).
@Suite struct ZonelessInstantTests {
  static let medicine = "medicines:\n  - { id: met, name: Metformin, dosage: 500, unit: mg, times: [\"08:00\"] }\n"

  func load(_ text: MarkedText) throws -> ScenarioFile { try ScenarioLoader().loadFile(yaml: text.text, file: "s.yaml") }

  @Test func aClockStartWithoutAnOffsetIsReadInTheClocksZoneWithAWarningAtIt() throws {
    let text = MarkedText(
      "trigsim: 1\nclock: { start: 1️⃣2026-05-05 06:00, end: 2026-05-05T09:00:00+02:00, timezone: Europe/Copenhagen }\n" + Self.medicine)
    let file = try load(text)
    #expect(file.scenario.clock.start == Build.instant("2026-05-05T04:00:00Z"))
    try #require(file.readings.count == 1)
    let reading = file.readings[0]
    #expect(reading.severity == .warning)
    #expect(reading.location == text.location("1️⃣", file: "s.yaml"))
    #expect(
      reading.message
        == "clock start '2026-05-05 06:00' has no UTC offset: read as 2026-05-05T06:00:00+02:00, local time in Europe/Copenhagen (the device zone)")
    #expect(reading.notes == ["write '2026-05-05T06:00:00+02:00' to state it"])
  }

  @Test func anInstantWithAnOffsetIsReadWithoutAWarning() throws {
    let text = MarkedText(
      "trigsim: 1\nclock: { start: 2026-05-05T06:00:00+02:00, end: 2026-05-05T09:00:00Z, timezone: Europe/Copenhagen }\n" + Self.medicine)
    #expect(try load(text).readings.isEmpty)
  }

  @Test func anInstantAfterAZoneChangeIsReadInTheZoneThenInForce() throws {
    let text = MarkedText(
      """
      trigsim: 1
      clock:
        start: 2026-05-05T06:00:00+02:00
        end: 2026-05-05T23:00:00+02:00
        timezone: Europe/Copenhagen
        changes: [{ at: 2026-05-05T12:00:00+02:00, timezone: Europe/London }]
      notifications:
        - { id: n, title: N, trigger: { interval: 1h }, add: 1️⃣2026-05-05T14:00 }

      """)
    let file = try load(text)
    try #require(file.readings.count == 1)
    #expect(file.readings[0].location == text.location("1️⃣", file: "s.yaml"))
    #expect(
      file.readings[0].message
        == "add '2026-05-05T14:00' has no UTC offset: read as 2026-05-05T14:00:00+01:00, local time in Europe/London (the device zone)")
  }
}
