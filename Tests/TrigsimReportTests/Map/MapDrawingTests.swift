import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimReport

/// The map of a walk east through a circle and a polygon, with a pause
/// longer than the gap limit and a timer that fires before the first fix.
@Suite struct MapDrawingTests {
  static let yaml = """
    clock: { start: 2026-03-28T05:50:00Z, end: 2026-03-28T07:00:00Z, timezone: UTC }
    platform: { location: ideal }
    regions:
      - { id: shop, center: [55.68, 12.572], radius: 50 }
      - { id: park, polygon: [[55.6795, 12.5745], [55.6805, 12.5745], [55.6805, 12.5755], [55.6795, 12.5755]] }
    notifications:
      - { id: buy, title: Buy milk, trigger: { region: shop, on: [enter] } }
      - { id: tea, title: Tea, trigger: { interval: 5m, repeats: true } }
    """

  /// 06:00–06:10 walking east, ten minutes without a fix, 06:20–06:30 walking on.
  static func fixes() -> [TrackSample] {
    let first = ReportFixture.walkEast(minutes: 10)
    let second = ReportFixture.walkEast(minutes: 10, from: "2026-03-28T06:20:00Z").map { sample in
      var moved = sample
      moved.coordinate.longitude += first.last!.coordinate.longitude - first.first!.coordinate.longitude + 0.0001
      return moved
    }
    return first + second
  }

  @Test func aStraightWalkIsTwoLinesOfTwoPointsWithADashedGapBetween() throws {
    let input = try ReportFixture.input(Self.yaml, fixes: Self.fixes())
    let map = try MapDrawing(input, options: ReportOptions())
    #expect(map.fixesRead == 122)
    #expect(map.track.count == 2)
    #expect(map.track.allSatisfy { $0.band == .walking && $0.points.count == 2 })
    #expect(map.pointsDrawn == 4)
    #expect(map.gaps.count == 1)
    // The gap joins the first line's end to the second's start.
    #expect(map.gaps.first?.0 == map.track[0].points.last && map.gaps.first?.1 == map.track[1].points.first)
    #expect(map.coverage == [
      Build.instant("2026-03-28T06:00:00Z")...Build.instant("2026-03-28T06:10:00Z"),
      Build.instant("2026-03-28T06:20:00Z")...Build.instant("2026-03-28T06:30:00Z"),
    ])
  }

  @Test func aCircleIsDrawnAtItsRadiusAllRound() throws {
    let input = try ReportFixture.input(Self.yaml, fixes: Self.fixes())
    let map = try MapDrawing(input, options: ReportOptions())
    #expect(map.regions.map(\.id) == ["shop", "park"])
    let circle = map.regions[0]
    #expect(circle.ring.count == MapDrawing.circleVertices)
    let centre = circle.labelAt!
    let radii = circle.ring.map { (($0.x - centre.x) * ($0.x - centre.x) + ($0.y - centre.y) * ($0.y - centre.y)).squareRoot() }
    // 50 m at the map's scale (one pixel is `tolerance` metres by default), within 0.1 %.
    let expected = 50 / map.tolerance
    #expect(radii.allSatisfy { abs($0 - expected) < expected * 0.001 }, "\(radii.min()!)…\(radii.max()!) px, expected \(expected)")
    #expect(map.regions[1].ring.count == 4)
  }

  @Test func eventsAreMarkedWhereThePathWasAndThoseBeforeTheFirstFixAreCounted() throws {
    let input = try ReportFixture.input(Self.yaml, fixes: Self.fixes())
    let map = try MapDrawing(input, options: ReportOptions())
    let counts = Dictionary(grouping: map.markers, by: \.kind).mapValues { $0.reduce(0) { $0 + $1.count } }
    // Entered and left the shop and the park once each; the reminder fired at the shop's entry.
    #expect(counts[.enter] == 2 && counts[.exit] == 2)
    // tea fires every 5 minutes from 05:55 to 07:00 (14), buy once; the one at 05:55 has no position.
    #expect(counts[.fired] == 14)
    // …and neither has its sight of it by the patient (every delivery here is an alert, seen at once).
    #expect(map.unplaced == [.fired: 1, .seen: 1])
    #expect(counts[.seen] == 14)
    // Each tea delivery from the last fix on is at the same place: one marker.
    let lastPosition = map.track[1].points.last!
    let atEnd = map.markers.filter { $0.kind == .fired && $0.at == lastPosition }
    #expect(atEnd.count == 1 && atEnd[0].count == 7)  // 06:30 … 07:00
    #expect(atEnd[0].label.hasPrefix("7 × fired here; first: 2026-03-28T06:30:00.000+00:00 fired"))
    // The entry into the shop is at the circle's west edge: 50 m west of its centre.
    let shopEntry = map.markers.first { $0.kind == .enter && $0.subjects == ["shop"] }!
    let centre = map.regions[0].labelAt!
    #expect(abs((centre.x - shopEntry.at.x) * map.tolerance - 50) < 0.5)
    #expect(abs(centre.y - shopEntry.at.y) < 0.05)
  }

  @Test func theScaleBarIsARoundLengthAboutAFifthOfTheWidth() {
    #expect(MapDrawing.scaleBar(pixelsPerMetre: 1, width: 1000).metres == 200)
    #expect(MapDrawing.scaleBar(pixelsPerMetre: 0.1, width: 1000).metres == 2000)
    #expect(MapDrawing.scaleBar(pixelsPerMetre: 0.3, width: 1000).metres == 500)
    #expect(MapDrawing.scaleBar(pixelsPerMetre: 0.011, width: 960).metres == 10000)
  }

  @Test func amongManyRegionsTheMapFramesTheTrackAndTheRegionsWithEvents() throws {
    // 30 circles a kilometre apart to the north; the walk touches none of them but `shop`.
    var regions = "  - { id: shop, center: [55.68, 12.572], radius: 50 }\n"
    for index in 0..<30 { regions += "  - { id: far\(index), center: [\(55.69 + Double(index) * 0.01), 12.57], radius: 100 }\n" }
    let yaml = """
      clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T06:30:00Z, timezone: UTC }
      platform: { location: ideal }
      regions:
      \(regions)
      """
    let input = try ReportFixture.input(yaml, fixes: ReportFixture.walkEast(minutes: 10))
    #expect(MapDrawing.framedRegions(input, hasTrack: true) == ["shop"])
    let map = try MapDrawing(input, options: ReportOptions())
    // The nearest far circle is over a kilometre north of a 750 m walk: off the picture.
    #expect(map.regions.map(\.id) == ["shop"])
    #expect(map.regions[0].labelAt != nil)
  }

  @Test func noTrackAndNoRegionsDrawNothing() throws {
    let input = try ReportFixture.input("""
      clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T07:00:00Z, timezone: UTC }
      notifications:
        - { id: tea, title: Tea, trigger: { interval: 5m, repeats: true } }
      """)
    let map = try MapDrawing(input, options: ReportOptions())
    #expect(map.regions.isEmpty && map.track.isEmpty && map.markers.isEmpty)
    #expect(map.unplaced == [.fired: 12, .seen: 12])
    #expect(MapSVG.render(map, title: "t").rendered.contains("nothing to draw"))
  }
}

