import Foundation
import Testing
import TrigsimTestSupport

/// `trigsim run SCENARIO --format geojson`: the exact document of a small
/// scenario, RFC 7946's structure for a bundled one, and the option rules.
@Suite struct GeoJSONCLITests {
  /// A walk east along 55.68° N through a 50 m circle and a polygon, with a
  /// location reminder on the circle and a timer that is not located.
  static func smallScenario() throws -> URL {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-geojson-cli")
    try """
      trigsim: 1
      clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T07:00:00Z, timezone: UTC }
      platform: { location: ideal }
      track: { file: t.csv }
      regions:
        - { id: shop, center: [55.68, 12.571], radius: 50 }
        - { id: park, polygon: [[55.6795, 12.5725], [55.6805, 12.5725], [55.6805, 12.5735], [55.6795, 12.5735]] }
      notifications:
        - { id: buy, title: Buy milk, trigger: { region: shop, on: [enter] } }
        - { id: tea, title: Tea, trigger: { interval: 10m, repeats: false } }

      """.write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    try "time,latitude,longitude\n2026-03-28T06:00:00Z,55.68,12.57\n2026-03-28T06:01:00Z,55.68,12.572\n2026-03-28T06:02:00Z,55.68,12.574\n"
      .write(to: folder.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
    return folder
  }

  @Test func theGeoJSONOfASmallScenarioIsExactlyThis() throws {
    let folder = try Self.smallScenario()
    let result = try TrigsimBinary.run(["run", "s.yaml", "--format", "geojson"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    var lines = result.stdout.split(separator: "\n").map(String.init)
    // The circle's outline (its vertices are checked in GeoJSONEncodingTests): its frame here.
    let outline = lines.count > 2 ? lines.remove(at: 2) : ""
    #expect(outline.hasPrefix(#"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[12.571, 55.6804"#), "\(outline)")
    #expect(outline.hasSuffix(#"]]]}, "properties": {"feature": "outline", "id": "shop", "radius": 50.0}},"#), "\(outline)")
    #expect(outline.components(separatedBy: "], [").count == 65)
    #expect(lines == [
      #"{"type": "FeatureCollection", "features": ["#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.571, 55.68]}, "properties": {"feature": "region", "id": "shop", "radius": 50.0}},"#,
      #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[12.5735, 55.6795], [12.5735, 55.6805], [12.5725, 55.6805], [12.5725, 55.6795], [12.5735, 55.6795]]]}, "properties": {"feature": "region", "id": "park"}},"#,
      #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[12.57, 55.68], [12.572, 55.68], [12.574, 55.68]]}, "properties": {"feature": "track", "segment": 1, "fixes": 3, "first": "2026-03-28T06:00:00.000Z", "last": "2026-03-28T06:02:00.000Z"}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.5702052, 55.68]}, "properties": {"feature": "event", "kind": "enter", "subject": "shop", "instant": "2026-03-28T06:00:06.156+00:00", "utc": "2026-03-28T06:00:06.156Z", "visit": 1}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.5702052, 55.68]}, "properties": {"feature": "event", "kind": "fired", "subject": "buy", "instant": "2026-03-28T06:00:06.156+00:00", "utc": "2026-03-28T06:00:06.156Z", "trigger": "region shop on=enter", "title": "Buy milk", "repeats": false}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.5717948, 55.68]}, "properties": {"feature": "event", "kind": "exit", "subject": "shop", "instant": "2026-03-28T06:00:53.845+00:00", "utc": "2026-03-28T06:00:53.845Z", "visit": 1}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.5725, 55.68]}, "properties": {"feature": "event", "kind": "enter", "subject": "park", "instant": "2026-03-28T06:01:15.000+00:00", "utc": "2026-03-28T06:01:15.000Z", "visit": 1}},"#,
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.5735, 55.68]}, "properties": {"feature": "event", "kind": "exit", "subject": "park", "instant": "2026-03-28T06:01:45.001+00:00", "utc": "2026-03-28T06:01:45.001Z", "visit": 1}}"#,
      "]}",
    ])
    // Written to a file, the same bytes, and again the same bytes.
    let file = try TrigsimBinary.run(["run", "s.yaml", "--format", "geojson", "--output", "out.geojson"], in: folder)
    #expect(file.status == 0)
    #expect(try String(contentsOf: folder.appendingPathComponent("out.geojson"), encoding: .utf8) == result.stdout)
    #expect(try TrigsimBinary.run(["run", "s.yaml", "--format", "geojson"], in: folder).stdout == result.stdout)
  }

  @Test(arguments: ["morning-walk.yaml", "nearest-pharmacies-city-walk.yaml", "drive-through-pharmacy.yaml"])
  func aBundledScenariosGeoJSONIsAnRFC7946FeatureCollectionLongitudeFirst(scenario: String) throws {
    let result = try TrigsimBinary.run(["run", "scenarios/\(scenario)", "--format", "geojson"])
    #expect(result.status == 0, "\(result.stderr)")
    try GeoJSONStructure.check(result.stdout)
    // Every one of these is in Copenhagen: longitude about 12.5, latitude about 55.7.
    let positions = try GeoJSONStructure.positions(result.stdout)
    #expect(!positions.isEmpty)
    #expect(positions.allSatisfy { (12...13).contains($0[0]) && (55...56).contains($0[1]) })
  }

  /// The located entries of `--format json`'s `entries`, in order: those
  /// that happen at a place (`enter`, `exit`, `detected`, `undetected`, and
  /// `fired` with a region trigger).
  static func locatedEntries(ofJSON text: String) throws -> [[String: Any]] {
    let top = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let entries = try #require(top["entries"] as? [[String: Any]])
    return entries.filter { entry in
      switch entry["kind"] as? String {
      case "enter", "exit", "detected", "undetected": true
      case "fired": ((entry["fields"] as? [String: Any])?["trigger"] as? String)?.hasPrefix("region ") == true
      default: false
      }
    }
  }

  /// Issue 26: `undetected` entries were missing from the map, and `visit`
  /// was the string "1" where `--format json` has the number 1. The events
  /// are now exactly the JSON output's located entries, `undetected`
  /// included, each with its fields typed as the JSON output types them.
  @Test(arguments: ["drive-through-pharmacy.yaml", "graze-pharmacy.yaml", "park-near-pharmacy-inaccurate.yaml"])
  func theEventsAreTheJSONOutputsLocatedEntriesUndetectedIncludedWithTheSameTypedFields(scenario: String) throws {
    let geojson = try TrigsimBinary.run(["run", "scenarios/\(scenario)", "--format", "geojson"])
    let json = try TrigsimBinary.run(["run", "scenarios/\(scenario)", "--format", "json"])
    #expect(geojson.status == 0 && json.status == 0, "\(geojson.stderr)")
    let top = try #require(try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as? [String: Any])
    let events = (top["features"] as? [[String: Any]] ?? []).compactMap { $0["properties"] as? [String: Any] }
      .filter { $0["feature"] as? String == "event" }
    let located = try Self.locatedEntries(ofJSON: json.stdout)
    #expect(located.contains { $0["kind"] as? String == "undetected" }, "the scenario misses a crossing")
    #expect(events.map { "\($0["kind"] ?? "") \($0["subject"] ?? "") \($0["utc"] ?? "")" }
      == located.map { "\($0["kind"] ?? "") \($0["subject"] ?? "") \($0["utc"] ?? "")" })
    let fixed: Set = ["feature", "kind", "subject", "instant", "utc"]
    for (event, entry) in zip(events, located) {
      let fields = entry["fields"] as? [String: Any] ?? [:]
      #expect(NSDictionary(dictionary: event.filter { !fixed.contains($0.key) }) == NSDictionary(dictionary: fields), "\(entry)")
      if ["enter", "exit", "detected", "undetected"].contains(entry["kind"] as? String) {
        #expect(event["visit"] is Int && !(event["visit"] is String), "visit of \(event)")
      }
    }
  }

  /// Each circle is followed by its outline (a Polygon the viewers draw),
  /// and the whole output still reads back as the scenario's regions.
  @Test func eachCircleHasAnOutlineAndTheOutputStillLoadsAsTheRegions() throws {
    let folder = try Self.smallScenario()
    let result = try TrigsimBinary.run(["run", "s.yaml", "--format", "geojson", "--output", "map.geojson"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let document = try String(contentsOf: folder.appendingPathComponent("map.geojson"), encoding: .utf8)
    try GeoJSONStructure.check(document)
    let top = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
    let features = try #require(top["features"] as? [[String: Any]])
    let roles = features.map { feature in
      let properties = feature["properties"] as? [String: Any] ?? [:]
      return "\(properties["feature"] ?? "") \(properties["id"] ?? "") \((feature["geometry"] as? [String: Any])?["type"] ?? "null")"
    }
    #expect(Array(roles.prefix(3)) == ["region shop Point", "outline shop Polygon", "region park Polygon"])
    // The run's output as a regions file: the same two regions (the outline skipped), so the same map.
    let scenario = try String(contentsOf: folder.appendingPathComponent("s.yaml"), encoding: .utf8)
    let regions = try #require(scenario.range(of: "regions:\n"))
    let notifications = try #require(scenario.range(of: "notifications:\n"))
    try (scenario[..<regions.upperBound] + "  - { file: map.geojson }\n" + scenario[notifications.lowerBound...])
      .write(to: folder.appendingPathComponent("again.yaml"), atomically: true, encoding: .utf8)
    let again = try TrigsimBinary.run(["run", "again.yaml", "--format", "geojson"], in: folder)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout == document)
  }

  @Test func geojsonDoesNotGoWithExpectSummaryOrTrials() throws {
    let folder = try Self.smallScenario()
    let expect = try TrigsimBinary.run(["run", "s.yaml", "--format", "geojson", "--expect", "s.timeline"], in: folder)
    #expect(expect.status == 64)
    #expect(expect.stderr.contains("--expect compares a timeline: use --format text, json, jsonl or csv with it"), "\(expect.stderr)")
    let summary = try TrigsimBinary.run(["run", "s.yaml", "--format", "geojson", "--summary"], in: folder)
    #expect(summary.status == 64)
    let trials = try TrigsimBinary.run(["run", "s.yaml", "--format", "geojson", "--trials", "3"], in: folder)
    #expect(trials.status == 64)
    #expect(trials.stderr.contains("a trial report is text or json, not geojson"), "\(trials.stderr)")
  }
}
