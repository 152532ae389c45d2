import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// The text dose table for reading: local times with lateness, bounded
/// columns, collapsed remarks, bounded drop lines; the full text stays in JSON.
@Suite struct RunSummaryRenderingTests {
  static let zone = "Europe/Copenhagen"

  static func summary(_ doses: [DoseRecord]) -> RunSummary {
    var summary = RunSummary()
    summary.clock = Build.clock("2026-05-04T21:00:00+02:00", "2026-05-07T09:00:00+02:00", zone: zone)
    summary.doses = doses
    return summary
  }

  /// Levothyroxine's 07:00 dose on 2026-05-05.
  static func dose(name: String = "Levothyroxine", slot: DoseSlot = .time(DailyTime(hour: 7, minute: 0)), occurrence: Int64 = 20578) -> DoseRecord {
    DoseRecord(
      key: DoseKey(medicine: "levo", slot: slot, occurrence: occurrence), medicineName: name, reminder: "07:00",
      scheduled: Build.instant("2026-05-05T07:00:00+02:00"))
  }

  @Test func repeatedRemarksThatDifferOnlyInTheirInstantCollapseIntoOneWithCountAndSpan() {
    var dose = Self.dose()
    dose.notes = ["chain added"] + ["00", "06", "12", "18", "24"].map { "held by Focus 'Sleep' at 2026-05-05T07:\($0):00.000+02:00" }
      + ["removed at 2026-05-05T07:30:00.000+02:00 by the app"]
    let summary = Self.summary([dose])
    #expect(summary.displayRemarks(dose) == "chain added; held by Focus 'Sleep' 5× 07:00–07:24; removed at 07:30 by the app")
    // JSON keeps every remark in full.
    #expect(summary.json.contains("\"held by Focus 'Sleep' at 2026-05-05T07:24:00.000+02:00\""))
  }

  @Test func anInstantOnAnotherDayKeepsItsDateAndOneOnTheDoseDayDoesNot() {
    var dose = Self.dose()
    dose.reason = "dropped at 2026-05-04T22:00:00.000+02:00: pending limit of 64 reached"
    dose.notes = ["held by Focus 'Sleep' at 2026-05-05T07:00:05.250+02:00"]
    #expect(Self.summary([dose]).displayRemarks(dose) == "dropped at 2026-05-04 22:00: pending limit of 64 reached; held by Focus 'Sleep' at 07:00:05.250")
  }

  @Test func theTableShowsLocalTimesWithLatenessAndTheDateOnlyOffTheDoseDay() {
    var late = Self.dose()
    late.notified = Build.instant("2026-05-05T07:30:00+02:00")
    late.completed = Build.instant("2026-05-06T00:10:00+02:00")
    var location = Self.dose(slot: .location, occurrence: 1)
    location.notified = location.scheduled
    let summary = Self.summary([late, location])
    let cells = summary.doseCells(late)
    #expect(Array(cells[5...9]) == ["07:00", "07:30 +30m", "0", "0", "2026-05-06 00:10"])
    // A location dose's day is its crossing number, so its instants carry their date; on time, no lateness.
    #expect(Array(summary.doseCells(location)[5...6]) == ["2026-05-05 07:00", "2026-05-05 07:00"])
  }

  @Test func longNamesAreBoundedInTextWithANoteAndRemarksAreWrittenWhole() {
    var dose = Self.dose(name: "Levothyroxine sodium tablets (Euthyrox)")
    let reason = String(repeating: "the pending limit dropped it ", count: 6).trimmingCharacters(in: .whitespaces)
    dose.reason = reason
    let summary = Self.summary([dose])
    let row = summary.text.split(separator: "\n").first { $0.hasPrefix("levo ") }.map(String.init) ?? ""
    #expect(row.contains("Levothyroxine sodium ta… "))
    // The remarks, longer than any terminal's line, end the dose's own line in full.
    #expect(row.hasSuffix("  " + reason))
    #expect(summary.text.hasSuffix("# names over 24 characters end in '…'; in full: --format json, or the .doses baseline\n"))
    #expect(summary.json.contains(String(repeating: "the pending limit dropped it ", count: 6).trimmingCharacters(in: .whitespaces)))
    // A table with nothing shortened has no note.
    #expect(!Self.summary([Self.dose()]).text.contains("end in '…'"))
  }

  /// A patient flies from Copenhagen to New York at 13:30 Copenhagen time.
  static func travelSummary(_ doses: [DoseRecord]) -> RunSummary {
    var summary = RunSummary()
    summary.clock = Build.clock(
      "2026-05-05T05:00:00+02:00", "2026-05-05T16:00:00-04:00", zone: zone,
      changes: [TimeZoneChange(instant: Build.instant("2026-05-05T13:30:00+02:00"), timeZone: TimeZone(identifier: "America/New_York")!)])
    summary.doses = doses
    return summary
  }

