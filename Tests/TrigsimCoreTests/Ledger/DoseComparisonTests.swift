import Foundation
import Testing
import TrigsimCore

/// `DoseComparison` on dose tables built by hand: pairing (same dose, moved,
/// gone, new), the order of a change's phrases, tolerance and the header.
@Suite struct DoseComparisonTests {
  /// `2026-05-05T07:30:00.000+02:00` at `hh:mm[:ss]` on 2026-05-05 (Copenhagen summer time).
  static func at(_ time: String, day: Int = 5) -> ZonedInstant {
    let parts = time.split(separator: ":").map { Int64($0)! }
    let seconds = parts[0] * 3600 + parts[1] * 60 + (parts.count > 2 ? parts[2] : 0)
    // 2026-05-05T00:00:00+02:00 is 2026-05-04T22:00:00Z.
    let midnight: Int64 = 1_777_932_000_000 + Int64(day - 5) * 86_400_000
    return ZonedInstant(SimulationInstant(millisecondsSinceEpoch: midnight + seconds * 1000), utcOffsetSeconds: 7200)
  }

  /// A dose due at `time`, alerted at once with a sound by its reminder and completed 3 minutes later.
  static func dose(_ medicine: MedicineID, _ time: String, day: Int = 5) -> DoseBaseline.Dose {
    var dose = DoseBaseline.Dose(medicine: medicine, reminder: time, occurrence: "2026-05-0\(day)", outcome: .completed, scheduled: at(time, day: day))
    dose.perceived = at(time, day: day)
    dose.kind = "alert"
    dose.how = "banner+lock-screen+sound"
    dose.by = "medicine_\(medicine.rawValue)_reminder_0"
    dose.role = "daily reminder"
    dose.reminderDelivered = at(time, day: day)
    dose.completed = ZonedInstant(at(time, day: day).instant.advanced(by: .seconds(180)), utcOffsetSeconds: 7200)
    return dose
  }

  /// The same dose held by a Sleep Focus until 07:30, then on the lock screen without a sound.
  static func heldUntil0730(_ medicine: MedicineID, day: Int = 5) -> DoseBaseline.Dose {
    var dose = dose(medicine, "07:00", day: day)
    dose.perceived = at("07:30", day: day)
    dose.kind = "after-focus"
    dose.how = "lock-screen"
    dose.completed = at("07:33", day: day)
    dose.notes = ["held by Focus 'Sleep' at 2026-05-0\(day)T07:00:00.000+02:00"]
    return dose
  }

  static func table(_ doses: [DoseBaseline.Dose], peak: Int = 2) -> DoseBaseline {
    var table = DoseBaseline()
    table.pendingPeak = peak
    table.pendingPeakAt = at("07:00")
    table.doses = doses
    return table
  }

  @Test func theSameTableMatches() {
    let table = Self.table([Self.heldUntil0730("levo"), Self.dose("met", "07:00")])
    let comparison = DoseComparison(expected: table, actual: table)
    #expect(comparison.matches)
    #expect(comparison.changes.isEmpty)
    #expect(comparison.report(expectedName: "x.doses") == "")
  }

