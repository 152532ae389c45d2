import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimReport

/// The page's map section: a map when the scenario has a position to draw
/// (a track or a region), and a sentence saying why there is none otherwise,
/// never an empty box.
@Suite struct ReportMapSectionTests {
  static let medicineOnly = """
    clock: { start: 2026-05-05T06:00:00+02:00, end: 2026-05-05T09:00:00+02:00, timezone: Europe/Copenhagen }
    medicines:
      - { id: levo, name: Levothyroxine, dosage: 50, unit: µg, times: ["07:00"], snooze: none }
    """

  /// The map section's markup, from its heading to its end.
  static func mapSection(_ html: String) throws -> String {
    let start = try #require(html.range(of: "<section id=\"map-section\">"))
    let end = try #require(html[start.upperBound...].range(of: "</section>"))
    return String(html[start.lowerBound..<end.upperBound])
  }

  @Test func aScenarioWithoutTrackOrRegionsHasNoMapAndSaysWhy() throws {
    let document = try ReportDocument(try ReportFixture.input(Self.medicineOnly))
    #expect(!document.hasMap)
    let section = try Self.mapSection(document.html)
    #expect(section.contains("<p class=\"no-map\" id=\"no-map\">No track or regions: no map. The scenario has no position to draw.</p>"))
    #expect(!section.contains("<svg"))
    // The chart is still drawn.
    #expect(document.html.contains("<section id=\"chart-section\"><h2>Timeline</h2>\n<svg"))
  }

  @Test func aScenarioWithARegionButNoTrackHasAMap() throws {
    let yaml = Self.medicineOnly + "\nregions:\n  - { id: home, center: [55.68, 12.57], radius: 100 }\n"
    let document = try ReportDocument(try ReportFixture.input(yaml))
    #expect(document.hasMap)
    let section = try Self.mapSection(document.html)
    #expect(section.contains("<svg"))
    #expect(!section.contains("no-map"))
  }

  @Test func aScenarioWithATrackButNoRegionHasAMap() throws {
    let document = try ReportDocument(
      try ReportFixture.input(
        "clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T07:00:00Z, timezone: UTC }\n", fixes: ReportFixture.walkEast(minutes: 10)))
    #expect(document.hasMap)
    #expect(try Self.mapSection(document.html).contains("<svg"))
  }
}
