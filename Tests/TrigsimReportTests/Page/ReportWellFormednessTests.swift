import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimReport

/// Every document the report writes parses cleanly with libxml2 (no browser
/// needed): each SVG picture as strict XML 1.0, the HTML page with the HTML
/// parser, for every bundled scenario and for names made of markup.
@Suite struct ReportWellFormednessTests {
  /// The three documents of a report, by name.
  static func documents(_ document: ReportDocument) -> [(name: String, text: String, isHTML: Bool)] {
    [("report.html", document.html, true)]
      + ReportDocument.Picture.allCases.map { ("\($0.rawValue).svg", document.svg($0), false) }
  }

  /// What libxml2 says of one document, as a failure message (nil when it parses cleanly).
  static func problems(_ text: String, isHTML: Bool) -> String? {
    let problems = isHTML ? MarkupWellFormedness.htmlProblems(text) : MarkupWellFormedness.xmlProblems(text)
    guard !problems.isEmpty else { return nil }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    return problems.prefix(5).map { problem in
      let line = problem.line >= 1 && problem.line <= lines.count ? String(lines[problem.line - 1]) : ""
      let column = max(problem.column, 1)
      let excerpt = String(line.dropFirst(max(column - 60, 0)).prefix(120))
      return "\(problem)\n    \(excerpt)"
    }.joined(separator: "\n")
  }

  @Test(arguments: RepositoryPaths.bundledScenarioFiles)
  func everyBundledScenariosDocumentsAreWellFormed(_ file: String) throws {
    guard let input = try ReportFixture.bundled(file) else { return }
    for (name, text, isHTML) in Self.documents(try ReportDocument(input)) {
      let problems = Self.problems(text, isHTML: isHTML)
      #expect(problems == nil, "\(file) → \(name):\n\(problems ?? "")")
    }
  }

  /// The hostile names of `fixtures/fuzz/report/accept-hostile-names.yaml`
  /// (also a regression input of the `report` fuzz target).
  static let hostileNames = RepositoryPaths.fixtures.appendingPathComponent("fuzz/report/accept-hostile-names.yaml").path

