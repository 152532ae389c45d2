import Foundation
import Testing
import TrigsimCore
import TrigsimMedicineApp
import TrigsimScenario

/// Issue 23, audit item 8: after a time-zone change a completed dose's
/// follow-ups, added the evening before, must not keep firing; and the dose a
/// delivery answers follows the instant it actually fires.
@Suite struct ZoneChangeChainTests {
  static let flightEast = """
    trigsim: 1
    clock:
      start: 2026-05-03T19:00:00+02:00
      end: 2026-05-05T00:00:00+09:00
      timezone: Europe/Copenhagen
      changes:
        - { at: 2026-05-04T12:00:00+02:00, timezone: Asia/Tokyo }
    medicines:
      - { id: 1, name: Metformin, dosage: 500, unit: mg, times: ["20:00"], snooze: { every: 6m, count: 3, schedule: upfront } }
    respond:
      - { to: "medicine_1_reminder_*", after: 1m, actions: [complete] }

    """

  @Test func completingTheDoseInTokyoRemovesTheChainAddedInCopenhagen() throws {
    let report = try Simulation(ScenarioLoader().load(yaml: Self.flightEast, file: "s.yaml")).report()
    // Before the fix medicine_1_snooze_1 fired at 20:06 Tokyo on 4 May.
    #expect(report.timeline.entries(.fired).map(\.subject).filter { $0.hasPrefix("medicine_1_snooze") } == [])
    let reminders = report.timeline.entries(.fired).filter { $0.subject == "medicine_1_reminder_0" }
    #expect(reminders.count == 2)
    // The 20:00 Tokyo reminder answers the prescribed dose of 4 May.
    #expect(reminders.last?[field: "dose"] != "none")
  }

  @Test func aFollowUpFiringAtItsMovedInstantAnswersTheDoseOfThatInstant() throws {
    // Completed in Copenhagen only (the app adds 4 May's chain then): in Tokyo the chain
    // fires after the 20:00 reminder and answers its dose.
    let yaml = Self.flightEast.replacingOccurrences(
      of: "respond:\n  - { to: \"medicine_1_reminder_*\", after: 1m, actions: [complete] }\n",
      with: "actions:\n  - { at: 2026-05-03T20:01:00, notification: medicine_1_reminder_0, action: complete }\n")
    #expect(yaml != Self.flightEast)
    let report = try Simulation(ScenarioLoader().load(yaml: yaml, file: "s.yaml")).report()
    let tokyo = report.timeline.entries(.fired).filter { $0.localInstant.hasPrefix("2026-05-04T20") && $0.localInstant.hasSuffix("+09:00") }
    #expect(tokyo.map(\.subject) == ["medicine_1_reminder_0", "medicine_1_snooze_1", "medicine_1_snooze_2", "medicine_1_snooze_3"])
    let reminderDose = tokyo.first?[field: "dose"]
    #expect(reminderDose != nil && reminderDose != "none")
    let dose = try #require(report.summary.doses.first { $0.key.occurrenceLabel == reminderDose })
    #expect(dose.followUpsDelivered == 3)
  }
}
