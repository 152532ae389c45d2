import Foundation
import Testing
import TrigsimCore
import TrigsimMedicineApp
import TrigsimScenario

/// The medicine app's Android build (`MedicineReminderAndroidApp`) on the `android` device.
@Suite struct MedicineReminderAndroidAppTests {
  /// One 08:00 dose with two follow-ups 6 minutes apart, on Android with the exact-alarm permission granted at the start.
  static func scenario(_ extra: String = "", policy: String = "", exact: Bool = true) -> String {
    """
    trigsim: 1
    clock: { start: 2026-05-04T07:00:00Z, end: 2026-05-05T09:00:00Z, timezone: UTC }
    platform: android
    medicines:
      - { id: 1, name: Metformin, dosage: 500, unit: mg, times: ["08:00"], snooze: { every: 6m, count: 2 } }
    \(exact ? "app:\n  - { at: 2026-05-04T07:00:00Z, exactAlarms: granted }" : "")
    \(policy)
    \(extra)

    """
  }

  static func run(_ yaml: String) throws -> SimulationReport {
    try Simulation(try ScenarioLoader().load(yaml: yaml, file: "s.yaml")).report()
  }

  static func fired(_ report: SimulationReport) -> [String] {
    report.timeline.entries.filter { $0.kind == .fired }.map { "\($0.localInstant.prefix(16)) \($0.subject)" }
  }