  /// Levothyroxine's 13:00 dose on 2026-05-05, labelled in Copenhagen (where the patient was at 13:00).
  static func travelDose() -> DoseRecord {
    DoseRecord(
      key: DoseKey(medicine: "2", slot: .time(DailyTime(hour: 13, minute: 0)), occurrence: 20578), medicineName: "Levothyroxine",
      reminder: "13:00", scheduled: Build.instant("2026-05-05T13:00:00+02:00"))
  }

  @Test func aTimeReadInAnotherZoneThanTheDosesLabelCarriesItsOffset() {
    var dose = Self.travelDose()
    // 13:45 in Copenhagen is 07:45 in New York, where the phone now is.
    dose.notified = Build.instant("2026-05-05T13:45:00+02:00")
    dose.completed = Build.instant("2026-05-05T13:50:00+02:00")
    let cells = Self.travelSummary([dose]).doseCells(dose)
    #expect(Array(cells[5...9]) == ["13:00", "07:45-04:00 +45m", "0", "0", "07:50-04:00"])
  }

  @Test func aRemarksInstantKeepsTheOffsetItWasWrittenWithWhenTheDoseIsLabelledInAnotherZone() {
    var dose = Self.travelDose()
    dose.notes = ["the medicine was created at 2026-05-05T06:00:00.000+02:00", "seen at the patient's look at 2026-05-05T07:50:00.000-04:00"]
    #expect(
      Self.travelSummary([dose]).displayRemarks(dose)
        == "the medicine was created at 06:00; seen at the patient's look at 07:50-04:00")
  }

  @Test func aDosePrescribedInAFixedZoneShowsTheDevicesTimesWithTheirOffset() {
    var dose = Self.travelDose()
    // Prescribed at 13:00 New York time (-04:00): the phone in Copenhagen shows 19:00+02:00.
    dose.scheduled = Build.instant("2026-05-05T13:00:00-04:00")
    dose.fixedLabelOffsetSeconds = -4 * 3600
    var summary = RunSummary()
    summary.clock = Build.clock("2026-05-05T05:00:00+02:00", "2026-05-06T05:00:00+02:00", zone: Self.zone)
    summary.doses = [dose]
    #expect(summary.doseCells(dose)[5] == "19:00+02:00")
  }

  @Test func dropLinesAreBoundedAndEveryDropIsListedOnRequest() {
    var summary = Self.summary([])
    for hour in 0..<9 {
      let at = Build.instant("2026-05-05T1\(hour):00:00+02:00")
      var group = PendingLimitDropGroup(at: at)
      group.add(kind: "follow-up", medicine: "levo")
      group.add(kind: "follow-up", medicine: "levo")
      summary.pendingLimitDropGroups.append(group)
      summary.droppedByPendingLimit += [(NotificationID("medicine_levo_snooze_\(2 * hour + 1)"), at), (NotificationID("medicine_levo_snooze_\(2 * hour + 2)"), at)]
    }
    let lines = summary.text.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.hasPrefix("#   ") } == [
      "#   2026-05-05T10:00:00.000+02:00 2: 2 follow-ups of medicine levo",
      "#   2026-05-05T11:00:00.000+02:00 2: 2 follow-ups of medicine levo",
      "#   2026-05-05T12:00:00.000+02:00 2: 2 follow-ups of medicine levo",
      "#   2026-05-05T13:00:00.000+02:00 2: 2 follow-ups of medicine levo",
      "#   2026-05-05T14:00:00.000+02:00 2: 2 follow-ups of medicine levo",
      "#   2026-05-05T15:00:00.000+02:00 2: 2 follow-ups of medicine levo",
      "#   … 6 more at 3 later instants, until 2026-05-05T18:00:00.000+02:00",
    ])
    let every = summary.text(listingEveryDrop: true).split(separator: "\n").filter { $0.hasPrefix("#   2026") }
    #expect(every.count == 6 + 18)
    #expect(every.last == "#   2026-05-05T18:00:00.000+02:00 medicine_levo_snooze_18")
  }

  @Test func moreThanFourMedicinesAreCountedNotNamed() {
    var group = PendingLimitDropGroup(at: Build.instant("2026-05-05T06:00:00+02:00"))
    for medicine in 1...9 { group.add(kind: "daily reminder", medicine: MedicineID(String(medicine))) }
    #expect(group.description == "9: 9 daily reminders of 9 medicines")
    var four = PendingLimitDropGroup(at: Build.instant("2026-05-05T06:00:00+02:00"))
    for medicine in 1...4 { four.add(kind: "follow-up", medicine: MedicineID(String(medicine))) }
    #expect(four.description == "4: 4 follow-ups of medicines 1, 2, 3, 4")
  }
}
