import ArgumentParser
import Foundation
import TrigsimCore
import TrigsimReport
import TrigsimScenario

struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Draw a run as one self-contained HTML page: a map, a timeline chart, the doses.",
    discussion: """
      The page holds the map (track coloured by speed, gaps dashed, regions as true \
      geodesic circles and polygons, markers where the geometry crossed, the device \
      detected, a notification fired or was seen; below it a close-up of each \
      region where something happened, labels clear of the markers), the timeline \
      chart (a lane per region, dose time and request; each dose where the patient \
      perceived it, a line from when it was due; Focus, phone-off, locked until the \
      first unlock, Low Power Mode and offline bands; day boundaries in the device's \
      zone; time-zone changes), what verify would say (each failed assertion with \
      what it found; the diff naming the files), the summary and the dose table. \
      When the scenario has an expected timeline, each lane \
      shows expected above actual with the differences outlined. Inline SVG, CSS \
      and a small script: nothing is loaded from the network. --format svg writes \
      one picture (--picture map or chart) for a pull-request comment. The track \
      is simplified for drawing (Douglas–Peucker, one pixel by default). Exits 0 \
      when the report is written, whatever the comparison found: use 'verify' or \
      'test' to gate a build.
      """)

  @Argument(help: "The scenario file (YAML).")
  var scenario: String

  @Option(name: .shortAndLong, help: "Write the report to this file (atomically) instead of standard output ('-' is standard output).")
  var output: String?

  @Option(name: .shortAndLong, help: "html (the whole report) or svg (one picture: see --picture).")
  var format: ReportFormat = .html

  @Option(help: "With --format svg: map or chart.")
  var picture: ReportDocument.Picture?

  @Option(help: ArgumentHelp("Douglas–Peucker tolerance for drawing the track, in metres (default: one pixel at the map's scale).", valueName: "metres"))
  var simplify: Double?

  @Option(help: ArgumentHelp("Compare with this expected timeline instead of the one the scenario names.", valueName: "file"))
  var expect: String?

  @Flag(help: "Add the assumption report (the scenario rerun under each alternative of each assumption it consulted) as a section; scenarios that state 'robust: true' have it anyway.")
  var assumptions = false

  @OptionGroup var comparison: ComparisonFlags
  @OptionGroup var root: RootOption
  @OptionGroup var platform: PlatformOption

  func validate() throws {
    if format == .html, picture != nil { throw ValidationError("--picture chooses the picture of --format svg; the html report has both") }
    if format == .svg, let platforms = try platform.override, platforms.count > 1 {
      throw ValidationError("--format svg draws one picture of one phone: choose it with --platform ios or --platform android (the html report stacks both)")
    }
    if expect != nil, let platforms = try platform.override, platforms.count > 1 {
      throw ValidationError("--expect names one expected timeline: with several phones each has its own (x.ios.timeline, x.android.timeline); leave --expect out")
    }
    if let simplify, !(simplify.isFinite && simplify >= 0 && simplify <= 100_000) {
      throw ValidationError("--simplify takes a tolerance from 0 to 100000 metres, not \(simplify)")
    }
  }

  func run() throws {
    // Checked before the scenario is loaded and run (see `openOutput`).
    let output = try openOutput(self.output)
    let (document, summary) = try drawReport(
      of: scenario, overrides: try comparison.options(), expect: expect, loader: root.loader(),
      options: ReportOptions(simplificationTolerance: simplify), assumptions: assumptions, platforms: try platform.override,
      onePicture: format == .svg)
    let text = format == .html ? document.html : document.svg(picture ?? .map)
    try emit(text, to: output)
    sayCoverage(of: summary, at: scenario)
  }
}

/// What `drawReport` drew: one phone's report, or several phones' on one page.
enum DrawnReport {
  case one(ReportDocument)
  case sideBySide([(platform: PlatformName, document: ReportDocument)], PlatformComparison?)

  var html: String {
    switch self {
    case .one(let document): document.html
    case .sideBySide(let reports, let comparison): ReportDocument.sideBySide(reports, comparison: comparison)
    }
  }

  /// One picture of the (first) phone's run.
  func svg(_ picture: ReportDocument.Picture) -> String {
    switch self {
    case .one(let document): document.svg(picture)
    case .sideBySide(let reports, _): reports[0].document.svg(picture)
    }
  }
}

