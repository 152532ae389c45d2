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

/// Issue 26: a dose is marked when the patient perceived it, its lateness drawn.
extension ChartDrawingTests {
  /// A later dose perceived before the mark drawn last in its lane (held
  /// less long) is a mark of its own, not merged into one hours away.
  @Test func aPointMarkMergesOnlyWithAMarkItOverlapsOnEitherSide() {
    var builder = LaneBuilder()
    let lane = builder.lane(.doses, key: "met", label: "Metformin 08:00")
    builder.mark(lane, .actual, .doseCompleted, 500, subject: "day 1", label: "day 1")
    builder.mark(lane, .actual, .doseCompleted, 100, subject: "day 2", label: "day 2")
    builder.mark(lane, .actual, .doseCompleted, 101, subject: "day 3", label: "day 3")
    let (_, marks) = builder.finish()
    #expect(marks.map(\.x) == [500, 100])
    #expect(marks.map(\.count) == [1, 2])
  }

  /// Metformin at 08:00 and 11:00; a Sleep Focus that silences the app holds the 08:00 reminder until 09:00,
  /// when the patient wakes and looks at the phone.
  static let lateDoseYAML = """
    clock: { start: 2026-05-04T06:00:00Z, end: 2026-05-04T12:00:00Z, timezone: UTC }
    patient: { looks: [2026-05-04T09:00:00] }
    device:
      focus:
        - { name: Sleep, daily: { from: "07:00", to: "09:00" }, allowApp: false }
    medicines:
      - { id: met, name: Metformin, dosage: 500, unit: mg, times: ["08:00", "11:00"], snooze: none }
    respond:
      - { to: "medicine_*", after: 2m, actions: [complete] }
    """

  @Test func aDoseIsMarkedWhenThePatientPerceivedItWithALineFromWhenItWasDue() throws {
    let input = try ReportFixture.input(Self.lateDoseYAML)
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    let doses = input.run.summary.doses
    #expect(doses.map(\.notified) == [Build.instant("2026-05-04T09:00:00Z"), Build.instant("2026-05-04T11:00:00Z")])
    // Six hours on the axis.
    func x(_ text: String) -> Double { chart.plotLeft + (chart.plotRight - chart.plotLeft) * (Build.instant(text).millisecondsSinceEpoch - Build.instant("2026-05-04T06:00:00Z").millisecondsSinceEpoch).asDouble / 21_600_000 }
    let late = try #require(chart.marks.first { chart.lanes[$0.lane].key == "met 08:00" })
    #expect(late.kind == .doseCompleted)
    #expect(abs(late.x - x("2026-05-04T09:00:00Z")) < 1e-9, "at 09:00, when the Focus ended and the patient saw it, not at 08:00")
    #expect(abs(try #require(late.dueX) - x("2026-05-04T08:00:00Z")) < 1e-9)
    #expect(late.label.contains("notified 2026-05-04T09:00:00.000+00:00 (+1h late)"))
    let onTime = try #require(chart.marks.first { chart.lanes[$0.lane].key == "met 11:00" })
    #expect(abs(onTime.x - x("2026-05-04T11:00:00Z")) < 1e-9 && onTime.dueX == nil)

    // In the SVG: a path from the due tick to the mark, in the outcome's colour, and the mark at the perceived instant.
    let svg = ChartSVG.render(chart, title: "t").rendered
    let lateness = svg.split(separator: "\n").filter { $0.contains("data-late=") }
    #expect(lateness.count == 1)
    let px = { (value: Double) in Markup.px(value).rendered }
    #expect(lateness.first?.contains("class=\"late l-dose-completed\" data-late=\"dose-completed\" data-subjects=\"met 08:00\"") == true)
    #expect(lateness.first?.contains("H\(px(x("2026-05-04T09:00:00Z")))\"") == true, "\(lateness)")
    #expect(lateness.first?.contains("d=\"M\(px(x("2026-05-04T08:00:00Z"))),") == true, "\(lateness)")
    #expect(svg.contains("<circle class=\"mk c-dose-completed\" data-mark=\"dose-completed\" data-row=\"actual\" data-count=\"1\" data-subjects=\"met 08:00\" cx=\"\(px(x("2026-05-04T09:00:00Z")))\""))
  }

