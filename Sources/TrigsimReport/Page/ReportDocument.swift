import TrigsimCore

/// A report of one run: the map and the timeline chart, drawn once, and the
/// documents made of them.
///
/// Drawing reads the track twice (streamed); everything else comes from the
/// run and, when there is one, its comparison with the expected timeline.
/// The same input always gives the same bytes.
public struct ReportDocument: Sendable {
  /// Which picture `svg(_:)` writes.
  public enum Picture: String, CaseIterable, Sendable {
    case map, chart
  }

  public let map: MapDrawing
  public let chart: ChartDrawing
  private let title: String
  private let scenarioPath: String
  private let summary: RunSummary
  private let clock: ClockSettings
  private let verdict: ReportInput.Verdict?
  private let differencesText: String?
  private let assumptionsText: String?
  private let entryCount: Int
  /// Whether the page draws the map: only when the scenario has a track or a
  /// region. Without either, the map would be an empty box; the page says why it has none.
  public let hasMap: Bool

  /// What the page's map section says in place of a map when `hasMap` is false.
  public static let noMapNote = "No track or regions: no map. The scenario has no position to draw."

  /// Draws the report of `input`.
  ///
  /// - Throws: what reading the track throws.
  public init(_ input: ReportInput, options: ReportOptions = ReportOptions()) throws {
    map = try MapDrawing(input, options: options)
    chart = ChartDrawing(input, coverage: map.coverage, options: options)
    title = input.title
    scenarioPath = input.scenarioPath
    summary = input.run.summary
    clock = input.clock
    verdict = input.verdict
    assumptionsText = input.assumptions?.text
    entryCount = input.run.timeline.entries.count
    hasMap = input.track != nil || !input.regions.isEmpty
    if let comparison = input.comparison, !comparison.matches {
      differencesText = Self.differences(comparison, expectedPath: input.expectedPath, scenarioPath: input.scenarioPath, expectedLocations: input.expectedLocations)
    } else {
      differencesText = nil
    }
  }

  /// The diff `verify` prints, its header naming the files: `--- expected
  /// scenarios/walk.timeline` (the expected timeline as the user named it,
  /// "the expected timeline" when unknown) and `+++ actual run of
  /// scenarios/walk.yaml`.
  static func differences(_ comparison: TimelineComparison, expectedPath: String?, scenarioPath: String, expectedLocations: [InputLocation]?) -> String {
    comparison.report(expectedName: expectedPath ?? "the expected timeline", actualName: "run of \(scenarioPath)", expectedLocations: expectedLocations)
  }

  /// One picture as a standalone SVG document.
  public func svg(_ picture: Picture) -> String {
    let element =
      switch picture {
      case .map: MapSVG.render(map, title: title)
      case .chart: ChartSVG.render(chart, title: title)
      }
    let document: Markup = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(element)\n"
    return document.rendered
  }

  /// The whole report as one self-contained HTML page: inline SVG, CSS and
  /// a small script (hover highlighting); nothing loaded from anywhere.
  public var html: String {
    var page = Self.pageStart(title: title)
    page += "<header><h1>\(title)</h1>\n<p class=\"meta\">\(scenarioPath) · clock \(chart.window.start) to "
    page += "\(chart.window.end) · \(entryCount) timeline entries</p>\n"
    page += verdictMarkup()
    page += "</header>\n<main>\n" + sections() + "</main>\n"
    page += Self.pageEnd
    return page.rendered
  }

  /// The page up to its `<body>`: the head with its title and style.
  private static func pageStart(title: String) -> Markup {
    var page: Markup = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    page += "<title>trigsim report: \(title)</title>\n<style>\(Self.pageStyle)</style>\n</head>\n<body>\n"
    return page
  }

  /// The footer, the script and the end of the page.
  private static let pageEnd: Markup = """
    <footer>Made by trigsim. Hover a mark for what it stands for; hovering highlights the same notification or region in both pictures.</footer>
    <script>\(Self.script)</script>
    </body>
    </html>

    """

  /// What `verify` would say, and its findings.
  private func verdictMarkup() -> Markup {
    guard let verdict else { return "" }
    let outcome: Markup = verdict.passed ? "passed" : "failed"
    var html: Markup = "<p class=\"verdict \(outcome)\" id=\"verdict\">verify: \(verdict.text)</p>\n"
    if !verdict.findings.isEmpty {
      html += "<ul class=\"findings\" id=\"findings\">"
      for finding in verdict.findings { html += "<li>\(finding)</li>" }
      html += "</ul>\n"
    }
    return html
  }

  /// The page's sections: map (or why there is none), chart, differences,
  /// assumptions, summary and doses.
  private func sections() -> Markup {
    let mapContent: Markup = hasMap ? MapSVG.render(map, title: title) : "<p class=\"no-map\" id=\"no-map\">\(Self.noMapNote)</p>"
    var page: Markup = "<section id=\"map-section\"><h2>Map</h2>\n\(mapContent)\n</section>\n"
    page += "<section id=\"chart-section\"><h2>Timeline</h2>\n\(ChartSVG.render(chart, title: title))\n</section>\n"
    if let differencesText {
      page += "<section id=\"differences\"><h2>Differences from the expected timeline</h2>\n<pre>\(differencesText)</pre>\n</section>\n"
    }
    if let assumptionsText {
      page += "<section id=\"assumptions\"><h2>Assumptions</h2>\n<p>The run again under each alternative of each assumption it consulted (the manual, \"Assumptions\"): what changes.</p>\n<pre>\(assumptionsText)</pre>\n</section>\n"
    }
    return page + summarySection() + doseTable()
  }