/// Runs the scenario at `path` as `verify` does (but for its trials) and
/// draws the report of the run, with the comparison and the verdict.
/// Problems are printed to standard error and thrown as the documented exit.
///
/// On several phones (`platforms`, else the scenario's `platforms:`) each
/// platform's run is drawn and verified against its own files, and the page
/// stacks them under the side-by-side dose table (`ReportDocument.sideBySide`).
/// `onePicture` (`--format svg`) refuses a scenario on several phones.
func drawReport(
  of path: String, overrides: ComparisonOptions, expect: String?, loader: ScenarioLoader, options: ReportOptions, assumptions: Bool = false,
  platforms: [PlatformName]? = nil, onePicture: Bool = false
) throws -> (DrawnReport, RunSummary) {
  let file = try loadScenario(at: path, loader: loader)
  var probe = ScenarioVerifier()
  probe.platformOverride = platforms
  let phones = probe.platforms(of: file.scenario)
  if ScenarioVerifier.keepsOwnFiles(phones, of: file.scenario) {
    let (document, summary) = try drawOneReport(file, path: path, overrides: overrides, expect: expect, loader: loader, options: options, assumptions: assumptions)
    return (.one(document), summary)
  }
  if phones.count == 1 {
    let (document, summary) = try drawOneReport(
      ScenarioVerifier.file(file, on: phones[0]), path: path, overrides: overrides, expect: expect, loader: loader, options: options, assumptions: assumptions)
    return (.one(document), summary)
  }
  if onePicture {
    throw PlatformOption.refuseSeveralPhones(phones, of: file.scenario, at: path, conflict: "--format svg draws one phone")
  }
  var reports: [(platform: PlatformName, document: ReportDocument)] = []
  var runs: [(platform: PlatformName, summary: RunSummary)] = []
  for phone in phones {
    let (document, summary) = try drawOneReport(
      ScenarioVerifier.file(file, on: phone), path: path, overrides: overrides, expect: nil, loader: loader, options: options, assumptions: assumptions)
    reports.append((phone, document))
    runs.append((phone, summary))
  }
  let comparison = file.scenario.medicineApp.isEmpty ? nil : PlatformComparison(runs)
  return (.sideBySide(reports, comparison), runs[0].summary)
}

/// One phone's report of `file` (already on its phone, its files named after it).
private func drawOneReport(
  _ file: ScenarioFile, path: String, overrides: ComparisonOptions, expect: String?, loader: ScenarioLoader, options: ReportOptions, assumptions: Bool
) throws -> (ReportDocument, RunSummary) {
  var verifier = ScenarioVerifier(overrides: overrides, expectedPathOverride: expect, pathPolicy: loader.pathPolicy, limitCeiling: loader.limitCeiling)
  verifier.checksTrials = false
  verifier.makesAssumptionReport = assumptions
  let verification = verifier.verify(file)
  if case .skipped(let why) = verification.outcome {
    printError("error: \(why)\nnote: 'report' needs the track; 'verify' and 'test' report such a scenario as skipped")
    throw ExitCode(TrigsimExitCode.cannotReadInput)
  }
  guard let run = verification.report else { throw ExitCode(reportFailure(of: verification)) }
  if case .error = verification.outcome { throw ExitCode(reportFailure(of: verification)) }
  // What `verify` would say, but for the trials, which `report` does not run.
  let verdict = ReportInput.Verdict(
    verification.headline + (file.checks.trials == nil ? "" : " (its trials: were not run)"), passed: verification.outcome == .passed,
    findings: verification.findings)
  var input = ReportInput(
    scenario: file.scenario, path: path, run: run, comparison: verification.comparison, verdict: verdict,
    expectedPath: verification.expectedPath, expectedLocations: verification.expectedLocations)
  input.assumptions = verification.assumptionReport
  let document = try reportingErrors { try ReportDocument(input, options: options) }
  return (document, run.summary)
}

/// `report --format`.
enum ReportFormat: String, CaseIterable, ExpressibleByArgument {
  case html, svg
}

extension ReportDocument.Picture: ExpressibleByArgument {}
