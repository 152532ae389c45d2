import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// One run reports every independent problem of a scenario, and none that
/// only follows from another: an entry that fails to read still exists for
/// the checks that name it (see `ScenarioReader.unreadMedicineIDs`).
@Suite struct ScenarioLoaderIndependentProblemsTests: LoaderDiagnosticAssertions {
  static let header: String = "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-29T12:00:00+01:00, timezone: Europe/Copenhagen }\n"

  /// Twelve mistakes, each in a different place. Medicine 3 names an unknown
  /// region, the notification 'water' has a bad interval: the rule, the
  /// action and the assertions that name them are not reported as well.
  @Test func aDozenIndependentMistakesAreReportedInOneRunWithoutConsequentialErrors() {
    assertDiagnostics(
      Self.header + """
        1️⃣platfrom: ideal
        regions:
          - { id: pharmacy, center: [55.68, 12.57], radius: 2️⃣-5 }
          - { id: park, polygon: 3️⃣square }
        notifications:
          - { id: water, trigger: { interval: 4️⃣2hours } }
          - { id: church, trigger: { calendar: { weekday: 5️⃣Sundy, hour: 9 } } }
          - { id: shop, trigger: { region: 6️⃣ofice } }
          - { id: bell, sound: 7️⃣maybe, trigger: { interval: 1h } }
        medicines:
          - { id: 1, name: Metformin, dosage: 8️⃣lots, unit: mg, times: [9️⃣"25:00"] }
          - { id: 2, name: Aspirin, dosage: 100, unit: mg, times: ["08:00"], interruptionLevel: 🔟loud }
          - { id: 3, name: Vitamin D, dosage: 1, unit: tablet, location: { region: ⑪pharmcy } }
        actions:
          - { at: 2026-03-28T09:00:00, notification: medicine_3_location, action: complete }
        respond:
          - { to: "medicine_3_*", after: 2m, actions: [complete] }
          - { to: "medicine_2_*", after: 2m, actions: [⑫snoze] }
        assert:
          - dosesNotified: { within: 5m, medicine: 3 }
          - order: { first: water, then: "fired medicine_3_location" }
          - ⑬noPendingLimitDrop: true
        """,
      [
        Expected(marker: "1️⃣", message: "unknown key 'platfrom' in the scenario", note: "did you mean 'platform'?"),
        Expected(marker: "2️⃣", message: "radius must be greater than 0 metres"),
        Expected(
          marker: "3️⃣", message: "polygon must be a list",
          note: "e.g. polygon: [[55.68, 12.57], [55.69, 12.57], [55.69, 12.58]] (latitude, longitude pairs)"),
        Expected(marker: "4️⃣", message: "interval '2hours' is not a duration"),
        Expected(
          marker: "5️⃣", message: "weekday must be a day name (monday) or 1...7 with 1 = Sunday, not 'Sundy'",
          note: "did you mean 'Sunday'?"),
        Expected(marker: "6️⃣", message: "unknown region 'ofice'"),
        Expected(marker: "7️⃣", message: "sound must be true or false, not 'maybe'", note: "e.g. true (yes and no work too)"),
        Expected(marker: "8️⃣", message: "dosage must be a positive number, not 'lots'"),
        Expected(marker: "9️⃣", message: "time '25:00': hour 25 is outside 0...23"),
        Expected(marker: "🔟", message: "unknown interruption level 'loud'"),
        Expected(marker: "⑪", message: "unknown region 'pharmcy'", note: "did you mean 'pharmacy'?"),
        Expected(marker: "⑫", message: "unknown action 'snoze'", note: "did you mean 'snooze'?"),
        Expected(marker: "⑬", message: "unknown assertion 'noPendingLimitDrop'", note: "did you mean 'noPendingLimitDrops'?"),
      ])
  }

  /// The rule is checked as before when medicine 3 loads: the suppression is
  /// for unread entries only.
  @Test func aPatternNamingNoMedicineIsStillReportedWhenEveryMedicineLoaded() {
    assertDiagnostics(
      Self.header + """
        medicines:
          - { id: 1, name: Metformin, dosage: 500, unit: mg, times: ["08:00"] }
        respond:
          - { to: 1️⃣"medicine_3_*", after: 2m, actions: [complete] }
        """,
      [Expected(marker: "1️⃣", message: "pattern 'medicine_3_*' matches no notification the medicines can produce")])
  }