  /// One scenario on several phones as one page (`trigsim report --platform
  /// ios,android`, or a scenario with `platforms:`): the side-by-side dose
  /// table first (`PlatformComparison.text`: the differences, then a column
  /// per platform), then each platform's report stacked in the order given,
  /// under `On ios`, its element ids suffixed with the platform's name
  /// (`map-ios`, `doses-android`) so they stay unique.
  public static func sideBySide(_ reports: [(platform: PlatformName, document: ReportDocument)], comparison: PlatformComparison?) -> String {
    let first = reports[0].document
    let names = reports.map(\.platform.rawValue).joined(separator: ", ")
    var page = pageStart(title: first.title)
    page += "<header><h1>\(first.title)</h1>\n<p class=\"meta\">\(first.scenarioPath) · on \(names) · clock \(first.chart.window.start) to \(first.chart.window.end)</p>\n"
    page += "</header>\n<main>\n"
    if let comparison {
      page += "<section id=\"platforms\"><h2>Side by side</h2>\n<pre>\(comparison.text)</pre>\n</section>\n"
    }
    for (platform, document) in reports {
      var part: Markup = "<section class=\"platform\" id=\"platform\"><h2>On \(platform.rawValue)</h2>\n"
      part += "<p class=\"meta\">\(document.entryCount) timeline entries</p>\n" + document.verdictMarkup() + document.sections() + "</section>\n"
      page += part.identifiers(suffixed: platform.rawValue)
    }
    page += "</main>\n" + pageEnd
    return page.rendered
  }

  /// The pending-slot accounting, the dose outcomes and the coverage warnings.
  private func summarySection() -> Markup {
    var html: Markup = "<section id=\"summary\"><h2>Summary</h2>\n<ul>\n"
    let peakAt = summary.pendingPeakAt.map { " at \(clock.local($0))" } ?? ""
    html += "<li>pending peak: \(summary.pendingPeak)\(peakAt)</li>\n"
    html += "<li>dropped by the pending limit: \(summary.droppedByPendingLimit.count)</li>\n"
    if !summary.doses.isEmpty {
      // `silent` exists only where the scenario expects a silent visit; it is not counted as 0 everywhere else.
      let counts = DoseOutcome.allCases.map { outcome in (outcome, summary.doses.count { $0.outcome == outcome }) }
        .filter { $0.0 != .silent || $0.1 > 0 }.map { "\($0.1) \($0.0.rawValue)" }
      html += "<li>doses: \(summary.doses.count) (\(counts.joined(separator: ", ")))</li>\n"
    }
    for warning in summary.coverageWarnings { html += "<li class=\"warning\">\(warning)</li>\n" }
    return html + "</ul>\n</section>\n"
  }

  /// The dose table: the columns of `trigsim run --summary`. It fits the
  /// page's width (cells wrap, long words too), so the remarks, the last
  /// column, where a missed dose's reason is, are never cut off.
  private func doseTable() -> Markup {
    guard !summary.doses.isEmpty else { return "<section id=\"doses\"><h2>Doses</h2>\n<p>No doses: the scenario has no medicines.</p>\n</section>\n" }
    var html: Markup = "<section id=\"doses\"><h2>Doses</h2>\n<div class=\"scroll\"><table>\n<thead><tr>"
    for column in RunSummary.doseColumns { html += "<th>\(column)</th>" }
    html += "</tr></thead>\n<tbody>\n"
    for dose in summary.doses {
      let cells = summary.doseCells(dose).map { cell -> Markup in "<td>\(cell)</td>" }.joined()
      html += "<tr class=\"o-\(dose.outcome.rawValue)\">\(cells)</tr>\n"
    }
    return html + "</tbody>\n</table></div>\n</section>\n"
  }

  static let pageStyle: Markup = """
    body{font:14px/1.45 "DejaVu Sans",Helvetica,Arial,sans-serif;margin:16px 24px;color:#1a202c;background:#fff}\
    h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:20px 0 6px}.meta{color:#555;margin:0}\
    .verdict{font-weight:bold;margin:6px 0}.findings{margin:0 0 8px;white-space:pre-wrap;overflow-wrap:anywhere}.verdict.passed{color:#2f855a}.verdict.failed{color:#c53030}\
    svg{display:block;max-width:100%;height:auto;border:1px solid #ddd}pre{background:#f7f7f7;padding:8px;overflow:auto;font-size:12px}\
    table{border-collapse:collapse;font-size:12px}th,td{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}\
    th{background:#f3f4f6}.scroll{overflow-x:auto}td:last-child{min-width:16em;overflow-wrap:anywhere}tr.o-missed td{background:#fff5f5}tr.o-unanswered td{background:#fffff0}.warning{color:#975a16}\
    footer{margin-top:24px;color:#777;font-size:12px}
    """

  /// Hovering a mark highlights every mark and region of the same subjects
  /// in both pictures; the page says it is ready when the script has run.
  static let script: Markup = """
    (function(){var on=[];function clear(){on.forEach(function(e){e.classList.remove('hl')});on=[]}\
    document.addEventListener('mouseover',function(ev){var t=ev.target.closest?ev.target.closest('[data-subjects]'):null;clear();\
    if(!t)return;t.getAttribute('data-subjects').split(' ').forEach(function(s){if(!s)return;\
    document.querySelectorAll('[data-subjects~="'+CSS.escape(s)+'"]').forEach(function(e){e.classList.add('hl');on.push(e)})})});\
    document.body.setAttribute('data-ready','1')})();
    """
}