  @Test func withExactAlarmsTheReminderFiresOnTimeAndTheChainIsScheduledAtDelivery() throws {
    let report = try Self.run(Self.scenario())
    #expect(Self.fired(report) == [
      "2026-05-04T08:00 medicine_1_reminder_0", "2026-05-04T08:06 medicine_1_snooze_1", "2026-05-04T08:12 medicine_1_snooze_2",
      "2026-05-05T08:00 medicine_1_reminder_0", "2026-05-05T08:06 medicine_1_snooze_1", "2026-05-05T08:12 medicine_1_snooze_2",
    ])
    // One alarm per time, set for the next occurrence; the chain's alarm is set when the reminder fires.
    let chainSets = report.timeline.entries.filter { $0.kind == .alarm && $0.subject == "medicine_1_0800_chain" && $0.fields.contains(TimelineField("change", "set")) }
    #expect(chainSets.map { String($0.localInstant.prefix(16)) } == ["2026-05-04T08:00", "2026-05-04T08:06", "2026-05-05T08:00", "2026-05-05T08:06"])
    #expect(report.summary.doses.count == 2)
  }

  @Test func takenCancelsTheChainAlarm() throws {
    let report = try Self.run(Self.scenario("actions:\n  - { at: 2026-05-04T08:03:00Z, notification: medicine_1_reminder_0, action: complete }"))
    #expect(Self.fired(report).prefix(2) == ["2026-05-04T08:00 medicine_1_reminder_0", "2026-05-05T08:00 medicine_1_reminder_0"])
    #expect(report.timeline.entries.contains { $0.kind == .alarm && $0.subject == "medicine_1_0800_chain" && $0.fields.contains(TimelineField("change", "cancelled")) })
    #expect(report.summary.doses.first?.outcome == .completed)
  }

  @Test func withoutTheExactAlarmPermissionTheAppFallsBackToInexactAlarms() throws {
    let report = try Self.run(Self.scenario(exact: false))
    let kinds = Set(report.timeline.entries.filter { $0.kind == .alarm }.compactMap { $0.fields.first { $0.key == "kind" }?.value })
    #expect(kinds == ["inexact-while-idle"])
    let first = try #require(report.timeline.entries.first { $0.kind == .fired })
    #expect(first.instant > Build_instant("2026-05-04T08:00:00Z"))
  }

  @Test func aRebootWithoutBootReRegistrationLosesEveryLaterAlarm() throws {
    let power = "device:\n  power:\n    - { at: 2026-05-04T09:00:00Z, event: reboot }\n    - { at: 2026-05-04T09:10:00Z, event: unlock }"
    let lost = try Self.run(Self.scenario(power, policy: "policy:\n  android: { reRegisterAtBoot: false }"))
    #expect(Self.fired(lost) == ["2026-05-04T08:00 medicine_1_reminder_0", "2026-05-04T08:06 medicine_1_snooze_1", "2026-05-04T08:12 medicine_1_snooze_2"])
    let kept = try Self.run(Self.scenario(power))
    #expect(Self.fired(kept).contains("2026-05-05T08:00 medicine_1_reminder_0"))
  }

  @Test func refreshWorkIsOffByDefault() throws {
    let report = try Self.run(Self.scenario())
    #expect(!report.timeline.entries.contains { $0.kind == .work })
  }

  @Test func refreshWorkRestoresAlarmsAfterARebootWithoutABootReceiver() throws {
    // WorkManager reschedules its own work after the boot (its own receiver), so the refresh sets the alarms again.
    let power = "device:\n  power:\n    - { at: 2026-05-04T09:00:00Z, event: reboot }\n    - { at: 2026-05-04T09:10:00Z, event: unlock }"
    let report = try Self.run(Self.scenario(power, policy: "policy:\n  android: { reRegisterAtBoot: false, refreshWork: 1h }"))
    #expect(Self.fired(report).contains("2026-05-05T08:00 medicine_1_reminder_0"))
    let rescheduled = try #require(report.timeline.entries.first { $0.kind == .work && $0[field: "change"] == "rescheduled" })
    #expect(rescheduled[field: "after"] == "reboot")
    #expect(rescheduled.localInstant.hasPrefix("2026-05-04T09:10"))
  }

  @Test func theAndroidBuildNamesItsNotificationsAsTheIOSBuildDoes() throws {
    let ios = try Self.run(Self.scenario().replacingOccurrences(of: "platform: android", with: "platform: ios"))
    let android = try Self.run(Self.scenario())
    let iosIDs = Set(ios.timeline.entries.filter { $0.kind == .fired }.map(\.subject))
    let androidIDs = Set(android.timeline.entries.filter { $0.kind == .fired }.map(\.subject))
    #expect(iosIDs == androidIDs)
  }

  @Test func aMissedDoseNamesTheClearedAlarmOfItsOwnDailyTimeNotAnotherMedicines() throws {
    // Two medicines half an hour apart, windows of an hour each side: both alarms fall in each dose's window.
    let yaml = """
      trigsim: 1
      clock: { start: 2026-05-04T07:00:00Z, end: 2026-05-04T10:00:00Z, timezone: UTC }
      platform: android
      prescription: { window: 1h }
      medicines:
        - { id: a, name: Aspirin, dosage: 100, unit: mg, times: ["08:00"], snooze: none }
        - { id: b, name: Betablock, dosage: 5, unit: mg, times: ["08:30"], snooze: none }
      app:
        - { at: 2026-05-04T07:00:00Z, exactAlarms: granted }
        - { at: 2026-05-04T07:30:00Z, state: force-quit }

      """
    let report = try Self.run(yaml)
    let a = try #require(report.summary.doses.first { $0.key.medicine == "a" })
    let b = try #require(report.summary.doses.first { $0.key.medicine == "b" })
    #expect(a.reason?.hasPrefix("the app's alarm 'medicine_a_0800' for 2026-05-04T08:00:00.000+00:00 was cleared at 2026-05-04T07:30:00.000+00:00: force stop") == true, "\(a.reason ?? "nil")")
    #expect(b.reason?.hasPrefix("the app's alarm 'medicine_b_0830' for 2026-05-04T08:30:00.000+00:00 was cleared at 2026-05-04T07:30:00.000+00:00: force stop") == true, "\(b.reason ?? "nil")")
  }
}

private func Build_instant(_ text: String) -> SimulationInstant {
  SimulationInstant(ISO8601DateFormatter().date(from: text)!)
}
