import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

@Suite struct PrescriptionScheduleTests {
  let eight = DailyTime(hour: 8, minute: 0)

  @Test func aHomeZoneTimeIsDueAtThatWallTimeInTheHomeZoneWhateverTheDeviceZone() {
    let clock = Build.clock("2026-05-04T00:00:00Z", "2026-05-06T00:00:00Z", zone: "Europe/Copenhagen",
                            changes: [TimeZoneChange(instant: Build.instant("2026-05-04T12:00:00Z"), timeZone: Build.zone("Asia/Tokyo"))])
    let schedule = PrescriptionSchedule(prescription: Prescription(basis: .zone(Build.zone("Europe/Copenhagen"))), time: DailyTime(hour: 20, minute: 0), clock: clock)
    #expect(schedule.doses(after: clock.start, through: clock.end).map(\.due) == [Build.instant("2026-05-04T18:00:00Z"), Build.instant("2026-05-05T18:00:00Z")])
  }

  @Test func aLocalTimeJumpedOverByAFlightEastIsDueAtTheChange() {
    let change = Build.instant("2026-05-04T12:00:00Z")  // 14:00 in Copenhagen, 21:00 in Tokyo
    let clock = Build.clock("2026-05-04T00:00:00Z", "2026-05-05T23:00:00Z", zone: "Europe/Copenhagen",
                            changes: [TimeZoneChange(instant: change, timeZone: Build.zone("Asia/Tokyo"))])
    let doses = PrescriptionSchedule(prescription: .standard, time: DailyTime(hour: 20, minute: 0), clock: clock)
      .doses(after: clock.start, through: clock.end)
    #expect(doses.map(\.due) == [change, Build.instant("2026-05-05T11:00:00Z")])
    #expect(doses[0].day == 20577)  // 2026-05-04
    #expect(doses[0].remark?.contains("moved the clock past 20:00") == true)
  }

  @Test func aFlightWestGivesTheSameLocalDateTwoDosesNumberedApart() {
    let change = Build.instant("2026-06-01T08:30:00Z")  // 10:30 in Copenhagen, 04:30 in New York
    let clock = Build.clock("2026-06-01T00:00:00Z", "2026-06-01T23:00:00Z", zone: "Europe/Copenhagen",
                            changes: [TimeZoneChange(instant: change, timeZone: Build.zone("America/New_York"))])
    let doses = PrescriptionSchedule(prescription: .standard, time: eight, clock: clock).doses(after: clock.start, through: clock.end)
    #expect(doses.map(\.due) == [Build.instant("2026-06-01T06:00:00Z"), Build.instant("2026-06-01T12:00:00Z")])
    #expect(doses.map(\.repeatOnDay) == [0, 1])
  }

  @Test func aTimeInTheSpringForwardGapIsDueAsFarPastTheGapAsItWasIntoIt() {
    let clock = Build.clock("2026-03-28T12:00:00Z", "2026-03-29T12:00:00Z", zone: "Europe/Copenhagen")
    let doses = PrescriptionSchedule(prescription: .standard, time: DailyTime(hour: 2, minute: 30), clock: clock)
      .doses(after: clock.start, through: clock.end)
    #expect(doses.map(\.due) == [Build.instant("2026-03-29T01:30:00Z")])  // 03:30 CEST
    #expect(doses[0].remark?.contains("does not exist") == true)
  }

  @Test func everyIntervalCountsElapsedTimeFromTheFirstDose() {
    let clock = Build.clock("2026-03-28T00:00:00Z", "2026-03-31T00:00:00Z", zone: "Europe/Copenhagen")
    let doses = PrescriptionSchedule(prescription: Prescription(basis: .every(.seconds(86_400))), time: eight, clock: clock)
      .doses(after: clock.start, through: clock.end)
    // 08:00 CET on the 28th is 07:00Z; 24 h later is 09:00 CEST on the 29th: the interval ignores DST.
    #expect(doses.map(\.due) == [Build.instant("2026-03-28T07:00:00Z"), Build.instant("2026-03-29T07:00:00Z"), Build.instant("2026-03-30T07:00:00Z")])
  }

