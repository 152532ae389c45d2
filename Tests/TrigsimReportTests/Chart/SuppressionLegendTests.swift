import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimReport

/// A `suppressed` entry's mark and legend say why the device showed or
/// delivered nothing: each `SuppressionCause` has its own mark and words.
@Suite struct SuppressionLegendTests {
  /// Every cause the device records, with the words the legend must give it.
  static let labels: [(SuppressionCause, String)] = [
    (.permission, "not shown: no notification permission"),
    (.settings, "not shown: off in Settings"),
    (.channel, "not shown: no such channel"),
    (.foreground, "not shown: app in the foreground"),
    (.phoneOff, "not delivered: phone off"),
    (.regionMonitoring, "not delivered: region monitoring blocked"),
    (.backgroundPush, "background push not given to the app"),
    (.forceStopped, "not delivered: app force-stopped"),
  ]

  @Test func theTableCoversEveryCause() {
    #expect(Self.labels.map(\.0) == SuppressionCause.allCases)
  }

  @Test(arguments: labels)
  func eachCauseHasItsOwnMarkAndLegend(cause: SuppressionCause, label: String) {
    let kind = ChartDrawing.MarkKind(suppressedBy: cause)
    #expect(kind.legend == label)
    #expect(kind.rawValue == "suppressed-\(cause.rawValue)")
    let entry = TimelineEntry(
      instant: Build.instant("2026-05-05T07:00:00+02:00"), utcOffsetSeconds: 7200, kind: .suppressed, subject: "medicine_levo_reminder_0",
      fields: [TimelineField("cause", cause.rawValue), TimelineField("reason", "why")])
    #expect(ChartDrawing.requestMark(entry) == kind)
  }

  @Test func noTwoCausesShareWordsAndOnlyThePermissionCauseNamesPermission() {
    let legends = SuppressionCause.allCases.map { ChartDrawing.MarkKind(suppressedBy: $0).legend }
    #expect(Set(legends).count == legends.count)
    for cause in SuppressionCause.allCases where cause != .permission {
      #expect(!ChartDrawing.MarkKind(suppressedBy: cause).legend.contains("permission"), "\(cause)")
    }
  }

  @Test func anEntryWithoutACauseSaysSoRatherThanGuessing() {
    let entry = TimelineEntry(
      instant: Build.instant("2026-05-05T07:00:00+02:00"), utcOffsetSeconds: 7200, kind: .suppressed, subject: "medicine_levo_reminder_0",
      fields: [TimelineField("reason", "the phone is off")])
    #expect(ChartDrawing.requestMark(entry) == .suppressed)
    #expect(ChartDrawing.MarkKind.suppressed.legend == "not shown (cause not recorded)")
  }

  /// The phone is off over the 07:00 dose and nothing due while off is
  /// delivered (`powerOffCatchUp: none`, the default): the chart's legend
  /// says the phone was off, never that a permission was missing.
  @Test func aReminderLostWhileThePhoneWasOffIsLabelledPhoneOff() throws {
    let input = try ReportFixture.input("""
      clock: { start: 2026-05-05T06:00:00+02:00, end: 2026-05-05T09:00:00+02:00, timezone: Europe/Copenhagen }
      medicines:
        - { id: levo, name: Levothyroxine, dosage: 50, unit: µg, times: ["07:00"], snooze: none }
      device:
        power:
          - { at: 2026-05-05T06:45:00, event: switch-off }
          - { at: 2026-05-05T07:30:00, event: switch-on }
      """)
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    #expect(chart.marks.contains { $0.kind == .notDeliveredPhoneOff })
    let svg = ChartSVG.render(chart, title: "t").rendered
    #expect(svg.contains(">not delivered: phone off</text>"))
    // No mark and no legend item speaks of a permission (the style sheet names every cause's class).
    #expect(!chart.marks.contains { $0.kind == .notShownPermission || $0.kind == .suppressed })
    #expect(!svg.contains(">not shown: no notification permission</text>"))
    #expect(!svg.contains("(permission)"))
  }
}