  @Test func namesMadeOfMarkupAndControlCharactersStayText() throws {
    let input = try #require(try ReportFixture.scenarioFile(Self.hostileNames, shownAs: "hostile <path>.yaml"))
    let document = try ReportDocument(input)
    for (name, text, isHTML) in Self.documents(document) {
      let problems = Self.problems(text, isHTML: isHTML)
      #expect(problems == nil, "\(name):\n\(problems ?? "")")
      // No character XML 1.0 forbids, escaped or not.
      let forbidden = text.unicodeScalars.filter { ($0.value < 0x20 && !["\t", "\n", "\r"].contains($0)) || $0.value == 0xFFFE || $0.value == 0xFFFF }
      #expect(forbidden.isEmpty, "\(name): \(forbidden.map { String($0.value, radix: 16) })")
      // The title is text, its control characters shown as U+FFFD.
      #expect(
        text.contains(
          "Walk &lt;script&gt;alert(1)&lt;/script&gt; &amp; ]]&gt; &quot;double&quot; &apos;single&apos; \u{FFFD}[31mred\u{FFFD}\u{FFFD} \u{FFFD} end"),
        "\(name)")
      #expect(!text.contains("]]>") && !text.contains("<!--") && !text.contains("<![CDATA["), "\(name)")
    }
    let html = document.html
    // The page's own script is the only one.
    #expect(html.ranges(of: "<script>").count == 1 && html.ranges(of: "</script>").count == 1)
    #expect(html.contains("<p class=\"meta\">hostile &lt;path&gt;.yaml"))
    // The dose table's cells and the chart's timeline lines are already text
    // outputs, with control characters written `\u{HEX}` (`ControlCharacterEscape`).
    #expect(html.contains(#"<td>Met&lt;/script&gt;&lt;b&gt;&amp;amp;\u{1B}\u{7}\u{0}</td>"#))
    let map = document.svg(.map), chart = document.svg(.chart)
    #expect(map.contains("data-region=\"home&lt;&amp;&quot;&apos;&gt;]]&gt;\""))
    #expect(map.contains(">&lt;/script&gt;&lt;!--</text>"))
    #expect(chart.contains("data-lane=\"tea&lt;&amp;&gt;&quot;&apos;\""))
    #expect(chart.contains(#"title=&quot;Tea ]]&gt; &lt;![CDATA[ \u{1B}[1m\u{7}&quot;"#))
    #expect(chart.contains("data-band=\"Focus Sleep&lt;&amp;&gt;&quot;\""))
  }

  /// The checker itself: what it must catch, located.
  @Test func theCheckerFindsWhatIsNotWellFormed() {
    let legend = MarkupWellFormedness.xmlProblems("<svg>\n<text>still (< 0.5 m/s)</text>\n</svg>")
    // libxml2 locates the error just past the stray `<`.
    #expect(legend.first?.line == 2 && legend.first?.column == 15, "\(legend)")
    #expect(!MarkupWellFormedness.xmlProblems("<svg><title>a & b</title></svg>").isEmpty)
    #expect(!MarkupWellFormedness.xmlProblems("<svg><title>bell \u{7}</title></svg>").isEmpty)
    #expect(MarkupWellFormedness.xmlProblems("<svg><title>a &amp; b &lt; c</title></svg>").isEmpty)
    let page = "<!DOCTYPE html>\n<html><body><main><p>a & b</p></main>\n<p>c</i></p></body></html>\n"
    let problems = MarkupWellFormedness.htmlProblems(page)
    #expect(problems.map(\.line) == [2, 3], "\(problems)")
    // HTML5's and SVG's elements, unknown to libxml2's HTML 4 parser, are not problems.
    #expect(MarkupWellFormedness.htmlProblems("<!DOCTYPE html>\n<html><body><main><svg><title>t</title></svg></main></body></html>\n").isEmpty)
  }
}

/// `ReportDocument` is public: whatever values it is handed (a radius of
/// 10¹⁸ m or the largest double, fixes at the poles, on the 180th meridian,
/// or not valid at all, a width or a tolerance that is not a number), it
/// draws without a trap and writes well-formed documents.
@Suite struct ReportExtremeValuesTests {
  static func circle(_ id: String, _ latitude: Double, _ longitude: Double, radius: Double) -> MonitoredRegion {
    MonitoredRegion(id: RegionID(id), shape: CircularRegion(center: Coordinate(latitude: latitude, longitude: longitude), radius: radius))
  }

  /// The walk of the map tests with these regions and extra fixes (after the walk, in time order).
  static func input(regions: [MonitoredRegion], extraFixes: [Coordinate] = []) throws -> ReportInput {
    var input = try ReportFixture.input(MapDrawingTests.yaml, fixes: MapDrawingTests.fixes())
    input.regions = regions
    var samples = MapDrawingTests.fixes()
    var instant = samples.last!.instant
    for coordinate in extraFixes {
      instant = instant.advanced(by: .seconds(10))
      samples.append(TrackSample(instant: instant, coordinate: coordinate))
    }
    input.track = InMemoryTrack(name: "fixes", samples: samples)
    return input
  }

  static func expectWellFormed(_ document: ReportDocument, _ what: String) {
    for (name, text, isHTML) in ReportWellFormednessTests.documents(document) {
      let problems = ReportWellFormednessTests.problems(text, isHTML: isHTML)
      #expect(problems == nil, "\(what) → \(name):\n\(problems ?? "")")
      let notANumber = text.ranges(of: /(?i)\b(nan|inf|infinity)\b/).map { String(text[$0]) }
      #expect(notANumber.isEmpty, "\(what) → \(name): a number that is not one: \(notANumber.prefix(3))")
    }
  }