  @Test func aReminderMovedToAnotherTimeIsOneMovedDoseWithItsPerceptionFirst() {
    let expected = Self.table([Self.heldUntil0730("levo"), Self.dose("met", "07:00")])
    let actual = Self.table([Self.dose("levo", "08:00"), Self.dose("met", "07:00")])
    let comparison = DoseComparison(expected: expected, actual: actual)
    #expect(comparison.summaryLine == "1 of 2 doses changed (1 better for the patient)")
    #expect(comparison.changes.map(\.description) == [
      "levo 2026-05-05 07:00 → 08:00 (better for the patient): notified 07:30 lock screen → 08:00 alert; also completed 07:33 → 08:03, "
        + "remarks \"held by Focus 'Sleep' at 2026-05-05T07:00:00.000+02:00\" → none"
    ])
    #expect(comparison.changes[0].expectedIndex == 0 && comparison.changes[0].actualIndex == 0)
    #expect(comparison.report(expectedName: "x.doses", expectedLines: [4, 5]) == """
      doses differ from x.doses: 1 of 2 doses changed (1 better for the patient)
        \(comparison.changes[0].description) (x.doses:4)

      """)
  }

  @Test func aMissedDoseNamesOutcomeThenPerceptionThenReason() {
    var missed = DoseComparisonVerdictTests.missed(Self.dose("met", "07:00"))
    missed.reason = "notifications turned off in Settings"
    let comparison = DoseComparison(expected: Self.table([Self.dose("met", "07:00")]), actual: Self.table([missed]))
    #expect(comparison.changes.map(\.description) == [
      "met 2026-05-05 07:00 (worse for the patient): completed → missed; notified 07:00 alert → never notified; reason none → \"notifications turned off in Settings\"; "
        + "also completed 07:03 → -"
    ])
  }

  @Test func anotherNotificationPerceivingTheDoseIsNamedWithItsRole() {
    var byFollowUp = Self.dose("met", "07:00")
    byFollowUp.perceived = Self.at("07:06")
    byFollowUp.by = "medicine_met_snooze_1"
    byFollowUp.role = "follow-up 1"
    byFollowUp.reason = "the pending limit dropped it"
    byFollowUp.reminderDelivered = nil
    byFollowUp.followUps = 1
    let comparison = DoseComparison(expected: Self.table([Self.dose("met", "07:00")]), actual: Self.table([byFollowUp]))
    #expect(comparison.changes.map(\.description) == [
      "met 2026-05-05 07:00 (worse for the patient): notified 07:00 alert → 07:06 alert; by medicine_met_reminder_0 (daily reminder) → medicine_met_snooze_1 (follow-up 1); "
        + "reason none → \"the pending limit dropped it\"; also reminder delivered 07:00 → -, follow-ups 0 → 1"
    ])
  }

  @Test func theSameWordsWithAnotherHowShowTheHowInFull() {
    var silent = Self.dose("met", "07:00")
    silent.how = "lock-screen+sound"
    let comparison = DoseComparison(expected: Self.table([Self.dose("met", "07:00")]), actual: Self.table([silent]))
    #expect(comparison.changes.map(\.description) == ["met 2026-05-05 07:00 (as good for the patient): notified 07:00 banner+lock-screen+sound → 07:00 lock-screen+sound"])
    var noSound = Self.dose("met", "07:00")
    noSound.how = "banner+lock-screen"
    let quiet = DoseComparison(expected: Self.table([Self.dose("met", "07:00")]), actual: Self.table([noSound]))
    #expect(quiet.changes.map(\.description) == ["met 2026-05-05 07:00 (worse for the patient): notified 07:00 alert → 07:00 silent alert"])
  }

  @Test func instantsWithinTheToleranceAreTheSame() {
    var late = Self.dose("met", "07:00")
    late.perceived = Self.at("07:00:02")
    let within = DoseComparison(expected: Self.table([Self.dose("met", "07:00")]), actual: Self.table([late]), tolerance: .seconds(2))
    #expect(within.matches)
    let beyond = DoseComparison(expected: Self.table([Self.dose("met", "07:00")]), actual: Self.table([late]), tolerance: .seconds(1))
    #expect(beyond.changes.map(\.description) == ["met 2026-05-05 07:00 (worse for the patient): notified 07:00 alert → 07:00:02 alert"])
  }

  @Test func aDoseOnlyOneSideHasIsGoneOrNewInTableOrder() {
    let expected = Self.table([Self.dose("met", "07:00", day: 5), Self.dose("met", "07:00", day: 6)])
    let actual = Self.table([Self.dose("met", "07:00", day: 6), Self.dose("met", "07:00", day: 7)])
    let comparison = DoseComparison(expected: expected, actual: actual)
    #expect(comparison.summaryLine == "1 dose gone, 1 new dose")
    #expect(comparison.changes.map(\.description) == [
      "met 2026-05-05 07:00: only in the baseline (completed, notified 07:00 alert); not in this run",
      "met 2026-05-07 07:00: new in this run (completed, notified 07:00 alert)",
    ])
  }

  @Test func thePendingPeakAndTheDropsAreCompared() {
    var actual = Self.table([Self.dose("met", "07:00")], peak: 64)
    actual.pendingPeakAt = Self.at("06:00")
    actual.droppedByPendingLimit = 35
    let comparison = DoseComparison(expected: Self.table([Self.dose("met", "07:00")]), actual: actual)
    #expect(comparison.headerChanges == ["pending peak 2 at 2026-05-05 07:00 → 64 at 2026-05-05 06:00", "dropped by the pending limit 0 → 35"])
    #expect(comparison.changes.isEmpty)
    #expect(!comparison.matches)
  }

  @Test func theCanonicalTextLeavesOutWhatIsAbsentAndQuotesWhatNeedsIt() {
    var table = Self.table([Self.heldUntil0730("levo")])
    table.doses[0].followUps = 2
    table.doses[0].chainRanOut = true
    #expect(table.canonicalText == """
      # trigsim doses 1
      # pending peak: 2 at 2026-05-05T07:00:00.000+02:00
      # dropped by the pending limit: 0
      medicine=levo reminder=07:00 occurrence=2026-05-05 outcome=completed scheduled=2026-05-05T07:00:00.000+02:00 \
      perceived=2026-05-05T07:30:00.000+02:00 kind=after-focus how=lock-screen by=medicine_levo_reminder_0 role="daily reminder" \
      reminder-delivered=2026-05-05T07:00:00.000+02:00 follow-ups=2 chain=ran-out completed=2026-05-05T07:33:00.000+02:00 \
      note="held by Focus 'Sleep' at 2026-05-05T07:00:00.000+02:00"

      """)
  }
}
