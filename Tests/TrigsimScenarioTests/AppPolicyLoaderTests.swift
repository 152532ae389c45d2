import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// `policy`, `prescription` and the assertions that could never fail: what
/// a valid file loads as, and every bad value reported where it is written.
@Suite struct AppPolicyLoaderTests: LoaderDiagnosticAssertions {
  static let header: String =
    "trigsim: 1\nclock: { start: 2026-05-04T07:00:00+02:00, end: 2026-05-04T23:00:00+02:00, timezone: Europe/Copenhagen }\n"
  static let medicine: String = "medicines:\n  - { id: 1, name: Metformin, dosage: 500, times: [\"08:00\", \"14:00\"] }\n"

  @Test func aPolicyLoadsEveryChoice() throws {
    let yaml = Self.header + Self.medicine + """
      policy:
        addOrder: reminders-first
        identifiers: { reminder: "med_{medicine}_{reminder}", followUp: "med_{medicine}_f{followup}" }
        snooze: { identifier: same, trigger: calendar-from-due, onlyIfFuture: false }
        reAddChains: { foreground: none, action: all, backgroundRefresh: all, silentPush: medicine }
        handler: cut-short
      prescription: { at: Asia/Tokyo, window: { before: 30m, after: 2h } }
      expect: none
      assert:
        - noPendingLimitDrops: true

      """
    let scenario = try ScenarioLoader().loadFile(yaml: yaml, file: "s.yaml").scenario
    let policy = scenario.medicineApp.policy
    #expect(policy.addOrder == .remindersFirst)
    #expect(policy.identifiers.reminder.text == "med_{medicine}_{reminder}")
    #expect(policy.identifiers.followUp.text == "med_{medicine}_f{followup}")
    #expect(policy.snooze == SnoozeImplementation(identifier: .same, trigger: .calendarFromDue, onlyIfFuture: false))
    #expect(policy.chainReAdds.foreground == .none && policy.chainReAdds.action == .all)
    #expect(policy.chainReAdds.backgroundRefresh == .all && policy.chainReAdds.silentPush == .medicine)
    #expect(policy.handler == .cutShort)
    guard case .create(let medicine) = scenario.medicineApp.medicineChanges[0].kind else { Issue.record("no creation"); return }
    #expect(medicine.prescription == Prescription(basis: .zone(TimeZone(identifier: "Asia/Tokyo")!), before: .minutes(30), after: .minutes(120)))
  }

  @Test func actionsAndRulesAreCheckedAgainstThePolicysIdentifiers() throws {
    let yaml = Self.header + Self.medicine + """
      policy: { identifiers: { reminder: "med_{medicine}_{reminder}" } }
      actions:
        - { at: 2026-05-04T08:01:00, notification: med_1_0, action: complete }
      expect: none
      assert:
        - noPendingLimitDrops: true

      """
    #expect(try ScenarioLoader().loadFile(yaml: yaml, file: "s.yaml").scenario.medicineApp.userActions.count == 1)
    assertDiagnostics(Self.header + Self.medicine + """
      policy: { identifiers: { reminder: "med_{medicine}_{reminder}" } }
      actions:
        - { at: 2026-05-04T08:01:00, notification: 1️⃣medicine_1_reminder_0, action: complete }

      """, [Expected(marker: "1️⃣", message: "no medicine produces the notification 'medicine_1_reminder_0'")])
  }

  @Test func badPolicyValuesAreLocatedWithWhatToWrite() {
    assertDiagnostics(Self.header + Self.medicine + """
      policy:
        addOrder: 1️⃣reminder-first
        identifiers: { reminder: 2️⃣"medicine_{medicine}", followUp: 3️⃣"m_{medicine}_{folowup}" }
        snooze: { identifier: 4️⃣sam, onlyIfFuture: 5️⃣true }
        handler: 6️⃣cutshort

      """, [
        Expected(marker: "1️⃣", message: "unknown add order 'reminder-first'", note: "did you mean 'reminders-first'?"),
        Expected(marker: "2️⃣", message: "the reminder template 'medicine_{medicine}' needs '{reminder}'"),
        Expected(marker: "3️⃣", message: "the follow-up template 'm_{medicine}_{folowup}' is not valid: unknown placeholder '{folowup}'", note: "did you mean '{followup}'?"),
        Expected(marker: "4️⃣", message: "unknown snooze identifier 'sam'", note: "did you mean 'same'?"),
        Expected(marker: "5️⃣", message: "'onlyIfFuture' applies to 'trigger: calendar-from-due' only"),
        Expected(marker: "6️⃣", message: "unknown action handler completion 'cutshort'", note: "did you mean 'cut-short'?"),
      ])
  }

