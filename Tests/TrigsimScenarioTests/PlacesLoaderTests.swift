import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// `places:`, `regionSet:` and `location: { places: ... }`: what loads, and
/// every bad input reported at its file:line:column (the scenario's, or the
/// places CSV's).
@Suite struct PlacesLoaderTests: LoaderDiagnosticAssertions {
  static let head = """
    trigsim: 1
    clock: { start: 2026-05-04T08:00:00+02:00, end: 2026-05-04T09:00:00+02:00, timezone: Europe/Copenhagen }

    """

  /// A folder with `files` written into it, for scenarios that name CSV files.
  static func folder(_ files: [String: String]) throws -> String {
    let path = NSTemporaryDirectory() + "trigsim-places-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for (name, text) in files { try text.write(toFile: "\(path)/\(name)", atomically: true, encoding: .utf8) }
    return path
  }

  @Test func placesFromACSVAndFromTheScenarioBecomeRegionsAfterTheDeclaredOnes() throws {
    let folder = try Self.folder(["shops.csv": "\u{FEFF}ID,Lat,Lon,Radius\r\np1,55.68,12.57,\r\n\"p2\",55.69,12.58,150\r\n"])
    let scenario = try ScenarioLoader().load(yaml: Self.head + """
      regions:
        - { id: home, center: [55.6761, 12.5683] }
      places:
        pharmacies: { file: shops.csv, radius: 80 }
        clinics: [ { id: north, center: [55.70, 12.55], radius: 150 }, { id: south, center: [55.60, 12.55] } ]
      regionSet: { nearest: 5, refresh: 1.5km, significantChange: false }
      medicines:
        - { id: 2, name: Pickup, dosage: 1, location: { places: pharmacies, on: [enter, exit] } }
      """, file: "s.yaml", baseDirectory: folder)
    #expect(scenario.regions.map(\.id.rawValue) == ["home", "pharmacies/p1", "pharmacies/p2", "clinics/north", "clinics/south"])
    #expect(scenario.placeSets.map { $0.places.map(\.radius) } == [[80, 150], [150, 100]])
    #expect(scenario.placeSets.map(\.source) == ["shops.csv", nil])
    #expect(scenario.regionSet == { var policy = RegionSetPolicy(); policy.nearest = 5; policy.refresh = 1500; policy.significantChange = false; return policy }())
    guard case .create(let medicine) = scenario.medicineApp.medicineChanges[0].kind else { Issue.record("no medicine"); return }
    #expect(medicine.location?.places == "pharmacies")
    #expect(medicine.location?.summary == "places pharmacies on=enter,exit")
  }

  @Test func anUnknownPlaceSetIsReportedWithASuggestion() {
    assertDiagnostics(Self.head + """
      places:
        pharmacies: [ { id: a, center: [55.68, 12.57] } ]
      medicines:
        - { id: 2, name: Pickup, dosage: 1, location: { places: 1️⃣pharmacie } }
      """, [Expected(marker: "1️⃣", message: "unknown place set 'pharmacie'", note: "did you mean 'pharmacies'?")])
  }

  @Test func duplicatePlacesBadCoordinatesAndClashesAreReportedWhereTheyAre() {
    assertDiagnostics(Self.head + """
      regions:
        - { id: clinics/north, center: [55.6761, 12.5683] }
      places:
        clinics:
          - 1️⃣{ id: north, center: [55.70, 12.55] }
          - { id: south, center: [55.60, 12.55] }
          - { id: 2️⃣south, center: [55.61, 12.55] }
          - { id: east, center: [3️⃣95, 12.55] }
          - { id: 4️⃣"a b", center: [55.61, 12.55] }
        5️⃣bad/name: [ { id: x, center: [55.61, 12.55] } ]
      """, [
        Expected(marker: "1️⃣", message: "place 'north' would be region 'clinics/north', which is already declared"),
        Expected(marker: "2️⃣", message: "place 'south' is listed twice in set 'clinics'"),
        Expected(marker: "3️⃣", message: "latitude 95.0 is outside -90...90"),
        Expected(marker: "4️⃣", message: "place id 'a b' must be letters, digits, '-' and '_'"),
        Expected(marker: "5️⃣", message: "place set name 'bad/name' must be letters, digits, '-' and '_'"),
      ])
  }

