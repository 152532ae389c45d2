import ArgumentParser
import Foundation
import TrigsimCore
import TrigsimMedicineApp
import TrigsimScenario

@main
struct TrigsimCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trigsim",
    abstract: "Replays movement tracks and a virtual clock through notification triggers and prints the timeline.",
    discussion: """
      Exit codes:
        0   the run completed; every check passed (skipped scenarios pass)
        1   a check failed: the timeline differs from the expected one, the
            expected timeline is missing, an assertion failed, or a row of
            'calibrate' is outside its band with no assumption to explain it
        64  the command line is wrong (unknown option, missing argument)
        65  the input is invalid: every problem is printed as file:line:column
            (scenario, track, expected timeline, assertion, or a partial
            file of 'merge'; shards missing, given twice or of another run)
        66  the scenario file cannot be read (missing, unreadable, not UTF-8)
        70  internal error in trigsim (please report it)
        73  an output cannot be written (a file, or standard output)
        124 a scenario of 'test' or 'record' exceeded the per-scenario time
            or memory limit (--timeout, --memory-limit) and was stopped
      With several scenarios ('test', 'record'), the most serious outcome
      decides: 70, then 124, 65, 66, 73, 1, 0.
      """,
    version: TrigsimVersion.current,
    subcommands: [
      RunCommand.self, VerifyCommand.self, RecordCommand.self, TestCommand.self, MergeCommand.self, ReportCommand.self, GenerateTrackCommand.self, InitCommand.self,
      CalibrateCommand.self,
      ScenarioWorkerCommand.self,  // hidden: the worker processes of 'test' and 'record'
    ])

  /// The first argument after the program's name whose bytes are not UTF-8
  /// (1-based position, bytes); nil when all are. Swift decodes such an
  /// argument with U+FFFD in place of each bad byte, so a file named with one
  /// would be looked for under another name and reported missing: `main()`
  /// refuses it instead (exit 66), its bytes escaped (`'a\xFFb.yaml'`).
  static func firstArgumentNotUTF8() -> (position: Int, bytes: [UInt8])? {
    for position in 1..<Int(CommandLine.argc) {
      guard let argument = CommandLine.unsafeArgv[position] else { continue }
      let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
      if String(validating: bytes, as: UTF8.self) == nil { return (position, bytes) }
    }
    return nil
  }
}

/// The documented exit codes (see `TrigsimCommand`'s discussion and the manual).
enum TrigsimExitCode {
  static let success: Int32 = 0
  /// A check failed: timeline mismatch, missing baseline, failed assertion.
  static let timelineDiffers: Int32 = 1
  static let usage: Int32 = 64
  static let invalidInput: Int32 = 65
  static let cannotReadInput: Int32 = 66
  static let internalError: Int32 = 70
  static let cannotWriteOutput: Int32 = 73
  /// A batch's scenario ran past `--timeout` or `--memory-limit` and its worker was stopped.
  static let limitExceeded: Int32 = 124
}

/// The timeline formats `--format` accepts.
enum TimelineFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json, jsonl, csv
  /// A GeoJSON FeatureCollection of the regions, the track and the located
  /// events (`GeoJSONCollector`), not a timeline encoding.
  case geojson

  /// The encoding both the in-memory and the streamed output use (geojson has none: see `streamGeoJSON`).
  var encoding: TimelineEncoding {
    guard let encoding = TimelineEncoding(rawValue: rawValue) else { preconditionFailure("--format \(rawValue) is not a timeline encoding") }
    return encoding
  }

  /// Whether the output carries the summary: JSON always, text with `--summary`.
  func includesSummary(_ requested: Bool) -> Bool { self == .json || self == .text && requested }

  /// The report in this format; `summary` adds the dose table after a text
  /// timeline (JSON always carries the summary).
  func render(_ report: SimulationReport, summary: Bool) -> String {
    encoding.document(report.timeline, summary: includesSummary(summary) ? report.summary : nil)
  }
}

struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run", abstract: "Run a scenario and print its timeline.")

  @Argument(help: "The scenario file (YAML).")
  var scenario: String

  @Option(name: .shortAndLong, help: "Output format: text, json, jsonl, csv, or geojson (the regions, the track and the located events as a GeoJSON FeatureCollection).")
  var format: TimelineFormat = .text

  @Option(name: .shortAndLong, help: "Write the timeline to this file (atomically) instead of standard output ('-' is standard output).")
  var output: String?

  @Flag(help: "After a text timeline, print the summary: pending-slot accounting and every dose's outcome. JSON always includes it.")
  var summary = false

  @Flag(help: "After the text timeline (and the summary), print the assumption report: the scenario rerun under each alternative of each registry setting it consulted, and which doses and assertions change (the manual, \"Assumptions\").")
  var assumptions = false

  @Flag(help: "With --summary: list every request the pending limit dropped, after the counts per instant (JSON always lists them).")
  var allDrops = false

  @Option(help: ArgumentHelp("Compare the run with this expected timeline (.timeline or .json) and check the scenario's assertions: the diff goes to standard error, and a difference exits 1.", valueName: "file"))
  var expect: String?

  @OptionGroup var comparison: ComparisonFlags
  @OptionGroup var diffFlags: DiffFlags
  @OptionGroup var root: RootOption
  @OptionGroup var platform: PlatformOption

  @Option(help: ArgumentHelp("Replay the scenario N times with seeded GPS error, update-grid phase and latency, and print how often each location request fired and each dose was notified (text or json).", valueName: "N"))
  var trials: Int?

  @Option(help: ArgumentHelp("The seed of --trials and --trial (default: the scenario's 'trials: seed', else 1). The same seed gives the same bytes whatever --jobs is.", valueName: "S"))
  var seed: UInt64?

  @Option(help: ArgumentHelp("Worker threads for --trials (default: every core).", valueName: "J"))
  var jobs: Int?

  @Option(help: ArgumentHelp("Run only shard I of K of the --trials N trials (trials ⌊(I−1)·N/K⌋ to ⌊I·N/K⌋−1) and write its partial report (JSON) for 'trigsim merge', which gives the report of the unsharded run.", valueName: "I/K"))
  var shard: Shard?

  @Option(help: ArgumentHelp("Print the timeline of trial K of a --seed S trial run (the trial a report line names), instead of the deterministic run.", valueName: "K"))
  var trial: Int?

  func validate() throws {
    // The user's own choice, so not bounded by the ceiling (--max-trials): only by what the format allows.
    if let trials, !(1...ScenarioLimitCeiling.largestTrialCount).contains(trials) {
      throw ValidationError("--trials takes 1 to \(ScenarioLimitCeiling.largestTrialCount) trials, not \(trials)")
    }
    if let jobs, !(1...1024).contains(jobs) { throw ValidationError("--jobs takes 1 to 1024 worker threads, not \(jobs)") }
    if let trial, trial < 0 { throw ValidationError("--trial counts from 0, not \(trial)") }
    if let shard {
      guard let trials else { throw ValidationError("--shard I/K goes with --trials N (a shard runs a block of the N trials)") }
      if shard.count > trials { throw ValidationError("--shard \(shard): \(shard.count) shards of \(trials) trials; a shard holds at least one trial") }
      if format != .text { throw ValidationError("--shard writes a partial report (JSON) for 'trigsim merge'; choose the report's format there: 'trigsim merge --format \(format.rawValue)'") }
    }
    if trials != nil && trial != nil {
      throw ValidationError("--trials runs many trials and --trial replays one: use one of them")
    }
    if trials != nil || trial != nil {
      if expect != nil { throw ValidationError("--expect compares a timeline; with --trials or --trial use 'trigsim verify', which checks the scenario's 'trials:' section") }
      if summary && trials != nil { throw ValidationError("--summary goes with a timeline, not with --trials (the trial report lists every dose)") }
    } else {
      if seed != nil { throw ValidationError("--seed goes with --trials N or --trial K") }
      if jobs != nil { throw ValidationError("--jobs goes with --trials N") }
    }
    if format == .geojson {
      if trials != nil { throw ValidationError("a trial report is text or json, not geojson (--trial K writes one trial as geojson)") }
      if expect != nil { throw ValidationError("--expect compares a timeline: use --format text, json, jsonl or csv with it") }
      if summary { throw ValidationError("--summary goes with --format text (geojson holds the regions, the track and the located events)") }
    }
    if trials != nil && (format == .jsonl || format == .csv) {
      throw ValidationError("a trial report is text or json, not \(format.rawValue)")
    }
    if expect == nil && comparison.isUsed {
      throw ValidationError("--tolerance, --ignore-field, --ignore-kind and --ignore-header apply to a comparison: add --expect FILE, or use 'trigsim verify'")
    }
    if expect == nil && (diffFlags.diff != .full || diffFlags.color != .auto) {
      throw ValidationError("--diff and --color apply to a comparison: add --expect FILE, or use 'trigsim verify'")
    }
    if allDrops && !(summary && format == .text) {
      throw ValidationError("--all-drops lists the dropped requests in the text summary: add --summary (with --format text); JSON always lists them")
    }
    if summary && (format == .jsonl || format == .csv) {
      throw ValidationError("--summary goes with --format text (json always includes the summary; jsonl and csv hold entries only)")
    }
    if let platforms = try platform.override, platforms.count > 1, let conflict = Self.singlePlatformConflict(self) {
      throw ValidationError("--platform \(platforms.map(\.rawValue).joined(separator: ",")) runs the scenario on several phones, one text timeline after the other; \(conflict) takes one: choose it with --platform ios or --platform android")
    }
    if assumptions {
      if trials != nil || trial != nil { throw ValidationError("--assumptions reruns the deterministic run: leave out --trials and --trial") }
      if format != .text { throw ValidationError("--assumptions prints its report after a text timeline: use --format text") }
      if expect != nil { throw ValidationError("--assumptions goes without --expect: 'trigsim verify' checks a scenario's 'robust: true'") }
    }
  }

  /// What of the command line goes with one phone only (nil: nothing does).
  static func singlePlatformConflict(_ command: RunCommand) -> String? {
    if command.trials != nil { return "--trials" }
    if command.trial != nil { return "--trial" }
    if command.expect != nil { return "--expect" }
    if command.assumptions { return "--assumptions" }
    if command.format != .text { return "--format \(command.format.rawValue)" }
    return nil
  }

  /// The scenario file on the one phone the run is on: `--platform`'s, else its own.
  /// How the loader read what the file leaves open (an instant without a UTC
  /// offset) is printed to standard error first, as warnings at their values.
  func loaded() throws -> ScenarioFile {
    let file = try loadScenario(at: scenario, loader: root.loader())
    if !file.readings.isEmpty { writeToStandardError(DiagnosticPrinter.standardError.render(file.readings)) }
    guard let platforms = try platform.override, platforms.count == 1 else { return file }
    return ScenarioVerifier.keepsOwnFiles(platforms, of: file.scenario) ? file : ScenarioVerifier.file(file, on: platforms[0])
  }

  func run() throws {
    // The destination is checked (a folder, a device, an unwritable folder
    // are refused, exit 73) and its temporary file created before the
    // scenario is loaded: a refused output costs no run.
    let output = try openOutput(self.output)
    // The phones: --platform's, else the scenario's 'platforms:'. Several run
    // one text timeline after the other, then the side-by-side dose table.
    let loadedFile = expect == nil ? try loaded() : nil
    if let file = loadedFile {
      let platforms = try platform.override ?? file.scenario.platforms
      if platforms.count > 1 {
        if let conflict = Self.singlePlatformConflict(self) {
          throw PlatformOption.refuseSeveralPhones(platforms, of: file.scenario, at: scenario, conflict: "\(conflict) takes one phone")
        }
        try runSideBySide(file, on: platforms, to: output)
        return
      }
    }
    if let trials {
      let file = try loadedFile ?? loaded()
      let plan = TrialPlan(
        count: trials, seed: seed ?? file.checks.trials?.seed ?? TrialSettings.defaultSeed,
        jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, shard: shard ?? .whole)
      if let shard {
        // The files are digested before the run: one that cannot be read costs no trials.
        let identity = PartialTrialReport.ScenarioIdentity(path: scenario, digest: try reportingErrors { try file.inputDigest() })
        let report = try reportingErrors { try TrialRunner(file.scenario).run(plan) }
        try emit(PartialTrialReport(report, shard: shard, scenario: identity).canonicalJSON(), to: output)
        return
      }
      let report = try reportingErrors { try TrialRunner(file.scenario).run(plan) }
      try emit(format == .json ? report.json : report.text, to: output)
      return
    }
    if let trial {
      let file = try loadedFile ?? loaded()
      let seed = seed ?? file.checks.trials?.seed ?? TrialSettings.defaultSeed
      if format == .geojson {
        try streamGeoJSON(of: file.scenario, at: scenario, trial: (trial, seed), to: output)
        return
      }
      try streamTimeline(of: file.scenario, at: scenario, trial: (trial, seed), format: format, summary: summary, allDrops: allDrops, to: output)
      return
    }
    if format == .geojson {
      try streamGeoJSON(of: (loadedFile ?? loaded()).scenario, at: scenario, to: output)
      return
    }
    if assumptions {
      let file = try loadedFile ?? loaded()
      let verifier = ScenarioVerifier(trialJobs: ProcessInfo.processInfo.activeProcessorCount)
      var report = try reportingErrors { try verifier.simulation(of: file.scenario).report() }
      report.summary.listsEveryDrop = allDrops
      let assumptionReport = verifier.assumptionReport(of: file, baseline: report)
      try emit(format.render(report, summary: summary) + AssumptionReport.commentedText(assumptionReport.text), to: output)
      sayCoverage(of: report.summary, at: scenario)
      return
    }
    guard let expect else {
      try streamTimeline(
        of: (loadedFile ?? loaded()).scenario, at: scenario, format: format, summary: summary, allDrops: allDrops,
        to: output)
      return
    }
    // --expect names one timeline: a scenario on several phones ('platforms:') must be given one.
    if try platform.override == nil, let file = try? root.loader().loadFile(path: scenario), file.scenario.platforms.count > 1 {
      let platforms = file.scenario.platforms
      throw PlatformOption.refuseSeveralPhones(platforms, of: file.scenario, at: scenario, conflict: "--expect takes one phone")
    }
    var verifier = ScenarioVerifier(
      overrides: try comparison.options(), expectedPathOverride: expect, pathPolicy: root.pathPolicy, limitCeiling: try root.limitCeiling())
    verifier.diffStyle = diffFlags.diff
    let colored = diffFlags.colors(descriptor: STDERR_FILENO)
    let verification = try platform.override == nil ? verifier.verify(path: scenario) : verifier.verify(loaded())
    if case .skipped(let why) = verification.outcome {
      printError("error: \(why)\nnote: 'run' needs the track; 'verify' and 'test' report such a scenario as skipped")
      throw ExitCode(TrigsimExitCode.cannotReadInput)
    }
    guard var report = verification.report else { throw ExitCode(reportFailure(of: verification)) }
    report.summary.listsEveryDrop = allDrops
    try emit(format.render(report, summary: summary), to: output)
    guard verification.outcome == .passed else { throw ExitCode(reportFailure(of: verification, colored: colored)) }
  }
}

