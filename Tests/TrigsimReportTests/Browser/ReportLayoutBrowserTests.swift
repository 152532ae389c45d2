import Foundation
import Testing
import TrigsimCore
import TrigsimReport
import TrigsimScenario
import TrigsimTestSupport

/// Issue 26, "a report that shows why", in a real browser at 1280 px: the
/// dose table's remarks column (where the reason for a missed or late dose
/// is) lies inside the viewport, measured where Chromium laid it out, and
/// each failed assertion is on the page with what it found.
@Suite(.enabled(if: HeadlessChromium.locate() != nil, Comment(rawValue: HeadlessChromium.unavailableMessage)))
struct ReportLayoutBrowserTests {
  let browser = HeadlessChromium.locate()!

  /// The width of a laptop's browser window, the measure.
  static let viewportWidth = 1280

  /// A script put last in the page: every remarks cell of the dose table,
  /// every finding and the table's scroller get their rendered edges
  /// (`data-left`, `data-right`: CSS pixels from the viewport's left edge,
  /// from `getBoundingClientRect`), the scroller its `scrollWidth` and
  /// `clientWidth`, and the body the viewport's width; `--dump-dom` then
  /// carries them out.
  static let measuring = """
    <script>(function(){var b=document.body;b.setAttribute('data-viewport-width',String(document.documentElement.clientWidth));\
    document.querySelectorAll('#doses tbody td:last-child, #findings li, #doses .scroll').forEach(function(e){var r=e.getBoundingClientRect();\
    e.setAttribute('data-left',String(Math.floor(r.left)));e.setAttribute('data-right',String(Math.ceil(r.right)))});\
    var s=document.querySelector('#doses .scroll');if(s){s.setAttribute('data-scroll-width',String(s.scrollWidth));\
    s.setAttribute('data-client-width',String(s.clientWidth))}})();</script>
    """

