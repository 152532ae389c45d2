import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// The scenario's `patient:` (when the patient looks) and the two platform
/// settings of what a look sees: what a valid file loads as, and every bad
/// value reported at the line and column to change.
@Suite struct PatientLoaderTests: LoaderDiagnosticAssertions {
  static let header: String =
    "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T23:00:00+01:00, timezone: Europe/Copenhagen }\n"

  @Test func looksARoutineAndTheLookSettingsLoad() throws {
    let scenario = try ScenarioLoader().load(yaml: Self.header + """
      platform: { catchUpPresentation: alert, focusSilencedOnLockScreen: shown }
      patient:
        looks: [2026-03-28T09:00:00, 2026-03-28T07:45:00]
        day: { wake: "7:00", sleep: "23:30", pickups: 30 }
      """, file: "s.yaml")
    #expect(scenario.patientAttention.looks.map(\.instant) == [
      try ValueSyntax.instant("2026-03-28T06:45:00Z", zone: TimeZone(identifier: "UTC")!).get(),
      try ValueSyntax.instant("2026-03-28T08:00:00Z", zone: TimeZone(identifier: "UTC")!).get(),
    ])
    #expect(scenario.patientAttention.day == DailyRoutine(wake: DailyTime(hour: 7, minute: 0), sleep: DailyTime(hour: 23, minute: 30), pickupsPerDay: 30))
    #expect(scenario.platform.attention.catchUpPresentation == .alert)
    #expect(scenario.platform.attention.focusSilencedOnLockScreen == .shown)
    // Settings away from their defaults are printed in the header's device line.
    #expect(scenario.platform.attention.summary.hasSuffix(" catch-up=alert focus-silenced=shown"))
  }

  @Test func pickupsDefaultToSeventySixADayAndNoPatientNeverLooks() throws {
    // dscout's logged 76 a day, the central published figure (issue 42; the manual, "Calibration").
    let routine = try ScenarioLoader().load(yaml: Self.header + "patient: { day: { wake: \"07:00\", sleep: \"23:00\" } }\n", file: "s.yaml")
    #expect(routine.patientAttention.day?.pickupsPerDay == 76)
    let none = try ScenarioLoader().load(yaml: Self.header, file: "s.yaml")
    #expect(none.patientAttention.isEmpty)
  }

  @Test func badPatientsAreLocated() {
    assertDiagnostics(Self.header + """
      patient:
        1️⃣look: []
        looks: [2️⃣2026-03-29T09:00:00]
        day: { wake: "07:00", sleep: "23:00", pickups: 3️⃣0 }
      """, [
        Expected(marker: "1️⃣", message: "unknown key 'look' in 'patient'", note: "did you mean 'looks'?"),
        Expected(marker: "2️⃣", message: "a look '2026-03-29T09:00:00' is outside the clock window"),
        Expected(marker: "3️⃣", message: "pickups must be between 1 and 1440, not 0"),
      ])
    assertDiagnostics(Self.header + """
      patient:
        day: 1️⃣{ wake: "07:00" }
      """, [Expected(marker: "1️⃣", message: "'day' needs 'wake' and 'sleep'")])
    assertDiagnostics(Self.header + """
      patient:
        day: { wake: "07:00", sleep: 1️⃣"07:00" }
      """, [Expected(marker: "1️⃣", message: "the patient sleeps at 07:00, the time they wake")])
    assertDiagnostics(Self.header + """
      platform: { catchUpPresentation: 1️⃣alerts }
      """, [Expected(marker: "1️⃣", message: "unknown 'catchUpPresentation' 'alerts'", note: "did you mean 'alert'?")])
  }
}
