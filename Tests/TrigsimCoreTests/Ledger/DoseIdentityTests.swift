import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

/// Which dose a notification belongs to when edits, time-zone changes, raw
/// requests and snoozes reuse identifiers.
@Suite struct DoseIdentityTests {
  @Test func anEditThatRemovesAnEarlierTimeKeepsTheLaterTimesDoseItsOwn() throws {
    let respond = ResponseRule(pattern: IdentifierPattern("medicine_1_*"), after: .minutes(1), actions: [.complete])
    let report = try F.report(
      MedicineApp(
        medicineChanges: [
          F.create(F.medicine(times: ["08:00", "20:00"], snooze: nil)),
          MedicineChange(instant: F.at("12:00"), kind: .edit(F.medicine(times: ["20:00"], snooze: nil))),
        ],
        responseRules: [respond]),
      end: "2026-03-29T21:00:00Z")
    let evening = try #require(report.summary.dose("1", .time(F.time("20:00"))))
    #expect(evening.outcome == .completed)
    #expect(evening.completed == F.at("20:01"))
    #expect(report.summary.dose("1", .time(F.time("08:00")))?.outcome == .completed)
    // The next day has no 08:00 dose at all: the edit removed that time, which is not a missed dose.
    #expect(report.summary.dose("1", .time(F.time("08:00")), F.nextDay) == nil)
    #expect(report.summary.dose("1", .time(F.time("20:00")), F.nextDay)?.outcome == .completed)
  }

  /// An 08:00 medicine on a phone that flies from Tokyo to New York on 28 March.
  static func tokyoToNewYork() -> Scenario {
    let clock = ClockSettings(
      start: Build.instant("2026-03-27T22:00:00Z"), end: Build.instant("2026-03-28T13:00:00Z"),
      timeZone: Build.zone("Asia/Tokyo"),
      timeZoneChanges: [TimeZoneChange(instant: Build.instant("2026-03-28T01:00:00Z"), timeZone: Build.zone("America/New_York"))])
    return Scenario(
      name: "west", clock: clock,
      medicineApp: MedicineApp(medicineChanges: [
        MedicineChange(instant: clock.start, kind: .create(F.medicine(times: ["08:00"], snooze: nil)))
      ]))
  }

  @Test func travellingWestMakesTheSameTimeComeRoundTwiceInADayAsTwoDoses() throws {
    // 08:00 on 28 March in Tokyo is 23:00Z on the 27th. The device lands in
    // New York at 01:00Z on the 28th (21:00 on the 27th there), where 08:00
    // on the 28th comes round again at 12:00Z.
    let report = try Simulation(Self.tokyoToNewYork()).report()
    // 08:00 Tokyo = 2026-03-27T23:00Z (28 March locally); 08:00 New York = 2026-03-28T12:00Z (28 March locally).
    #expect(report.timeline.entries(.fired).map(\.instant) == [Build.instant("2026-03-27T23:00:00Z"), Build.instant("2026-03-28T12:00:00Z")])
    #expect(report.summary.doses.map(\.key.occurrenceLabel) == ["2026-03-28", "2026-03-28+1"])
    #expect(report.summary.doses.map(\.outcome) == [.unanswered, .unanswered])
    #expect(report.summary.doses.map(\.notified) == [Build.instant("2026-03-27T23:00:00Z"), Build.instant("2026-03-28T12:00:00Z")])
  }

  /// A `+1` day label is explained before its first appearance: in the
  /// timeline header (before any entry that carries it) and under the dose table.
  @Test func aSecondDoseOnTheSameDayIsExplainedInTheHeaderAndUnderTheDoseTable() throws {
    let report = try Simulation(Self.tokyoToNewYork()).report()
    let legend = "2026-03-28+1: the second 08:00 dose of medicine 1 due on local day 2026-03-28 (a time-zone change west brought 08:00 round again that day)"
    #expect(report.timeline.header.filter { $0.key == "day labels" }.map(\.value) == [legend])
    #expect(report.timeline.entries(.fired).last?[field: "dose"] == "2026-03-28+1")
    let tableLines = report.summary.text.split(separator: "\n").map(String.init)
    #expect(tableLines.filter { $0.hasPrefix("# day label") } == ["# day label " + legend])
  }