  @Test func aMissedDoseStaysAtItsDueTimeWithNoLine() throws {
    // Notification permission denied: nothing is ever shown.
    let input = try ReportFixture.input("""
      clock: { start: 2026-05-04T06:00:00Z, end: 2026-05-04T12:00:00Z, timezone: UTC }
      app:
        - { at: 2026-05-04T06:00:00, permission: denied }
      medicines:
        - { id: met, name: Metformin, dosage: 500, unit: mg, times: ["08:00"], snooze: none }
      """)
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    let missed = try #require(chart.marks.first { $0.kind == .doseMissed })
    #expect(abs(missed.x - (chart.plotLeft + (chart.plotRight - chart.plotLeft) / 3)) < 1e-9)
    #expect(missed.dueX == nil)
  }
}

/// Issue 26: every device state is a band: locked until the first unlock, Focus, the phone off, Low Power Mode, offline.
extension ChartDrawingTests {
  static let deviceStatesYAML = """
    clock: { start: 2026-05-04T06:00:00Z, end: 2026-05-04T12:00:00Z, timezone: UTC }
    device:
      focus:
        - { name: Work, daily: { from: "09:00", to: "10:00" }, allowApp: false }
      power:
        - { at: 2026-05-04T07:00:00, event: reboot }
        - { at: 2026-05-04T07:30:00, event: unlock }
        - { at: 2026-05-04T08:00:00, event: low-power-on }
        - { at: 2026-05-04T08:30:00, event: low-power-off }
        - { at: 2026-05-04T10:30:00, event: switch-off }
        - { at: 2026-05-04T11:00:00, event: switch-on }
      network:
        - { at: 2026-05-04T09:30:00, online: false }
        - { at: 2026-05-04T09:45:00, online: true }
    """

  static func bands(_ name: String) throws -> [String] {
    let chart = ChartDrawing(try ReportFixture.input(deviceStatesYAML), coverage: [], options: ReportOptions())
    return chart.bands.filter { $0.name == name }.map(\.label)
  }

