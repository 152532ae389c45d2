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

  @Test func onlyCrossingsDetectionsAndLocationDeliveriesAreLocated() {
    #expect(GeoJSONEncoding.isLocated(Self.entry(.enter, "home", at: "2026-03-28T07:00:00Z")))
    #expect(GeoJSONEncoding.isLocated(Self.entry(.exit, "home", at: "2026-03-28T07:00:00Z")))
    #expect(GeoJSONEncoding.isLocated(Self.entry(.detected, "home", at: "2026-03-28T07:00:00Z")))
    #expect(GeoJSONEncoding.isLocated(Self.entry(.fired, "r", at: "2026-03-28T07:00:00Z", [TimelineField("trigger", "region home on=enter")])))
    #expect(!GeoJSONEncoding.isLocated(Self.entry(.fired, "p", at: "2026-03-28T07:00:00Z", [TimelineField("trigger", "calendar hour=8 minute=0")])))
    #expect(!GeoJSONEncoding.isLocated(Self.entry(.undetected, "home", at: "2026-03-28T07:00:00Z")))
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
      entry(.fired, "late", at: "2026-03-28T07:03:00Z", [TimelineField("trigger", "region x on=exit")]),
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
      #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0.0, 0.0], [0.001, 0.0]]}, "properties": {"feature": "track", "segment": 1, "fixes": 2, "first": "2026-03-28T07:00:00.000Z", "last": "2026-03-28T07:00:10.000Z"}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.002, 0.0]}, "properties": {"feature": "track", "segment": 2, "fixes": 1, "first": "2026-03-28T07:01:00.000Z", "last": "2026-03-28T07:01:00.000Z"}},"#,
      #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0.003, 0.0], [0.004, 0.0]]}, "properties": {"feature": "track", "segment": 3, "fixes": 2, "first": "2026-03-28T07:02:00.000Z", "last": "2026-03-28T07:02:10.000Z"}},"#,
      #"{"type": "Feature", "geometry": null, "properties": {"feature": "event", "kind": "enter", "subject": "early", "instant": "2026-03-28T07:59:59.000+01:00", "utc": "2026-03-28T06:59:59.000Z"}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.0005, 0.0]}, "properties": {"feature": "event", "kind": "enter", "subject": "middle", "instant": "2026-03-28T08:00:05.000+01:00", "utc": "2026-03-28T07:00:05.000Z", "visit": "1", "field:kind": "clash"}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.001, 0.0]}, "properties": {"feature": "event", "kind": "exit", "subject": "at-fix", "instant": "2026-03-28T08:00:10.000+01:00", "utc": "2026-03-28T07:00:10.000Z"}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.001, 0.0]}, "properties": {"feature": "event", "kind": "detected", "subject": "gap", "instant": "2026-03-28T08:00:30.000+01:00", "utc": "2026-03-28T07:00:30.000Z"}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0.004, 0.0]}, "properties": {"feature": "event", "kind": "fired", "subject": "late", "instant": "2026-03-28T08:03:00.000+01:00", "utc": "2026-03-28T07:03:00.000Z", "trigger": "region x on=exit"}}"#,
      "]}",
      "",
    ])
    // Written piece by piece, the same bytes.
    var pieces: [String] = []
    try Self.collector().writeDocument(regions: [region], track: Self.track) { pieces.append($0) }
    #expect(pieces.joined() == document)
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