/// Stops: a phone standing still draws its GPS error wandering, not a path.
@Suite struct TrackBuilderTests {
  /// Fixes every second at `points`, from instant 0.
  static func build(_ points: [PlanePoint], tolerance: Double = 1) -> TrackBuilder {
    var builder = TrackBuilder(tolerance: tolerance, gapLimit: 300_000)
    for (second, point) in points.enumerated() {
      let sample = TrackSample(instant: SimulationInstant(millisecondsSinceEpoch: Int64(second) * 1000), coordinate: Coordinate(latitude: 0, longitude: 0))
      builder.add(sample, at: point)
    }
    builder.finish()
    return builder
  }

  @Test func anHourOfWanderingInOnePlaceIsOneStillLine() {
    // Walk 200 m east at 1.4 m/s, wander within 20 m for an hour (seeded), walk on 200 m.
    var random = SplitMix64(seed: 11)
    var points = (0..<143).map { PlanePoint(x: Double($0) * 1.4, y: 0) }
    let stopAt = points.last!
    var wander = PlanePoint(x: 0, y: 0)
    for _ in 0..<3600 {
      wander = PlanePoint(x: max(-14, min(14, wander.x * 0.95 + random.nextGaussian())), y: max(-14, min(14, wander.y * 0.95 + random.nextGaussian())))
      points.append(PlanePoint(x: stopAt.x + wander.x, y: stopAt.y + wander.y))
    }
    let leftAt = points.last!
    points += (1...143).map { PlanePoint(x: leftAt.x + Double($0) * 1.4, y: leftAt.y) }
    let builder = Self.build(points)
    #expect(builder.fixes == 3886)
    // Walking, the stop, walking.
    #expect(builder.pieces.map(\.band) == [.walking, .still, .walking])
    let stop = builder.pieces[1].points
    #expect(stop.count == 3)
    // The stop runs from where it began through its centre to where the device left; the line joins up on both sides.
    #expect(stop.first == builder.pieces[0].points.last && stop.last == builder.pieces[2].points.first)
    #expect(TrackBuilder.distance(stop[0], stopAt) <= TrackBuilder.stopRadius)
    // Every fix of the stop is within the radius of its centre.
    let centre = stop[1]
    let held = points[143..<(143 + 3600)]
    #expect(held.allSatisfy { TrackBuilder.distance($0, centre) <= TrackBuilder.stopRadius })
    // The straight walks are their two ends each.
    #expect(builder.pieces[0].points.count == 2 && builder.pieces[2].points.count == 2)
  }

  @Test func aSlowWalkAwayIsNotAStop() {
    // 0.6 m/s for ten minutes: 360 m, never two minutes within 50 m (72 m in two).
    let builder = Self.build((0..<600).map { PlanePoint(x: Double($0) * 0.6, y: 0) })
    // One straight line; its band is the speed's (under 0.7 m/s from standing: still), not a stop's three points.
    #expect(builder.pieces.count == 1)
    #expect(builder.pieces[0].points == [PlanePoint(x: 0, y: 0), PlanePoint(x: 599 * 0.6, y: 0)])
  }
}
