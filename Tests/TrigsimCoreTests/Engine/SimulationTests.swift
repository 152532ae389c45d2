import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

@Suite struct SimulationTests {
  /// Runs with the `ideal` location profile: these tests state the engine's
  /// geometric rules (the `ios` profile has its own tests).
  func run(_ scenario: Scenario) throws -> Timeline {
    var scenario = scenario
    scenario.platform.location = .ideal
    return try Simulation(scenario).run()
  }

  @Test func intervalRepeatsAreAnchoredToTheFirstDelivery() throws {
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T12:00:00Z"),
      actions: [Build.add("water", Build.interval(.hours(2), repeats: true), at: "2026-03-28T06:00:00.250Z")]))
    #expect(timeline.entries(.fired).map(\.localInstant) == [
      "2026-03-28T08:00:00.250Z", "2026-03-28T10:00:00.250Z",
    ].map { $0.replacingOccurrences(of: "Z", with: "+00:00") })
  }

  @Test func clockEndIsInclusive() throws {
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T08:00:00Z"),
      actions: [Build.add("water", Build.interval(.hours(1), repeats: true), at: "2026-03-28T06:00:00Z")]))
    #expect(timeline.entries(.fired).count == 2)
    #expect(timeline.entries.last?.localInstant == "2026-03-28T08:00:00.000+00:00")
  }

  @Test func removingAtTheDeliveryInstantPreventsTheDelivery() throws {
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T09:00:00Z"),
      actions: [
        Build.add("pills", Build.interval(.hours(1), repeats: false), at: "2026-03-28T06:00:00Z"),
        Build.remove("pills", at: "2026-03-28T07:00:00Z"),
      ]))
    #expect(timeline.outline == [
      "scheduled pills @ 2026-03-28T06:00:00.000+00:00",
      "removed pills @ 2026-03-28T07:00:00.000+00:00",
    ])
  }

  @Test func removingARequestThatAlreadyDeliveredIsReportedAsAnIgnoredRemoval() throws {
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T09:00:00Z"),
      actions: [
        Build.add("pills", Build.interval(.hours(1), repeats: false), at: "2026-03-28T06:00:00Z"),
        Build.remove("pills", at: "2026-03-28T08:00:00Z"),
      ]))
    #expect(timeline.outline == [
      "scheduled pills @ 2026-03-28T06:00:00.000+00:00",
      "fired pills @ 2026-03-28T07:00:00.000+00:00",
      "warning pills @ 2026-03-28T08:00:00.000+00:00",
    ])
  }

  @Test func oneShotCalendarDateInThePastIsAWarningAndNeverDelivers() throws {
    let past = Trigger.calendar(CalendarTrigger(components: CalendarComponents(year: 2026, month: 3, day: 27, hour: 8), repeats: false))
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-30T00:00:00Z"),
      actions: [Build.add("late", past, at: "2026-03-28T06:00:00Z")]))
    #expect(timeline.outline == ["warning late @ 2026-03-28T06:00:00.000+00:00"])
  }

  @Test func replacingARequestCancelsItsPendingDelivery() throws {
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T12:00:00Z"),
      actions: [
        Build.add("pills", Build.interval(.hours(1), repeats: false), at: "2026-03-28T06:00:00Z"),
        Build.add("pills", Build.interval(.hours(3), repeats: false), at: "2026-03-28T06:30:00Z"),
      ]))
    #expect(timeline.outline == [
      "scheduled pills @ 2026-03-28T06:00:00.000+00:00",
      "replaced pills @ 2026-03-28T06:30:00.000+00:00",
      "scheduled pills @ 2026-03-28T06:30:00.000+00:00",
      "fired pills @ 2026-03-28T09:30:00.000+00:00",
    ])
  }

  @Test func pendingLimitDropsAreInTheTimelineWithTheirReason() throws {
    var platform = PlatformSettings()
    platform.pendingLimit = 2
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T06:30:00Z"),
      actions: ["a", "b", "c"].map { Build.add(NotificationID($0), Build.interval(.hours(1), repeats: false), at: "2026-03-28T06:00:00Z") },
      platform: platform))
    #expect(timeline.outline.last == "dropped a @ 2026-03-28T06:00:00.000+00:00")
    #expect(timeline.entries.last?[field: "reason"]?.hasPrefix("pending limit of 2 reached") == true)
  }

  @Test func floatingCalendarTriggerFollowsTheDeviceTimeZoneAfterTravel() throws {
    let change = TimeZoneChange(instant: Build.instant("2026-03-28T10:00:00Z"), timeZone: Build.zone("America/New_York"))
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-29T18:00:00Z", zone: "Europe/Copenhagen", changes: [change]),
      actions: [
        Build.add("floating", Build.daily(hour: 8), at: "2026-03-28T06:00:00Z"),
        Build.add("fixed", Build.daily(hour: 8, timeZone: "Europe/Copenhagen"), at: "2026-03-28T06:00:00Z"),
      ]))
    // Both fire at 08:00 Copenhagen (07:00Z) on the 28th; after the move the
    // floating one fires at 08:00 New York (12:00Z) and the fixed one stays at 08:00 Copenhagen
    // (06:00Z on the 29th, after the EU spring-forward, = 02:00 New York).
    #expect(timeline.entries(.fired).map { "\($0.subject) \($0.instant)" } == [
      "floating 2026-03-28T07:00:00.000Z", "fixed 2026-03-28T07:00:00.000Z",
      "floating 2026-03-28T12:00:00.000Z", "fixed 2026-03-29T06:00:00.000Z",
      "floating 2026-03-29T12:00:00.000Z",
    ])
    #expect(timeline.entries(.rescheduled).map(\.subject) == ["floating"])
  }

  @Test func regionTriggerFiresAtTheCrossingInstantOnlyForItsEventKind() throws {
    let track = InMemoryTrack(samples: [
      Build.fix("2026-03-28T06:00:00Z", 55.0, 12.0),
      Build.fix("2026-03-28T06:00:10Z", 56.0, 12.0),  // crosses 55.5 at 06:00:05
      Build.fix("2026-03-28T06:00:20Z", 55.0, 12.0),  // back at 06:00:15
    ])
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T07:00:00Z"),
      regions: [MonitoredRegion(id: "north", shape: NorthOfLatitude(55.5))],
      actions: [Build.add("arrive", .region(RegionTrigger(region: "north", notifyOnEntry: true, notifyOnExit: false, repeats: false)), at: "2026-03-28T06:00:00Z")],
      track: track))
    #expect(timeline.outline == [
      "scheduled arrive @ 2026-03-28T06:00:00.000+00:00",
      "enter north @ 2026-03-28T06:00:05.000+00:00",
      "fired arrive @ 2026-03-28T06:00:05.000+00:00",
      "exit north @ 2026-03-28T06:00:15.000+00:00",
      "warning track @ 2026-03-28T06:00:20.000+00:00",
    ])
  }

  @Test func beingInsideWhenTheTrackStartsGivesNoEntry() throws {
    let track = InMemoryTrack(samples: [
      Build.fix("2026-03-28T06:00:00Z", 56.0, 12.0),
      Build.fix("2026-03-28T06:00:10Z", 55.0, 12.0),
    ])
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T07:00:00Z"),
      regions: [MonitoredRegion(id: "north", shape: NorthOfLatitude(55.5))], track: track))
    #expect(timeline.outline == ["exit north @ 2026-03-28T06:00:05.000+00:00", "warning track @ 2026-03-28T06:00:10.000+00:00"])
  }

  @Test func acrossAGapNoCrossingIsInterpolatedAndTheChangeIsReportedAtTheNextFix() throws {
    var platform = PlatformSettings()
    platform.trackGapLimit = .minutes(1)
    let track = InMemoryTrack(samples: [
      Build.fix("2026-03-28T06:00:00Z", 55.0, 12.0),
      Build.fix("2026-03-28T06:05:00Z", 56.0, 12.0),
    ])
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T07:00:00Z"),
      regions: [MonitoredRegion(id: "north", shape: NorthOfLatitude(55.5))], track: track, platform: platform))
    #expect(timeline.outline == [
      "gap track @ 2026-03-28T06:05:00.000+00:00", "enter north @ 2026-03-28T06:05:00.000+00:00",
      "warning track @ 2026-03-28T06:05:00.000+00:00",
    ])
    #expect(timeline.entries[1][field: "cause"] == "position known again after a gap")
  }

  @Test func aSegmentBreakIsAGapEvenWhenShort() throws {
    let track = InMemoryTrack(samples: [
      Build.fix("2026-03-28T06:00:00Z", 55.0, 12.0),
      Build.fix("2026-03-28T06:00:10Z", 56.0, 12.0, startsSegment: true),
    ])
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T07:00:00Z"),
      regions: [MonitoredRegion(id: "north", shape: NorthOfLatitude(55.5))], track: track))
    #expect(timeline.outline == [
      "gap track @ 2026-03-28T06:00:10.000+00:00", "enter north @ 2026-03-28T06:00:10.000+00:00",
      "warning track @ 2026-03-28T06:00:10.000+00:00",
    ])
    #expect(timeline.entries[0][field: "reason"] == "new track segment")
  }

  @Test func crossingsBeforeTheClockStartSetTheSideSilently() throws {
    let track = InMemoryTrack(samples: [
      Build.fix("2026-03-28T05:59:50Z", 55.0, 12.0),
      Build.fix("2026-03-28T06:00:10Z", 56.0, 12.0),  // crosses at 06:00:00 exactly
      Build.fix("2026-03-28T06:00:20Z", 57.0, 12.0),
    ])
    let timeline = try run(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00.001Z", "2026-03-28T07:00:00Z"),
      regions: [MonitoredRegion(id: "north", shape: NorthOfLatitude(55.5))], track: track))
    // No `enter`: only the coverage warning that the track ends before the clock does.
    #expect(timeline.outline == ["warning track @ 2026-03-28T06:00:20.000+00:00"])
  }

  @Test func identicalInputGivesByteIdenticalOutput() throws {
    func make() -> Scenario {
      Scenario(
        name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-30T06:00:00Z", zone: "Europe/Copenhagen"),
        actions: (0..<10).map { Build.add(NotificationID("r\($0)"), Build.daily(hour: 8, minute: $0), at: "2026-03-28T06:00:00Z") })
    }
    let first = try run(make()).canonicalText
    let second = try run(make()).canonicalText
    #expect(first == second)
    #expect(first.contains("fired       r9"))
  }
}

