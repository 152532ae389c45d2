import Foundation
import Testing
import TrigsimCore
import TrigsimReport
import TrigsimScenario
import TrigsimTestSupport

/// Every bundled scenario's report, rendered in headless Chromium: the
/// page's script runs without an error, the map and the chart hold exactly
/// the events of the run (the sum of their marks' `data-count`, read from
/// the DOM), and the screenshot is not blank.
@Suite(.enabled(if: HeadlessChromium.locate() != nil, Comment(rawValue: HeadlessChromium.unavailableMessage)))
struct ReportBrowserTests {
  let browser = HeadlessChromium.locate()!

  /// Paths relative to `scenarios/`, sorted (the corpus included; its
  /// scenarios are skipped where `../shared/tracks` is absent, as in the
  /// regression tests).
  static let scenarioFiles = RepositoryPaths.bundledScenarioFiles

  /// What a chart row must hold, by mark kind, counted from a timeline and,
  /// for the actual row, the run's summary (what was seen, the doses).
  static func chartCounts(_ timeline: Timeline, summary: RunSummary? = nil) -> [String: Int] {
    var counts: [String: Int] = [:]
    var inside: Set<String> = []
    for entry in timeline.entries {
      let kind: String?
      switch entry.kind {
      case .scheduled: kind = "scheduled"
      case .replaced, .rescheduled: kind = "rescheduled"
      case .fired: kind = "fired"
      case .removed, .cleared: kind = "removed"
      case .dropped: kind = "dropped"
      case .suppressed: kind = entry[field: "cause"].map { "suppressed-\($0)" } ?? "suppressed"
      case .held: kind = "held"
      case .detected: kind = "detected"
      case .undetected: kind = "undetected"
      case .enter:
        inside.insert(entry.subject)
        kind = "inside"
      case .exit:
        // An exit closes the bar its entry opened, or draws one from the first fix.
        kind = inside.remove(entry.subject) == nil ? "inside" : nil
      case .action:
        let action = entry[field: "action"] ?? ""
        kind = action.hasPrefix("snooze") ? "snoozed"
          : ["complete": "completed", "dismiss": "dismissed", "open": "opened", "ignore": "ignored"][action]
      default: kind = nil
      }
      if let kind { counts[kind, default: 0] += 1 }
    }
    if let summary {
      // The server's pushes are seen on its lanes, as `message-reached`.
      let serverSubjects = Set(summary.channelAttempts.map(\.subject))
      counts["seen"] = summary.perceptions.count { $0.isPerceptible && !serverSubjects.contains($0.subject) }
      for dose in summary.doses { counts["dose-\(dose.outcome.rawValue)", default: 0] += 1 }
      for attempt in summary.channelAttempts {
        counts[attempt.failure == nil ? "message-sent" : "message-failed", default: 0] += 1
        if attempt.perceived != nil { counts["message-reached", default: 0] += 1 }
      }
    }
    return counts.filter { $0.value > 0 }
  }

  /// The track's stretches of fixes (a new one at a segment break or a pause
  /// longer than the gap limit): the bars of the chart's track lane.
  static func stretches(_ input: ReportInput) throws -> Int {
    guard let track = input.track else { return 0 }
    var count = 0
    var previous: TrackSample?
    try track.readSamples { sample in
      if let previous {
        if sample.startsSegment || sample.instant.millisecondsSinceEpoch - previous.instant.millisecondsSinceEpoch > input.gapLimit.milliseconds { count += 1 }
      } else {
        count = 1
      }
      previous = sample
      return true
    }
    return count
  }

  /// What the map must hold, by marker kind: the events from the first fix on (none without a track).
  static func mapCounts(_ input: ReportInput) -> [String: Int] {
    guard input.track != nil, let firstFix = input.run.summary.firstFixAt else { return [:] }
    var counts: [String: Int] = [:]
    for entry in input.run.timeline.entries where entry.instant >= firstFix {
      if [.enter, .exit, .detected, .undetected, .fired].contains(entry.kind) { counts[entry.kind.rawValue, default: 0] += 1 }
    }
    counts["seen"] = input.run.summary.perceptions.count { $0.isPerceptible && $0.instant >= firstFix }
    return counts.filter { $0.value > 0 }
  }

