import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// Issue 41, item 8: quiet hours that ended inside a daylight-saving gap
/// resumed by the calendar trigger's `dstGap` rule (SMS quiet hours
/// 01:00–02:30 in Copenhagen on the spring-forward night sent at 03:30, and a
/// day late under `dstGap: strict`). Quiet hours now end at the first instant
/// whose wall-clock time is outside them (`QuietHours.firstInstantOutside`),
/// in the server's channels and the app's own quiet hours alike.
@Suite struct QuietHoursEndTests {
  static func hours(_ from: String, _ to: String) -> QuietHours {
    func time(_ text: String) -> DailyTime { DailyTime(hour: Int(text.prefix(2))!, minute: Int(text.suffix(2))!) }
    return QuietHours(from: time(from), to: time(to))
  }

  static func zone(_ id: String) -> TimeZone { TimeZone(identifier: id)! }

  @Test func quietHoursEndingInsideTheSpringForwardGapEndAtTheJump() {
    // Copenhagen, 2026-03-29: 02:00 CET (01:00Z) becomes 03:00 CEST.
    let copenhagen = Self.zone("Europe/Copenhagen")
    let end = Self.hours("01:00", "02:30").firstInstantOutside(atOrAfter: Build.instant("2026-03-29T00:30:00Z"), in: copenhagen)
    #expect(end == Build.instant("2026-03-29T01:00:00Z"))
  }

  @Test func quietHoursEndingInTheRepeatedHourEndAtItsFirstOccurrence() {
    // Copenhagen, 2026-10-25: 03:00 CEST (01:00Z) becomes 02:00 CET; 02:30 first comes at 00:30Z.
    let copenhagen = Self.zone("Europe/Copenhagen")
    let hours = Self.hours("01:00", "02:30")
    #expect(hours.firstInstantOutside(atOrAfter: Build.instant("2026-10-24T23:30:00Z"), in: copenhagen) == Build.instant("2026-10-25T00:30:00Z"))
    // After the clocks go back, 02:00–02:30 is inside again, and ends at the second 02:30.
    #expect(hours.firstInstantOutside(atOrAfter: Build.instant("2026-10-25T01:10:00Z"), in: copenhagen) == Build.instant("2026-10-25T01:30:00Z"))
  }

  @Test func anInstantOutsideIsItsOwnEnd() {
    let start = Build.instant("2026-03-29T05:00:00Z")
    #expect(Self.hours("01:00", "02:30").firstInstantOutside(atOrAfter: start, in: Self.zone("Europe/Copenhagen")) == start)
  }

  /// Zones with gaps and overlaps of an hour, half an hour (Lord Howe), a
  /// skipped day (Apia, 2011-12-30) and a southern-hemisphere shift.
  static let zones = ["Europe/Copenhagen", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia", "America/Santiago", "Asia/Tehran"]
  static let spans = [("01:00", "02:30"), ("02:15", "02:45"), ("22:00", "07:00"), ("00:30", "03:30"), ("02:00", "03:00"), ("01:59", "02:01"), ("23:00", "00:30")]

  /// Every offset change of `zone` in 2011 and 2012 and in 2026, found by bisection between days.
  static func changes(_ zone: TimeZone) -> [SimulationInstant] {
    var found: [SimulationInstant] = []
    for (from, to) in [("2011-01-01T00:00:00Z", "2013-01-01T00:00:00Z"), ("2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z")] {
      var day = Build.instant(from)
      let last = Build.instant(to)
      while day < last {
        let next = day.advanced(by: .hours(24))
        if let change = QuietHours.firstOffsetChange(after: day, upTo: next, zone) { found.append(change) }
        day = next
      }
    }
    return found
  }

  /// The property, around every change: from any instant inside the quiet
  /// hours (every 7 minutes from a day before the change to a day after),
  /// the end is outside them, the millisecond before it is inside, and so
  /// is every minute between.
  @Test(arguments: zones)
  func theEndIsTheFirstInstantOutsideInEveryZoneTransition(zoneID: String) {
    let zone = Self.zone(zoneID)
    let changes = Self.changes(zone)
    #expect(changes.count >= 2, "\(zoneID) has no offset changes to test")
    var checked = 0
    for change in changes {
      for (from, to) in Self.spans {
        let hours = Self.hours(from, to)
        var start = change.advanced(by: .hours(-24))
        while start < change.advanced(by: .hours(24)) {
          defer { start = start.advanced(by: .minutes(7)) }
          guard hours.contains(start, in: zone) else { continue }
          let end = hours.firstInstantOutside(atOrAfter: start, in: zone)
          checked += 1
          #expect(end > start && end <= start.advanced(by: .hours(48)))
          #expect(!hours.contains(end, in: zone), "\(zoneID) \(from)-\(to) from \(start): ends at \(end), inside")
          #expect(hours.contains(end.advanced(byMilliseconds: -1), in: zone), "\(zoneID) \(from)-\(to) from \(start): \(end) is not the first")
          var minute = start
          while minute < end {
            if !hours.contains(minute, in: zone) {
              Issue.record("\(zoneID) \(from)-\(to) from \(start): outside at \(minute), before its end \(end)")
              break
            }
            minute = minute.advanced(by: .minutes(1))
          }
        }
      }
    }
    #expect(checked > 100)
  }

  /// The app's own quiet hours decide by the same rule: a push at the jump is
  /// outside 01:00–02:30, one a millisecond before it inside.
  @Test func theAppsQuietHoursFollowTheSameRule() {
    var preferences = AppPreferences()
    preferences.quietHours = Self.hours("01:00", "02:30")
    let copenhagen = Self.zone("Europe/Copenhagen")
    let jump = Build.instant("2026-03-29T01:00:00Z")
    #expect(preferences.blockReason(type: nil, at: jump, in: copenhagen) == nil)
    #expect(preferences.blockReason(type: nil, at: jump.advanced(byMilliseconds: -1), in: copenhagen) == "within the app's quiet hours 01:00–02:30")
  }
}
