import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

private func followUpInstants(after time: String, _ range: ClosedRange<Int>, on date: String = F.day) -> [String] {
  range.map { InstantFormatter.format(F.at(time, on: date).advanced(by: .minutes(6 * Int64($0))), offsetSeconds: 0) }
}

// MARK: - Complete

@Suite struct CompleteActionTests {
  @Test func completeCancelsTheRestOfTheChainClearsTheDosesNotificationsAndResolvesTheDoseAtThatInstant() throws {
    let report = try F.report(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"]))],
      userActions: [F.action(.complete, on: "medicine_1_reminder_0", at: "08:20")]))
    let atComplete = report.timeline.entries(at: F.at("08:20"))
    let removed = atComplete.filter { $0.kind == .removed }
    #expect(removed.map(\.subject) == followUpIDs("1", 4...10))
    #expect(removed.allSatisfy { $0[field: "reason"] == "dose completed" })
    let cleared = atComplete.filter { $0.kind == .cleared }
    #expect(cleared.map(\.subject) == followUpIDs("1", 1...3))
    #expect(cleared.allSatisfy { $0[field: "reason"] == "dose completed" })
    #expect(atComplete.first?.kindAndSubject == "action medicine_1_reminder_0")
    // Nothing of this dose's chain fires after the completion.
    #expect(report.timeline.entries(.fired).filter { $0.instant > F.at("08:20") }.isEmpty)
    let dose = try #require(report.summary.dose("1", .time(DailyTime(hour: 8, minute: 0))))
    #expect(dose.outcome == .completed)
    #expect(dose.completed == F.at("08:20"))
    #expect(dose.followUpsDelivered == 3)
  }

  @Test func afterACompletionTheUpfrontAppTopsUpTheNextDaysChain() throws {
    let report = try F.report(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"]))],
      userActions: [F.action(.complete, on: "medicine_1_reminder_0", at: "08:20")]))
    let atComplete = report.timeline.entries(at: F.at("08:20"))
    #expect(atComplete.map(\.kindAndSubject) ==
      ["action medicine_1_reminder_0"]
      + followUpIDs("1", 4...10).map { "removed \($0)" }
      + followUpIDs("1", 1...3).map { "cleared \($0)" }
      + followUpIDs("1", 1...10).map { "scheduled \($0)" })
    let topUp = atComplete.filter { $0.kind == .scheduled }
    #expect(topUp.map { $0[field: "next"] } == followUpInstants(after: "08:00", 1...10, on: F.nextDay))
    #expect(topUp.allSatisfy { $0[field: "dose"] == F.nextDay })
  }
}

// MARK: - Snooze