  @Test func theWindowAcceptsFiresFromBeforeToAfterTheDueInstant() {
    let prescription = Prescription(before: .minutes(30), after: .minutes(60))
    let due = Build.instant("2026-03-28T08:00:00Z")
    #expect(prescription.accepts(Build.instant("2026-03-28T07:30:00Z"), due: due))
    #expect(!prescription.accepts(Build.instant("2026-03-28T07:29:59Z"), due: due))
    #expect(prescription.accepts(Build.instant("2026-03-28T09:00:00Z"), due: due))
    #expect(!prescription.accepts(Build.instant("2026-03-28T09:00:01Z"), due: due))
  }
}

@Suite struct PrescriptionLedgerTests {
  @Test func aFlightEastLeavesTheHomeZoneDoseMissedForTheZoneChangeWithAWarningAtTheChange() throws {
    var medicine = F.medicine(times: ["20:00"], snooze: nil)
    medicine.prescription = Prescription(basis: .zone(Build.zone("Europe/Copenhagen")))
    let change = Build.instant("2026-05-04T12:00:00Z")
    let scenario = Scenario(
      name: "flight", clock: Build.clock("2026-05-04T10:00:00Z", "2026-05-05T19:00:00Z", zone: "Europe/Copenhagen",
                                         changes: [TimeZoneChange(instant: change, timeZone: Build.zone("Asia/Tokyo"))]),
      platform: .idealLocation, medicineApp: MedicineApp(medicineChanges: [MedicineChange(instant: Build.instant("2026-05-04T10:00:00Z"), kind: .create(medicine))]))
    let report = try Simulation(scenario).report()
    #expect(report.timeline.entries(at: change).map(\.kindAndSubject) == ["timezone Asia/Tokyo", "rescheduled medicine_1_reminder_0", "warning medicine_1_reminder_0"])
    let first = try #require(report.summary.doses.first)
    #expect(first.scheduled == Build.instant("2026-05-04T18:00:00Z"))
    #expect(first.outcome == .missed)
    #expect(first.reason?.hasPrefix("time-zone change at 2026-05-04T21:00:00.000+09:00 (Europe/Copenhagen → Asia/Tokyo): the floating 20:00 reminder next fires 2026-05-05T20:00:00.000+09:00") == true)
    // The reminder at 20:00 Tokyo (11:00Z) answers no dose of 20:00 Copenhagen.
    #expect(report.timeline.entries(.warning).contains { $0.instant == Build.instant("2026-05-05T11:00:00Z") && $0[field: "reason"]?.contains("answers no dose") == true })
    #expect(report.summary.doses.map(\.outcome) == [.missed, .missed])
  }

  @Test func underTheStrictDSTRuleTheSpringForwardDoseIsMissedForDST() throws {
    var platform = PlatformSettings.idealLocation
    platform.dstGapPolicy = .strict
    let medicine = F.medicine(times: ["02:30"], snooze: nil)
    let scenario = Scenario(
      name: "dst", clock: Build.clock("2026-03-28T12:00:00Z", "2026-03-29T12:00:00Z", zone: "Europe/Copenhagen"), platform: platform,
      medicineApp: MedicineApp(medicineChanges: [MedicineChange(instant: Build.instant("2026-03-28T12:00:00Z"), kind: .create(medicine))]))
    let report = try Simulation(scenario).report()
    let dose = try #require(report.summary.doses.first)
    #expect(dose.scheduled == Build.instant("2026-03-29T01:30:00Z"))
    #expect(dose.outcome == .missed)
    #expect(dose.reason?.hasPrefix("DST change in Europe/Copenhagen: under the platform's rule (dst-gap=strict") == true)
  }

  @Test func underTheDefaultDSTRuleTheSpringForwardReminderAnswersThePrescribedDose() throws {
    let medicine = F.medicine(times: ["02:30"], snooze: nil)
    let scenario = Scenario(
      name: "dst", clock: Build.clock("2026-03-28T12:00:00Z", "2026-03-29T12:00:00Z", zone: "Europe/Copenhagen"), platform: .idealLocation,
      medicineApp: MedicineApp(medicineChanges: [MedicineChange(instant: Build.instant("2026-03-28T12:00:00Z"), kind: .create(medicine))]))
    let dose = try #require(try Simulation(scenario).report().summary.doses.first)
    #expect(dose.outcome == .unanswered)
    #expect(dose.notified == Build.instant("2026-03-29T01:30:00Z"))
  }
}
