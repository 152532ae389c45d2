import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// Issue 27: one finite-number rule and one radius rule for every reader
/// (the scenario, a GeoJSON file, a places CSV), and bounded identifiers,
/// names and template expansions, each refused where it is written.
@Suite struct BoundedValuesLoaderTests: LoaderDiagnosticAssertions {
  static let header = "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T12:00:00+01:00, timezone: Europe/Copenhagen }\n"

  /// The scenario `yaml` beside `files`, loaded from a new folder; its problems as `file:line:column: message`.
  static func problems(_ yaml: String, files: [String: String]) throws -> [String] {
    let folder = NSTemporaryDirectory() + "trigsim-bounded-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for (name, text) in files { try text.write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8) }
    do {
      _ = try ScenarioLoader().load(yaml: header + yaml, file: "s.yaml", baseDirectory: folder)
      Issue.record("expected the scenario to be rejected")
      return []
    } catch let error as InputError {
      return error.diagnostics.map { "\($0.location.description.replacingOccurrences(of: folder + "/", with: "")): \($0.message)" }
    }
  }

  // MARK: - Radii and numbers

  @Test func radiiInTheScenarioFollowTheOneRule() {
    assertDiagnostics(Self.header + """
      regions:
        - { id: a, center: [55.6761, 12.5683], radius: 1️⃣1e400 }
        - { id: b, center: [55.6761, 12.5683], radius: 2️⃣10000001 }
        - { id: c, center: [55.6761, 12.5683], radius: 3️⃣.inf }
        - { id: d, center: [55.6761, 12.5683], radius: 4️⃣nan }
        - { id: e, center: [55.6761, 12.5683], radius: 10000000 }
      places:
        shops: [ { id: s, center: [55.6, 12.5], radius: 5️⃣9.2e18 } ]
      """, [
        Expected(marker: "1️⃣", message: "radius '1e400' is too large for a number", note: DecimalNumber.tooLargeNote),
        Expected(marker: "2️⃣", message: "radius must be at most 10000000 metres (10,000 km)"),
        Expected(marker: "3️⃣", message: "radius must be a number, not '.inf'"),
        Expected(marker: "4️⃣", message: "radius must be a number, not 'nan'"),
        Expected(marker: "5️⃣", message: "radius must be at most 10000000 metres (10,000 km)"),
      ])
  }

  /// Issue 27's first crash: `"radius": 1e400` in GeoJSON became infinity and
  /// trapped in the circle's precondition (exit 132).
  @Test func geoJSONNumbersBeyondADoubleAndHugeRadiiAreLocatedErrors() throws {
    let geojson = """
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"id": "a", "radius": 1e400}, "geometry": {"type": "Point", "coordinates": [12.5, 55.6]}},
        {"type": "Feature", "properties": {"id": "b", "radius": 2e7}, "geometry": {"type": "Point", "coordinates": [12.5, 55.6]}},
        {"type": "Feature", "properties": {"id": "c"}, "geometry": {"type": "Point", "coordinates": [1e400, 55.6]}},
        {"type": "Feature", "properties": {"id": "d", "radius": 10000000}, "geometry": {"type": "Point", "coordinates": [12.5, 55.6]}}
      ]}

      """
    let found = try Self.problems("regions:\n  - { file: places.geojson }\n", files: ["places.geojson": geojson])
    #expect(found == [
      "places.geojson:2:59: the radius '1e400' is too large for a number",
      "places.geojson:3:59: radius must be at most 10000000 metres (10,000 km)",
      "places.geojson:4:96: a coordinate '1e400' is too large for a number",
    ])
  }

  @Test func placesCSVNumbersAndRadiiFollowTheOneRule() throws {
    let csv = "id,latitude,longitude,radius\np1,55.6,12.5,1e400\np2,55.6,12.5,20000000\np3,1e999,12.5,100\np4,55.6,12.5,inf\np5,55.6,12.5,0\n"
    let found = try Self.problems("places:\n  shops: { file: shops.csv }\n", files: ["shops.csv": csv])
    #expect(found == [
      "shops.csv:2:14: radius '1e400' is too large for a number",
      "shops.csv:3:14: radius must be at most 10000000 metres (10,000 km)",
      "shops.csv:4:4: latitude '1e999' is too large for a number",
      "shops.csv:5:14: radius must be a number, not 'inf'",
      "shops.csv:6:14: radius must be greater than 0 metres",
    ])
  }

  // MARK: - Identifiers, names, templates

  /// Issue 27's third failure: a 14,000-character medicine id in a template
  /// repeating `{medicine}_` made identifiers of about 196 MB each.
  @Test func medicineIdsAndPlaceIdsAreShortBecauseIdentifiersAreMadeOfThem() {
    let long = String(repeating: "m", count: 65)
    assertDiagnostics(Self.header + """
      places:
        shops: [ { id: 1️⃣\(long), center: [55.6, 12.5] } ]
      medicines:
        - { id: 2️⃣\(long), name: M, dosage: 1, times: ["08:00"] }
        - { id: \(String(repeating: "m", count: 64)), name: M, dosage: 1, times: ["09:00"] }
      """, [
        Expected(marker: "1️⃣", message: "place id '\(String(repeating: "m", count: 40))…' is 65 characters long, more than 64"),
        Expected(
          marker: "2️⃣", message: "medicine id '\(String(repeating: "m", count: 40))…' is 65 characters long, more than 64",
          note: "it becomes part of every request identifier made from it; use a short id (at most 64 characters)"),
      ])
  }

  @Test func aTemplateThatCouldMakeIdentifiersPastTheLimitIsRefused() {
    let repeated = String(repeating: "{medicine}_", count: 4) + "{reminder}"
    assertDiagnostics(Self.header + """
      medicines:
        - { id: 1, name: M, dosage: 1, times: ["08:00"] }
      policy:
        identifiers: { reminder: 1️⃣"\(repeated)", location: 2️⃣"\(String(repeating: "l", count: 130))_{medicine}" }
      """, [
        Expected(
          marker: "1️⃣", message: "the reminder template '\(repeated.prefix(40))…' can make identifiers of 280 characters, more than 256",
          note: "use each placeholder once and a short literal"),
        Expected(
          marker: "2️⃣", message: "the location template '\(String(repeating: "l", count: 40))…' can make identifiers of 260 characters, more than 256",
          note: "each {medicine} counts 64 characters (the longest medicine id), each number and {dose} 20, and a place set's '_<place>' 65"),
      ])
  }

  @Test func identifiersAndTitlesAreBounded() {
    let id = String(repeating: "i", count: 257)
    let title = String(repeating: "t", count: 257)
    assertDiagnostics(Self.header + """
      name: 1️⃣\(title)
      notifications:
        - { id: 2️⃣\(id), trigger: { interval: 2h } }
        - { id: ok, title: 3️⃣\(title), trigger: { interval: 2h } }
        - { id: \(String(repeating: "i", count: 256)), title: \(String(repeating: "t", count: 256)), trigger: { interval: 2h } }
      """, [
        Expected(marker: "1️⃣", message: "'name' '\(String(repeating: "t", count: 40))…' is 257 characters long, more than 256"),
        Expected(
          marker: "2️⃣", message: "notification id '\(String(repeating: "i", count: 40))…' is 257 characters long, more than 256",
          note: "identifiers are at most 256 characters; use a short, stable one"),
        Expected(
          marker: "3️⃣", message: "title '\(String(repeating: "t", count: 40))…' is 257 characters long, more than 256",
          note: "title is at most 256 characters; shorten it"),
      ])
  }
}