  @Test func afterARebootOrASwitchOnThePhoneIsLockedUntilItsFirstUnlock() throws {
    // The reboot takes the platform's boot time (1 min); the switch-on at 11:00 is never followed by an unlock.
    #expect(try Self.bands("locked until first unlock") == [
      "locked until first unlock from 2026-05-04T07:01:00.000+00:00 to 2026-05-04T07:30:00.000+00:00",
      "locked until first unlock from 2026-05-04T11:00:00.000+00:00 to the end",
    ])
    let chart = ChartDrawing(try ReportFixture.input(Self.deviceStatesYAML), coverage: [], options: ReportOptions())
    let svg = ChartSVG.render(chart, title: "t").rendered
    #expect(svg.ranges(of: "<rect class=\"band b-locked\" data-band=\"locked until first unlock\"").count == 2)
  }

  @Test func switchingOffEndsTheLockedBandAndTheUnlockOfAnUnlockedPhoneDrawsNone() throws {
    let input = try ReportFixture.input("""
      clock: { start: 2026-05-04T06:00:00Z, end: 2026-05-04T12:00:00Z, timezone: UTC }
      device:
        power:
          - { at: 2026-05-04T06:30:00, event: unlock }
          - { at: 2026-05-04T07:00:00, event: switch-off }
          - { at: 2026-05-04T08:00:00, event: switch-on }
          - { at: 2026-05-04T09:00:00, event: battery-empty }
      """)
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    #expect(chart.bands.map(\.label) == [
      "phone off from 2026-05-04T07:00:00.000+00:00 to 2026-05-04T08:00:00.000+00:00",
      "locked until first unlock from 2026-05-04T08:00:00.000+00:00 to 2026-05-04T09:00:00.000+00:00",
      "phone off from 2026-05-04T09:00:00.000+00:00 to the end",
    ])
    #expect(chart.bandRows == ["phone off", "locked until first unlock"])
  }

  @Test func thePhoneOffIsABandFromTheSwitchOffOrRebootToTheSwitchOn() throws {
    #expect(try Self.bands("phone off") == [
      "phone off from 2026-05-04T07:00:00.000+00:00 to 2026-05-04T07:01:00.000+00:00",
      "phone off from 2026-05-04T10:30:00.000+00:00 to 2026-05-04T11:00:00.000+00:00",
    ])
  }

  @Test func lowPowerModeIsABand() throws {
    #expect(try Self.bands("Low Power Mode") == ["Low Power Mode from 2026-05-04T08:00:00.000+00:00 to 2026-05-04T08:30:00.000+00:00"])
  }

  @Test func aFocusIsABand() throws {
    #expect(try Self.bands("Focus Work") == ["Focus Work from 2026-05-04T09:00:00.000+00:00 to 2026-05-04T10:00:00.000+00:00"])
  }

  @Test func androidsDozeIsABandFromEntryToTheScreenComingOn() throws {
    // Untouched from 06:00, the phone dozes from 07:00; the unlock at 09:30 ends it, and an hour later it dozes again.
    let input = try ReportFixture.input("""
      clock: { start: 2026-05-04T06:00:00Z, end: 2026-05-04T12:00:00Z, timezone: UTC }
      platform: android
      device:
        power:
          - { at: 2026-05-04T09:30:00, event: unlock }
      """)
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    #expect(chart.bands.filter { $0.name == "Doze" }.map(\.label) == [
      "Doze from 2026-05-04T07:00:00.000+00:00 to 2026-05-04T09:30:00.000+00:00", "Doze from 2026-05-04T10:30:00.000+00:00 to the end",
    ])
    let svg = ChartSVG.render(chart, title: "t").rendered
    #expect(svg.ranges(of: "<rect class=\"band b-doze\" data-band=\"Doze\"").count == 2)
  }

  @Test func theServersAttemptsHaveALanePerChannelAndDevice() throws {
    // Push to the phone and the iPad at 08:00, seen on the phone at once and on the iPad 5 min later;
    // an SMS at 08:30 to an unverified number goes nowhere.
    let input = try ReportFixture.input("""
      clock: { start: 2026-05-04T06:00:00Z, end: 2026-05-04T12:00:00Z, timezone: UTC }
      medicines:
        - { id: met, name: Metformin, dosage: 500, unit: mg, times: ["08:00"], snooze: none }
      policy: { dailyReminders: server }
      server:
        policy: [ { channel: push }, { channel: sms, after: 30m } ]
        sms: { verified: false }
        devices: [ { id: phone }, { id: ipad, platform: ios, seenAfter: 5m } ]
      """)
    let chart = ChartDrawing(input, coverage: [], options: ReportOptions())
    let server = chart.lanes.enumerated().filter { $0.element.group == .server }
    #expect(server.map(\.element.label) == ["push", "push to ipad", "sms"])
    func marks(_ lane: Int) -> [String] { chart.marks.filter { $0.lane == lane }.map { "\($0.kind.rawValue) \($0.subjects.joined())" } }
    #expect(marks(server[0].offset) == ["message-sent met.2026-05-04T08:00.s1.phone", "message-reached met.2026-05-04T08:00.s1.phone"])
    #expect(marks(server[1].offset) == ["message-sent met.2026-05-04T08:00.s1.ipad", "message-reached met.2026-05-04T08:00.s1.ipad"])
    #expect(marks(server[2].offset) == ["message-failed met.2026-05-04T08:00.s2"])
    // The phone's push is not a request lane of its own as well.
    #expect(!chart.lanes.contains { $0.group == .requests && $0.key.hasPrefix("met.") })
    let svg = ChartSVG.render(chart, title: "t").rendered
    #expect(svg.contains("data-mark=\"message-failed\""))
    #expect(svg.contains("server message went nowhere"))
  }

  @Test func offlineIsABand() throws {
    #expect(try Self.bands("offline") == ["offline from 2026-05-04T09:30:00.000+00:00 to 2026-05-04T09:45:00.000+00:00"])
  }
}

extension Int64 {
  fileprivate var asDouble: Double { Double(self) }
}