  /// A bad clock does not hide the rest of the file. Medicine 1's circle is
  /// invalid, so neither the assertions naming its region nor the rule naming
  /// its requests are reported.
  @Test func aBadClockDoesNotHideTheProblemsAfterIt() {
    assertDiagnostics(
      """
      trigsim: 1
      clock: { start: 1️⃣yesterday, end: 2026-03-28T12:00:00+01:00, timezone: Europe/Copenhagen }
      medicines:
        - { id: 1, name: Metformin, dosage: 500, unit: mg, times: ["08:00"], location: { center: [2️⃣95.0, 12.57] } }
        - { id: 2, name: Aspirin, dosage: 3️⃣-1, times: ["08:00"] }
      respond:
        - { to: "medicine_1_*", after: 4️⃣soon, actions: [complete] }
      assert:
        - nothingFired: { inside: medicine_1_area }
        - order: { first: "enter medicine_1_area", then: medicine_2_reminder_0 }
      """,
      [
        Expected(marker: "1️⃣", message: "clock start 'yesterday' is not an ISO 8601 date-time"),
        Expected(marker: "2️⃣", message: "latitude 95.0 is outside -90...90"),
        Expected(marker: "3️⃣", message: "dosage must be a positive number, not '-1'"),
        Expected(marker: "4️⃣", message: "'after' 'soon' is not a duration"),
      ])
  }

  /// Each field of a medicine is checked, so two bad values in one medicine are two errors.
  @Test func everyBadFieldOfOneMedicineIsReported() {
    assertDiagnostics(
      Self.header + """
        medicines:
          - { id: 1, name: Metformin, dosage: 1️⃣0, times: [2️⃣"8"], snooze: { count: 3️⃣many } }
        """,
      [
        Expected(marker: "1️⃣", message: "dosage must be a positive number, not '0'"),
        Expected(marker: "2️⃣", message: "time '8' is not HH:MM"),
        Expected(marker: "3️⃣", message: "snooze 'count' must be a whole number, not 'many'", note: "e.g. 3 (digits only, no unit)"),
      ])
  }

  /// A medicine with errors is still declared: a second one with its id is a duplicate.
  @Test func aMedicineWithErrorsStillTakesItsID() {
    assertDiagnostics(
      Self.header + """
        medicines:
          - { id: 1, name: Metformin, dosage: 1️⃣lots, times: ["08:00"] }
          - { id: 2️⃣1, name: Aspirin, dosage: 100, times: ["09:00"] }
        """,
      [
        Expected(marker: "1️⃣", message: "dosage must be a positive number, not 'lots'"),
        Expected(marker: "2️⃣", message: "medicine '1' is declared twice"),
      ])
  }

  @Test(arguments: [("Sundy", "Sunday"), ("Mondey", "Monday"), ("Thursdy", "Thursday")])
  func aMisspeltWeekdayGetsDidYouMean(written: String, suggested: String) {
    assertDiagnostics(
      Self.header + "notifications:\n  - { id: a, trigger: { calendar: { weekday: 1️⃣\(written), hour: 9 } } }\n",
      [
        Expected(
          marker: "1️⃣", message: "weekday must be a day name (monday) or 1...7 with 1 = Sunday, not '\(written)'",
          note: "did you mean '\(suggested)'?")
      ])
  }

  /// Switches and flags are enumerated values too: a misspelt one gets "did you mean" and the accepted forms.
  @Test func misspeltSwitchesAndFlagsGetDidYouMean() {
    let (_, found) = diagnostics(Self.header + """
      notifications:
        - { id: a, sound: flase, trigger: { interval: 1h } }
      device:
        settings:
          - { at: 2026-03-28T07:00:00, sounds: of }
      """)
    #expect(found.map(\.message) == ["sound must be true or false, not 'flase'", "sounds must be on or off, not 'of'"])
    #expect(found.map(\.notes) == [
      ["did you mean 'false'?", "e.g. true (yes and no work too)"],
      ["did you mean 'off'?", "e.g. on or off (true/false and yes/no work too)"],
    ])
  }

  /// Every "must be a list" names an example of the list's form.
  @Test func aListWrittenAsOneValueIsShownTheListForm() {
    let (_, found) = diagnostics(Self.header + "medicines:\n  - { id: 1, name: M, dosage: 1, times: \"08:00\" }\n")
    #expect(found.map(\.message) == ["'times' must be a list"])
    #expect(found.first?.notes == ["e.g. times: [\"08:00\", \"20:00\"]"])
  }

  @Test func aListWithoutACataloguedExampleIsShownTheFormWithItsKey() {
    #expect(YAMLDocument.listExample(what: "'ignoreFoo'", example: nil) == "e.g. 'ignoreFoo: [first, second]', or one '- item' per line under 'ignoreFoo:'")
    #expect(YAMLDocument.listExample(what: "place set 'x'", example: nil) == "e.g. 'key: [first, second]', or one '- item' per line under 'key:'")
  }

  @Test func aMappingWrittenAsOneValueIsShownTheMappingForm() {
    let (_, found) = diagnostics(Self.header + "medicines:\n  - 1️⃣aspirin\n")
    #expect(found.map(\.message) == ["a medicine must be a mapping of keys to values"])
    #expect(found.first?.notes.first == "e.g. { id: …, name: … }, or one 'key: value' line per key, indented under it")
  }
}