  @Test(arguments: [9.2e18, 1e300, Double.greatestFiniteMagnitude, 20_000_001, 0])
  func aCircleOfAnyFiniteRadiusIsDrawnAndLabelledWithIt(radius: Double) throws {
    let input = try Self.input(regions: [Self.circle("huge", 55.68, 12.572, radius: radius), Self.circle("shop", 55.68, 12.572, radius: 50)])
    let document = try ReportDocument(input)
    let huge = try #require(document.map.regions.first { $0.id == "huge" })
    #expect(huge.shape == "circle r=\(CircularRegion(center: Coordinate(latitude: 0, longitude: 0), radius: radius).radiusText)m")
    #expect(huge.ring.allSatisfy { $0.x.isFinite && $0.y.isFinite })
    #expect(document.map.markers.allSatisfy { $0.at.x.isFinite && $0.at.y.isFinite })
    Self.expectWellFormed(document, "radius \(radius)")
    if radius == 9.2e18 { #expect(document.svg(.map).contains("<title>region huge: circle r=9.2e+18m</title>")) }
  }

  @Test func regionsAndFixesAtThePolesAndOnTheAntimeridianAreDrawn() throws {
    let input = try Self.input(
      regions: [
        Self.circle("north", 90, 0, radius: 5_000_000), Self.circle("south", -90, 180, radius: 100),
        Self.circle("east", 0, 180, radius: 1_000), Self.circle("west", 0, -180, radius: 1_000),
      ],
      extraFixes: [
        Coordinate(latitude: 90, longitude: 180), Coordinate(latitude: -90, longitude: -180), Coordinate(latitude: 0, longitude: 179.999_999),
      ])
    let document = try ReportDocument(input)
    #expect(document.map.regions.map(\.id) == ["north", "south", "east", "west"])
    #expect(document.map.track.allSatisfy { $0.points.allSatisfy { $0.x.isFinite && $0.y.isFinite } })
    Self.expectWellFormed(document, "poles and antimeridian")
  }

  @Test func fixesThatAreNotValidCoordinatesAreLeftOut() throws {
    let valid = try ReportDocument(try Self.input(regions: [Self.circle("shop", 55.68, 12.572, radius: 50)]))
    let input = try Self.input(
      regions: [Self.circle("shop", 55.68, 12.572, radius: 50)],
      extraFixes: [
        Coordinate(latitude: .nan, longitude: 12.6), Coordinate(latitude: 55.7, longitude: .infinity), Coordinate(latitude: 1e300, longitude: -1e300),
        Coordinate(latitude: 91, longitude: 0), Coordinate(latitude: 0, longitude: -180.5),
      ])
    let document = try ReportDocument(input)
    #expect(document.map.fixesRead == valid.map.fixesRead)
    #expect(document.svg(.map) == valid.svg(.map))
    Self.expectWellFormed(document, "invalid fixes")
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity, -5, 0, 1e300])
  func anyWidthAndToleranceDrawWithinTheirRanges(value: Double) throws {
    var options = ReportOptions(simplificationTolerance: value)
    options.width = value
    let document = try ReportDocument(try Self.input(regions: [Self.circle("shop", 55.68, 12.572, radius: 50)]), options: options)
    #expect(ReportOptions.widthRange.contains(document.map.width) && document.map.width == document.chart.width)
    #expect(document.map.tolerance.isFinite && document.map.tolerance >= 0)
    Self.expectWellFormed(document, "width and tolerance \(value)")
  }
}

extension ReportExtremeValuesTests {
  /// A clock beyond the years 0001–9999 is drawn cut to them (a line a year), one that ends before it starts as an instant.
  @Test(arguments: [(Int64.min, Int64.max), (Int64.max - 1, Int64.max), (0, -1)])
  func anyClockWindowIsDrawn(start: Int64, end: Int64) throws {
    var input = try Self.input(regions: [Self.circle("shop", 55.68, 12.572, radius: 50)])
    input.clock.start = SimulationInstant(millisecondsSinceEpoch: start)
    input.clock.end = SimulationInstant(millisecondsSinceEpoch: end)
    let document = try ReportDocument(input)
    Self.expectWellFormed(document, "clock \(start) to \(end)")
  }
}