extension RunCommand {
  /// `run` on several phones: each platform's timeline (and with `--summary`
  /// its summary) under a `# === NAME ===` line (not `# platform:`, which is the header's settings line), in the order named, then,
  /// for a scenario with medicines, under `# === side by side ===`, the side-by-side dose table
  /// (`PlatformComparison`): a column per platform, the differences first.
  func runSideBySide(_ file: ScenarioFile, on platforms: [PlatformName], to output: OutputFile) throws {
    let verifier = ScenarioVerifier(trialJobs: ProcessInfo.processInfo.activeProcessorCount)
    var text = ""
    var runs: [(platform: PlatformName, summary: RunSummary)] = []
    for name in platforms {
      let scenarioOnPlatform = file.scenario.on(name)
      var report = try reportingErrors { try verifier.simulation(of: scenarioOnPlatform).report() }
      report.summary.listsEveryDrop = allDrops
      text += "# === \(name.rawValue) ===\n" + format.render(report, summary: summary)
      runs.append((name, report.summary))
      sayCoverage(of: report.summary, at: "\(scenario) [\(name.rawValue)]")
    }
    if !file.scenario.medicineApp.isEmpty { text += "# === side by side ===\n" + PlatformComparison(runs).text }
    try emit(text, to: output)
  }
}

