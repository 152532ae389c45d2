import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

private func app(_ medicines: [Medicine], policy: AppPolicy = AppPolicy(), rules: [ResponseRule] = [], changes: [AppChange] = []) -> MedicineApp {
  var app = MedicineApp(medicineChanges: medicines.map { F.create($0) }, appChanges: changes, responseRules: rules)
  app.policy = policy
  return app
}

private let threeFollowUps = SnoozeChainPolicy(every: .minutes(6), count: 3, scheduling: .upfront)

@Suite struct IdentifierTemplateTests {
  @Test func aTemplateRendersItsPlaceholdersAndReadsThemBack() throws {
    let template = try IdentifierTemplate.parse("med_{medicine}_t{reminder}_f{followup}").get()
    let id = template.render(IdentifierValues(medicine: "A7", reminder: 2, followUp: 9))
    #expect(id.rawValue == "med_A7_t2_f9")
    #expect(template.match("med_A7_t2_f9") == IdentifierValues(medicine: "A7", reminder: 2, followUp: 9))
    #expect(template.match("med_A7_t2_fx") == nil)
    #expect(template.match("med_A7_t2_f9_snoozed") == nil)
  }

  @Test func invalidTemplatesSayWhatIsWrong() {
    #expect(IdentifierTemplate.parse("medicine_{medicin}_x") == .failure(.unknownPlaceholder("medicin")))
    #expect(IdentifierTemplate.parse("medicine_{medicine") == .failure(.unbalanced))
    #expect(IdentifierTemplate.parse("{medicine}{reminder}") == .failure(.adjacentPlaceholders))
    #expect(IdentifierTemplate.parse("reminder_{reminder}") == .failure(.noMedicine))
  }
}

@Suite struct AddOrderTests {
  static let medicines = [
    F.medicine("1", times: ["08:00", "14:00"], snooze: threeFollowUps),
    F.medicine("2", name: "Aspirin", times: ["09:00"], snooze: threeFollowUps),
  ]

  func scheduledOrder(_ order: AddOrder) throws -> [String] {
    var policy = AppPolicy()
    policy.addOrder = order
    let report = try F.report(app(Self.medicines, policy: policy), end: "2026-03-28T07:30:00Z")
    return report.timeline.entries(.scheduled).map(\.subject)
  }

  @Test func interleavedAddsEachReminderWithItsChainMedicineByMedicine() throws {
    #expect(try scheduledOrder(.interleaved) ==
      ["medicine_1_reminder_0"] + followUpIDs("1", 1...3) + ["medicine_1_reminder_1"] + followUpIDs("1", 4...6)
      + ["medicine_2_reminder_0"] + followUpIDs("2", 1...3))
  }

  @Test func perMedicineAddsAMedicinesRemindersThenItsChains() throws {
    #expect(try scheduledOrder(.perMedicine) ==
      ["medicine_1_reminder_0", "medicine_1_reminder_1"] + followUpIDs("1", 1...6) + ["medicine_2_reminder_0"] + followUpIDs("2", 1...3))
  }

  @Test func remindersFirstAddsEveryReminderOfTheBatchBeforeAnyFollowUp() throws {
    #expect(try scheduledOrder(.remindersFirst) ==
      ["medicine_1_reminder_0", "medicine_1_reminder_1", "medicine_2_reminder_0"] + followUpIDs("1", 1...6) + followUpIDs("2", 1...3))
  }

  @Test func chainsFirstAddsEveryFollowUpBeforeAnyReminder() throws {
    #expect(try scheduledOrder(.chainsFirst) ==
      followUpIDs("1", 1...6) + followUpIDs("2", 1...3) + ["medicine_1_reminder_0", "medicine_1_reminder_1", "medicine_2_reminder_0"])
  }

  @Test func remindersFirstOverTheLimitLosesTheRemindersAndTheirDosesAreMissedForTheDrop() throws {
    var policy = AppPolicy()
    policy.addOrder = .remindersFirst
    var platform = PlatformSettings.idealLocation
    platform.pendingLimit = 8
    let report = try F.report(app(Self.medicines, policy: policy), end: "2026-03-29T12:00:00Z", platform: platform)
    #expect(report.summary.droppedByPendingLimit.map(\.id.rawValue) == ["medicine_1_reminder_0", "medicine_1_reminder_1", "medicine_2_reminder_0", "medicine_1_snooze_1"])
    let dose = try #require(report.summary.dose("1", .time(F.time("08:00")), F.nextDay))
    #expect(dose.outcome == .missed)
    #expect(dose.reason?.hasPrefix("dropped at 2026-03-28T07:00:00.000+00:00: pending limit of 8 reached") == true)
  }
}

