import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimReport

/// Issue 26: a close-up of each region where something happened, framed on
/// it, with labels placed clear of the markers and of each other.
@Suite struct MapInsetTests {
  /// The width of a box, in pixels.
  static func width(_ ring: [PlanePoint]) -> Double { (ring.map(\.x).max() ?? 0) - (ring.map(\.x).min() ?? 0) }

  @Test func eachRegionWithEventsHasAnInsetFramedOnItBelowTheMap() throws {
    let input = try ReportFixture.input(MapDrawingTests.yaml, fixes: MapDrawingTests.fixes())
    let map = try MapDrawing(input, options: ReportOptions())
    // In the order of their first events: the walk east reaches the shop first.
    #expect(map.insets.map(\.regionID) == ["shop", "park"])
    let shop = map.insets[0]
    let side = shop.frame.maxX - shop.frame.minX
    // 100 m across in a frame of 160 m.
    #expect(abs(Self.width(shop.ring) - side * 100 / 160) < side * 0.01, "\(Self.width(shop.ring)) px of \(side)")
    let onTheMap = Self.width(map.regions[0].ring)
    #expect(Self.width(shop.ring) >= 3 * onTheMap, "the inset draws the shop \(Self.width(shop.ring)) px wide, the map \(onTheMap) px")
    #expect(shop.ring.allSatisfy { shop.frame.contains(PixelBox(around: $0, halfSide: 0)) })
    // What happened there: the crossings and the delivery on entering.
    #expect(Set(shop.markers.map(\.kind)).isSuperset(of: [.enter, .exit, .fired]))
    #expect(shop.markers.allSatisfy { shop.frame.contains(PixelBox(around: $0.at, halfSide: 0)) })
    // The track through it, cut to the frame.
    #expect(!shop.track.isEmpty)
    let edge = PixelBox(minX: shop.frame.minX - 1e-6, minY: shop.frame.minY - 1e-6, maxX: shop.frame.maxX + 1e-6, maxY: shop.frame.maxY + 1e-6)
    #expect(shop.track.flatMap(\.points).allSatisfy { edge.contains(PixelBox(around: $0, halfSide: 0)) })
    // Drawn by the map's rules: walking, as on the map.
    #expect(shop.track.allSatisfy { $0.band == .walking })
    // Below the map, inside the picture.
    #expect(map.insets.allSatisfy { $0.frame.minY >= map.height && $0.frame.maxY <= map.pictureHeight })
    #expect(shop.labels.first?.text == "shop")
  }

  @Test func aRegionTheMapAlreadyDrawsLargeHasNoInset() throws {
    // A circle 400 m across beside a walk of 750 m: the map already draws it nearly as large as an inset would.
    let input = try ReportFixture.input("""
      clock: { start: 2026-03-28T05:50:00Z, end: 2026-03-28T06:30:00Z, timezone: UTC }
      platform: { location: ideal }
      regions:
        - { id: big, center: [55.68, 12.576], radius: 200 }
        - { id: shop, center: [55.68, 12.572], radius: 30 }
      """, fixes: ReportFixture.walkEast(minutes: 10))
    let map = try MapDrawing(input, options: ReportOptions())
    #expect(Set(input.run.timeline.entries.filter { $0.kind == .enter }.map(\.subject)) == ["big", "shop"])
    #expect(map.insets.map(\.regionID) == ["shop"])
  }

  /// A circle of 40 m, reached by a 2 km walk from the west, then an hour of
  /// wandering in and out of it: tea every two minutes, crossings all round.
  static let crowdedYAML = """
    clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T07:30:00Z, timezone: UTC }
    platform: { location: ideal }
    regions:
      - { id: home, center: [55.68, 12.57], radius: 40 }
    notifications:
      - { id: tea, title: Tea, trigger: { interval: 2m, repeats: true } }
      - { id: back, title: Back home, trigger: { region: home, on: [enter] } }
    """

  static func crowdedFixes() -> [TrackSample] {
    let start = Build.instant("2026-03-28T06:00:00Z")
    let projection = LocalProjection(center: Coordinate(latitude: 55.68, longitude: 12.57))
    var samples: [TrackSample] = []
    func fix(_ second: Int, east: Double, north: Double) {
      samples.append(TrackSample(
        instant: start.advanced(by: .seconds(Int64(second))),
        coordinate: Coordinate(latitude: 55.68 + north / projection.metresPerDegreeLatitude, longitude: 12.57 + east / projection.metresPerDegreeLongitude)))
    }
    for second in stride(from: 0, through: 1000, by: 10) { fix(second, east: -2000 + 2 * Double(second), north: 0) }
    var random = SplitMix64(seed: 26)
    var east = 0.0, north = 0.0
    for second in stride(from: 1010, through: 4600, by: 10) {
      let angle = random.nextUnit() * 2 * .pi
      east += 8 * cos(angle)
      north += 8 * sin(angle)
      let distance = (east * east + north * north).squareRoot()
      if distance > 60 {
        east *= 60 / distance
        north *= 60 / distance
      }
      fix(second, east: east, north: north)
    }
    return samples
  }

