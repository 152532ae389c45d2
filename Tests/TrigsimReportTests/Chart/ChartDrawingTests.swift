import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimReport

/// The timeline chart: lanes in their groups, marks merged only when they
/// would overlap, bands, day boundaries in the device's zone, and the
/// expected row beside the actual one with the differences marked.
@Suite struct ChartDrawingTests {
  static func count(_ chart: ChartDrawing, _ kind: ChartDrawing.MarkKind, row: ChartDrawing.Row = .actual, lane: String? = nil) -> Int {
    chart.marks.filter { $0.kind == kind && $0.row == row && (lane == nil || chart.lanes[$0.lane].key == lane) }.reduce(0) { $0 + $1.count }
  }

  @Test func lanesComeInGroupsTrackRegionsDosesRequests() throws {
    let input = try ReportFixture.input(MapDrawingTests.yaml, fixes: MapDrawingTests.fixes())
    let chart = ChartDrawing(input, coverage: [Build.instant("2026-03-28T06:00:00Z")...Build.instant("2026-03-28T06:10:00Z")], options: ReportOptions())
    #expect(chart.lanes.map(\.key) == ["track", "shop", "park", "buy", "tea"])
    #expect(chart.lanes.map(\.group) == [.track, .regions, .regions, .requests, .requests])
    #expect(Self.count(chart, .fired, lane: "tea") == 14)
    #expect(Self.count(chart, .fired, lane: "buy") == 1)
    #expect(Self.count(chart, .scheduled) == 2)
    #expect(Self.count(chart, .inside, lane: "shop") == 1 && Self.count(chart, .inside, lane: "park") == 1)
    // 5 minutes apart on a 70-minute axis of 734 pixels: never merged.
    #expect(chart.marks.filter { $0.kind == .fired }.allSatisfy { $0.count == 1 })
    // 5 minutes are 52 pixels, under the 60 a tick needs; 15 minutes are ticked.
    #expect(chart.ticks.map(\.label) == ["06:00", "06:15", "06:30", "06:45", "07:00"])
    #expect(abs(chart.ticks[0].x - (chart.plotLeft + (chart.plotRight - chart.plotLeft) / 7)) < 1e-9)
    // The fixes bar spans 06:00 to 06:10: 10/70 of the axis.
    let fixes = chart.marks.first { $0.kind == .fixes }!
    #expect(abs((fixes.x2! - fixes.x) - (chart.plotRight - chart.plotLeft) / 7) < 1e-9)
  }

  @Test func marksCloserThanTwoPixelsAreOneMarkThatCountsThemAll() throws {
    let input = try ReportFixture.input("""
      clock: { start: 2026-03-28T00:00:00Z, end: 2026-03-29T00:00:00Z, timezone: UTC }
      notifications:
        - { id: tick, title: Tick, trigger: { interval: 1m, repeats: true } }
      """)
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    let fired = chart.marks.filter { $0.kind == .fired }
    #expect(fired.reduce(0) { $0 + $1.count } == 1440)
    // 1440 deliveries on 734 pixels: about 0.51 px apart, four to a mark.
    #expect(fired.count == 360)
    #expect(fired.allSatisfy { $0.count == 4 })
    #expect(fired[0].label == "4 × fired; first: \(input.run.timeline.entries(.fired)[0].canonicalLine); last: \(input.run.timeline.entries(.fired)[3].canonicalLine)")
  }

  @Test func focusPeriodsAreBandsAndMidnightsFollowTheZoneAcrossDST() throws {
    let input = try ReportFixture.input("""
      clock: { start: 2026-03-28T12:00:00+01:00, end: 2026-03-30T12:00:00+02:00, timezone: Europe/Copenhagen }
      device:
        focus:
          - { name: Sleep, daily: { from: "22:30", to: "07:30" }, allowApp: false }
      notifications:
        - { id: pills, title: Pills, trigger: { calendar: { hour: 8, minute: 0 }, repeats: true } }
      """)
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    #expect(chart.days.map(\.label) == ["Sun 29 Mar", "Mon 30 Mar"])
    // 47 hours on 734 pixels: six-hour ticks in local time, on both sides of the change, midnights left to the day lines.
    #expect(chart.ticks.map(\.label) == ["12:00", "18:00", "06:00", "12:00", "18:00", "06:00", "12:00"])
    let span = chart.plotRight - chart.plotLeft
    // 47 hours on the axis (the night of the change is an hour short): midnights 12 h and 35 h in.
    #expect(abs(chart.days[0].x - (chart.plotLeft + span * 12 / 47)) < 1e-9)
    #expect(abs(chart.days[1].x - (chart.plotLeft + span * 35 / 47)) < 1e-9)
    #expect(chart.bandRows == ["Focus Sleep"])
    #expect(chart.bands.map(\.label) == [
      "Focus Sleep from 2026-03-28T22:30:00.000+01:00 to 2026-03-29T07:30:00.000+02:00",
      "Focus Sleep from 2026-03-29T22:30:00.000+02:00 to 2026-03-30T07:30:00.000+02:00",
    ])
  }

  @Test func withAnExpectedTimelineEachDifferenceIsMarkedOnItsRow() throws {
    // Expected: the same run without its second tea delivery.
    var removed: TimelineEntry?
    let input = try ReportFixture.input(MapDrawingTests.yaml, fixes: MapDrawingTests.fixes()) { actual in
      var expected = actual
      let index = expected.entries.indices.filter { expected.entries[$0].kind == .fired && expected.entries[$0].subject == "tea" }[1]
      removed = expected.entries.remove(at: index)
      return expected
    }
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    #expect(chart.hasExpected)
    #expect(Self.count(chart, .fired, row: .expected, lane: "tea") == 13)
    #expect(Self.count(chart, .fired, row: .actual, lane: "tea") == 14)
    let flagged = chart.marks.filter { !$0.differences.isEmpty }
    #expect(flagged.count == 1)
    #expect(flagged.first?.row == .actual && flagged.first?.differences == ["unexpected"])
    #expect(flagged.first?.first == removed?.canonicalLine)
  }

  @Test func amongManyRegionsOnlyThoseWithEventsHaveLanes() throws {
    var regions = "  - { id: shop, center: [55.68, 12.572], radius: 50 }\n"
    for index in 0..<30 { regions += "  - { id: far\(index), center: [\(55.69 + Double(index) * 0.01), 12.57], radius: 100 }\n" }
    let input = try ReportFixture.input("""
      clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T06:30:00Z, timezone: UTC }
      platform: { location: ideal }
      regions:
      \(regions)
      """, fixes: ReportFixture.walkEast(minutes: 10))
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    #expect(chart.lanes.map(\.key) == ["shop"])
  }
}