  @Test func withoutASecondDoseOnADayTheHeaderHasNoDayLabels() throws {
    let scenario = Scenario(
      name: "one", clock: Build.clock("2026-03-28T07:00:00Z", "2026-03-28T09:00:00Z"),
      medicineApp: MedicineApp(medicineChanges: [F.create(F.medicine(times: ["08:00"], snooze: nil))]))
    let report = try Simulation(scenario).report()
    #expect(!report.timeline.header.contains { $0.key == "day labels" })
    #expect(!report.summary.text.contains("# day label"))
  }

  @Test func aRawRequestUnderAMedicineIdentifierIsNotTreatedAsTheMedicines() throws {
    let raw = Build.add("medicine_1_reminder_1", Build.daily(hour: 14), at: "2026-03-28T12:30:00Z", title: "Raw")
    let scenario = Scenario(
      name: "raw", clock: Build.clock("2026-03-28T07:00:00Z", "2026-03-28T23:00:00Z"), actions: [raw],
      medicineApp: MedicineApp(medicineChanges: [
        F.create(F.medicine(times: ["08:00", "14:00"], snooze: nil)),
        MedicineChange(instant: F.at("12:00"), kind: .edit(F.medicine(times: ["08:00"], snooze: nil))),
      ]))
    let report = try Simulation(scenario).report()
    let fired = report.timeline.entries(.fired).filter { $0.subject == "medicine_1_reminder_1" }
    #expect(fired.map(\.instant) == [F.at("14:00")])
    #expect(fired.first?[field: "medicine"] == nil)
    // Only the medicine's own 08:00 dose exists; the 14:00 time was edited away before it was due.
    #expect(report.summary.doses.map(\.reminder) == ["08:00", "14:00"])
    #expect(report.summary.dose("1", .time(F.time("14:00")))?.reason?.hasPrefix("removed by an edit") == true)
  }

  @Test func snoozingAnOldFollowUpWhoseIdentifierTheNextChainHoldsUsesASnoozedIdentifier() throws {
    let policy = SnoozeChainPolicy(every: .minutes(6), count: 3, scheduling: .upfront)
    let report = try F.report(
      MedicineApp(
        medicineChanges: [F.create(F.medicine(times: ["08:00"], snooze: policy))],
        appChanges: [AppChange(instant: F.at("08:30"), state: .foreground)],
        userActions: [F.action(.snooze(.minutes(15)), on: "medicine_1_snooze_2", at: "08:35")]),
      end: "2026-03-29T09:00:00Z")
    // At 08:30 the app tops up tomorrow's chain, so medicine_1_snooze_2 is pending again.
    let reAlert = report.timeline.entries(at: F.at("08:35")).filter { $0.kind == .scheduled }
    #expect(reAlert.map(\.subject) == ["medicine_1_snooze_2_snoozed"])
    #expect(report.timeline.entries(.replaced).isEmpty)
    let tomorrow = report.timeline.entries(.fired).filter { $0.instant > F.at("23:00") }.map(\.subject)
    #expect(tomorrow == ["medicine_1_reminder_0"] + followUpIDs("1", 1...3))
  }

  @Test func openingANotificationThatCompletesTheDoseAddsNoChain() throws {
    var category = ReminderCategory()
    category.openCompletes = true
    let report = try F.report(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"], snooze: F.onDelivery))],
      category: category,
      userActions: [F.action(.open, on: "medicine_1_reminder_0", at: "08:05")]))
    let atOpen = report.timeline.entries(at: F.at("08:05")).map(\.kindAndSubject)
    #expect(atOpen == ["action medicine_1_reminder_0"])
    #expect(report.summary.dose("1", .time(F.time("08:00")))?.outcome == .completed)
  }
}