  @Test func aMissingPlacesFileIsReportedAtItsName() {
    assertDiagnostics(Self.head + """
      places:
        pharmacies: { file: 1️⃣no-such-places.csv, radius: 100 }
      """, [Expected(marker: "1️⃣", message: "places file 'no-such-places.csv' does not exist")])
  }

  @Test func regionSetNeedsPlacesAndAPlaceSetReminderRepeats() {
    assertDiagnostics(Self.head + """
      1️⃣regionSet: { nearest: 20, refresh: 2️⃣fast }
      """, [
        Expected(marker: "1️⃣", message: "'regionSet' needs place sets"),
        Expected(marker: "2️⃣", message: "refresh must be a distance greater than zero such as 500m or 1.5km, not 'fast'"),
      ])
    assertDiagnostics(Self.head + """
      places:
        pharmacies: [ { id: a, center: [55.68, 12.57] } ]
      medicines:
        - { id: 2, name: Pickup, dosage: 1, location: { places: pharmacies, repeats: 1️⃣false } }
      """, [Expected(marker: "1️⃣", message: "a location reminder over a place set repeats")])
  }

  /// Bad rows of a places CSV are reported in the CSV at line:column (every
  /// one of them, as track CSV errors are), and the scenario does not load.
  @Test func badCSVRowsAreReportedAtTheirLineAndColumn() throws {
    let csv = """
      id,latitude,longitude
      p1,55.68,12.57
      p2,abc,12.57
      p1,55.69,12.58
      p3,55.69,200
      p4,55.69
      "p5,55.69,12.58

      """
    let folder = try Self.folder(["shops.csv": csv])
    let path = "\(folder)/shops.csv"
    do {
      _ = try ScenarioLoader().load(yaml: Self.head + "places:\n  pharmacies: { file: shops.csv }\n", file: "s.yaml", baseDirectory: folder)
      Issue.record("expected the scenario to be rejected")
    } catch let error as InputError {
      #expect(error.diagnostics.map { "\($0.location): error: \($0.message)" } == [
        "\(path):3:4: error: latitude must be a number, not 'abc'",
        "\(path):4:1: error: place 'p1' is listed twice",
        "\(path):5:10: error: longitude 200 is outside -180...180",
        "\(path):6:1: error: row has 2 fields, the header 3",
        "\(path):7:1: error: a quoted field is not closed on its line",
      ].map { $0 })
    }
  }

  @Test func aCSVWithoutTheNeededColumnsNamesThem() throws {
    let folder = try Self.folder(["shops.csv": "name,lat\np1,55.6\n"])
    do {
      _ = try ScenarioLoader().load(yaml: Self.head + "places:\n  pharmacies: { file: shops.csv }\n", file: "s.yaml", baseDirectory: folder)
      Issue.record("expected the scenario to be rejected")
    } catch let error as InputError {
      #expect(error.diagnostics.map(\.message) == ["the places file's header has no longitude column"])
      #expect(error.diagnostics.first?.location == InputLocation(file: "\(folder)/shops.csv", line: 1, column: 1))
    }
  }

  /// The path policy applies to places files as to tracks.
  @Test func aPlacesFileOutsideTheRootIsRefusedBeforeItIsRead() throws {
    let folder = try Self.folder([:])
    let text = MarkedText(Self.head + "places:\n  pharmacies: { file: 1️⃣../../etc/passwd }\n")
    do {
      _ = try ScenarioLoader(pathPolicy: .confined(to: folder)).load(yaml: text.text, file: "s.yaml", baseDirectory: folder)
      Issue.record("expected the scenario to be rejected")
    } catch let error as InputError {
      #expect(error.diagnostics.count == 1)
      #expect(error.diagnostics.first?.location == text.location("1️⃣", file: "s.yaml"))
      #expect(error.diagnostics.first?.message.contains("places file") == true)
    }
  }
}
