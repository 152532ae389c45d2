import Foundation
import Testing
import TrigsimCore
import TrigsimGEOS
import TrigsimTestSupport

@testable import TrigsimScenario

/// Regions from a GeoJSON file (`regions: - { file: places.geojson }`): the
/// round trip through `--format geojson`'s features, and every bad input
/// reported at the GeoJSON file's line:column.
@Suite struct GeoJSONRegionReaderTests {
  static let head = """
    trigsim: 1
    clock: { start: 2026-05-04T08:00:00+02:00, end: 2026-05-04T09:00:00+02:00, timezone: Europe/Copenhagen }

    """

  /// A folder with `files` written into it.
  static func folder(_ files: [String: String]) throws -> String {
    let path = NSTemporaryDirectory() + "trigsim-geojson-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for (name, text) in files { try text.write(toFile: "\(path)/\(name)", atomically: true, encoding: .utf8) }
    return path
  }

  /// The diagnostics of a scenario (`yaml`) naming `places.geojson`, whose text is `geojson`, as `file:line:column: message`.
  static func problems(yaml: String, geojson: String) throws -> (folder: String, lines: [String]) {
    let folder = try folder(["places.geojson": geojson])
    do {
      _ = try ScenarioLoader().load(yaml: head + yaml, file: "s.yaml", baseDirectory: folder)
      Issue.record("expected the scenario to be rejected")
      return (folder, [])
    } catch let error as InputError {
      return (folder, error.diagnostics.map { "\($0.location): \($0.message)" })
    }
  }

