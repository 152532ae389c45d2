import Testing
import TrigsimTestSupport

@testable import TrigsimCore

private func entry(_ time: String, _ kind: TimelineEntry.Kind, _ subject: String, _ fields: [(String, String)] = []) -> TimelineEntry {
  TimelineEntry(
    instant: Build.instant("2026-05-04T\(time):00+02:00"), utcOffsetSeconds: 7200, kind: kind, subject: subject,
    fields: fields.map { TimelineField($0.0, $0.1) })
}

@Suite struct TimelineComparisonGroupsTests {
  /// Two follow-ups and a reminder of medicine 1 move by +1m, one of medicine 2 by +2m, a title changes, a region entry is missing.
  private let comparison: TimelineComparison = {
    let expected = Timeline(entries: [
      entry("08:00", .fired, "medicine_1_reminder_0"),
      entry("08:06", .fired, "medicine_1_snooze_1"),
      entry("08:12", .fired, "medicine_1_snooze_2"),
      entry("08:20", .fired, "medicine_2_snooze_1"),
      entry("09:00", .enter, "home"),
      entry("10:00", .fired, "water", [("title", "Drink")]),
    ])
    let actual = Timeline(entries: [
      entry("08:01", .fired, "medicine_1_reminder_0"),
      entry("08:07", .fired, "medicine_1_snooze_1"),
      entry("08:13", .fired, "medicine_1_snooze_2"),
      entry("08:22", .fired, "medicine_2_snooze_1"),
      entry("10:00", .fired, "water", [("title", "Drink water")]),
    ])
    return TimelineComparison(expected: expected, actual: actual)
  }()

  @Test func sameKindSameSubjectStemAndSameDescriptionMakeOneGroup() {
    let groups = comparison.differenceGroups.map { "\($0.count) \($0.entryKind.rawValue) \($0.subject) \($0.description)" }
    #expect(groups == [
      "1 fired medicine_1_reminder_0 shifted by +1m",
      "2 fired medicine_1_snooze_* shifted by +1m",
      "1 fired medicine_2_snooze_1 shifted by +2m",
      "1 enter home missing",
      "1 fired water changed: title",
    ])
  }

  @Test func aSubjectLosesOnlyItsTrailingNumber() {
    #expect(TimelineComparison.subjectStem("medicine_1_snooze_11") == "medicine_1_snooze_*")
    #expect(TimelineComparison.subjectStem("home") == "home")
    #expect(TimelineComparison.subjectStem("42") == "42")
  }

  @Test func theCompactReportIsTheSummaryAndOneLinePerGroup() {
    #expect(comparison.compactReport(expectedName: "walk.timeline") == """
      timeline differs from walk.timeline: 1 missing, 0 unexpected, 4 shifted by +1m to +2m, 1 changed
      1 × fired medicine_1_reminder_0 shifted by +1m (first: expected line 2, actual line 2)
      2 × fired medicine_1_snooze_* shifted by +1m (first: expected line 3, actual line 3)
      1 × fired medicine_2_snooze_1 shifted by +2m (first: expected line 5, actual line 5)
      1 × enter home missing (first: expected line 6)
      1 × fired water changed: title (first: expected line 7, actual line 6)

      """)
  }

  @Test func theCompactReportOfMatchingTimelinesSaysTheyMatch() {
    let timeline = Timeline(entries: [entry("08:00", .enter, "home")])
    #expect(TimelineComparison(expected: timeline, actual: timeline).compactReport(expectedName: "a.timeline") == "timeline matches a.timeline\n")
  }
}