@Suite struct FollowUpIdentifierTests {
  @Test func followUpNumbersSharedByAMedicinesChainsReplaceTheEarlierChainAndTheDoseSaysSo() throws {
    var policy = AppPolicy()
    policy.identifiers.followUp = try IdentifierTemplate.parse("medicine_{medicine}_snooze_{followup}").get()
    let report = try F.report(app([F.medicine(times: ["08:00", "14:00"], snooze: threeFollowUps)], policy: policy))
    #expect(report.timeline.entries(.replaced).map(\.subject) == followUpIDs("1", 1...3))
    let morning = try #require(report.summary.dose("1", .time(F.time("08:00"))))
    #expect(morning.followUpsDelivered == 0)
    #expect(morning.notes.first == "rest of the chain replaced at \(F.local("07:00")) by the chain of the 14:00 dose of 2026-03-28 (same identifiers)")
    #expect(try #require(report.summary.dose("1", .time(F.time("14:00")))).followUpsDelivered == 3)
  }

  @Test func aDoseTemplateNamesEachDaysChainApart() throws {
    var policy = AppPolicy()
    policy.identifiers.followUp = try IdentifierTemplate.parse("m{medicine}_d{dose}_f{followup}").get()
    let report = try F.report(app([F.medicine(times: ["08:00"], snooze: threeFollowUps)], policy: policy), end: "2026-03-28T07:30:00Z")
    #expect(report.timeline.entries(.scheduled).map(\.subject) == ["medicine_1_reminder_0", "m1_d20260328_f1", "m1_d20260328_f2", "m1_d20260328_f3"])
  }
}

@Suite struct SnoozeImplementationTests {
  func snoozeAt(_ time: String, _ implementation: SnoozeImplementation, end: String = "2026-03-29T12:00:00Z") throws -> SimulationReport {
    var policy = AppPolicy()
    policy.snooze = implementation
    var medicineApp = app([F.medicine(times: ["08:00"], snooze: nil)], policy: policy)
    medicineApp.userActions = [F.action(.snooze(.minutes(15)), on: "medicine_1_reminder_0", at: time)]
    return try F.report(medicineApp, end: end)
  }

  @Test func theDefaultSnoozeOfADailyReminderUsesTheSnoozedSuffixAndKeepsTheRepeatingRequest() throws {
    let report = try snoozeAt("08:02", SnoozeImplementation())
    #expect(report.timeline.entries(at: F.at("08:02")).map(\.kindAndSubject) == ["action medicine_1_reminder_0", "scheduled medicine_1_reminder_0_snoozed"])
    #expect(try #require(report.summary.dose("1", .time(F.time("08:00")), F.nextDay)).outcome == .unanswered)
  }

  @Test func reusingTheActedOnIdentifierReplacesTheDailyReminderAndLaterDosesAreMissedAsReplaced() throws {
    let report = try snoozeAt("08:02", SnoozeImplementation(identifier: .same))
    #expect(report.timeline.entries(at: F.at("08:02")).map(\.kindAndSubject) ==
      ["action medicine_1_reminder_0", "replaced medicine_1_reminder_0", "scheduled medicine_1_reminder_0"])
    let tomorrow = try #require(report.summary.dose("1", .time(F.time("08:00")), F.nextDay))
    #expect(tomorrow.outcome == .missed)
    #expect(tomorrow.reason == "the daily reminder medicine_1_reminder_0 was replaced at \(F.local("08:02")) by the snoozed alert the app added under the same identifier")
  }

  @Test func aCalendarSnoozeFromTheDueTimeFiresAtDuePlusTheDuration() throws {
    let report = try snoozeAt("08:02", SnoozeImplementation(trigger: .calendarFromDue))
    let added = try #require(report.timeline.entries(at: F.at("08:02")).first { $0.kind == .scheduled })
    #expect(added[field: "next"] == F.local("08:15"))
    #expect(report.timeline.entries(.fired).contains { $0.subject == "medicine_1_reminder_0_snoozed" && $0.instant == F.at("08:15") })
  }

  @Test func aLateCalendarSnoozeWithTheGuardAddsNothingAndSaysWhy() throws {
    let report = try snoozeAt("08:20", SnoozeImplementation(trigger: .calendarFromDue, onlyIfFuture: true))
    #expect(report.timeline.entries(at: F.at("08:20")).map(\.kindAndSubject) == ["action medicine_1_reminder_0", "warning medicine_1_reminder_0_snoozed"])
    let dose = try #require(report.summary.dose("1", .time(F.time("08:00"))))
    #expect(dose.notes.contains("snooze at \(F.local("08:20")) added no alert: \(F.local("08:00")) + 15m had passed"))
  }

  @Test func aLateCalendarSnoozeWithoutTheGuardAddsARequestThatNeverDelivers() throws {
    let report = try snoozeAt("08:20", SnoozeImplementation(trigger: .calendarFromDue, onlyIfFuture: false))
    let warning = try #require(report.timeline.entries(at: F.at("08:20")).first { $0.kind == .warning })
    #expect(warning[field: "reason"]?.hasPrefix("never delivers") == true)
    #expect(!report.timeline.entries(.fired).contains { $0.subject.hasSuffix("_snoozed") })
  }

  @Test func aSnoozeTemplateNamesTheAlert() throws {
    let template = try IdentifierTemplate.parse("medicine_{medicine}_later_{reminder}").get()
    let report = try snoozeAt("08:02", SnoozeImplementation(identifier: .template(template)))
    #expect(report.timeline.entries(at: F.at("08:02")).map(\.kindAndSubject).last == "scheduled medicine_1_later_0")
  }
}

