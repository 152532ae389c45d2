import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// `GeoJSONEncoding` and `GeoJSONCollector`: the exact features, where the
/// located events are placed, and RFC 7946's structure.
@Suite struct GeoJSONEncodingTests {
  /// A polygon shape for tests: its vertices, nothing inside.
  final class Ring: VertexRingShape {
    let vertices: [Coordinate]
    init(_ vertices: [Coordinate]) { self.vertices = vertices }
    func contains(_ coordinate: Coordinate) -> Bool { false }
    func appendCrossings(from a: TrackSample, to b: TrackSample, insideAtStart: Bool, into crossings: inout [BoundaryCrossing]) {}
    var summary: String { "ring" }
  }

  static func entry(_ kind: TimelineEntry.Kind, _ subject: String, at instant: String, _ fields: [TimelineField] = []) -> TimelineEntry {
    TimelineEntry(instant: Build.instant(instant), utcOffsetSeconds: 3600, kind: kind, subject: subject, fields: fields)
  }

  /// Issue 26: `undetected` (a crossing the device missed) was left out, though it happens at a place as `detected` does.
  @Test func crossingsTheDevicesViewOfThemAndLocationDeliveriesAreLocated() {
    #expect(GeoJSONEncoding.isLocated(Self.entry(.enter, "home", at: "2026-03-28T07:00:00Z")))
    #expect(GeoJSONEncoding.isLocated(Self.entry(.exit, "home", at: "2026-03-28T07:00:00Z")))
    #expect(GeoJSONEncoding.isLocated(Self.entry(.detected, "home", at: "2026-03-28T07:00:00Z")))
    #expect(GeoJSONEncoding.isLocated(Self.entry(.undetected, "home", at: "2026-03-28T07:00:00Z")))
    #expect(GeoJSONEncoding.isLocated(Self.entry(.fired, "r", at: "2026-03-28T07:00:00Z", [TimelineField("trigger", "region home on=enter")])))
    #expect(!GeoJSONEncoding.isLocated(Self.entry(.fired, "p", at: "2026-03-28T07:00:00Z", [TimelineField("trigger", "calendar hour=8 minute=0")])))
    #expect(!GeoJSONEncoding.isLocated(Self.entry(.scheduled, "r", at: "2026-03-28T07:00:00Z", [TimelineField("trigger", "region home on=enter")])))
  }

  @Test func aCircleIsAPointWithItsRadiusLongitudeFirst() {
    let region = MonitoredRegion(id: RegionID("home"), shape: CircularRegion(center: Coordinate(latitude: 55.6761, longitude: 12.5683), radius: 150))
    #expect(GeoJSONEncoding.feature(region: region)
      == #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.5683, 55.6761]}, "properties": {"feature": "region", "id": "home", "radius": 150.0}}"#)
  }

  @Test func aClockwisePolygonIsWrittenCounterclockwiseAndClosed() {
    // North, east, south: clockwise in (longitude, latitude).
    let clockwise = [Coordinate(latitude: 55.68, longitude: 12.57), Coordinate(latitude: 55.681, longitude: 12.57), Coordinate(latitude: 55.681, longitude: 12.572)]
    let region = MonitoredRegion(id: RegionID("clinic"), shape: Ring(clockwise))
    #expect(GeoJSONEncoding.feature(region: region)
      == #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[12.572, 55.681], [12.57, 55.681], [12.57, 55.68], [12.572, 55.681]]]}, "properties": {"feature": "region", "id": "clinic"}}"#)
    let counterclockwise = Array(clockwise.reversed())
    #expect(GeoJSONEncoding.counterclockwise(counterclockwise) == counterclockwise)
  }

  /// Three segments on the equator (the second of one fix); events before the
  /// first fix (no position), between two fixes, at a fix, in a gap (the
  /// last fix before it) and after the last fix (that fix).
  static let track = InMemoryTrack(samples: [
    Build.fix("2026-03-28T07:00:00Z", 0, 0),
    Build.fix("2026-03-28T07:00:10Z", 0, 0.001),
    Build.fix("2026-03-28T07:01:00Z", 0, 0.002, startsSegment: true),
    Build.fix("2026-03-28T07:02:00Z", 0, 0.003, startsSegment: true),
    Build.fix("2026-03-28T07:02:10Z", 0, 0.004),
  ])

  static func collector() -> GeoJSONCollector {
    var collector = GeoJSONCollector()
    for entry in [
      entry(.enter, "early", at: "2026-03-28T06:59:59Z"),
      entry(.scheduled, "not-located", at: "2026-03-28T07:00:01Z"),
      entry(.enter, "middle", at: "2026-03-28T07:00:05Z", [TimelineField("visit", "1"), TimelineField("kind", "clash")]),
      entry(.exit, "at-fix", at: "2026-03-28T07:00:10Z"),
      entry(.detected, "gap", at: "2026-03-28T07:00:30Z"),
      entry(.undetected, "missed", at: "2026-03-28T07:02:05Z", [TimelineField("visit", "2"), TimelineField("reason", "inside 1s")]),
      entry(.fired, "late", at: "2026-03-28T07:03:00Z", [TimelineField("trigger", "region x on=exit"), TimelineField("repeats", "no")]),
    ] { collector.append(entry) }
    return collector
  }

