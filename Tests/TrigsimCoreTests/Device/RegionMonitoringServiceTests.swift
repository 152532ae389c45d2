import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// One test per rule of the `ios` location profile (`RegionMonitoringService`).
/// Tracks run along the meridian through a region's centre, so distances from
/// the centre are the metres written in each test.
@Suite struct RegionMonitoringRuleTests {
  static let centre = Coordinate(latitude: 55.67, longitude: 12.56)
  static let start = Build.instant("2026-05-04T06:00:00Z")

  /// A fix every second: `north(t)` metres north of the centre (negative: south) at second t.
  static func track(seconds: Int, accuracy: Double? = nil, _ north: (Int) -> Double) -> InMemoryTrack {
    InMemoryTrack(samples: (0...seconds).map { t in
      let y = north(t)
      let position = y == 0 ? centre : Geodesic.destination(from: centre, azimuth: y > 0 ? 0 : 180, distance: abs(y))
      return TrackSample(instant: start.advanced(by: .seconds(Int64(t))), coordinate: position, horizontalAccuracy: accuracy)
    })
  }

  /// Fixes at the given seconds, `north` metres north of the centre (negative: south).
  static func fixes(_ points: [(second: Int, north: Double)], accuracy: Double? = nil) -> InMemoryTrack {
    InMemoryTrack(samples: points.map { point in
      let y = point.north
      let position = y == 0 ? centre : Geodesic.destination(from: centre, azimuth: y > 0 ? 0 : 180, distance: abs(y))
      return TrackSample(instant: start.advanced(by: .seconds(Int64(point.second))), coordinate: position, horizontalAccuracy: accuracy)
    })
  }

  /// Runs a repeating location request (on entry, or on exit with `onExit`) on one region of
  /// `radius`, the app in the foreground unless `background`.
  /// The rules these tests were written against: the defaults before issue
  /// 42 calibrated them (latency 2 minutes, background accuracy ±65 m), pinned
  /// so that each test checks its rule, not a default (the calibration
  /// corpus holds the defaults against their sources).
  static let pinned: RegionMonitoringRules = {
    var rules = RegionMonitoringRules()
    rules.latency = .minutes(2)
    rules.backgroundAccuracy = 65
    return rules
  }()

  static func run(
    _ track: InMemoryTrack, radius: Double = 100, rules: RegionMonitoringRules = RegionMonitoringRuleTests.pinned, background: Bool = false,
    polygon: (any RegionShape)? = nil, appChanges: [AppChange] = [], onExit: Bool = false
  ) throws -> Timeline {
    var platform = PlatformSettings()
    platform.location = .ios(rules)
    let end = track.samples.last!.instant.advanced(by: .minutes(10))
    var changes = appChanges
    if !background { changes.insert(AppChange(instant: start, state: .foreground), at: 0) }
    return try Simulation(Scenario(
      name: "rule", clock: ClockSettings(start: start, end: end, timeZone: TimeZone(identifier: "UTC")!),
      regions: [MonitoredRegion(id: "place", shape: polygon ?? CircularRegion(center: centre, radius: radius))],
      actions: [ScheduledAppAction(instant: start, action: .add(NotificationRequest(
        id: "here", title: "", trigger: .region(RegionTrigger(region: "place", notifyOnEntry: !onExit, notifyOnExit: onExit, repeats: true)))))],
      track: track, platform: platform, medicineApp: MedicineApp(appChanges: changes))).run()
  }

