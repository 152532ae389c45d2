import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// The assumption report's times of a dose: read beside the dose's label,
/// they carry their UTC offset when the phone's zone differs from the zone
/// the dose is labelled in.
@Suite struct AssumptionReportTimeTests {
  /// Copenhagen until 13:30 (+02:00), New York (-04:00) after.
  static let clock = Build.clock(
    "2026-05-05T05:00:00+02:00", "2026-05-05T16:00:00-04:00", zone: "Europe/Copenhagen",
    changes: [TimeZoneChange(instant: Build.instant("2026-05-05T13:30:00+02:00"), timeZone: TimeZone(identifier: "America/New_York")!)])

  static func dose(at scheduled: String) -> DoseRecord {
    DoseRecord(
      key: DoseKey(medicine: "2", slot: .time(DailyTime(hour: 13, minute: 0)), occurrence: 20578), medicineName: "Levothyroxine",
      reminder: "13:00", scheduled: Build.instant(scheduled))
  }

  @Test func aNotificationAfterTheFlightIsWrittenWithItsOffset() {
    var dose = Self.dose(at: "2026-05-05T13:00:00+02:00")
    dose.notified = Build.instant("2026-05-05T13:45:00+02:00")
    dose.completed = Build.instant("2026-05-05T13:50:00+02:00")
    #expect(AssumptionReport.state(of: dose, clock: Self.clock) == "notified 07:45-04:00, completed 07:50-04:00")
  }

  @Test func aNotificationInTheDosesOwnZoneIsTheBareClockTime() {
    var dose = Self.dose(at: "2026-05-05T13:00:00+02:00")
    dose.notified = Build.instant("2026-05-05T13:10:00+02:00")
    #expect(AssumptionReport.state(of: dose, clock: Self.clock) == "notified 13:10, unanswered")
  }

  @Test func aDoseLabelledInAFixedZoneReadsEveryDeviceTimeWithItsOffset() {
    // Due at 07:00 New York time (a home-zone prescription); the phone, still in Copenhagen, shows 13:05 for 07:05 New York time.
    var dose = Self.dose(at: "2026-05-05T07:00:00-04:00")
    dose.fixedLabelOffsetSeconds = -4 * 3600
    dose.notified = Build.instant("2026-05-05T07:05:00-04:00")
    #expect(AssumptionReport.state(of: dose, clock: Self.clock) == "notified 13:05+02:00, unanswered")
  }
}
