import Foundation
import TrigsimCore
import TrigsimReport
import TrigsimScenario
import TrigsimTestSupport
import TrigsimTracks

/// One reader of trigsim under coverage-guided fuzzing (libFuzzer), and the
/// checks every input must pass: the reader returns or throws a diagnostic,
/// never traps, hangs or grows without bound, and every diagnostic is located
/// at line ≥ 1 and column ≥ 1 with a message of bounded length.
///
/// The input is written to a file first, so each target runs the same path as
/// the command line (opening, encoding detection, streaming reads), not a
/// shortcut for in-memory text.
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// `GPXTrackReader`: the bytes as a `.gpx` track.
  case gpx
  /// `CSVTrackReader`: the bytes as a `.csv` track.
  case csv
  /// `ScenarioLoader`: the bytes as a scenario file, loaded (tracks it names
  /// are resolved beside it, where none exist) and, when it loads, run.
  case scenario
  /// `ExpectedTimelineReader`: the bytes as a canonical-text `.timeline`.
  case expectedText = "expected-text"
  /// `ExpectedTimelineReader`: the bytes as a `.json` expected timeline.
  case expectedJSON = "expected-json"
  /// `ExpectedDosesReader`: the bytes as the `.doses` dose table recorded
  /// beside an expected timeline.
  case expectedDoses = "expected-doses"
  /// `GeoJSONRegionReader`, through the loader: the bytes as the regions
  /// file a fixed scenario names (`FuzzScenarios.geojson`), loaded and, when
  /// it loads, run.
  case geojson
  /// `PlaceCSVReader`, through the loader: the bytes as the places CSV a
  /// fixed scenario names (`FuzzScenarios.places`: the nearest 20 places
  /// monitored along a short track), loaded and, when it loads, run.
  case places
  /// A scenario with its files (`FuzzBundle`): the bytes are a scenario,
  /// then files after `--- file: NAME` lines, written into a folder of their
  /// own and loaded as `--root` confines them to it; when it loads, it is
  /// run, and the expected timeline it names, if present, is read.
  case scenarioFiles = "scenario-files"
  /// `ReportDocument`: the bytes as a scenario file beside the bundled
  /// scenarios (see `FuzzWorkspace.scenarios`: the tracks and expected
  /// timelines they name are found), loaded and verified as `trigsim report`
  /// does; when it runs, its HTML report and both SVG pictures are drawn and
  /// parsed back with libxml2 (the pictures as strict XML, the page with
  /// the HTML parser), and a document that is not well-formed traps.
  case report
  /// `PartialFile` and `PartialTrialReport`: the bytes as one part of
  /// `trigsim merge`, read as the merge reads each part (its format, the
  /// decoding, the report it holds, located problems); when it holds a
  /// trial partial, its report is merged alone and rendered as text and JSON.
  /// (`test`'s partials are decoded by the command line's own type.)
  case partial
  /// The text baselines kept line by line beside an expected timeline: the
  /// bytes read as an `.assumptions`, a `.platforms` and a `.trials` file
  /// (`ScenarioFileKind.read`: its size, first line, line lengths and
  /// UTF-8), and each one accepted diffed against a report of its kind
  /// (`BaselineTextDifference`, `TrialReportDifference`); a diff with a raw
  /// control character or a line longer than a diff may quote traps. The
  /// input is accepted when one of the three reads it, refused when none does.
  case baselines
  /// `trigsim merge` over several trial partials: the bytes are parts
  /// separated by `--- part` lines (at most 16), each written to a file of
  /// its own and read, decoded, checked as one set of shards and merged as
  /// `merge` does (`PartialTrialReport.merged`); the message naming missing
  /// shards must be as bounded as any diagnostic.
  case merge

  /// The file name the input is written under (its extension picks the reader).
  var fileName: String {
    switch self {
    case .gpx: "input.gpx"
    case .csv: "input.csv"
    case .scenario: "input.yaml"
    case .expectedText: "input.timeline"
    case .expectedJSON: "input.json"
    case .expectedDoses: "input.doses"
    case .geojson: "input.geojson"
    case .places: "input.csv"
    case .scenarioFiles: "input.bundle"
    case .report: "input.yaml"
    case .partial: "input.json"
    case .baselines: "input.assumptions"
    case .merge: "input.parts"
    }
  }

  /// The folder of the workspace the input is written into: the report's
  /// beside the bundled scenarios, the others' anywhere.
  var folder: FuzzWorkspace.Folder { self == .report ? .scenarios : .plain }

  /// The longest message a diagnostic may carry: quoted input is cut to a
  /// short length, so a message never grows with the input.
  public static let longestMessage = 4096

  /// What the reader made of an input.
  public enum Outcome: Sendable {
    /// Read without an error.
    case accepted
    /// Refused with located diagnostics (exit 65), or, for a scenario, skipped
    /// because its track is missing.
    case rejected([Diagnostic])
    /// The file could not be read as text (exit 66).
    case unreadable(String)
  }

  /// Runs the reader on `bytes`; traps (a finding) when a check fails.
  @discardableResult
  public func run(_ bytes: UnsafeRawBufferPointer) -> Outcome {
    let path = FuzzWorkspace.shared.write(bytes, as: fileName, in: folder)
    defer { unlink(path) }
    do {
      if self == .scenarioFiles {
        try FuzzBundle.withFolder(Array(bytes)) { scenario in try Self.loadAndRun(scenario, confined: true) }
      } else if self == .merge {
        try FuzzParts.withFiles(Array(bytes)) { parts in try Self.merge(parts) }
      } else {
        try read(path)
      }
      return .accepted
    } catch let error as InputError {
      precondition(!error.diagnostics.isEmpty, "\(rawValue): an InputError without a diagnostic")
      for diagnostic in error.diagnostics { Self.check(diagnostic) }
      return .rejected(error.diagnostics)
    } catch let error as FileAccessError {
      Self.checkLength(error.description)
      return .unreadable(error.description)
    } catch let missing as MissingShards {
      Self.checkLength(missing.description)
      return .rejected([Diagnostic(at: InputLocation(file: path, line: 1, column: 1), missing.description)])
    } catch let skipped as ScenarioSkipped {
      let diagnostic = Diagnostic(at: skipped.location, skipped.reason)
      Self.check(diagnostic)
      return .rejected([diagnostic])
    } catch {
      // Any other error type reaching the command line is an internal error (exit 70).
      preconditionFailure("\(self.rawValue): an unexpected error type escaped the reader: \(type(of: error))")
    }
  }

  private func read(_ path: String) throws {
    switch self {
    case .gpx:
      try GPXTrackReader(path: path).readSamples { _ in true }
    case .csv:
      try CSVTrackReader(path: path).readSamples { _ in true }
    case .scenario:
      try Self.loadAndRun(path, confined: false)
    case .expectedText, .expectedJSON:
      _ = try ExpectedTimelineReader().read(path: path)
    case .expectedDoses:
      _ = try ExpectedDosesReader().read(path: path)
    case .geojson, .places:
      let text = self == .geojson ? FuzzScenarios.geojson(regionsFile: path) : FuzzScenarios.places(placesFile: path)
      let scenario = FuzzScenarios.write(text, beside: path)
      defer { unlink(scenario) }
      try Self.loadAndRun(scenario, confined: false)
    case .scenarioFiles:
      preconditionFailure("read through FuzzBundle")
    case .report:
      try Self.drawReport(path)
    case .partial:
      try Self.mergeAlone(path)
    case .baselines:
      try Self.readBaselines(path)
    case .merge:
      preconditionFailure("read through FuzzParts")
    }
  }

  /// The most characters one line of a diff may hold: its sign, and
  /// `Diagnostic.diffLineLimit` scalars each escaped at most as `\u{10FFFF}`, and `…`.
  static let longestDiffLine = 2 + 10 * Diagnostic.diffLineLimit + 1

  /// Reads `path` as each text baseline kind and diffs what is accepted against a report of that kind.
  private static func readBaselines(_ path: String) throws {
    let actual: [ScenarioFileKind: String] = [
      .expectedAssumptions: "assumptions consulted: none (no registry setting the scenario leaves unstated decided anything in this run)\n",
      .expectedPlatforms: "# platforms: ios, android\n# doses: none\n",
      .expectedTrials: "# trigsim trials\n# scenario: fuzz\n",
    ]
    var refusals: [Diagnostic] = []
    for kind in [ScenarioFileKind.expectedAssumptions, .expectedPlatforms, .expectedTrials] {
      let data: Data
      do {
        guard let read = try kind.read(path, policy: .confined(to: (path as NSString).deletingLastPathComponent)) else {
          preconditionFailure("baselines: the input file is gone")
        }
        data = read
      } catch {
        precondition(!error.diagnostic.showsSourceLine, "baselines: a refused file's line would be shown")
        refusals.append(error.diagnostic)
        continue
      }
      let text = String(decoding: data, as: UTF8.self)
      let report =
        kind == .expectedTrials
        ? TrialReportDifference(expected: text, actual: actual[kind]!).report(expectedName: path, actualName: "trials")
        : BaselineTextDifference(expected: text, actual: actual[kind]!).report(expectedName: path, actualName: "run")
      checkDiff(report)
    }
    // Refused when it is none of the three.
    if refusals.count == 3 { throw InputError(refusals) }
  }

  /// A diff has no raw control character but its line ends, and no line longer than `longestDiffLine`.
  static func checkDiff(_ report: String) {
    for line in report.split(separator: "\n") {
      precondition(line.unicodeScalars.count <= longestDiffLine, "baselines: a diff line of \(line.unicodeScalars.count) scalars")
      precondition(!line.unicodeScalars.contains(where: ControlCharacterEscape.isEscaped), "baselines: a raw control character in a diff line")
    }
  }

  /// `trigsim merge` of the trial partials at `paths`: each read as a partial, the trial ones merged.
  private static func merge(_ paths: [String]) throws {
    var texts: [(path: String, text: String)] = []
    for path in paths {
      let (format, text) = try PartialFile.format(ofFileAt: path)
      guard format == PartialTrialReport.formatName else { continue }
      texts.append((path, text))
    }
    guard !texts.isEmpty else { return }
    let merged = try PartialTrialReport.merged(texts)
    precondition(merged.text.hasPrefix("# trigsim trials\n") && merged.json.hasPrefix("{"), "merge: the merged report does not render")
  }

  /// `trigsim merge`'s reading of one trial partial (`MergeCommand.mergeTrials`, less the check that every shard is there).
  private static func mergeAlone(_ path: String) throws {
    let (format, text) = try PartialFile.format(ofFileAt: path)
    guard format == PartialTrialReport.formatName else { return }
    let partial = try PartialFile.decode(PartialTrialReport.self, text: text, path: path)
    let report: TrialReport
    do {
      report = try partial.report(largestTrialCount: ScenarioLimitCeiling.largestTrialCount)
    } catch {
      throw PartialFile.located(error, text: text, path: path)
    }
    let merged = TrialReport.merging([report])
    precondition(merged.text.hasPrefix("# trigsim trials\n") && merged.json.hasPrefix("{"), "partial: the merged report does not render")
  }

  /// Loads the scenario at `path` (under `--root` of its folder when
  /// `confined`), runs it, and reads the expected timeline it names if that exists.
  static func loadAndRun(_ path: String, confined: Bool) throws {
    let folder = (path as NSString).deletingLastPathComponent
    let loader =
      confined
      ? ScenarioLoader(pathPolicy: .confined(to: folder), limitCeiling: fuzzingCeiling(.defaults))
      : ScenarioLoader(limitCeiling: fuzzingCeiling(.syntaxMaximum))
    let file = try loader.loadFile(path: path)
    _ = try Simulation(file.scenario).report()
    if let expected = file.checks.expectedTimelinePath, FileManager.default.fileExists(atPath: expected) {
      _ = try ExpectedTimelineReader().read(path: expected)
    }
  }

  /// The most timeline entries a fuzzed run may make: more than fifty times
  /// the longest bundled timeline (267 entries). The command line's default
  /// limit (a million entries; its ceiling is higher still) bounds a run too,
  /// but one that takes seconds under AddressSanitizer, so a mutated clock end
  /// over a repeating interval would reach libFuzzer's 5 s hang timeout or not
  /// depending on the machine's load. The limit's error path is still fuzzed,
  /// only sooner; the cost of long runs is `fixtures/hostile/`'s to test.
  static let fuzzedTimelineEntries = 15_000

  /// `ceiling` with the timeline entries lowered to `fuzzedTimelineEntries`.
  static func fuzzingCeiling(_ ceiling: ScenarioLimitCeiling) -> ScenarioLimitCeiling {
    ScenarioLimitCeiling(timelineEntries: fuzzedTimelineEntries, clockSpan: ceiling.clockSpan, trialCount: ceiling.trialCount)
  }

  /// `trigsim report`'s path (`drawReport` in the command line): load,
  /// verify but for the trials, draw; then every document is parsed back.
  private static func drawReport(_ path: String) throws {
    let file = try ScenarioLoader(limitCeiling: fuzzingCeiling(.syntaxMaximum)).loadFile(path: path)
    var verifier = ScenarioVerifier()
    verifier.checksTrials = false
    let verification = verifier.verify(file)
    switch verification.outcome {
    case .error(let kind, let message):
      // Bad input (the run's, an expected timeline's) is refused with its diagnostics; nothing else may happen.
      precondition(kind == .invalidInput || kind == .cannotRead, "report: verification ended in \(kind): \(message.prefix(200))")
      precondition(!verification.diagnostics.isEmpty, "report: an error without a diagnostic: \(message.prefix(200))")
      throw InputError(verification.diagnostics)
    case .skipped(let why):
      throw ScenarioSkipped(location: InputLocation(file: path, line: 1, column: 1), reason: why)
    case .passed, .failed:
      break
    }
    guard let run = verification.report else { preconditionFailure("report: a verification that passed or failed has no run") }
    let input = ReportInput(
      scenario: file.scenario, path: path, run: run, comparison: verification.comparison,
      verdict: ReportInput.Verdict(verification.headline, passed: verification.outcome == .passed))
    let document = try ReportDocument(input)
    checkWellFormed("report.html", MarkupWellFormedness.htmlProblems(document.html))
    for picture in ReportDocument.Picture.allCases {
      checkWellFormed("\(picture.rawValue).svg", MarkupWellFormedness.xmlProblems(document.svg(picture)))
    }
  }

  static func checkWellFormed(_ name: String, _ problems: [MarkupWellFormedness.Problem]) {
    precondition(problems.isEmpty, "report: \(name) is not well-formed: \(problems.prefix(3).map(\.description).joined(separator: "; "))")
  }

  static func check(_ diagnostic: Diagnostic) {
    precondition(
      diagnostic.location.line >= 1 && diagnostic.location.column >= 1,
      "diagnostic at \(diagnostic.location.line):\(diagnostic.location.column), not 1-based: \(diagnostic.message.prefix(200))")
    checkLength(diagnostic.message)
    for note in diagnostic.notes { checkLength(note) }
  }

  static func checkLength(_ message: String) {
    precondition(
      message.utf8.count <= longestMessage,
      "a message of \(message.utf8.count) bytes: quoted input is not cut: \(message.prefix(200))…")
  }
}

