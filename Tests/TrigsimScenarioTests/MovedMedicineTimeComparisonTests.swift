import Foundation
import Testing
import TrigsimCore
import TrigsimScenario

/// Issue 13: one medicine time moved 14:00 → 14:01 in a 7-day scenario. The
/// re-timed entries (fires, follow-ups, actions, removals, clears, re-added
/// chains) carry a calendar trigger and a `next` that moved with them; they
/// must be reported as shifted by +1m, not as missing plus unexpected.
@Suite struct MovedMedicineTimeComparisonTests {
  /// Three medicines over seven days; the patient completes every alert after 13 minutes.
  static func scenario(secondTime: String) -> String {
    """
    trigsim: 1
    name: Seven days of medicines
    clock: { start: 2026-05-04T06:00:00+02:00, end: 2026-05-11T06:00:00+02:00, timezone: Europe/Copenhagen }
    medicines:
      - { id: 1, name: Metformin, dosage: 500, unit: mg, times: ["08:00", "\(secondTime)"] }
      - { id: 2, name: Levothyroxine, dosage: 50, unit: µg, times: ["07:00"] }
      - { id: 3, name: Atorvastatin, dosage: 20, unit: mg, times: ["21:00"] }
    respond:
      - { to: "medicine_*", after: 13m, actions: [complete] }
    """
  }

  static func timeline(secondTime: String) throws -> Timeline {
    try Simulation(ScenarioLoader().load(yaml: scenario(secondTime: secondTime))).report().timeline
  }

  @Test func movingOneMedicineTimeByAMinuteReportsTheRetimedEntriesAsShifted() throws {
    let comparison = TimelineComparison(expected: try Self.timeline(secondTime: "14:00"), actual: try Self.timeline(secondTime: "14:01"))
    #expect(comparison.summaryLine == "0 missing, 0 unexpected, 168 shifted by +1m, 12 changed")
    let groups = comparison.differenceGroups.map { "\($0.count) × \($0.entryKind.rawValue) \($0.subject) \($0.description)" }
    #expect(groups == [
      "1 × medicine medicine_1 changed: times",
      "1 × scheduled medicine_1_reminder_1 changed: trigger, next (moved by +1m)",
      "10 × scheduled medicine_1_snooze_* changed: trigger, next (moved by +1m)",
      "7 × fired medicine_1_reminder_1 shifted by +1m",
      "14 × fired medicine_1_snooze_* shifted by +1m",
      // The response 13 minutes after the reminder answers the dose's most recent notification, its second follow-up.
      "7 × action medicine_1_snooze_12 shifted by +1m",
      "56 × removed medicine_1_snooze_* shifted by +1m",
      "7 × cleared medicine_1_reminder_1 shifted by +1m",
      "7 × cleared medicine_1_snooze_11 shifted by +1m",
      "70 × scheduled medicine_1_snooze_* shifted by +1m",
    ])
  }
}