  @Test func policyAndPrescriptionNeedMedicines() {
    assertDiagnostics(Self.header + "1️⃣policy: { addOrder: interleaved }\n2️⃣prescription: { at: home }\n", [
      Expected(marker: "1️⃣", message: "'policy' needs medicines"),
      Expected(marker: "2️⃣", message: "'prescription' needs medicines"),
    ])
  }

  @Test func badPrescriptionsAreLocated() {
    assertDiagnostics(Self.header + """
      medicines:
        - { id: 1, name: M, dosage: 1, times: ["08:00"], prescription: 1️⃣{ at: home, every: 24h } }
        - { id: 2, name: M, dosage: 1, times: ["08:00"], prescription: { every: 2️⃣30m } }

      """, [
        Expected(marker: "1️⃣", message: "a prescription gives 'at' or 'every', not both"),
        Expected(marker: "2️⃣", message: "prescription 'every' must be at least 1h"),
      ])
  }

  @Test func assertionsThatCanNeverFailAreInputErrors() {
    assertDiagnostics(Self.header + Self.medicine + """
      assert:
        - pendingPeak: { atMost: 1️⃣64 }
        - nothingFired: { from: 2️⃣2026-05-05T22:00:00+02:00, to: 2026-05-05T23:00:00+02:00 }
        - count: { fired: "medicine_*", 3️⃣atLeast: 0 }

      """, [
        Expected(marker: "1️⃣", message: "'pendingPeak: { atMost: 64 }' can never fail: the platform keeps at most 64 requests pending and drops the rest",
                 note: "to check that nothing is lost to the limit, assert 'noPendingLimitDrops: true'; to keep headroom, give a number below 64"),
        Expected(marker: "2️⃣", message: "the window from 2026-05-05T22:00:00+02:00 to 2026-05-05T23:00:00+02:00 lies outside the clock (2026-05-04T05:00:00.000Z to 2026-05-04T21:00:00.000Z): nothing can happen in it, so the assertion can never fail"),
        Expected(marker: "3️⃣", message: "'atLeast: 0' alone accepts every count, so the assertion can never fail"),
      ])
  }

  @Test func actionsMayNameTheRequestOfOnePlaceOfASet() throws {
    let places = Self.header + """
      places:
        clinics: [ { id: north, center: [55.70, 12.55] }, { id: south, center: [55.60, 12.55] } ]
      medicines:
        - { id: 2, name: Pickup, dosage: 1, location: { places: clinics, on: [enter] }, snooze: none }

      """
    let yaml = places + "actions:\n  - { at: 2026-05-04T08:01:00, notification: medicine_2_location_north, action: complete }\nexpect: none\nassert:\n  - noPendingLimitDrops: true\n"
    #expect(try ScenarioLoader().loadFile(yaml: yaml, file: "s.yaml").scenario.medicineApp.userActions.map(\.notification.rawValue) == ["medicine_2_location_north"])
    assertDiagnostics(places + "actions:\n  - { at: 2026-05-04T08:01:00, notification: 1️⃣medicine_2_location_nort, action: complete }\n", [
      Expected(marker: "1️⃣", message: "no medicine produces the notification 'medicine_2_location_nort'", note: "did you mean 'medicine_2_location_north'?"),
    ])
  }

  @Test func anAppChangeCanRunABackgroundRefresh() throws {
    let yaml = Self.header + Self.medicine + "app:\n  - { at: 2026-05-04T12:00:00, run: background-refresh }\nexpect: none\nassert:\n  - noPendingLimitDrops: true\n"
    let changes = try ScenarioLoader().loadFile(yaml: yaml, file: "s.yaml").scenario.medicineApp.appChanges
    #expect(changes.map(\.backgroundRefresh) == [true])
  }
}