@Suite struct ChainReAddTests {
  /// Two medicines at 08:00 with 3 follow-ups; only medicine 1 is completed at 08:01.
  func run(_ reAdds: ChainReAdds, changes: [AppChange] = [], pushes: RemotePushes = RemotePushes()) throws -> SimulationReport {
    var policy = AppPolicy()
    policy.chainReAdds = reAdds
    let medicines = [F.medicine("1", times: ["08:00"], snooze: threeFollowUps), F.medicine("2", name: "Aspirin", times: ["08:00"], snooze: threeFollowUps)]
    var medicineApp = app(medicines, policy: policy, changes: changes)
    medicineApp.userActions = [F.action(.complete, on: "medicine_1_reminder_0", at: "08:01")]
    var scenario = F.scenario(medicineApp, end: "2026-03-29T09:00:00Z")
    scenario.pushes = pushes
    return try Simulation(scenario).report()
  }

  func tomorrowsFollowUps(_ report: SimulationReport, _ medicine: MedicineID) throws -> Int {
    try #require(report.summary.dose(medicine, .time(F.time("08:00")), F.nextDay)).followUpsDelivered
  }

  @Test func byDefaultAnActionHandlerReAddsOnlyTheMedicineActedOnAndTheOtherDoseSaysWhy() throws {
    let report = try run(ChainReAdds())
    #expect(try tomorrowsFollowUps(report, "1") == 3)
    #expect(try tomorrowsFollowUps(report, "2") == 0)
    let aspirin = try #require(report.summary.dose("2", .time(F.time("08:00")), F.nextDay))
    #expect(aspirin.notes.last == "no follow-ups: the last app code before this dose, an action handler at \(F.local("08:01")), re-added only medicine 1's chains")
  }

  @Test func anActionHandlerThatReAddsEveryMedicineGivesBothTheirChains() throws {
    var reAdds = ChainReAdds()
    reAdds.action = .all
    let report = try run(reAdds)
    // Medicine 2's chain for today is still pending at 08:01, so the top-up waits; the completion at 08:01 is medicine 1's.
    #expect(try tomorrowsFollowUps(report, "1") == 3)
    #expect(try tomorrowsFollowUps(report, "2") == 0)
  }

  @Test func aBackgroundRefreshReAddsEveryChainWhenThePolicySaysSo() throws {
    var reAdds = ChainReAdds()
    reAdds.backgroundRefresh = .all
    var refresh = AppChange(instant: F.at("12:00"))
    refresh.backgroundRefresh = true
    let report = try run(reAdds, changes: [refresh])
    #expect(report.timeline.entries(at: F.at("12:00")).map(\.kindAndSubject) == ["app background-refresh"] + followUpIDs("2", 1...3).map { "scheduled \($0)" })
    #expect(try tomorrowsFollowUps(report, "2") == 3)
    let none = try run(ChainReAdds(), changes: [refresh])
    #expect(none.timeline.entries(at: F.at("12:00")).map(\.kindAndSubject) == ["app background-refresh"])
  }

  @Test func aSilentPushReAddsChainsOnlyWhenThePolicySaysSo() throws {
    var pushes = RemotePushes()
    pushes.pushes = [RemotePush(id: "sync", instant: F.at("12:00"), contentAvailable: true, priority: 5)]
    var reAdds = ChainReAdds()
    reAdds.silentPush = .all
    #expect(try tomorrowsFollowUps(try run(reAdds, pushes: pushes), "2") == 3)
    #expect(try tomorrowsFollowUps(try run(ChainReAdds(), pushes: pushes), "2") == 0)
  }
}

