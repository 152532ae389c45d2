import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// One scenario's doses on two phones: rows matched by dose, the differing
/// ones first, each with a line naming every platform's time and the reason
/// the engine wrote for the one that differs.
@Suite struct PlatformComparisonTests {
  static let zone = "Europe/Copenhagen"

  static func summary(_ doses: [DoseRecord]) -> RunSummary {
    var summary = RunSummary()
    summary.clock = Build.clock("2026-05-04T21:00:00+02:00", "2026-05-07T09:00:00+02:00", zone: zone)
    summary.doses = doses
    return summary
  }

  /// Metformin's 08:00 dose on 2026-05-05 (`day` 6: the next day's), notified at `notified` with `how`.
  static func dose(day: Int = 5, notified: String? = "08:00", how: String = "banner+lock-screen+sound", completed: String? = nil) -> DoseRecord {
    let date = "2026-05-0\(day)"
    var dose = DoseRecord(
      key: DoseKey(medicine: "met", slot: .time(DailyTime(hour: 8, minute: 0)), occurrence: 20578 + Int64(day - 5)), medicineName: "Metformin",
      reminder: "08:00", scheduled: Build.instant("\(date)T08:00:00+02:00"))
    if let notified {
      dose.notified = Build.instant("\(date)T\(notified):00+02:00")
      dose.perception = DosePerception(notification: "met-0800", role: "daily reminder", kind: .alert, how: how)
    }
    if let completed { dose.completed = Build.instant("\(date)T\(completed):00+02:00") }
    return dose
  }

  @Test func aDoseNotifiedLaterOnOnePlatformIsADifferenceWithBothTimesAndThatPlatformsReason() {
    var late = Self.dose(notified: "08:47")
    late.notes = ["inexact alarm deferred by Doze"]
    let comparison = PlatformComparison([(.ios, Self.summary([Self.dose()])), (.android, Self.summary([late]))])
    #expect(comparison.differences.count == 1)
    #expect(comparison.rows[0].difference == "met 2026-05-05 08:00: notified 08:00 on ios, 08:47 on android: inexact alarm deferred by Doze")
  }

  @Test func theSameDoseOnBothPlatformsIsNoDifference() {
    let comparison = PlatformComparison([(.ios, Self.summary([Self.dose()])), (.android, Self.summary([Self.dose()]))])
    #expect(comparison.differences.isEmpty)
    #expect(comparison.rows.count == 1)
    #expect(comparison.rows[0].difference == nil)
  }

  @Test func differencesComeFirstWhateverTheDoseOrder() {
    var late = Self.dose(day: 6, notified: "09:12")
    late.notes = ["deferred by Doze to the maintenance window at 09:12"]
    let ios = Self.summary([Self.dose(day: 5), Self.dose(day: 6)])
    let android = Self.summary([Self.dose(day: 5), late])
    let comparison = PlatformComparison([(.ios, ios), (.android, android)])
    #expect(comparison.rows.map(\.day) == ["2026-05-06", "2026-05-05"])
    #expect(comparison.rows.map(\.differs) == [true, false])
  }

  @Test func aMissedDoseIsNamedMissedWithItsReason() {
    var missed = Self.dose(notified: nil)
    missed.reason = "alarms cleared by the reboot at 2026-05-05T07:30:00.000+02:00"
    let comparison = PlatformComparison([(.ios, Self.summary([Self.dose()])), (.android, Self.summary([missed]))])
    #expect(comparison.rows[0].difference == "met 2026-05-05 08:00: notified 08:00 on ios, missed on android: alarms cleared by the reboot at 07:30")
  }

  @Test func theSameTimeButAnotherPresentationShowsHowOnEachPlatform() {
    let quiet = Self.dose(how: "lock-screen")
    let comparison = PlatformComparison([(.ios, Self.summary([Self.dose()])), (.android, Self.summary([quiet]))])
    #expect(comparison.rows[0].difference == "met 2026-05-05 08:00: notified 08:00 (banner+lock-screen+sound) on ios, 08:00 (lock-screen) on android")
  }

  @Test func theSameTimeButAnotherOutcomeNamesEachOutcome() {
    let comparison = PlatformComparison([(.ios, Self.summary([Self.dose(completed: "08:02")])), (.android, Self.summary([Self.dose()]))])
    #expect(comparison.rows[0].difference == "met 2026-05-05 08:00: notified 08:00 (completed) on ios, 08:00 (unanswered) on android")
  }

  @Test func remarksBothPlatformsShareAreNoReason() {
    var ios = Self.dose()
    ios.notes = ["chain added"]
    var android = Self.dose(notified: "08:47")
    android.notes = ["chain added"]
    let comparison = PlatformComparison([(.ios, Self.summary([ios])), (.android, Self.summary([android]))])
    #expect(comparison.rows[0].difference == "met 2026-05-05 08:00: notified 08:00 on ios, 08:47 on android")
  }

  @Test func aDoseOnlyOnePlatformHasDiffers() {
    let comparison = PlatformComparison([(.ios, Self.summary([Self.dose()])), (.android, Self.summary([]))])
    #expect(comparison.rows[0].cells[1] == nil)
    #expect(comparison.rows[0].difference == "met 2026-05-05 08:00: notified 08:00 on ios, no such dose on android")
  }

  @Test func theTextListsTheDifferencesThenOneColumnPerPlatform() {
    var late = Self.dose(notified: "08:47", completed: "08:50")
    late.notes = ["inexact alarm deferred by Doze"]
    let ios = Self.summary([Self.dose(completed: "08:02"), Self.dose(day: 6, completed: "08:01")])
    let android = Self.summary([late, Self.dose(day: 6, completed: "08:01")])
    let text = PlatformComparison([(.ios, ios), (.android, android)]).text
    #expect(
      text == """
        # platforms: ios, android
        # doses: 2, differing between the platforms: 1
        # met 2026-05-05 08:00: notified 08:00 on ios, 08:47 on android: inexact alarm deferred by Doze
           medicine  name       reminder  day         scheduled  ios              android
        *  met       Metformin  08:00     2026-05-05  08:00      completed 08:00  completed 08:47 +47m
           met       Metformin  08:00     2026-05-06  08:00      completed 08:00  completed 08:00

        """)
  }

  @Test func platformsAreColumnsInTheOrderGiven() {
    let comparison = PlatformComparison([(.android, Self.summary([Self.dose()])), (.ios, Self.summary([Self.dose()]))])
    #expect(comparison.platforms == [.android, .ios])
    #expect(comparison.text.hasPrefix("# platforms: android, ios\n"))
  }

  @Test func noDosesSaysSo() {
    let comparison = PlatformComparison([(.ios, Self.summary([])), (.android, Self.summary([]))])
    #expect(comparison.text == "# platforms: ios, android\n# doses: none\n")
  }
}