/// A private folder per process holding the one input file each target rewrites.
final class FuzzWorkspace: @unchecked Sendable {
  static let shared = FuzzWorkspace()
  let folder: String

  /// Where in the workspace an input is written.
  enum Folder {
    /// The workspace's own folder.
    case plain
    /// `scenarios/` in the workspace: a link to every file and folder of the
    /// repository's `scenarios/` beside it and a link `fixtures` to the
    /// repository's `fixtures/` above it, so the paths a bundled scenario
    /// names (`../fixtures/tracks/…`, `report-tour.timeline`) resolve as they
    /// do in the repository. Made on first use.
    case scenarios
  }

  private init() {
    let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    var template = Array("\(base)/trigsim-fuzz-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(made != nil, "cannot create a folder in \(base)")
    folder = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    // The folder is removed when the fuzzer exits normally.
    atexit { try? FileManager.default.removeItem(atPath: FuzzWorkspace.shared.folder) }
  }

  private let lock = NSLock()
  private var written = 0
  private var scenariosFolder: String?

  /// A new, empty folder inside the workspace (numbered like the files).
  func newFolder() -> String {
    let number = lock.withLock {
      written += 1
      return written
    }
    let path = folder + "/\(number)-folder"
    precondition(mkdir(path, 0o700) == 0, "cannot create \(path)")
    return path
  }

  /// Writes `bytes` to a new file named `N-name` in `place` (a number per
  /// call, so the regression test's parallel cases never share a file).
  func write(_ bytes: UnsafeRawBufferPointer, as name: String, in place: Folder = .plain) -> String {
    let (number, directory) = lock.withLock {
      written += 1
      return (written, place == .plain ? folder : linkedScenarios())
    }
    let path = directory + "/\(number)-" + name
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "cannot write \(path)")
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 && errno == EINTR { continue }
      precondition(written > 0, "cannot write \(path)")
      offset += written
    }
    close(fd)
    return path
  }

  /// The `scenarios` folder (see `Folder.scenarios`), made the first time. Called under `lock`.
  private func linkedScenarios() -> String {
    if let scenariosFolder { return scenariosFolder }
    let made = folder + "/scenarios"
    let files = FileManager.default
    do {
      try files.createDirectory(atPath: made, withIntermediateDirectories: false)
      try files.createSymbolicLink(atPath: folder + "/fixtures", withDestinationPath: RepositoryPaths.fixtures.path)
      for name in try files.contentsOfDirectory(atPath: RepositoryPaths.scenarios.path) {
        try files.createSymbolicLink(atPath: made + "/" + name, withDestinationPath: RepositoryPaths.scenarios.appendingPathComponent(name).path)
      }
    } catch {
      preconditionFailure("cannot lay out \(made): \(error)")
    }
    scenariosFolder = made
    return made
  }
}
