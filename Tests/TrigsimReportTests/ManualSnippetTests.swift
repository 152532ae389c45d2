import Foundation
import Testing
import TrigsimCore
import TrigsimReport
import TrigsimScenario

/// The package's folder: this file is Tests/TARGET/FILE.swift.
private let packageFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The Swift the module's overview (`TrigsimReport.md`) shows, compiled and
/// run here (`<!-- snippet: Tests/TrigsimReportTests/ManualSnippetTests.swift -->`):
/// its lines are consecutive lines of this file.
@Suite struct ManualSnippetTests {
  /// `html` is the whole report (the page, holding both pictures), and
  /// `svg(.chart)` one picture as a standalone SVG document, the very chart
  /// the page shows.
  @Test func theOverviewSnippetDrawsThePageAndOnePicture() throws {
    let path = packageFolder.appendingPathComponent("scenarios/report-tour.yaml").path
    let scenario = try ScenarioLoader().load(path: path)
    let run = try Simulation(scenario).report()
    let document = try ReportDocument(ReportInput(scenario: scenario, path: path, run: run))
    let page = document.html          // the whole report
    let chart = document.svg(.chart)  // one picture

    #expect(page.hasPrefix("<!DOCTYPE html>\n"))
    #expect(page.hasSuffix("</html>\n"))
    let prologue = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    #expect(chart.hasPrefix(prologue + "<svg"))
    let chartElement = chart.dropFirst(prologue.count).trimmingCharacters(in: .newlines)
    #expect(page.contains(chartElement), "the page does not hold the chart svg(.chart) draws")
    let mapElement = document.svg(.map).dropFirst(prologue.count).trimmingCharacters(in: .newlines)
    #expect(page.contains(mapElement), "the page does not hold the map svg(.map) draws")
    #expect(chart.contains("medicine_met_reminder_0"), "the chart has no lane for the Metformin reminder")
  }
}