extension ChartDrawingTests {
  @Test func beyondAHundredAndFiftyLanesAGroupSharesOneLastLaneThatKeepsEveryMark() throws {
    var notifications = ""
    for index in 0..<200 { notifications += "  - { id: n\(index), title: N, trigger: { interval: 1h, repeats: false } }\n" }
    let input = try ReportFixture.input("""
      clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T08:00:00Z, timezone: UTC }
      notifications:
      \(notifications)
      """)
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    #expect(chart.lanes.count == LaneBuilder.lanesPerGroup + 1)
    #expect(chart.lanes.last?.label == "and 50 more" && chart.lanes.last?.key == "…")
    // The pending limit keeps the last 64 added (n136…n199), which fire; 136 are dropped.
    #expect(Self.count(chart, .scheduled) == 200 && Self.count(chart, .scheduled, lane: "…") == 50)
    #expect(Self.count(chart, .fired) == 64 && Self.count(chart, .dropped) == 136)
    #expect(Self.count(chart, .fired, lane: "…") == 50)
  }
}

extension ChartDrawingTests {
  @Test func aWindowOfYearsHasALineAMonthNotADay() throws {
    let input = try ReportFixture.input("""
      clock: { start: 2026-01-15T00:00:00Z, end: 2028-01-15T00:00:00Z, timezone: Europe/Copenhagen }
      notifications:
        - { id: pills, title: Pills, trigger: { calendar: { hour: 8, minute: 0 }, repeats: true } }
      """)
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    // Two years on 734 pixels: a day is 1 pixel; the first of every month, Feb 2026 to Jan 2028.
    #expect(chart.days.count == 24)
    #expect(chart.days.first?.label == "Feb 2026" && chart.days.last?.label == "Jan 2028")
    #expect(chart.ticks.isEmpty)
    // 730 deliveries at 08:00 merge where they fall within 2 pixels, and every one is counted.
    #expect(Self.count(chart, .fired) == 730)
  }

  @Test func aTimeZoneChangeMovesMidnightToTheNewZone() throws {
    let input = try ReportFixture.input("""
      clock:
        start: 2026-03-10T12:00:00+01:00
        end: 2026-03-12T12:00:00-04:00
        timezone: Europe/Copenhagen
        changes:
          - { at: 2026-03-10T20:00:00+01:00, timezone: America/New_York }
      notifications:
        - { id: pills, title: Pills, trigger: { calendar: { hour: 8, minute: 0 }, repeats: true } }
      """)
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    // After the flight, midnights are New York's: 2026-03-11T00:00-04:00 = 04:00Z, and the next day's.
    #expect(chart.days.map(\.label) == ["Wed 11 Mar", "Thu 12 Mar"])
    #expect(chart.zoneChanges.count == 1)
  }

  @Test func flyingEastPastMidnightSkipsTheMidnightTheClockJumpedOver() throws {
    // Landing in Tokyo at 19:00 Copenhagen time is 03:00 the next day there: Wednesday's midnight never happened on the device.
    let input = try ReportFixture.input("""
      clock:
        start: 2026-03-10T12:00:00+01:00
        end: 2026-03-12T12:00:00+09:00
        timezone: Europe/Copenhagen
        changes:
          - { at: 2026-03-10T19:00:00+01:00, timezone: Asia/Tokyo }
      notifications:
        - { id: pills, title: Pills, trigger: { calendar: { hour: 8, minute: 0 }, repeats: true } }
      """)
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    #expect(chart.days.map(\.label) == ["Thu 12 Mar"])
    // Six-hour ticks: 12:00 and 18:00 in Copenhagen, then Tokyo's from the landing (03:00 there).
    #expect(chart.ticks.map(\.label) == ["12:00", "18:00", "06:00", "12:00", "18:00", "06:00", "12:00"])
    let span = chart.plotRight - chart.plotLeft
    // Thursday 00:00 in Tokyo is 15:00 UTC on the 11th: 28 of the window's 40 hours (11:00 UTC on the 10th to 03:00 UTC on the 12th).
    #expect(abs(chart.days[0].x - (chart.plotLeft + span * 28 / 40)) < 1e-9)
  }
}