  static func seconds(_ entry: TimelineEntry) -> Double { Double(entry.instant.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / 1000 }

  @Test func anEntryIsReportedOnceTheMarginIsHeldForTheDwellThenAfterTheLatency() throws {
    // 1 m/s northwards from 200 m south: the boundary at 100 s, 50 m inside at 150 s,
    // held 20 s: the condition holds at 170 s, reported 2 minutes later.
    let timeline = try Self.run(Self.track(seconds: 400) { t in min(0, Double(t) - 200) })
    let enter = try #require(timeline.entries(.enter).first)
    let detected = try #require(timeline.entries(.detected).first)
    let fired = try #require(timeline.entries(.fired).first)
    #expect(abs(Self.seconds(enter) - 100) < 0.002)
    #expect(abs(Self.seconds(detected) - 290) < 0.002)
    #expect(fired.instant == detected.instant)
    #expect(detected[field: "reason"] == "50m inside for 20s; then 2m latency")
    #expect(detected[field: "event"] == "enter" && detected[field: "visit"] == "1")
  }

  @Test func aPassShorterThanTheDwellIsNotDetected() throws {
    // 15 m/s straight through the centre: 50 m inside for 6.7 s.
    let timeline = try Self.run(Self.track(seconds: 40) { t in 15 * Double(t) - 300 })
    #expect(timeline.entries(.fired).isEmpty)
    let undetected = try #require(timeline.entries(.undetected).first)
    #expect(undetected[field: "reason"]?.hasSuffix("less than the 20s dwell") == true)
    // A 5 s dwell is short enough for the same pass.
    var rules = Self.pinned
    rules.dwell = .seconds(5)
    #expect(try Self.run(Self.track(seconds: 40) { t in 15 * Double(t) - 300 }, rules: rules).entries(.fired).count == 1)
  }

  @Test func aRegionSmallerThanTheMinimumRadiusIsMonitoredAtThatRadius() throws {
    // A 30 m circle; the walk stops 40 m south of the centre, never inside it.
    let timeline = try Self.run(Self.track(seconds: 400) { t in min(-40, Double(t) - 200) }, radius: 30)
    #expect(timeline.entries(.enter).isEmpty)
    #expect(timeline.entries(.warning).first?[field: "reason"]?.hasPrefix("radius 30m is below the minimum effective radius of 100m") == true)
    let detected = try #require(timeline.entries(.detected).first)
    #expect(detected[field: "reason"]?.contains("monitored as 100m") == true)
    #expect(timeline.entries(.fired).count == 1)
  }

  @Test func aFixsAccuracyRaisesTheMarginItMustClear() throws {
    // From 300 m north, parked 40 m north of the centre (60 m inside): enough with ±10 m fixes, not with ±80 m.
    let park: (Int) -> Double = { t in max(40, 300 - Double(t)) }
    #expect(try Self.run(Self.track(seconds: 600, accuracy: 10, park)).entries(.fired).count == 1)
    let coarse = try Self.run(Self.track(seconds: 600, accuracy: 80, park))
    #expect(coarse.entries(.fired).isEmpty)
    #expect(coarse.entries(.undetected).first?[field: "reason"]?.contains("never 80m inside the boundary (fix accuracy ±80m exceeds the 50m margin)") == true)
  }

  @Test func aRegionNoLargerThanTheAccuracyIsNeverEntered() throws {
    let timeline = try Self.run(Self.track(seconds: 900, accuracy: 100) { t in min(0, Double(t) - 200) })
    #expect(timeline.entries(.fired).isEmpty)
    #expect(timeline.entries(.undetected).count == 1)
  }

  @Test func aRegionNoLargerThanTheEntryMarginOrTheAssumedAccuracyIsNeverEnteredAsItsWarningSays() throws {
    let walkToTheCentre = Self.track(seconds: 400) { t in min(0, Double(t) - 200) }
    // A 0 m circle with no minimum radius, no margins and exact fixes: the path reaches its centre
    // (the geometry enters it), but no position is confidently inside it.
    var zero = RegionMonitoringRules()
    zero.minimumRadius = 0
    zero.entryMargin = 0
    zero.exitMargin = 0
    zero.assumedAccuracy = 0
    let point = try Self.run(walkToTheCentre, radius: 0, rules: zero)
    // (The run's clock goes on 10 minutes past the track, so it also has the track's coverage warning.)
    #expect(point.entries(.warning).filter { $0.subject != "track" }.map { $0[field: "reason"] } == [
      "the entry margin of 0m is not smaller than the effective radius of 0m: entries are never detected",
    ])
    #expect(point.entries(.enter).count == 1)
    #expect(point.entries(.detected).isEmpty && point.entries(.fired).isEmpty)
    // A 10 m circle, a 5 m margin, fixes without accuracy assumed ±10 m: never entered, and warned.
    var small = Self.pinned
    small.minimumRadius = 0
    small.entryMargin = 5
    let assumed = try Self.run(walkToTheCentre, radius: 10, rules: small)
    #expect(assumed.entries(.warning).filter { $0.subject != "track" }.map { $0[field: "reason"] } == [
      "the effective radius of 10m is not larger than the assumed fix accuracy of ±10m: fixes without a better accuracy never place the device inside it",
    ])
    #expect(assumed.entries(.fired).isEmpty)
    // Fixes of ±2 m do.
    let accurate = try Self.run(Self.track(seconds: 400, accuracy: 2) { t in min(0, Double(t) - 200) }, radius: 10, rules: small)
    #expect(accurate.entries(.fired).count == 1)
  }

  @Test func coarseUpdatesDoNotSeeAPassBetweenTwoUpdates() throws {
    // 4 m/s from 348 m south: inside from 62 s to 112 s; background updates at 0, 60 and 120 s.
    let pass: (Int) -> Double = { t in 4 * Double(t) - 348 }
    let background = try Self.run(Self.track(seconds: 200, pass), background: true)
    #expect(background.entries(.fired).isEmpty)
    #expect(background.entries(.undetected).first?[field: "reason"] == "inside 50s between two location updates")
    // Continuous updates (the app in the foreground) see the same pass: 25 s 50 m inside.
    #expect(try Self.run(Self.track(seconds: 200, pass)).entries(.fired).count == 1)
  }

  @Test func withCoarseUpdatesTheUndetectedReasonStatesTheUpdatesThatSawTheMargin() throws {
    // Background, 2 m/s from 250 m south: inside from 75 s to 175 s; of the updates at 60, 120 and 180 s
    // only the one at 120 s (10 m south) sees the device 65 m inside (the margin at the background
    // accuracy of ±65 m): one update, no dwell.
    let pass = try Self.run(Self.track(seconds: 300) { t in 2 * Double(t) - 250 }, background: true)
    #expect(pass.entries(.fired).isEmpty)
    #expect(pass.entries(.undetected).first?[field: "reason"] == "inside 1m40s, 65m inside at only one location update, less than the 20s dwell")
    // Foreground updates every 7 s, 2.5 m/s from 250 m south: 50 m inside from 80 s to 120 s, seen at
    // the six updates from 84 s to 119 s, 35 s apart: not the 45 s dwell.
    var every7s = Self.pinned
    every7s.foregroundInterval = .seconds(7)
    every7s.dwell = .seconds(45)
    let walk = try Self.run(Self.track(seconds: 200) { t in 2.5 * Double(t) - 250 }, rules: every7s)
    #expect(walk.entries(.fired).isEmpty)
    #expect(walk.entries(.undetected).first?[field: "reason"] == "inside 1m20s, 50m inside for 35s (6 location updates), less than the 45s dwell")
  }

  @Test func withCoarseUpdatesTheDwellEndsAtAnUpdate() throws {
    // Background, 1 m/s from 200 m south: 50 m inside at 150 s; updates at 180 s (first confirming)
    // and 240 s (at least 20 s later): the condition holds at 240 s, reported at 360 s.
    let timeline = try Self.run(Self.track(seconds: 400) { t in min(0, Double(t) - 200) }, background: true)
    let detected = try #require(timeline.entries(.detected).first)
    #expect(Self.seconds(detected) == 360)
  }

  @Test func backgroundUpdatesUseThePositionAtTheLastUpdateNotTheSegmentEnd() throws {
    // One fix 300 m south, the next at the centre 90 s later, then the device stays there.
    // The update at 60 s sees the boundary (100 m south: not 50 m inside); the device is
    // 65 m inside (the background accuracy) at the updates at 120 s (first confirming) and 180 s:
    // condition 180 s, reported at 300 s.
    let track = Self.fixes([(0, -300)] + (90...400).map { ($0, 0) })
    let timeline = try Self.run(track, background: true)
    let detected = try #require(timeline.entries(.detected).first)
    #expect(Self.seconds(detected) == 300)
    #expect(detected[field: "reason"] == "65m inside for 1m; then 2m latency")
    #expect(timeline.entries(.undetected).isEmpty)
  }

  @Test func afterTheLastFixTheDeviceObservesItsLastPositionAtTheUpdatesOfTheModeInEffect() throws {
    // 3 m/s from 300 m south; the track ends at the centre at 100 s, the run 10 minutes later.
    let arrival = Self.fixes((0...100).map { ($0, 3 * Double($0) - 300) })
    // Background (1 min): 120 m south at 60 s; the updates at 120 s (first confirming) and 180 s
    // see the last position: condition 180 s, reported at 300 s.
    let background = try Self.run(arrival, background: true)
    #expect(background.entries(.detected).map(Self.seconds) == [300])
    #expect(background.entries(.undetected).isEmpty)
    // Foreground updates every 45 s: 30 m south at 90 s (first confirming); the next update at or
    // after 110 s is 135 s (not 120 s of the background grid): reported at 255 s.
    var every45s = Self.pinned
    every45s.foregroundInterval = .seconds(45)
    let foreground = try Self.run(arrival, rules: every45s)
    #expect(foreground.entries(.detected).map(Self.seconds) == [255])
    #expect(foreground.entries(.detected).first?[field: "reason"] == "50m inside for 45s; then 2m latency")
    // Continuous: 50 m inside from 83.334 s, held 20 s after the last fix: reported at 223.334 s.
    let continuous = try Self.run(arrival)
    #expect(continuous.entries(.detected).map(Self.seconds) == [223.334])
  }

  @Test func aDwellBegunAtACoarseUpdateCompletesNoEarlierThanTheContinuousUpdatesThatFollow() throws {
    // Background, 1 m/s from 200 m south to the centre: the update at 180 s is the first confirming
    // one (20 m south). The app comes to the foreground at 230 s, before the next update (240 s):
    // the device learns its position continuously only from then on, so the dwell (due at 200 s)
    // completes at 230 s, reported at 350 s. The margin is the background accuracy's 65 m: the
    // segment that ends in the foreground is judged at the worse accuracy of its two ends.
    let walk = Self.track(seconds: 400) { t in min(0, Double(t) - 200) }
    let timeline = try Self.run(walk, background: true, appChanges: [AppChange(instant: Self.start.advanced(by: .seconds(230)), state: .foreground)])
    let detected = try #require(timeline.entries(.detected).first)
    #expect(Self.seconds(detected) == 350)
    #expect(detected[field: "reason"] == "65m inside for 50s; then 2m latency")
  }

  @Test func anExitNeedsTheExitMarginOutside() throws {
    // From the centre out to 140 m (40 m outside) for 5 minutes: no exit; then out to 300 m.
    let timeline = try Self.run(Self.track(seconds: 1000) { t in
      t < 500 ? min(140, Double(t)) : min(300, 140 + Double(t - 500))
    }, onExit: true)
    let detected = try #require(timeline.entries(.detected).first)
    #expect(detected[field: "event"] == "exit")
    // 150 m (50 m outside) at 510 s, held 20 s, then 2 minutes.
    #expect(abs(Self.seconds(detected) - 650) < 0.002)
    #expect(timeline.entries(.exit).count == 1 && abs(Self.seconds(timeline.entries(.exit)[0]) - 100) < 0.002)
  }

  @Test func aShortTripOutIsNotSeenSoTheReturnIsNoArrival() throws {
    // Inside from the first fix; out to 130 m and back within 3 minutes.
    let walk: (Int) -> Double = { t in t < 100 ? 0 : t < 230 ? min(130, Double(t - 100)) : max(0, 130 - Double(t - 230)) }
    let timeline = try Self.run(Self.track(seconds: 600, walk))
    #expect(timeline.entries(.fired).isEmpty)
    #expect(try Self.run(Self.track(seconds: 600, walk), onExit: true).entries(.fired).isEmpty)
    let undetected = timeline.entries(.undetected)
    #expect(undetected.map { $0[field: "event"] ?? "" } == ["exit", "enter"])
    #expect(undetected[1][field: "reason"] == "the device never detected the exit of visit 1, so for it the device never left")
  }

  @Test func anEntryTheDeviceMissedLeavesItOutsideSoTheExitIsNoDepartureEither() throws {
    // 15 m/s straight through the centre: the entry is undetected, so for the device the exit is none.
    // An exit-only request hears why: the missed entry, then the exit it explains.
    let pass = Self.track(seconds: 40) { t in 15 * Double(t) - 300 }
    let exits = try Self.run(pass, onExit: true)
    #expect(exits.entries(.fired).isEmpty)
    #expect(exits.entries(.undetected).map { "\($0[field: "event"] ?? "") \($0[field: "visit"] ?? "") \($0[field: "reason"] ?? "")" } == [
      "enter 1 inside 13.333s, 50m inside for 6.667s, less than the 20s dwell",
      "exit 1 the device never detected the entry of visit 1, so for it the device never entered",
    ])
    #expect(exits.entries(.undetected).allSatisfy { $0.instant == exits.entries(.exit)[0].instant })
    // An entry-only request hears only about the entry.
    #expect(try Self.run(pass).entries(.undetected).map { $0[field: "event"] } == ["enter"])
  }

  @Test func anUndetectedCrossingIsReportedNoEarlierThanTheRegionsDetectionStillOnItsWay() throws {
    // From the centre north at 1 m/s: the exit is detected at 170 s and reported at 290 s. Meanwhile
    // the device comes back (in at 220 s, 60 m north at 228 s) and leaves again at 236 s: that entry is
    // undetected, but the device cannot say so before it has reported the exit: at 290 s, after it.
    let walk: (Int) -> Double = { t in t <= 200 ? Double(t) : t <= 228 ? 200 - 5 * Double(t - 200) : min(300, 60 + 5 * Double(t - 228)) }
    let timeline = try Self.run(Self.track(seconds: 600, walk))
    #expect(timeline.entries.filter { $0.kind == .detected || $0.kind == .undetected }.map { "\($0.kind.rawValue) \($0[field: "event"] ?? "") \(Self.seconds($0))" } == [
      "detected exit 290.0", "undetected enter 290.0",
    ])
  }

  @Test func aDeviceAlreadyInsideAtTheFirstFixReportsNoEntry() throws {
    let timeline = try Self.run(Self.track(seconds: 600) { _ in 0 })
    #expect(timeline.entries(.detected).isEmpty && timeline.entries(.undetected).isEmpty && timeline.entries(.fired).isEmpty)
  }

  @Test func polygonRegionsAreNotMonitored() throws {
    let square = SquareRegion(centre: Self.centre, halfSide: 100)
    let timeline = try Self.run(Self.track(seconds: 600) { t in min(0, Double(t) - 200) }, polygon: square)
    #expect(timeline.entries(.warning).first?[field: "reason"]?.hasPrefix("the ios profile monitors circular regions only") == true)
    #expect(timeline.entries(.enter).count == 1)
    #expect(timeline.entries(.fired).isEmpty)
    #expect(timeline.entries(.undetected).first?[field: "reason"] == "not a circle: iOS monitors circular regions only")
  }

  @Test func deniedOrApproximateLocationStopsLocationTriggersWithAWarning() throws {
    let walk: (Int) -> Double = { t in min(0, Double(t) - 200) }
    for change in [AppChange(instant: Self.start, location: .denied), AppChange(instant: Self.start, locationAccuracy: .approximate),
                   AppChange(instant: Self.start, location: .notDetermined)] {
      let timeline = try Self.run(Self.track(seconds: 400, walk), appChanges: [change])
      #expect(timeline.entries(.fired).isEmpty)
      #expect(timeline.entries(.warning).first?[field: "reason"]?.hasPrefix("never fires while ") == true)
      #expect(timeline.entries(.suppressed).count == 1)
    }
    // `always` monitors as `when-in-use` does.
    let always = try Self.run(Self.track(seconds: 400, walk), appChanges: [AppChange(instant: Self.start, location: .always)])
    #expect(always.entries(.fired).count == 1)
  }
}

/// A square in latitude and longitude around a centre: a polygon-like shape
/// that is not a circle, for the circles-only rule.
final class SquareRegion: RegionShape {
  let low: Coordinate, high: Coordinate
  init(centre: Coordinate, halfSide metres: Double) {
    let south = Geodesic.destination(from: centre, azimuth: 180, distance: metres)
    let north = Geodesic.destination(from: centre, azimuth: 0, distance: metres)
    let west = Geodesic.destination(from: centre, azimuth: 270, distance: metres)
    let east = Geodesic.destination(from: centre, azimuth: 90, distance: metres)
    low = Coordinate(latitude: south.latitude, longitude: west.longitude)
    high = Coordinate(latitude: north.latitude, longitude: east.longitude)
  }
  func contains(_ c: Coordinate) -> Bool {
    c.latitude >= low.latitude && c.latitude <= high.latitude && c.longitude >= low.longitude && c.longitude <= high.longitude
  }
  func appendCrossings(from a: TrackSample, to b: TrackSample, insideAtStart: Bool, into crossings: inout [BoundaryCrossing]) {
    if contains(b.coordinate) != insideAtStart { crossings.append(BoundaryCrossing(instant: b.instant, entering: !insideAtStart)) }
  }
  var summary: String { "square" }
}