  @Test func regionsWrittenAsGeoJSONReadBackAsTheSameRegions() throws {
    let original = try ScenarioLoader().load(yaml: Self.head + """
      regions:
        - { id: home, center: [55.6761, 12.5683], radius: 150 }
        - { id: shop, center: [-33.8688, 151.2093] }
        - { id: clinic, polygon: [[55.6800, 12.5700], [55.6800, 12.5720], [55.6810, 12.5720], [55.6810, 12.5700]] }
        - { id: park, polygon: [[55.6800, 12.5700], [55.6810, 12.5700], [55.6810, 12.5720]] }
      """, file: "s.yaml")
    let geojson = try GeoJSONCollector().document(regions: original.regions, track: nil)
    let folder = try Self.folder(["places.geojson": geojson])
    let loaded = try ScenarioLoader().load(yaml: Self.head + "regions:\n  - { file: places.geojson }\n", file: "s.yaml", baseDirectory: folder)
    #expect(loaded.regions.map(\.id.rawValue) == ["home", "shop", "clinic", "park"])
    let circles = loaded.regions.compactMap { $0.shape as? CircularRegion }
    #expect(circles.map(\.center) == [Coordinate(latitude: 55.6761, longitude: 12.5683), Coordinate(latitude: -33.8688, longitude: 151.2093)])
    #expect(circles.map(\.radius) == [150, 100])
    let polygons = loaded.regions.compactMap { $0.shape as? PolygonRegion }
    // clinic was counterclockwise and keeps its order; park was clockwise and comes back reversed (RFC 7946's right-hand rule).
    #expect(polygons.map(\.vertices) == [
      [Coordinate(latitude: 55.68, longitude: 12.57), Coordinate(latitude: 55.68, longitude: 12.572), Coordinate(latitude: 55.681, longitude: 12.572), Coordinate(latitude: 55.681, longitude: 12.57)],
      [Coordinate(latitude: 55.681, longitude: 12.572), Coordinate(latitude: 55.681, longitude: 12.57), Coordinate(latitude: 55.68, longitude: 12.57)],
    ])
    // Each circle's outline takes the line after it, and is skipped.
    #expect(loaded.regions.map(\.origin?.line) == [2, 4, 6, 7])
    // Written again, the same bytes.
    #expect(try GeoJSONCollector().document(regions: loaded.regions, track: nil) == geojson)
  }

  /// A whole `--format geojson` document (regions and a circle's outline, track, events) loads as its regions.
  @Test func aRunsOutputLoadsAsItsRegions() throws {
    let track = InMemoryTrack(samples: [
      TrackSample(instant: SimulationInstant(millisecondsSinceEpoch: 0), coordinate: Coordinate(latitude: 55.68, longitude: 12.57)),
      TrackSample(instant: SimulationInstant(millisecondsSinceEpoch: 60_000), coordinate: Coordinate(latitude: 55.68, longitude: 12.572)),
    ])
    var collector = GeoJSONCollector()
    collector.append(TimelineEntry(instant: SimulationInstant(millisecondsSinceEpoch: 30_000), utcOffsetSeconds: 0, kind: .enter, subject: "home"))
    let home = MonitoredRegion(id: RegionID("home"), shape: CircularRegion(center: Coordinate(latitude: 55.68, longitude: 12.571), radius: 40))
    let geojson = try collector.document(regions: [home], track: track)
    #expect(geojson.contains("\"LineString\"") && geojson.contains("\"event\"") && geojson.contains("\"outline\""))
    let folder = try Self.folder(["run.geojson": geojson])
    let loaded = try ScenarioLoader().load(yaml: Self.head + "regions:\n  - { file: run.geojson }\n", file: "s.yaml", baseDirectory: folder)
    #expect(loaded.regions.map(\.id.rawValue) == ["home"])
    #expect((loaded.regions[0].shape as? CircularRegion)?.radius == 40)
  }

  @Test func aPointWithoutRadiusTakesTheItemsRadiusAndInlineRegionsMix() throws {
    let folder = try Self.folder(["places.geojson": """
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.57, 55.68, 12.0]}, "properties": {"id": "a", "name": "ignored"}, "bbox": [0, 0, 1, 1]}
      ]}
      """])
    let loaded = try ScenarioLoader().load(yaml: Self.head + """
      regions:
        - { id: home, center: [55.6761, 12.5683] }
        - { file: places.geojson, radius: 80 }
      """, file: "s.yaml", baseDirectory: folder)
    #expect(loaded.regions.map(\.id.rawValue) == ["home", "a"])
    #expect((loaded.regions[1].shape as? CircularRegion)?.radius == 80)
    #expect((loaded.regions[1].shape as? CircularRegion)?.center == Coordinate(latitude: 55.68, longitude: 12.57))
  }

  @Test func badFeaturesAreReportedAtTheirLineAndColumn() throws {
    let text = MarkedText("""
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.57, 55.68]}, "properties": 1️⃣{"name": "no id"}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.57, 55.68]}, "properties": {"id": "a"}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.57, 55.68]}, "properties": {"id": 2️⃣"a"}},
        {"type": "Feature", "geometry": {"type": 3️⃣"LineString", "coordinates": [[12.57, 55.68], [12.58, 55.68]]}, "properties": {"id": "line"}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.57, 4️⃣95]}, "properties": {"id": "swapped"}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [5️⃣"12.57", 55.68]}, "properties": {"id": "text"}},
        {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[12.57, 55.68], [12.58, 55.68], [12.58, 55.69], 6️⃣[12.57, 55.69]]]}, "properties": {"id": "open"}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.57, 55.68]}, "properties": {"id": "neg", "radius": 7️⃣-5}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.57, 55.68]}, "properties": {"id": 8️⃣"home"}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.57, 55.68]}, "properties": {"id": 9️⃣7}}
      ]}
      """)
    let (folder, lines) = try Self.problems(yaml: "regions:\n  - { id: home, center: [55.6761, 12.5683] }\n  - { file: places.geojson }\n", geojson: text.text)
    let file = "\(folder)/places.geojson"
    func at(_ marker: String) -> String { "\(text.location(marker, file: file))" }
    #expect(lines == [
      "\(at("1️⃣")): the feature's properties have no 'id'",
      "\(at("2️⃣")): region 'a' is declared twice",
      "\(at("3️⃣")): region 'line' has geometry type 'LineString'; a region is a Point or a Polygon",
      "\(at("4️⃣")): latitude 95.0 is outside -90...90",
      "\(at("5️⃣")): a coordinate must be a number, not '12.57'",
      "\(at("6️⃣")): the ring of region 'open' is not closed: its last position differs from its first",
      "\(at("7️⃣")): radius must be greater than 0 metres",
      "\(at("8️⃣")): region 'home' is declared twice",
      "\(at("9️⃣")): the region id must be a non-empty string, not '7'",
    ])
  }

  @Test func textThatIsNotJSONIsReportedWhereItStopsBeingJSON() throws {
    let text = MarkedText("{\"type\": \"FeatureCollection\", \"features\": [\n  {1️⃣type: Feature}\n]}\n")
    let (folder, lines) = try Self.problems(yaml: "regions:\n  - { file: places.geojson }\n", geojson: text.text)
    #expect(lines == ["\(text.location("1️⃣", file: "\(folder)/places.geojson")): invalid JSON: expected a member name in double quotes, found 't'"])
  }

  @Test func aNullOrIncompleteGeometryIsRefusedAtIt() throws {
    let text = MarkedText("""
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": 1️⃣null, "properties": {"id": "a"}},
        {"type": "Feature", "geometry": {"type": 2️⃣"Point"}, "properties": {"id": "b"}}
      ]}
      """)
    let (folder, lines) = try Self.problems(yaml: "regions:\n  - { file: places.geojson }\n", geojson: text.text)
    let file = "\(folder)/places.geojson"
    #expect(lines == [
      "\(text.location("1️⃣", file: file)): the geometry of region 'a' must be an object, not 'null'",
      "\(text.location("2️⃣", file: file)): the geometry of region 'b' needs 'type' and 'coordinates'",
    ])
  }

  @Test func aDocumentThatIsNotAFeatureCollectionIsRefused() throws {
    let text = MarkedText("{\"type\": 1️⃣\"Feature\", \"geometry\": null, \"properties\": {\"id\": \"a\"}}\n")
    let (folder, lines) = try Self.problems(yaml: "regions:\n  - { file: places.geojson }\n", geojson: text.text)
    #expect(lines == ["\(text.location("1️⃣", file: "\(folder)/places.geojson")): the GeoJSON document must be a FeatureCollection"])
  }

  @Test func aFileItemWithInlineKeysAMissingFileAndAFileOutsideTheRootAreReportedInTheScenario() throws {
    let folder = try Self.folder(["places.geojson": "{\"type\": \"FeatureCollection\", \"features\": []}"])
    let cases: [(String, ScenarioPathPolicy, String)] = [
      ("regions:\n  - { file: places.geojson, id: 1️⃣x }\n", .unrestricted, "'id' does not go with 'file' in a region item"),
      ("regions:\n  - { file: 1️⃣none.geojson }\n", .unrestricted, "regions file 'none.geojson' does not exist"),
      ("regions:\n  - { file: 1️⃣../../etc/passwd }\n", .confined(to: folder), "regions file"),
    ]
    for (yaml, policy, message) in cases {
      let text = MarkedText(Self.head + yaml)
      do {
        _ = try ScenarioLoader(pathPolicy: policy).load(yaml: text.text, file: "s.yaml", baseDirectory: folder)
        Issue.record("expected the scenario to be rejected: \(yaml)")
      } catch let error as InputError {
        #expect(error.diagnostics.map(\.location) == [text.location("1️⃣", file: "s.yaml")], "\(yaml)")
        #expect(error.diagnostics.first?.message.hasPrefix(message) == true, "\(error.diagnostics)")
      }
    }
  }
}