@Suite struct HandlerCompletionTests {
  @Test func aHandlerCutShortInTheBackgroundCancelsTheChainButAddsNoSnoozedAlert() throws {
    var policy = AppPolicy()
    policy.handler = .cutShort
    var medicineApp = app([F.medicine(times: ["08:00"], snooze: threeFollowUps)], policy: policy)
    medicineApp.userActions = [F.action(.snooze(.minutes(15)), on: "medicine_1_reminder_0", at: "08:02")]
    let report = try F.report(medicineApp)
    #expect(report.timeline.entries(at: F.at("08:02")).map(\.kindAndSubject) ==
      ["action medicine_1_reminder_0"] + followUpIDs("1", 1...3).map { "removed \($0)" } + ["warning medicine_1_reminder_0"])
    let dose = try #require(report.summary.dose("1", .time(F.time("08:00"))))
    #expect(dose.outcome == .unanswered)
    #expect(dose.notes == ["the snoozed alert lost at \(F.local("08:02")): the action handler was cut short"])
  }

  @Test func inTheForegroundTheHandlerCompletesEvenUnderCutShort() throws {
    var policy = AppPolicy()
    policy.handler = .cutShort
    var medicineApp = app([F.medicine(times: ["08:00"], snooze: threeFollowUps)], policy: policy,
                          changes: [AppChange(instant: F.at("07:30"), state: .foreground)])
    medicineApp.userActions = [F.action(.snooze(.minutes(15)), on: "medicine_1_reminder_0", at: "08:02")]
    let report = try F.report(medicineApp)
    #expect(report.timeline.entries(at: F.at("08:02")).map(\.kindAndSubject).contains("scheduled medicine_1_reminder_0_snoozed"))
  }
}

@Suite struct RawRequestTests {
  @Test func aRawRequestUnderAMedicinesReminderIdentifierCountsForItsDose() throws {
    var medicineApp = app([F.medicine(times: ["08:00"], snooze: nil)])
    medicineApp.medicineChanges = [F.create(F.medicine(times: ["08:00"], snooze: nil), at: "07:00")]
    var scenario = F.scenario(medicineApp)
    // The app's reminder is removed by raw code at 07:10 and re-added by raw code for 08:30.
    scenario.actions = [
      Build.remove("medicine_1_reminder_0", at: "2026-03-28T07:10:00Z"),
      Build.add("medicine_1_reminder_0", Build.daily(hour: 8, minute: 30), at: "2026-03-28T07:11:00Z"),
    ]
    let report = try Simulation(scenario).report()
    let dose = try #require(report.summary.dose("1", .time(F.time("08:00"))))
    #expect(dose.notified == F.at("08:30"))
    #expect(dose.outcome == .unanswered)
  }
}

@Suite struct RuleStepAccountingTests {
  @Test func aRuleStepThatNoNotificationReachesIsAWarningAndADoseRemark() throws {
    let rule = ResponseRule(pattern: IdentifierPattern("medicine_1_reminder_*"), after: .minutes(1), actions: [.open, .complete])
    let report = try F.report(app([F.medicine(times: ["08:00"], snooze: threeFollowUps)], rules: [rule]), end: "2026-03-28T10:00:00Z")
    let warning = try #require(report.timeline.entries(.warning).last)
    #expect(warning.subject == "medicine_1_reminder_*")
    #expect(warning[field: "reason"] == "response rule step 2/2 ('complete') never used: no dose had a matching notification delivered after step 1")
    let dose = try #require(report.summary.dose("1", .time(F.time("08:00"))))
    #expect(dose.notes.contains("rule step unused: 'complete' (step 2/2 of rule medicine_1_reminder_*) never applied: no matching notification was delivered after step 1"))
  }

  @Test func aRuleWhoseStepsAreAllUsedWarnsNothing() throws {
    let rule = ResponseRule(pattern: IdentifierPattern("medicine_1_*"), after: .minutes(1), actions: [.open, .complete])
    let report = try F.report(app([F.medicine(times: ["08:00"], snooze: threeFollowUps)], rules: [rule]), end: "2026-03-28T10:00:00Z")
    #expect(report.timeline.entries(.warning).isEmpty)
    #expect(try #require(report.summary.dose("1", .time(F.time("08:00")))).outcome == .completed)
  }
}