@Suite struct SnoozeActionTests {
  @Test func snoozingTheDailyReminderReAlertsUnderASnoozedIdentifierSoTheRepeatingRequestIsNotReplaced() throws {
    let report = try F.report(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"]))],
      userActions: [F.action(.snooze(.minutes(15)), on: "medicine_1_reminder_0", at: "08:03")]),
      end: "2026-03-29T08:01:00Z")
    let reAlert = report.timeline.entries(.scheduled).filter { $0.subject == "medicine_1_reminder_0_snoozed" }
    #expect(reAlert.map(\.instant) == [F.at("08:03")])
    #expect(reAlert.first?[field: "trigger"] == "interval 15m")
    #expect(reAlert.first?[field: "next"] == F.local("08:18"))
    #expect(report.timeline.entries(.replaced).isEmpty)
    #expect(report.timeline.outline(subjectPrefix: "medicine_1_reminder_0").filter { $0.hasPrefix("fired") } == [
      "fired medicine_1_reminder_0 @ \(F.local("08:00"))",
      "fired medicine_1_reminder_0_snoozed @ \(F.local("08:18"))",
      "fired medicine_1_reminder_0 @ \(F.local("08:00", on: F.nextDay))",
    ])
  }

  @Test func snoozingAFollowUpReAlertsUnderThatFollowUpsIdentifierFifteenMinutesLater() throws {
    let report = try F.report(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"]))],
      userActions: [F.action(.snooze(.minutes(15)), on: "medicine_1_snooze_3", at: "08:20")]))
    let reAlert = report.timeline.entries(at: F.at("08:20")).filter {
      $0.kind == .scheduled && $0.subject == "medicine_1_snooze_3" && $0[field: "snoozed"] != nil
    }
    #expect(reAlert.count == 1)
    #expect(reAlert.first?[field: "trigger"] == "interval 15m")
    #expect(reAlert.first?[field: "next"] == F.local("08:35"))
    // Nothing at the snooze instant may replace the re-alert (e.g. a top-up reusing the follow-up's identifier).
    let atSnooze = report.timeline.entries(at: F.at("08:20"))
    #expect(
      !atSnooze.contains { $0.kind == .replaced && $0.subject == "medicine_1_snooze_3" },
      "entries at 08:20: \(atSnooze.map { "\($0.kindAndSubject) next=\($0[field: "next"] ?? "-")" })")
    #expect(report.timeline.outline(subjectPrefix: "medicine_1_snooze_3").filter { $0.hasPrefix("fired") } == [
      "fired medicine_1_snooze_3 @ \(F.local("08:18"))",
      "fired medicine_1_snooze_3 @ \(F.local("08:35"))",
    ])
    let dose = try #require(report.summary.dose("1", .time(DailyTime(hour: 8, minute: 0))))
    #expect(dose.snoozes == 1)
    #expect(dose.snoozedAlertsDelivered == 1)
  }

  @Test func snoozeCancelsTheRestOfTheDosesChainAndEverySnoozeIsCounted() throws {
    let report = try F.report(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"]))],
      userActions: [
        F.action(.snooze(.minutes(15)), on: "medicine_1_reminder_0", at: "08:03"),
        F.action(.snooze(.minutes(15)), on: "medicine_1_reminder_0_snoozed", at: "08:20"),
      ]))
    let removed = report.timeline.entries(.removed)
    #expect(removed.map(\.subject) == followUpIDs("1", 1...10))
    #expect(removed.allSatisfy { $0.instant == F.at("08:03") && $0[field: "reason"] == "dose snoozed" })
    // No follow-up of the day's chain fires; only the two re-alerts do.
    #expect(report.timeline.entries(.fired).map { "\($0.subject) @ \($0.localInstant)" } == [
      "medicine_1_reminder_0 @ \(F.local("08:00"))",
      "medicine_1_reminder_0_snoozed @ \(F.local("08:18"))",
      "medicine_1_reminder_0_snoozed @ \(F.local("08:35"))",
    ])
    let dose = try #require(report.summary.dose("1", .time(DailyTime(hour: 8, minute: 0))))
    #expect(dose.snoozes == 2)
    #expect(dose.snoozedAlertsDelivered == 2)
    #expect(dose.followUpsDelivered == 0)
    #expect(dose.outcome == .unanswered)
  }
}

// MARK: - Dismiss

@Suite struct DismissActionTests {
  @Test func dismissWithoutACustomDismissActionIsNotReportedAndTheChainGoesOn() throws {
    let report = try F.report(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"]))],
      userActions: [F.action(.dismiss, on: "medicine_1_reminder_0", at: "08:03")]))
    let action = try #require(report.timeline.entries(.action).first)
    #expect(action.subject == "medicine_1_reminder_0")
    #expect(action.instant == F.at("08:03"))
    #expect(action[field: "reported"] == "no")
    #expect(report.timeline.entries(.removed).isEmpty)
    #expect(report.timeline.entries(.fired).filter { $0.subject.contains("_snooze_") }.map(\.localInstant) ==
      followUpInstants(after: "08:00", 1...10))
    let dose = try #require(report.summary.dose("1", .time(DailyTime(hour: 8, minute: 0))))
    #expect(dose.outcome == .unanswered)
    #expect(dose.dismissed == nil)
    #expect(dose.followUpsDelivered == 10)
  }

  @Test func dismissWithACustomDismissActionResolvesTheDoseAsDismissedAndCancelsTheChain() throws {
    var category = ReminderCategory()
    category.customDismiss = true
    let report = try F.report(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"]))], category: category,
      userActions: [F.action(.dismiss, on: "medicine_1_reminder_0", at: "08:03")]))
    let action = try #require(report.timeline.entries(.action).first)
    #expect(action[field: "reported"] == nil)
    let removed = report.timeline.entries(.removed)
    #expect(removed.map(\.subject) == followUpIDs("1", 1...10))
    #expect(removed.allSatisfy { $0.instant == F.at("08:03") && $0[field: "reason"] == "dose dismissed" })
    #expect(report.timeline.entries(.fired).map(\.subject) == ["medicine_1_reminder_0"])
    let dose = try #require(report.summary.dose("1", .time(DailyTime(hour: 8, minute: 0))))
    #expect(dose.outcome == .dismissed)
    #expect(dose.dismissed == F.at("08:03"))
    #expect(dose.followUpsDelivered == 0)
  }
}