  @Test func theDocumentHasTheRegionsTheSegmentsAndTheEventsAtTheirPositions() throws {
    let region = MonitoredRegion(id: RegionID("x"), shape: CircularRegion(center: Coordinate(latitude: 0, longitude: 0.0005), radius: 10))
    let document = try Self.collector().document(regions: [region], track: Self.track)
    let lines = document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines == [
      #"{"type": "FeatureCollection", "features": ["#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.0005, 0.0]}, "properties": {"feature": "region", "id": "x", "radius": 10.0}},"#,
      GeoJSONEncoding.features(region: region)[1] + ",",
      #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0.0, 0.0], [0.001, 0.0]]}, "properties": {"feature": "track", "segment": 1, "fixes": 2, "first": "2026-03-28T07:00:00.000Z", "last": "2026-03-28T07:00:10.000Z"}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.002, 0.0]}, "properties": {"feature": "track", "segment": 2, "fixes": 1, "first": "2026-03-28T07:01:00.000Z", "last": "2026-03-28T07:01:00.000Z"}},"#,
      #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0.003, 0.0], [0.004, 0.0]]}, "properties": {"feature": "track", "segment": 3, "fixes": 2, "first": "2026-03-28T07:02:00.000Z", "last": "2026-03-28T07:02:10.000Z"}},"#,
      #"{"type": "Feature", "geometry": null, "properties": {"feature": "event", "kind": "enter", "subject": "early", "instant": "2026-03-28T07:59:59.000+01:00", "utc": "2026-03-28T06:59:59.000Z"}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.0005, 0.0]}, "properties": {"feature": "event", "kind": "enter", "subject": "middle", "instant": "2026-03-28T08:00:05.000+01:00", "utc": "2026-03-28T07:00:05.000Z", "visit": 1, "field:kind": "clash"}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.001, 0.0]}, "properties": {"feature": "event", "kind": "exit", "subject": "at-fix", "instant": "2026-03-28T08:00:10.000+01:00", "utc": "2026-03-28T07:00:10.000Z"}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.001, 0.0]}, "properties": {"feature": "event", "kind": "detected", "subject": "gap", "instant": "2026-03-28T08:00:30.000+01:00", "utc": "2026-03-28T07:00:30.000Z"}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.0035, 0.0]}, "properties": {"feature": "event", "kind": "undetected", "subject": "missed", "instant": "2026-03-28T08:02:05.000+01:00", "utc": "2026-03-28T07:02:05.000Z", "visit": 2, "reason": "inside 1s"}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.004, 0.0]}, "properties": {"feature": "event", "kind": "fired", "subject": "late", "instant": "2026-03-28T08:03:00.000+01:00", "utc": "2026-03-28T07:03:00.000Z", "trigger": "region x on=exit", "repeats": false}}"#,
      "]}",
      "",
    ])
    // Written piece by piece, the same bytes.
    var pieces: [String] = []
    try Self.collector().writeDocument(regions: [region], track: Self.track) { pieces.append($0) }
    #expect(pieces.joined() == document)
  }

  /// Issue 26: `visit` was the string "1" where the JSON output has the
  /// number 1. Event fields are typed as the JSON output types them.
  @Test func eventFieldsAreTypedAsInTheJSONOutput() throws {
    let entry = Self.entry(.fired, "buy", at: "2026-03-28T07:00:00Z", [
      TimelineField("trigger", "region shop on=enter"), TimelineField("repeats", "no"), TimelineField("badge", "3"),
      TimelineField("followup", "1/3"), TimelineField("medicine", "1"), TimelineField("snoozed", "07"),
    ])
    let feature = GeoJSONEncoding.feature(event: entry, at: Coordinate(latitude: 55.68, longitude: 12.57))
    let properties = try #require(
      ((try JSONSerialization.jsonObject(with: Data(feature.utf8)) as? [String: Any])?["properties"]) as? [String: Any])
    let json = try #require((try JSONSerialization.jsonObject(with: Data(entry.json.utf8)) as? [String: Any])?["fields"] as? [String: Any])
    #expect(NSDictionary(dictionary: properties.filter { json[$0.key] != nil }) == NSDictionary(dictionary: json))
    #expect(properties["repeats"] as? Bool == false && properties["repeats"] is NSNumber)
    #expect(properties["badge"] as? Int == 3 && !(properties["badge"] is String))
    #expect(properties["medicine"] as? String == "1")  // an identifier, a string in both
    #expect(properties["snoozed"] as? String == "07")  // not in an integer's canonical form: kept as text, as the JSON output does
    #expect((properties["followup"] as? [String: Any]).map { NSDictionary(dictionary: $0) } == ["step": 1, "of": 3] as NSDictionary)
    let visit = try #require(try JSONSerialization.jsonObject(with: Data(GeoJSONEncoding.feature(
      event: Self.entry(.exit, "shop", at: "2026-03-28T07:00:00Z", [TimelineField("visit", "12")]), at: nil).utf8)) as? [String: Any])
    #expect((visit["properties"] as? [String: Any])?["visit"] as? Int == 12)
    #expect(!((visit["properties"] as? [String: Any])?["visit"] is String))
  }

  /// A circle is its `Point` (centre, radius) followed by its outline: 64
  /// vertices, each `radius` metres from the centre (to the 1 cm rounding),
  /// at azimuths 0°, −5.625°, … (counterclockwise from north), closed.
  @Test func aCirclesOutlineIs64VerticesOnTheCircleCounterclockwiseFromNorth() throws {
    let center = Coordinate(latitude: 55.6761, longitude: 12.5683)
    let region = MonitoredRegion(id: RegionID("home"), shape: CircularRegion(center: center, radius: 150))
    let features = GeoJSONEncoding.features(region: region)
    try #require(features.count == 2)
    #expect(features.first == GeoJSONEncoding.feature(region: region))
    let outline = try #require(try JSONSerialization.jsonObject(with: Data(features[1].utf8)) as? [String: Any])
    #expect(NSDictionary(dictionary: outline["properties"] as? [String: Any] ?? [:]) == ["feature": "outline", "id": "home", "radius": 150] as NSDictionary)
    let geometry = try #require(outline["geometry"] as? [String: Any])
    #expect(geometry["type"] as? String == "Polygon")
    let rings = try #require(geometry["coordinates"] as? [[[Double]]])
    #expect(rings.count == 1)
    let ring = rings[0]
    #expect(ring.count == GeoJSONEncoding.circleOutlineVertices + 1 && GeoJSONEncoding.circleOutlineVertices == 64)
    #expect(ring.first == ring.last)
    for (index, position) in ring.dropLast().enumerated() {
      let vertex = Coordinate(latitude: position[1], longitude: position[0])
      let (distance, azimuth, _) = Geodesic.inverse(center, vertex)
      #expect(abs(distance - 150) < 0.015, "vertex \(index) is \(distance) m from the centre")
      let expected = -5.625 * Double(index)
      let turn = (azimuth - expected).truncatingRemainder(dividingBy: 360)
      #expect(min(abs(turn), 360 - abs(turn)) < 0.01, "vertex \(index) at azimuth \(azimuth), not \(expected)")
    }
    #expect(ring[0][0] == 12.5683 && ring[0][1] > 55.6761)  // due north first
    try GeoJSONStructure.check("{\"type\": \"FeatureCollection\", \"features\": [\(features.joined(separator: ", "))]}")
  }

  /// An outline that would cross the 180th meridian, or go around a pole,
  /// is left out (RFC 7946 would need it cut); the circle's Point stays.
  @Test func aCircleAcrossThe180thMeridianOrAroundAPoleHasNoOutline() {
    for center in [Coordinate(latitude: -17.8, longitude: 179.9995), Coordinate(latitude: 89.9996, longitude: 30)] {
      let region = MonitoredRegion(id: RegionID("far"), shape: CircularRegion(center: center, radius: 100))
      #expect(GeoJSONEncoding.features(region: region) == [GeoJSONEncoding.feature(region: region)], "\(center)")
    }
    let near = MonitoredRegion(id: RegionID("near"), shape: CircularRegion(center: Coordinate(latitude: -17.8, longitude: 179.99), radius: 100))
    #expect(GeoJSONEncoding.features(region: near).count == 2)
  }

  @Test func theDocumentIsAnRFC7946FeatureCollection() throws {
    let regions = [
      MonitoredRegion(id: RegionID("x"), shape: CircularRegion(center: Coordinate(latitude: 55.6, longitude: 12.5), radius: 10)),
      MonitoredRegion(id: RegionID("p"), shape: Ring([Coordinate(latitude: 55.68, longitude: 12.57), Coordinate(latitude: 55.681, longitude: 12.57), Coordinate(latitude: 55.681, longitude: 12.572)])),
    ]
    let document = try Self.collector().document(regions: regions, track: Self.track)
    try GeoJSONStructure.check(document)
  }

  @Test func noRegionsNoTrackNoEventsIsAnEmptyCollection() throws {
    #expect(try GeoJSONCollector().document(regions: [], track: nil) == "{\"type\": \"FeatureCollection\", \"features\": [\n]}\n")
  }
}