  @Test func inACrowdNoLabelCoversAMarkerOrAnotherLabel() throws {
    let input = try ReportFixture.input(Self.crowdedYAML, fixes: Self.crowdedFixes())
    let map = try MapDrawing(input, options: ReportOptions())
    let inset = try #require(map.insets.first)
    #expect(inset.regionID == "home")
    #expect(inset.markers.count >= 40, "\(inset.markers.count) markers")
    #expect(inset.labels.count >= 6, "\(inset.labels.count) labels, \(inset.labelsLeftOut) left out")
    #expect(inset.labels.first?.text == "home")
    for (index, label) in inset.labels.enumerated() {
      #expect(inset.frame.contains(label.box))
      for marker in inset.markers { #expect(!label.box.overlaps(marker.box), "\(label.text) covers a \(marker.kind) marker") }
      for other in inset.labels[(index + 1)...] { #expect(!label.box.overlaps(other.box), "\(label.text) covers \(other.text)") }
    }
    // The map's own region name keeps clear of its markers too.
    for region in map.regions {
      guard let label = region.label else { continue }
      for marker in map.markers { #expect(!label.box.overlaps(marker.box)) }
    }
    // The same every time.
    let again = try MapDrawing(input, options: ReportOptions())
    #expect(again.insets.first?.labels.map(\.box) == inset.labels.map(\.box))
    #expect(again.insets.first?.labels.map(\.text) == inset.labels.map(\.text))
  }

  @Test func aPhoneLyingAtHomeForHoursIsAStopInTheInsetNotHoursOfGPSError() throws {
    // The 2 km walk, then three hours at 1 Hz within 5 m of home's centre.
    var fixes = Array(Self.crowdedFixes().prefix(101))
    let projection = LocalProjection(center: Coordinate(latitude: 55.68, longitude: 12.57))
    var random = SplitMix64(seed: 7)
    let arrival = fixes.last!.instant
    for second in 1...10_800 {
      let east = (random.nextUnit() - 0.5) * 10, north = (random.nextUnit() - 0.5) * 10
      fixes.append(TrackSample(
        instant: arrival.advanced(by: .seconds(Int64(second))),
        coordinate: Coordinate(latitude: 55.68 + north / projection.metresPerDegreeLatitude, longitude: 12.57 + east / projection.metresPerDegreeLongitude)))
    }
    let input = try ReportFixture.input(Self.crowdedYAML.replacingOccurrences(of: "07:30:00Z", with: "09:30:00Z"), fixes: fixes)
    let map = try MapDrawing(input, options: ReportOptions())
    let inset = try #require(map.insets.first)
    let points = inset.track.reduce(0) { $0 + $1.points.count }
    #expect(points <= 12, "\(points) points for 10,800 fixes at home")
    #expect(inset.track.contains { $0.band == .still })
  }

  @Test func theRuleOnAGridOfMarkers() {
    // 25 markers 12 px apart in the middle of a 300 px frame, each wanting a label.
    let frame = PixelBox(minX: 0, minY: 0, maxX: 300, maxY: 300)
    let centres = (0..<25).map { PlanePoint(x: 126 + Double($0 % 5) * 12, y: 126 + Double($0 / 5) * 12) }
    let markers = centres.map { PixelBox(around: $0, halfSide: 8) }
    let requests = centres.map { LabelPlacement.Request(text: "07:00 fired", anchor: $0, clearance: 8) }
    let placed = LabelPlacement.place(requests, obstacles: markers, within: frame)
    let boxes = placed.compactMap { $0?.box }
    #expect(boxes.count >= 12, "\(boxes.count) of 25 placed")
    for (index, box) in boxes.enumerated() {
      #expect(frame.contains(box))
      #expect(!markers.contains { $0.overlaps(box) })
      #expect(!boxes[(index + 1)...].contains { $0.overlaps(box) })
    }
    // The same every time.
    #expect(LabelPlacement.place(requests, obstacles: markers, within: frame).map { $0?.box } == placed.map { $0?.box })
  }

  @Test func aLabelAloneSitsOnItsAnchorOrRightOfIt() throws {
    let frame = PixelBox(minX: 0, minY: 0, maxX: 300, maxY: 300)
    // A region's name on its centre when nothing is there.
    let name = try #require(LabelPlacement.place([.init(text: "home", anchor: PlanePoint(x: 150, y: 150), clearance: 0, mayCover: true)], obstacles: [], within: frame)[0])
    #expect(abs((name.box.minX + name.box.maxX) / 2 - 150) < 1e-9 && !name.hasLeader)
    // A marker's label right of it, at its clearance and 2 px more, centred on it.
    let marker = PixelBox(around: PlanePoint(x: 150, y: 150), halfSide: 8)
    let label = try #require(LabelPlacement.place([.init(text: "07:00 fired", anchor: PlanePoint(x: 150, y: 150), clearance: 8)], obstacles: [marker], within: frame)[0])
    #expect(label.box.minX == 160 && abs((label.box.minY + label.box.maxY) / 2 - 150) < 1e-9 && !label.hasLeader)
    // Against the frame's right edge: to the left instead.
    let atEdge = try #require(LabelPlacement.place([.init(text: "07:00 fired", anchor: PlanePoint(x: 290, y: 150), clearance: 8)], obstacles: [], within: frame)[0])
    #expect(atEdge.box.maxX == 280)
  }

  /// Nine small circles along an hour's walk and one the map draws large:
  /// six close-ups, and the heading counts the three small ones left out.
  @Test func atMostSixCloseUpsAndTheHeadingCountsTheSmallRegionsLeftOut() throws {
    let circles = (0..<9).map { "  - { id: r\($0), center: [55.68, \(String(format: "%.3f", 12.573 + 0.006 * Double($0)))], radius: 30 }" }
    let yaml =
      "clock: { start: 2026-03-28T05:50:00Z, end: 2026-03-28T07:10:00Z, timezone: UTC }\nplatform: { location: ideal }\nregions:\n"
      + circles.joined(separator: "\n") + "\n  - { id: big, center: [55.68, 12.60], radius: 1500 }\n"
    let input = try ReportFixture.input(yaml, fixes: ReportFixture.walkEast(minutes: 60))
    let map = try MapDrawing(input, options: ReportOptions())
    #expect(map.insets.map(\.regionID) == ["r0", "r1", "r2", "r3", "r4", "r5"])
    #expect(map.insetsLeftOut == 3)
    let svg = try ReportDocument(input).svg(.map)
    #expect(svg.contains("(the first 6; 3 more regions small on the map had events)"))
  }

  /// A marker in the inset's bottom-left corner: its label goes elsewhere than over the scale bar.
  @Test func noLabelCoversTheScaleBar() throws {
    let frame = PixelBox(minX: 0, minY: 0, maxX: 300, maxY: 300)
    let bar = MapDrawing.Inset.scaleBarBox(metres: 50, pixels: 60, frame: frame)
    let marker = MapDrawing.Marker(kind: .fired, at: PlanePoint(x: 14, y: 280), count: 1, subjects: ["pills"], label: "fired pills", firstTime: "07:00", lastTime: "07:00", firstDay: "2026-03-28", lastDay: "2026-03-28")
    // Without the bar as an obstacle the label's first place, right of the marker, is on it.
    let unaware = try #require(MapDrawing.placeLabels(regionName: nil, regionCentre: nil, markers: [marker], within: frame)[0])
    #expect(unaware.box.overlaps(bar))
    let placed = try #require(MapDrawing.placeLabels(regionName: nil, regionCentre: nil, markers: [marker], within: frame, alsoClearOf: [bar])[0])
    #expect(!placed.box.overlaps(bar) && !placed.box.overlaps(marker.box))
  }

  /// Markers whose events span midnight: the label gives both days, not `23:50–00:10`.
  @Test func aLabelOfEventsOnTwoDaysSaysBothDays() throws {
    let frame = PixelBox(minX: 0, minY: 0, maxX: 300, maxY: 300)
    let entered = MapDrawing.Marker(kind: .enter, at: PlanePoint(x: 150, y: 150), count: 1, subjects: ["home"], label: "enter home",
      firstAt: SimulationInstant(millisecondsSinceEpoch: 1_000), lastAt: SimulationInstant(millisecondsSinceEpoch: 1_000), firstTime: "23:50", lastTime: "23:50", firstDay: "2026-03-28", lastDay: "2026-03-28")
    let left = MapDrawing.Marker(kind: .exit, at: PlanePoint(x: 154, y: 150), count: 1, subjects: ["home"], label: "exit home",
      firstAt: SimulationInstant(millisecondsSinceEpoch: 1_201_000), lastAt: SimulationInstant(millisecondsSinceEpoch: 1_201_000), firstTime: "00:10", lastTime: "00:10", firstDay: "2026-03-29", lastDay: "2026-03-29")
    let labels = MapDrawing.placeLabels(regionName: nil, regionCentre: nil, markers: [entered, left], within: frame)
    #expect(labels.map { $0?.text } == ["03-28 23:50–03-29 00:10 enter, exit"])
    let sameDay = MapDrawing.placeLabels(regionName: nil, regionCentre: nil, markers: [entered], within: frame)
    #expect(sameDay.map { $0?.text } == ["23:50 enter"])
  }

  @Test func theInsetsAreInTheMapPictureWithTheirOwnMarkerAttribute() throws {
    let input = try ReportFixture.input(MapDrawingTests.yaml, fixes: MapDrawingTests.fixes())
    let document = try ReportDocument(input)
    let svg = document.svg(.map)
    #expect(svg.ranges(of: "<g class=\"inset\" data-inset=").count == 2)
    // The map's markers are counted once: the insets' have `data-inset-mark`.
    #expect(svg.ranges(of: " data-mark=\"").count == document.map.markers.count)
    #expect(svg.ranges(of: " data-inset-mark=\"").count == document.map.insets.reduce(0) { $0 + $1.markers.count })
    #expect(svg.contains("height=\"\(Markup.px(document.map.pictureHeight).rendered)\""))
  }
}