@Suite struct RepeatingTriggerEndTests {
  @Test func repeatingCalendarTriggerPinnedToAYearStopsAfterItsLastMatch() throws {
    let yearly = Trigger.calendar(CalendarTrigger(components: CalendarComponents(year: 2026, month: 12, day: 31, hour: 9), repeats: true))
    let timeline = try Simulation(Scenario(
      name: "t", clock: Build.clock("2026-12-30T00:00:00Z", "2028-01-01T00:00:00Z"),
      actions: [Build.add("new-year", yearly, at: "2026-12-30T00:00:00Z")])).run()
    #expect(timeline.entries(.fired).count == 1)
    #expect(timeline.entries(.fired).first?[field: "next"] == "none")
  }
}

@Suite struct SimulationReviewFollowUpTests {
  @Test func floatingOneShotWhoseLocalTimeHasPassedAfterAZoneChangeNeverDelivers() throws {
    // 03:00 on 2 June, set in New York; the device moves to Copenhagen at 04:00 CEST (22:00 New York, 1 June):
    // 03:00 on 2 June has passed in Copenhagen.
    let oneShot = Trigger.calendar(CalendarTrigger(components: CalendarComponents(year: 2026, month: 6, day: 2, hour: 3), repeats: false))
    let change = TimeZoneChange(instant: Build.instant("2026-06-02T04:00:00+02:00"), timeZone: Build.zone("Europe/Copenhagen"))
    let timeline = try Simulation(Scenario(
      name: "t", clock: Build.clock("2026-06-01T12:00:00-04:00", "2026-06-03T00:00:00-04:00", zone: "America/New_York", changes: [change]),
      actions: [Build.add("dose", oneShot, at: "2026-06-01T12:00:00-04:00")])).run()
    #expect(timeline.outline == [
      "scheduled dose @ 2026-06-01T12:00:00.000-04:00",
      "timezone Europe/Copenhagen @ 2026-06-02T04:00:00.000+02:00",
      "warning dose @ 2026-06-02T04:00:00.000+02:00",
    ])
  }

  @Test func visitsAreCountedFromTheClockStartEvenWhenFixesStartEarlier() throws {
    let track = InMemoryTrack(samples: [
      Build.fix("2026-03-28T05:00:00Z", 55.0, 12.0),
      Build.fix("2026-03-28T05:00:10Z", 56.0, 12.0),  // enter before the start
      Build.fix("2026-03-28T06:00:10Z", 56.0, 12.0),
      Build.fix("2026-03-28T06:00:20Z", 55.0, 12.0),  // exit at 06:00:15
      Build.fix("2026-03-28T06:00:30Z", 56.0, 12.0),  // enter at 06:00:25
    ])
    let timeline = try Simulation(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T07:00:00Z"),
      regions: [MonitoredRegion(id: "north", shape: NorthOfLatitude(55.5))], track: track, platform: .idealLocation)).run()
    // The hour without fixes before the start is a gap (inside before and after it: no crossing).
    #expect(timeline.entries.map { "\($0.kind.rawValue) visit=\($0[field: "visit"] ?? "-")" } == ["gap visit=-", "exit visit=1", "enter visit=2", "warning visit=-"])
  }

  /// Every phase at one instant: the zone change first, then the app's add and
  /// removal, then the crossing with its location delivery, then time deliveries.
  @Test func eventsAtOneInstantFollowTheDocumentedOrder() throws {
    let t = "2026-03-28T06:10:00Z"
    let track = InMemoryTrack(samples: [
      Build.fix("2026-03-28T06:09:50Z", 55.0, 12.0),
      Build.fix("2026-03-28T06:10:00Z", 56.0, 12.0),  // crosses 55.5 at 06:09:55 ...
    ])
    let track2 = InMemoryTrack(samples: track.samples.map { sample in
      var moved = sample
      moved.coordinate.latitude = sample.coordinate.latitude == 55.0 ? 55.0 : 55.5  // ... or exactly at 06:10:00
      return moved
    })
    let timeline = try Simulation(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T06:30:00Z", zone: "UTC",
                                    changes: [TimeZoneChange(instant: Build.instant(t), timeZone: Build.zone("Europe/London"))]),
      regions: [MonitoredRegion(id: "north", shape: NorthOfLatitude(55.5))],
      actions: [
        Build.add("interval", Build.interval(.minutes(10), repeats: false), at: "2026-03-28T06:00:00Z"),
        Build.add("calendar", .calendar(CalendarTrigger(components: CalendarComponents(hour: 6, minute: 10), repeats: false)), at: "2026-03-28T06:00:00Z"),
        Build.add("doomed", Build.interval(.minutes(10), repeats: false), at: "2026-03-28T06:00:00Z"),
        Build.add("arrive", .region(RegionTrigger(region: "north", notifyOnExit: false, repeats: false)), at: t),
        Build.remove("doomed", at: t),
      ],
      track: track2, platform: .idealLocation)).run()
    #expect(timeline.outline.filter { $0.hasSuffix("06:10:00.000+00:00") } == [
      "timezone Europe/London @ 2026-03-28T06:10:00.000+00:00",
      "scheduled arrive @ 2026-03-28T06:10:00.000+00:00",
      "removed doomed @ 2026-03-28T06:10:00.000+00:00",
      "enter north @ 2026-03-28T06:10:00.000+00:00",
      "fired arrive @ 2026-03-28T06:10:00.000+00:00",
      "fired interval @ 2026-03-28T06:10:00.000+00:00",
      "fired calendar @ 2026-03-28T06:10:00.000+00:00",
      "warning track @ 2026-03-28T06:10:00.000+00:00",
    ])
  }

  @Test func gapReasonSaysBothWhenASegmentBreakIsAlsoLong() throws {
    var platform = PlatformSettings()
    platform.trackGapLimit = .minutes(1)
    let track = InMemoryTrack(samples: [
      Build.fix("2026-03-28T06:00:00Z", 55.0, 12.0),
      Build.fix("2026-03-28T06:05:00Z", 55.0, 12.0, startsSegment: true),
    ])
    let timeline = try Simulation(Scenario(
      name: "t", clock: Build.clock("2026-03-28T06:00:00Z", "2026-03-28T07:00:00Z"), track: track, platform: platform)).run()
    #expect(timeline.entries.first?[field: "reason"] == "new track segment after no fix for 5m")
  }

  // MARK: - Coverage warnings

  /// A standing device with a fix every minute from the first to the last of `fixes` (no gap).
  func coverageRun(clock: (String, String), fixes: [String]) throws -> Timeline {
    let first = Build.instant(fixes[0])
    let last = Build.instant(fixes[fixes.count - 1])
    let samples = stride(from: first.millisecondsSinceEpoch, through: last.millisecondsSinceEpoch, by: 60_000).map {
      TrackSample(instant: SimulationInstant(millisecondsSinceEpoch: $0), coordinate: Coordinate(latitude: 55.0, longitude: 12.0))
    }
    let track = InMemoryTrack(samples: samples)
    return try Simulation(Scenario(name: "t", clock: Build.clock(clock.0, clock.1), track: track, platform: .idealLocation)).run()
  }

  @Test func aClockStartingBeforeTheFirstFixIsWarnedAtTheFirstFixWithTheUnknownSpan() throws {
    let timeline = try coverageRun(clock: ("2026-03-28T06:00:00Z", "2026-03-28T07:00:00Z"), fixes: ["2026-03-28T06:30:00Z", "2026-03-28T07:00:00Z"])
    #expect(timeline.outline == ["warning track @ 2026-03-28T06:30:00.000+00:00"])
    #expect(timeline.entries[0][field: "reason"] == "the position was unknown from the clock's start (2026-03-28T06:00:00.000+00:00) to the track's first fix at 2026-03-28T06:30:00.000+00:00, 30m later: no region was monitored and no location trigger could fire before it")
  }

  @Test func aClockEndingAfterTheLastFixIsWarnedAtTheLastFix() throws {
    let timeline = try coverageRun(clock: ("2026-03-28T06:00:00Z", "2026-03-28T07:00:00Z"), fixes: ["2026-03-28T06:00:00Z", "2026-03-28T06:45:00Z"])
    #expect(timeline.outline == ["warning track @ 2026-03-28T06:45:00.000+00:00"])
    #expect(timeline.entries[0][field: "reason"] == "the track ends at 2026-03-28T06:45:00.000+00:00, 15m before the clock's end (2026-03-28T07:00:00.000+00:00): from then on the device stays at its last fix, so no region is entered or left")
  }

  @Test func aTrackBeforeTheClockOrAfterItIsWarnedOnce() throws {
    let before = try coverageRun(clock: ("2026-06-01T06:00:00Z", "2026-06-01T07:00:00Z"), fixes: ["2026-05-01T06:00:00Z", "2026-05-01T07:00:00Z"])
    #expect(before.outline == ["warning track @ 2026-06-01T06:00:00.000+00:00"])
    #expect(before.entries[0][field: "reason"] == "the track ends at 2026-05-01T07:00:00.000+00:00, before the clock starts: the device stays at its last fix for the whole run, so no region is entered or left")
    let after = try coverageRun(clock: ("2026-04-01T06:00:00Z", "2026-04-01T07:00:00Z"), fixes: ["2026-05-01T06:00:00Z", "2026-05-01T07:00:00Z"])
    #expect(after.outline == ["warning track @ 2026-04-01T07:00:00.000+00:00"])
    #expect(after.entries[0][field: "reason"] == "the track starts at 2026-05-01T06:00:00.000+00:00, after the clock's end: the position is never known during the run, so no region is entered or left and no location trigger can fire")
  }

  @Test func aTrackCoveringTheClockIsNotWarned() throws {
    let timeline = try coverageRun(clock: ("2026-03-28T06:00:00Z", "2026-03-28T07:00:00Z"), fixes: ["2026-03-28T06:00:00Z", "2026-03-28T07:00:00Z"])
    #expect(timeline.entries.isEmpty)
  }
}