  /// `phone-off-across-dose` (doses an hour and eleven hours late, each with
  /// a long remark) with a medicine name of 90 characters and two
  /// assertions that fail, verified as `trigsim report` does: the input, and
  /// the failed assertions.
  static func failingReport() throws -> (ReportInput, [AssertionFailure]) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trigsim-report-layout-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let name = "phone-off-across-dose"
    for suffix in [".timeline", ".doses"] {
      try FileManager.default.copyItem(at: RepositoryPaths.scenarios.appendingPathComponent(name + suffix), to: folder.appendingPathComponent(name + suffix))
    }
    var yaml = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent(name + ".yaml"), encoding: .utf8)
    let longName = "Levothyroxine sodium 50 micrograms, taken on an empty stomach half an hour before breakfast"
    #expect(yaml.contains("name: Levothyroxine,"))
    yaml = yaml.replacingOccurrences(of: "name: Levothyroxine,", with: "name: \"\(longName)\",")
    yaml += "  - pendingPeak: { atMost: 1 }\n  - nothingFired: { from: 2026-05-04T09:00:00, to: 2026-05-04T10:00:00 }\n"
    let path = folder.appendingPathComponent(name + ".yaml").path
    try yaml.write(toFile: path, atomically: true, encoding: .utf8)
    let file = try ScenarioLoader().loadFile(path: path)
    var verifier = ScenarioVerifier()
    verifier.checksTrials = false
    let verification = verifier.verify(file)
    let run = try #require(verification.report, "\(verification.headline)")
    let verdict = ReportInput.Verdict(verification.headline, passed: verification.outcome == .passed, findings: verification.findings)
    let input = ReportInput(
      scenario: file.scenario, path: name + ".yaml", run: run, comparison: verification.comparison, verdict: verdict,
      expectedPath: name + ".timeline", expectedLocations: verification.expectedLocations)
    return (input, verification.assertionFailures)
  }

  @Test func atTwelveEightyPixelsTheRemarksColumnIsInsideTheViewportAndEachFailedAssertionIsOnThePage() throws {
    let (input, failures) = try Self.failingReport()
    #expect(failures.count == 2)
    let html = try ReportDocument(input).html.replacingOccurrences(of: "</body>", with: Self.measuring + "</body>")
    let page = try browser.render(html: html, window: (Self.viewportWidth, 900))
    #expect(page.scriptErrors.isEmpty, "\(page.scriptErrors)")
    let dom = HTMLDocument(page.dom)
    let viewport = try #require(dom.attributeValues(xpath: "/html/body/@data-viewport-width").first.flatMap { Int($0) })
    // The window is the one asked for (less a scrollbar, if the browser draws one).
    #expect((Self.viewportWidth - 20...Self.viewportWidth).contains(viewport), "viewport \(viewport) px")

    // Every dose's remarks cell, by its rendered edges.
    let doses = input.run.summary.doses
    #expect(doses.count == 5)
    let lefts = dom.attributeValues(xpath: "//section[@id='doses']//tbody/tr/td[last()]/@data-left").compactMap { Int($0) }
    let rights = dom.attributeValues(xpath: "//section[@id='doses']//tbody/tr/td[last()]/@data-right").compactMap { Int($0) }
    #expect(lefts.count == doses.count && rights.count == doses.count)
    for (left, right) in zip(lefts, rights) {
      #expect(left >= 0 && right <= viewport, "a remarks cell spans \(left)…\(right) px in a viewport of \(viewport) px")
      // Some room to read in: at least 16em of 12 px.
      #expect(right - left >= 190, "a remarks cell is \(right - left) px wide")
    }
    // Not scrolled out of sight either: the table fits its scroller.
    let scroller = try #require(dom.attributeValues(xpath: "//section[@id='doses']/div[@class='scroll']/@data-right").first.flatMap { Int($0) })
    #expect(rights.allSatisfy { $0 <= scroller })
    let scrollWidth = dom.attributeValues(xpath: "//section[@id='doses']/div[@class='scroll']/@data-scroll-width").first.flatMap { Int($0) }
    let clientWidth = dom.attributeValues(xpath: "//section[@id='doses']/div[@class='scroll']/@data-client-width").first.flatMap { Int($0) }
    #expect(scrollWidth != nil && scrollWidth == clientWidth, "the table is \(scrollWidth ?? -1) px wide in a scroller of \(clientWidth ?? -1) px")
    // The remarks are there in full.
    let texts = dom.attributeValues(xpath: "//section[@id='doses']//tbody/tr/td[last()]")
    #expect(texts == doses.map { input.run.summary.displayRemarks($0) })
    #expect(texts.contains { $0.count > 100 })

    // Each failed assertion, with what it found, in the findings, inside the viewport.
    let findings = dom.attributeValues(xpath: "//ul[@id='findings']/li")
    for failure in failures {
      let line = "assertion failed: \(failure.assertion): \(failure.finding)"
      #expect(findings.contains { $0.hasSuffix(line) }, "\(line) is not among \(findings)")
    }
    let findingRights = dom.attributeValues(xpath: "//ul[@id='findings']/li/@data-right").compactMap { Int($0) }
    #expect(findingRights.count == findings.count && findingRights.allSatisfy { $0 <= viewport }, "\(findingRights)")
  }

  /// A script put last in the page: each label's text in the insets and
  /// each inset marker get their rendered box (`getBBox`, in the picture's
  /// pixels) as `data-bbox`: min x, min y, max x, max y.
  static let measuringInsets = """
    <script>(function(){document.querySelectorAll('g.inset rect.label-bg + text, g.inset [data-inset-mark]').forEach(function(e){\
    var b=e.getBBox();e.setAttribute('data-bbox',[b.x,b.y,b.x+b.width,b.y+b.height].join(' '))})})();</script>
    """

  static func box(_ text: String) -> PixelBox? {
    let values = text.split(separator: " ").compactMap { Double($0) }
    return values.count == 4 ? PixelBox(minX: values[0], minY: values[1], maxX: values[2], maxY: values[3]) : nil
  }

  @Test func inTheBrowserEachInsetLabelsTextStaysInItsBoxClearOfTheMarkers() throws {
    let input = try ReportFixture.input(MapInsetTests.crowdedYAML, fixes: MapInsetTests.crowdedFixes())
    let html = try ReportDocument(input).html.replacingOccurrences(of: "</body>", with: Self.measuringInsets + "</body>")
    let page = try browser.render(html: html, window: (Self.viewportWidth, 900))
    #expect(page.scriptErrors.isEmpty, "\(page.scriptErrors)")
    let dom = HTMLDocument(page.dom)
    let boxes = dom.attributeValues(xpath: "//*[@class='inset']//*[@class='label-bg']/@data-label-box").compactMap(Self.box)
    let texts = dom.attributeValues(xpath: "//*[@class='inset']//*[@class='label-bg']/following-sibling::*[1]/@data-bbox").compactMap(Self.box)
    let markers = dom.attributeValues(xpath: "//*[@class='inset']//*[@data-inset-mark]/@data-bbox").compactMap(Self.box)
    #expect(boxes.count >= 6 && texts.count == boxes.count, "\(boxes.count) label boxes, \(texts.count) texts")
    #expect(markers.count >= 40)
    for (box, text) in zip(boxes, texts) {
      // The text as drawn by the browser's font lies in the box the placement reserved.
      let slack = 0.5
      #expect(text.minX >= box.minX - slack && text.maxX <= box.maxX + slack && text.minY >= box.minY - slack && text.maxY <= box.maxY + slack,
              "text drawn at \(text) outside its box \(box)")
      for marker in markers { #expect(!text.overlaps(marker), "text at \(text) covers a marker at \(marker)") }
    }
  }
}
