import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimReport

/// One scenario on two phones as one page: the side-by-side table first,
/// each platform's report stacked under it, every element id unique.
@Suite struct SideBySidePageTests {
  @Test func identifiersGetTheSuffixAndNothingElseChanges() {
    let markup: Markup = "<section id=\"map\"><p class=\"id\">id=\"x\"</p><svg id=\"chart\"/></section>"
    #expect(markup.identifiers(suffixed: "ios").rendered == "<section id=\"map-ios\"><p class=\"id\">id=\"x\"</p><svg id=\"chart-ios\"/></section>")
  }

  @Test func thePageIsWellFormedWithTheTableFirstAndUniqueIDs() throws {
    let input = try #require(try ReportFixture.bundled("chain-ignored.yaml"))
    let document = try ReportDocument(input)
    let comparison = PlatformComparison([(.ios, input.run.summary), (.android, input.run.summary)])
    let html = ReportDocument.sideBySide([(.ios, document), (.android, document)], comparison: comparison)
    #expect(ReportWellFormednessTests.problems(html, isHTML: true) == nil)
    let table = try #require(html.range(of: "<h2>Side by side</h2>"))
    let ios = try #require(html.range(of: "<h2>On ios</h2>"))
    let android = try #require(html.range(of: "<h2>On android</h2>"))
    #expect(table.lowerBound < ios.lowerBound && ios.lowerBound < android.lowerBound)
    let ids = html.components(separatedBy: " id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    #expect(Set(ids).count == ids.count, "duplicate ids: \(ids)")
    #expect(ids.contains("doses-ios") && ids.contains("doses-android") && ids.contains("platforms"))
    // The table is text: escaped, one column per platform.
    #expect(html.contains("# platforms: ios, android"))
  }
}
