import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// A fired entry of a daily 14:00 reminder on 2026-05-04 (UTC+02:00), with its calendar trigger and `next`.
private func dailyFire(day: Int, hour: Int = 14, minute: Int, title: String = "Metformin") -> TimelineEntry {
  let time = "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
  let next = "2026-05-\(day + 1 < 10 ? "0" : "")\(day + 1)T\(time):00.000+02:00"
  return TimelineEntry(
    instant: Build.instant("2026-05-\(day < 10 ? "0" : "")\(day)T\(time):00+02:00"), utcOffsetSeconds: 7200, kind: .fired,
    subject: "medicine_1_reminder_1",
    fields: [TimelineField("trigger", "calendar hour=\(hour) minute=\(minute)"), TimelineField("title", title), TimelineField("next", next)])
}

@Suite struct TimelineComparisonMovedFieldsTests {
  @Test func anEntryWhoseNextAndTriggerMovedWithItIsShiftedNotMissingAndUnexpected() {
    let expected = Timeline(entries: (4...10).map { dailyFire(day: $0, minute: 0) })
    let actual = Timeline(entries: (4...10).map { dailyFire(day: $0, minute: 1) })
    let comparison = TimelineComparison(expected: expected, actual: actual)
    #expect(comparison.summaryLine == "0 missing, 0 unexpected, 7 shifted by +1m")
    #expect(comparison.differences.map(\.expectedIndex) == Array(0..<7))
    #expect(comparison.differences.map(\.actualIndex) == Array(0..<7))
  }

  @Test func withoutTheFirstOccurrenceTheOthersPairWithTheirOwnDayNotTheNext() {
    let expected = Timeline(entries: (4...10).map { dailyFire(day: $0, minute: 0) })
    let actual = Timeline(entries: (5...10).map { dailyFire(day: $0, minute: 1) })
    let comparison = TimelineComparison(expected: expected, actual: actual)
    #expect(comparison.summaryLine == "1 missing, 0 unexpected, 6 shifted by +1m")
    #expect(comparison.differences.first == TimelineDifference(kind: .missing, expectedIndex: 0, actualIndex: nil))
  }

  @Test func aFieldThatDidNotMoveWithTheInstantKeepsThePairApart() {
    // The title changed as well: not the same entry moved, so nothing is paired as shifted.
    let comparison = TimelineComparison(
      expected: Timeline(entries: [dailyFire(day: 4, minute: 0)]), actual: Timeline(entries: [dailyFire(day: 4, minute: 1, title: "Other")]))
    #expect(comparison.summaryLine == "1 missing, 1 unexpected, 0 shifted")
  }

  @Test func aMoveWithinTheToleranceWithItsDerivedFieldsIsAMatch() {
    var options = ComparisonOptions()
    options.tolerance.global = .minutes(1)
    let comparison = TimelineComparison(
      expected: Timeline(entries: [dailyFire(day: 4, minute: 0)]), actual: Timeline(entries: [dailyFire(day: 4, minute: 1)]), options: options)
    #expect(comparison.matches)
    #expect(comparison.toleranceNote == "1 entry within tolerance, largest offset +1m")
  }

  @Test func theFullReportSaysWhichFieldsMovedWithTheInstant() {
    let comparison = TimelineComparison(
      expected: Timeline(entries: [dailyFire(day: 4, minute: 0)]), actual: Timeline(entries: [dailyFire(day: 4, minute: 1)]))
    #expect(comparison.report(expectedName: "e", actualName: "a").contains("!   shifted by +1m (tolerance 0s); trigger, next moved with it\n"))
  }

  @Test func aChangeAtTheSameInstantWhoseFieldsAllMovedByOneAmountSaysByHowMuch() {
    // The reminder is scheduled at 06:00 either way; its trigger and next delivery moved by +1m.
    var expected = dailyFire(day: 4, minute: 0)
    var actual = dailyFire(day: 4, minute: 1)
    expected.kind = .scheduled
    actual.kind = .scheduled
    actual.instant = expected.instant
    let comparison = TimelineComparison(expected: Timeline(entries: [expected]), actual: Timeline(entries: [actual]))
    #expect(comparison.differences.map(\.kind) == [.changed(fields: ["trigger", "next"])])
    #expect(comparison.fieldsMoved(comparison.differences[0]) == .minutes(1))
    #expect(comparison.report(expectedName: "e", actualName: "a").contains("!   changed: trigger, next (moved by +1m)\n"))

    // With a title changed as well, the fields did not just move.
    actual.fields[1].value = "Other"
    let retitled = TimelineComparison(expected: Timeline(entries: [expected]), actual: Timeline(entries: [actual]))
    #expect(retitled.fieldsMoved(retitled.differences[0]) == nil)
    #expect(retitled.report(expectedName: "e", actualName: "a").contains("!   changed: trigger, title, next\n"))
  }

  @Test(arguments: [
    // (expected trigger, actual trigger, offset in seconds, moved together)
    ("calendar hour=14 minute=0", "calendar hour=14 minute=1", 60, true),
    ("calendar hour=23 minute=59", "calendar hour=0 minute=0", 60, true),  // a daily time wraps at midnight
    ("calendar hour=14 minute=0", "calendar hour=14 minute=1", 120, false),
    ("calendar year=2026 month=5 day=4 hour=23 minute=59", "calendar year=2026 month=5 day=5 hour=0 minute=0", 60, true),
    ("calendar year=2026 month=5 day=4 hour=23 minute=59", "calendar year=2026 month=5 day=4 hour=0 minute=0", 60, false),
    ("calendar weekday=2 hour=23 minute=30", "calendar weekday=3 hour=0 minute=30", 3600, true),
    ("calendar minute=30", "calendar minute=45", 15 * 60 + 3600, true),  // hourly: modulo an hour
    ("calendar hour=8 minute=0 tz=Europe/Copenhagen", "calendar hour=8 minute=1 tz=UTC", 60, false),
    ("interval 2h", "interval 3h", 3600, false),
  ])
  func calendarTriggerTimesMoveByTheOffsetModuloTheirPeriod(_ expected: String, _ actual: String, _ seconds: Int, _ moved: Bool) {
    #expect(TimelineComparison.calendarTriggerMoved(from: expected, to: actual, byMilliseconds: Int64(seconds) * 1000) == moved)
  }

  @Test func instantFieldsMoveByTheOffsetInUTCWhateverTheirPrintedOffset() {
    let fields = { (next: String) in [TimelineField("next", next)] }
    #expect(TimelineComparison.fieldsMovedTogether(fields("2026-05-04T14:00:00.000+02:00"), fields("2026-05-04T12:01:00.000Z"), byMilliseconds: 60_000))
    #expect(!TimelineComparison.fieldsMovedTogether(fields("2026-05-04T14:00:00.000+02:00"), fields("2026-05-04T14:02:00.000+02:00"), byMilliseconds: 60_000))
    #expect(!TimelineComparison.fieldsMovedTogether(fields("a"), [TimelineField("until", "a")], byMilliseconds: 60_000))
  }
}