/// Prints why a verification did not pass to standard error (diagnostics
/// with their source lines, or the diff and failed assertions, `colored` as
/// `DiffColoring` says) and returns its exit code.
func reportFailure(of verification: ScenarioVerification, colored: Bool = false) -> Int32 {
  if !verification.diagnostics.isEmpty {
    DiagnosticPrinter.standardError.print(verification.diagnostics)
  } else {
    writeToStandardError(colored ? DiffColoring.colored(verification.details) : verification.details)
    if case .failed = verification.outcome { printError("\(ControlCharacterEscape.escaping(verification.scenarioPath)): FAILED: \(ControlCharacterEscape.escaping(verification.headline))") }
  }
  return verification.exitCode
}

/// Loads a scenario file, printing any problem to standard error and exiting with the documented code.
func loadScenario(at path: String, loader: ScenarioLoader = ScenarioLoader()) throws -> ScenarioFile {
  try reportingErrors { try loader.loadFile(path: path) }
}

/// Runs `body`, turning its errors into messages on standard error and the documented exit codes.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch let exit as ExitCode {
    throw exit
  } catch let error as InputError {
    DiagnosticPrinter.standardError.print(error.diagnostics)
    throw ExitCode(TrigsimExitCode.invalidInput)
  } catch let error as FileAccessError {
    printError("error: \(error)")
    throw ExitCode(TrigsimExitCode.cannotReadInput)
  } catch let error as ScenarioOutsideRoot {
    printError(error.description)
    throw ExitCode(TrigsimExitCode.invalidInput)
  } catch let skipped as ScenarioSkipped {
    printError("\(skipped.location): error: \(skipped.reason)\nnote: 'run' needs the track; 'verify' and 'test' report such a scenario as skipped")
    throw ExitCode(TrigsimExitCode.cannotReadInput)
  } catch {
    printError("internal error: \(error)\nplease report this with the scenario that caused it")
    throw ExitCode(TrigsimExitCode.internalError)
  }
}