  /// The sums of `data-count` by `data-mark` under `root` (and `condition`).
  static func domCounts(_ dom: HTMLDocument, _ root: String, _ condition: String = "") -> [String: Int] {
    var counts: [String: Int] = [:]
    for kind in Set(dom.attributeValues(xpath: "\(root)//*[@data-mark\(condition)]/@data-mark")) {
      counts[kind] = Int(dom.number(xpath: "sum(\(root)//*[@data-mark='\(kind)'\(condition)]/@data-count)"))
    }
    return counts
  }

  @Test(arguments: scenarioFiles)
  func theReportRendersWithEveryEventAndNoScriptError(_ file: String) throws {
    guard let input = try ReportFixture.bundled(file) else { return }
    let html = try ReportDocument(input).html
    let page = try browser.render(html: html)
    #expect(page.scriptErrors.isEmpty, "\(file): \(page.scriptErrors)")
    #expect(page.consoleMessages.isEmpty, "\(file): \(page.consoleMessages)")
    let dom = HTMLDocument(page.dom)
    #expect(dom.attributeValues(xpath: "/html/body/@data-ready") == ["1"], "\(file): the page's script did not finish")
    // Without a track or a region there is no map, and the page says why (`ReportDocument.hasMap`).
    let hasMap = input.track != nil || !input.regions.isEmpty
    #expect(dom.count(xpath: "//svg[@id='map']") == (hasMap ? 1 : 0) && dom.count(xpath: "//svg[@id='chart']") == 1, "\(file)")
    #expect(dom.count(xpath: "//p[@id='no-map']") == (hasMap ? 0 : 1), "\(file)")
    var chart = Self.chartCounts(input.run.timeline, summary: input.run.summary)
    let stretches = try Self.stretches(input)
    if stretches > 0 { chart["fixes"] = stretches }
    #expect(Self.domCounts(dom, "//svg[@id='chart']", " and @data-row='actual'") == chart, "\(file)")
    #expect(Self.domCounts(dom, "//svg[@id='map']") == Self.mapCounts(input), "\(file)")
    if let comparison = input.comparison {
      // The expected row holds the expected timeline's events (seen and doses come from the run alone).
      #expect(Self.domCounts(dom, "//svg[@id='chart']", " and @data-row='expected'") == Self.chartCounts(comparison.expected), "\(file)")
      #expect(dom.count(xpath: "//*[@data-diff]") == 0, "\(file) matches its expected timeline: nothing is outlined")
    }
    // One table row per dose.
    #expect(dom.count(xpath: "//section[@id='doses']//tbody/tr") == input.run.summary.doses.count)
    let screenshot = try browser.screenshot(html: html, width: 1000, height: 1200)
    #expect(!screenshot.isBlank)
    #expect(screenshot.fractionOfPixels(differingFrom: .init(255, 255, 255)) > 0.05, "\(file): the screenshot is nearly empty")
    #expect(screenshot.distinctColours >= 16, "\(file): \(screenshot.distinctColours) colours")
  }

  @Test func aDifferenceFromTheExpectedTimelineIsOutlinedInTheBrowser() throws {
    let original = try #require(try ReportFixture.bundled("morning-walk.yaml"))
    var expected = original.run.timeline
    // The expected timeline lacks the clinic entry's delivery.
    let index = try #require(expected.entries.firstIndex { $0.kind == .fired && $0.subject == "pickup" })
    expected.entries.remove(at: index)
    var input = original
    input.comparison = TimelineComparison(expected: expected, actual: original.run.timeline)
    input.verdict = ReportInput.Verdict("timeline differs", passed: false)
    let page = try browser.render(html: try ReportDocument(input).html)
    let dom = HTMLDocument(page.dom)
    #expect(page.scriptErrors.isEmpty)
    #expect(dom.attributeValues(xpath: "//svg[@id='chart']//*[@data-diff]/@data-diff") == ["unexpected"])
    #expect(dom.attributeValues(xpath: "//svg[@id='chart']//*[@data-diff]/@data-subjects") == ["pickup"])
    #expect(dom.count(xpath: "//section[@id='differences']/pre") == 1)
  }
}
