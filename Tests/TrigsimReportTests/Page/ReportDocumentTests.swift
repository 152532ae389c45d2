import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import TrigsimReport

/// The page and the standalone pictures: well-formed SVG, nothing fetched
/// from anywhere, escaped text, the same bytes every time, and the dose table
/// and differences when there are some.
@Suite struct ReportDocumentTests {
  /// Parses `text` as XML; the first error, if any.
  static func xmlError(_ text: String) -> String? {
    let parser = XMLParser(data: Data(text.utf8))
    return parser.parse() ? nil : "line \(parser.lineNumber): \(parser.parserError.map { "\($0)" } ?? "?")"
  }

  static let medicineYAML = """
    clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-30T06:00:00Z, timezone: UTC }
    platform: { location: ideal }
    regions:
      - { id: "shop<&\\"'>", center: [55.68, 12.572], radius: 50 }
    medicines:
      - { id: met, name: "Metformin <b>", dosage: 500, unit: mg, times: ["08:00"], snooze: none }
    respond:
      - { to: "medicine_*", after: 2m, actions: [complete] }
    """

  @Test func bothPicturesAreWellFormedSVGAndTheSameBytesTwice() throws {
    let input = try ReportFixture.input(Self.medicineYAML, fixes: MapDrawingTests.fixes())
    let document = try ReportDocument(input)
    for picture in ReportDocument.Picture.allCases {
      let svg = document.svg(picture)
      #expect(Self.xmlError(svg) == nil, "\(picture): \(Self.xmlError(svg) ?? "")")
      #expect(svg == (try ReportDocument(input)).svg(picture))
    }
    #expect(document.html == (try ReportDocument(input)).html)
  }

  @Test func thePageFetchesNothing() throws {
    let input = try ReportFixture.input(Self.medicineYAML, fixes: MapDrawingTests.fixes())
    let html = try ReportDocument(input).html
    // The only address is SVG's namespace name, which is never fetched.
    let addresses = html.ranges(of: "http").map { String(html[$0.lowerBound...].prefix(26)) }
    #expect(Set(addresses) == ["http://www.w3.org/2000/svg"])
    for reference in ["src=", "href=", "@import", "url(", "<link", "fetch(", "XMLHttpRequest"] { #expect(!html.contains(reference), "\(reference)") }
  }

  @Test func namesTheUserWroteAreEscaped() throws {
    let input = try ReportFixture.input(Self.medicineYAML, fixes: MapDrawingTests.fixes())
    let html = try ReportDocument(input).html
    #expect(html.contains("data-region=\"shop&lt;&amp;&quot;&apos;&gt;\""))
    #expect(html.contains("Metformin &lt;b&gt;"))
    #expect(!html.contains("<b>"))
  }

  @Test func theDoseTableHasARowPerDoseWithItsOutcome() throws {
    let input = try ReportFixture.input(Self.medicineYAML, fixes: MapDrawingTests.fixes())
    let html = try ReportDocument(input).html
    // 08:00 on the 28th and on the 29th, each completed two minutes later.
    #expect(input.run.summary.doses.count == 2)
    #expect(html.ranges(of: "<tr class=\"o-").count == 2)
    #expect(html.contains(
      "<tr class=\"o-completed\"><td>met</td><td>Metformin &lt;b&gt;</td><td>08:00</td><td>2026-03-29</td><td>completed</td>"
        + "<td>08:00</td><td>08:00</td><td>0</td><td>0</td><td>08:02</td>"))
    #expect(html.contains("doses: 2 (2 completed, 0 dismissed, 0 unanswered, 0 missed)"))
  }

  /// A scenario that states `robust: true` has its assumption report on the page; one that does not, none.
  @Test func theAssumptionReportHasASectionWhenTheScenarioIsRobust() throws {
    let robust = try ReportDocument(try #require(try ReportFixture.bundled("assumption-report-phone-off.yaml"))).html
    #expect(robust.contains("<section id=\"assumptions\"><h2>Assumptions</h2>"))
    #expect(robust.contains("<pre>assumptions consulted: 1, reruns: 2\n  powerOffCatchUp: default none; alternatives all, recent 15m\ndose levo 07:00 2026-05-05: missed by default"))
    let plain = try ReportDocument(try #require(try ReportFixture.bundled("walk-home-latency.yaml"))).html
    #expect(!plain.contains("id=\"assumptions\""))
  }

  @Test func aFailedComparisonShowsTheVerdictAndTheDifferences() throws {
    let input = try ReportFixture.input(MapDrawingTests.yaml, fixes: MapDrawingTests.fixes()) { actual in
      var expected = actual
      expected.entries.removeLast()
      return expected
    }
    let html = try ReportDocument(input).html
    #expect(html.contains("<p class=\"verdict failed\" id=\"verdict\">verify: FAILED</p>"))
    #expect(html.contains("<section id=\"differences\">"))
    #expect(html.contains("data-diff=\"unexpected\""))
    let passing = try ReportFixture.input(MapDrawingTests.yaml, fixes: MapDrawingTests.fixes()) { $0 }
    let passed = try ReportDocument(passing).html
    #expect(passed.contains("verify: passed") && !passed.contains("id=\"differences\"") && !passed.contains("data-diff"))
  }

  /// Issue 26: the diff's header names the files, as `verify` does, not `--- expected expected` / `+++ actual actual`.
  @Test func theDiffHeaderNamesTheExpectedTimelineAndTheRun() throws {
    var input = try ReportFixture.input(MapDrawingTests.yaml, fixes: MapDrawingTests.fixes()) { actual in
      var expected = actual
      expected.entries.removeLast()
      return expected
    }
    input.scenarioPath = "scenarios/walk.yaml"
    input.expectedPath = "scenarios/walk.timeline"
    let html = try ReportDocument(input).html
    #expect(html.contains("<pre>timeline differs from scenarios/walk.timeline: 0 missing, 1 unexpected, 0 shifted\n--- expected scenarios/walk.timeline\n+++ actual run of scenarios/walk.yaml\n@@ "))
    #expect(!html.contains("--- expected expected") && !html.contains("+++ actual actual"))
    // Without the file's name, the page still says what it is.
    input.expectedPath = nil
    #expect(try ReportDocument(input).html.contains("--- expected the expected timeline\n+++ actual run of scenarios/walk.yaml\n"))
  }

  @Test func aCoarserToleranceDrawsFewerPoints() throws {
    // A zigzag walk: 5 m side to side every fix.
    var fixes = ReportFixture.walkEast(minutes: 20)
    for index in fixes.indices where index % 2 == 1 { fixes[index].coordinate.latitude += 5 / 111_000 }
    let input = try ReportFixture.input(MapDrawingTests.yaml, fixes: fixes)
    let fine = try ReportDocument(input, options: ReportOptions(simplificationTolerance: 1)).map
    let coarse = try ReportDocument(input, options: ReportOptions(simplificationTolerance: 10)).map
    #expect(fine.pointsDrawn == 121)
    #expect(coarse.pointsDrawn == 2)
    #expect(coarse.tolerance == 10)
  }
}
