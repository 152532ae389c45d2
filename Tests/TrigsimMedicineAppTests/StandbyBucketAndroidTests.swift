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

/// Issue 41, item 4: a backlog behind the standby-bucket quota was deferred
/// again, with an entry, each time the hour slid (one medicine with 1,000
/// daily times wrote 62 MB of `change=deferred`). The timeline now says an
/// alarm is deferred once per cause (`AlarmDeferralCause`).
@Suite struct StandbyBucketBacklogTests {
  @Test func eachAlarmOfABacklogIsDeferredOnceAndFiresInOrder() throws {
    let times = stride(from: 0, to: 600, by: 5).map { String(format: "\"%02d:%02d\"", $0 / 60, $0 % 60) }.joined(separator: ", ")
    let report = try MedicineReminderAndroidAppTests.run("""
      trigsim: 1
      clock: { start: 2026-05-04T00:00:00Z, end: 2026-05-05T00:00:00Z, timezone: UTC }
      platform: { device: android, android: { exactAlarms: granted, standbyBucket: rare } }
      medicines:
        - { id: many, name: Many, dosage: 1, unit: mg, times: [\(times)], snooze: none }
      """)
    let alarms = report.timeline.entries.filter { $0.kind == .alarm }
    let deferred = alarms.filter { $0[field: "change"] == "deferred" }
    // The medicine is entered at 00:00, so the day's alarms are 00:05 to 09:55 (119), and one an hour fits: the first
    // fires on time, each other alarm waiting behind it is deferred once, by the quota (the day's backlog, and the
    // next day's 00:00), however often the hour slides while it waits.
    #expect(deferred.count == 119)
    #expect(Set(deferred.map(\.subject)).count == 119)
    #expect(deferred.allSatisfy { $0[field: "reason"]?.hasPrefix("standby bucket rare allows 1 alarm per 1h: deferred to ") == true })
    // Each later alarm fires an hour after the one before, in the order they were due, and says why it is late.
    let fired = alarms.filter { $0[field: "change"] == "fired" }
    #expect(fired.prefix(3).map { "\($0.localInstant.prefix(16)) \($0.subject)" } == [
      "2026-05-04T00:05 medicine_many_0005", "2026-05-04T01:05 medicine_many_0010", "2026-05-04T02:05 medicine_many_0015",
    ])
    #expect(fired.dropFirst().allSatisfy { $0[field: "reason"]?.hasPrefix("standby bucket rare allows 1 alarm per 1h") == true })
  }
}