// MARK: - Scripted actions on notifications not shown

@Suite struct ScriptedActionInputErrorTests {
  @Test func actionOnANotificationThatWasNeverDeliveredIsAnInputErrorAtTheActionsOrigin() throws {
    let origin = InputLocation(file: "pills.yaml", line: 12, column: 7)
    let scenario = F.scenario(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"]))],
      userActions: [F.action(.complete, on: "medicine_1_reminder_0", at: "07:30", origin: origin)]))
    let error = try #require(throws: InputError.self) { try Simulation(scenario).report() }
    #expect(error.diagnostics.map(\.location) == [origin])
    #expect(error.diagnostics.first?.message.contains("medicine_1_reminder_0") == true)
    #expect(error.diagnostics.first?.message.contains("never delivered") == true)
  }

  @Test func actionOnANotificationAlreadyActedOnIsAnInputErrorAtTheSecondActionsOrigin() throws {
    let first = InputLocation(file: "pills.yaml", line: 20, column: 7)
    let second = InputLocation(file: "pills.yaml", line: 23, column: 7)
    let scenario = F.scenario(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"]))],
      userActions: [
        F.action(.complete, on: "medicine_1_reminder_0", at: "08:03", origin: first),
        F.action(.complete, on: "medicine_1_reminder_0", at: "08:05", origin: second),
      ]))
    let error = try #require(throws: InputError.self) { try Simulation(scenario).report() }
    #expect(error.diagnostics.map(\.location) == [second])
    #expect(error.diagnostics.first?.message.contains("left Notification Center") == true)
  }
}

// MARK: - Response rules

@Suite struct ResponseRuleTests {
  @Test func responseRuleAppliesItsActionsInTurnPerDoseAfterEachDelivery() throws {
    let rule = ResponseRule(
      pattern: IdentifierPattern("medicine_1_*"), after: .minutes(2),
      actions: [.snooze(.minutes(15)), .snooze(.minutes(15)), .complete])
    let report = try F.report(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"]))], responseRules: [rule]))
    let deliveriesAndActions = report.timeline.entries.filter { ($0.kind == .fired || $0.kind == .action) && $0.instant.date < F.at("12:00").date }
    #expect(deliveriesAndActions.map { "\($0.kindAndSubject) @ \($0.localInstant)" } == [
      "fired medicine_1_reminder_0 @ \(F.local("08:00"))",
      "action medicine_1_reminder_0 @ \(F.local("08:02"))",
      "fired medicine_1_reminder_0_snoozed @ \(F.local("08:17"))",
      "action medicine_1_reminder_0_snoozed @ \(F.local("08:19"))",
      "fired medicine_1_reminder_0_snoozed @ \(F.local("08:34"))",
      "action medicine_1_reminder_0_snoozed @ \(F.local("08:36"))",
    ])
    #expect(report.timeline.entries(.action).map { $0[field: "action"] } == ["snooze 15m", "snooze 15m", "complete"])
    let dose = try #require(report.summary.dose("1", .time(DailyTime(hour: 8, minute: 0))))
    #expect(dose.outcome == .completed)
    #expect(dose.completed == F.at("08:36"))
    #expect(dose.snoozes == 2)
  }
}
