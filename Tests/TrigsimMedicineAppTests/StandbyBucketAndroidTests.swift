import Testing
import TrigsimCore
import TrigsimMedicineApp
import TrigsimScenario

/// The medicine app's Android build as the app's standby bucket changes over a run.
@Suite struct StandbyBucketAndroidTests {
  static func alarmLines(_ report: SimulationReport, _ subject: String) -> [String] {
    report.timeline.entries.filter { $0.kind == .alarm && $0.subject == subject }.map { entry in
      "\(entry.localInstant.prefix(16)) \(entry.fields.first { $0.key == "change" }?.value ?? "")"
    }
  }

  @Test func aScriptedBucketChangeIsRecordedAndDefersTheChainByTheNewQuota() throws {
    let report = try MedicineReminderAndroidAppTests.run(
      MedicineReminderAndroidAppTests.scenario("  - { at: 2026-05-04T07:30:00Z, standbyBucket: rare }"))
    let change = try #require(report.timeline.entries.first { $0.kind == .app && $0.subject == "standby-bucket" })
    #expect(change.localInstant.hasPrefix("2026-05-04T07:30:00"))
    #expect(change.fields.prefix(2) == [TimelineField("to", "rare"), TimelineField("from", "working-set")])
    #expect(change.fields.last == TimelineField("reason", "set by the scenario"))
    // Rare allows one alarm per hour: the reminder at 08:00, each follow-up an hour after the alarm before it.
    #expect(MedicineReminderAndroidAppTests.fired(report).prefix(3) == [
      "2026-05-04T08:00 medicine_1_reminder_0", "2026-05-04T09:00 medicine_1_snooze_1", "2026-05-04T10:00 medicine_1_snooze_2",
    ])
  }

  @Test func withoutAChangeNothingIsRecordedAndTheHeaderIsAsBefore() throws {
    let report = try MedicineReminderAndroidAppTests.run(MedicineReminderAndroidAppTests.scenario())
    #expect(!report.timeline.entries.contains { $0.subject == "standby-bucket" })
    #expect(!report.timeline.header.contains { $0.value.contains("buckets-follow-use") || $0.value.contains("maintenance-spread") })
  }

  @Test func openingTheAppAfterDaysAwayMakesItActiveAgain() throws {
    // Buckets follow use; opened at 07:00 on day one, not again until day three 07:30.
    let yaml = MedicineReminderAndroidAppTests.scenario("""
        - { at: 2026-05-04T07:00:00Z, state: foreground }
        - { at: 2026-05-04T07:05:00Z, state: background }
      """).replacingOccurrences(of: "platform: android", with: "platform: { device: android, android: { bucketsFollowUse: true } }")
    let report = try MedicineReminderAndroidAppTests.run(yaml)
    let changes = report.timeline.entries.filter { $0.subject == "standby-bucket" }.map {
      "\($0.localInstant.prefix(16)) \($0.fields[0].value)"
    }
    #expect(changes == ["2026-05-04T07:00 active", "2026-05-04T19:00 working-set", "2026-05-05T07:00 frequent"])
    // Frequent allows two alarms per hour: on day two the second follow-up waits until the reminder's hour has passed.
    #expect(MedicineReminderAndroidAppTests.fired(report).suffix(3) == [
      "2026-05-05T08:00 medicine_1_reminder_0", "2026-05-05T08:06 medicine_1_snooze_1", "2026-05-05T09:00 medicine_1_snooze_2",
    ])
  }

  @Test func androidTrialsSayTheyDrawMaintenanceWindowTiming() throws {
    let scenario = try ScenarioLoader().load(yaml: MedicineReminderAndroidAppTests.scenario(), file: "s.yaml")
    let report = try TrialRunner(scenario).run(TrialPlan(count: 5, seed: 3))
    #expect(report.variationSummary.contains("when each maintenance window opens (uniform up to 4m30s after its idle span)"))
  }
}