/// Writes `text` through an `OutputFile`: to `path` atomically (a temporary
/// file in the same folder, then a rename), or to standard output when
/// `path` is nil or `-`. A failed write leaves no partial file and exits 73.
/// With `creatingFolders`, missing folders of `path` are created first.
func emit(_ text: String, to path: String?, creatingFolders: Bool = false) throws {
  try emit(text, to: openOutput(path, creatingFolders: creatingFolders))
}

/// Opens the output `path` (standard output when nil or `-`) before any
/// work is done: a destination that will be refused (a folder, a device
/// such as `/dev/null`, a FIFO, a link, a missing or unwritable folder) is
/// reported now and exits 73. Nothing is visible at `path` until `emit`
/// (or a stream) commits; a command that fails first leaves it as it was.
func openOutput(_ path: String?, creatingFolders: Bool = false) throws -> OutputFile {
  try writingOutput(to: path) { try OutputFile.open(path, creatingFolders: creatingFolders) }
}

/// Writes `text` to `output`, opened by `openOutput`, and commits it; a
/// failed write leaves no partial file and exits 73.
func emit(_ text: String, to output: OutputFile) throws {
  try writingOutput(to: output.path) {
    try output.write(text)
    try output.commit()
  }
}

/// Runs `body`, which writes the command's output to `path` (standard output
/// when nil). A failed write is printed as `error: cannot write 'PATH':
/// REASON` and exits 73; a standard-output failure is reported once, at exit
/// (see `exitStatus(deciding:)`).
func writingOutput<T>(to path: String?, _ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch let error as OutputFile.WriteError {
    if error.stream == nil { printError("error: cannot write '\(path ?? "standard output")': \(error.reason)") }
    throw ExitCode(TrigsimExitCode.cannotWriteOutput)
  }
}

/// Writes `line` and a line end to standard error (see `writeToStandardError`).
func printError(_ line: String) {
  writeToStandardError(line + "\n")
}
