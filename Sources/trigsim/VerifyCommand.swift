import ArgumentParser
import Foundation
import TrigsimCore
import TrigsimScenario

struct VerifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Run a scenario and check it against its expected timeline and assertions.",
    discussion: """
      The expected timeline is the one 'expect:' names, else <name>.timeline beside \
      the scenario. A difference prints a diff and exits 1; so do a missing expected \
      timeline and a failed assertion. With --record the expected timeline is written \
      instead (never when the environment variable CI is set, unless --force).
      """)

  @Argument(help: "The scenario file (YAML).")
  var scenario: String

  @OptionGroup var comparison: ComparisonFlags
  @OptionGroup var diffFlags: DiffFlags
  @OptionGroup var recording: RecordFlags
  @OptionGroup var root: RootOption
  @OptionGroup var platform: PlatformOption

  func run() throws {
    var verifier = ScenarioVerifier(
      overrides: try comparison.options(), record: recording.record, isCI: runningOnCI, force: recording.force, pathPolicy: root.pathPolicy,
      limitCeiling: try root.limitCeiling())
    verifier.diffStyle = diffFlags.diff
    verifier.platformOverride = try platform.override
    // One verification per phone the scenario runs on (and one for the side-by-side table); the most serious outcome decides.
    var code = TrigsimExitCode.success
    for verification in verifier.verifyEach(path: scenario) {
      let name = ControlCharacterEscape.escaping(scenario + (verification.platformLabel.map { " [\($0)]" } ?? ""))
      switch verification.outcome {
      case .passed, .skipped:
        writeToStandardOutput("\(name): \(ControlCharacterEscape.escaping(verification.headline))\n")
      case .failed:
        writeToStandardOutput(diffFlags.colors(descriptor: STDOUT_FILENO) ? DiffColoring.colored(verification.details) : verification.details)
        writeToStandardOutput("\(name): FAILED: \(ControlCharacterEscape.escaping(verification.headline))\n")
        code = moreSerious(code, verification.exitCode)
      case .error:
        code = moreSerious(code, reportFailure(of: verification))
      }
    }
    if code != TrigsimExitCode.success { throw ExitCode(code) }
  }
}

struct RecordCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "record",
    abstract: "Run scenarios and write their expected timelines.",
    discussion: """
      Writes each scenario's expected timeline (the file 'expect:' names, else \
      <name>.timeline beside it; canonical text, or JSON for a .json file), \
      atomically. Review the result before committing it. When the environment \
      variable CI is set nothing is written unless --force, and a scenario whose \
      baseline would have been written fails.
      """)

  @Argument(help: "Scenario files, folders or globs.")
  var paths: [String]

  @Option(help: "Which expected timelines to write.")
  var mode: RecordCommandMode = .all

  @Flag(help: "Write even when the environment variable CI is set.")
  var force = false

  @Option(help: "Scenarios run at once (default: the number of cores).")
  var jobs: Int?

  /// `--jobs`, or one per core.
  var jobCount: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

  @OptionGroup var comparison: ComparisonFlags
  @OptionGroup var root: RootOption
  @OptionGroup var workerLimits: WorkerLimitFlags
  @OptionGroup var platform: PlatformOption

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
  }

  func run() throws {
    let files: [String]
    do { files = try ScenarioCollection.expand(paths) } catch { throw ValidationError("\(error)") }
    let batch = ScenarioBatch(
      comparison: comparison, diff: .full, record: mode.recordMode, force: force, isCI: runningOnCI, root: root, limits: try workerLimits.limits(),
      platform: platform)
    let results = batch.run(files, jobs: jobCount)
    for result in results.flatMap(\.each) {
      if let platforms = result.expectedPlatformsPath {
        // The side-by-side table of a scenario run on several phones.
        switch (result.status, result.platformsRecorded) {
        case (.passed, .created?): writeToStandardOutput("recorded  \(ControlCharacterEscape.escaping(platforms))\n")
        case (.passed, .rewritten?): writeToStandardOutput("rewrote   \(ControlCharacterEscape.escaping(platforms))\n")
        case (.passed, _): writeToStandardOutput("unchanged \(ControlCharacterEscape.escaping(platforms))\n")
        case (.failed, _):
          writeToStandardOutput(result.details)
          writeToStandardOutput("FAILED    \(result.displayPath): \(ControlCharacterEscape.escaping(result.headline))\n")
        default: _ = reportFailure(of: result)
        }
        continue
      }
      let target = result.expectedPath ?? "\(result.scenarioPath) (no expected timeline: expect: none)"
      if let trials = result.expectedTrialsPath {
        switch result.trialsRecorded {
        case .created?: writeToStandardOutput("recorded  \(ControlCharacterEscape.escaping(trials))\n")
        case .rewritten?: writeToStandardOutput("rewrote   \(ControlCharacterEscape.escaping(trials))\n")
        case .unchanged?, nil: if result.trialsMatch { writeToStandardOutput("unchanged \(ControlCharacterEscape.escaping(trials))\n") }
        }
      }
      switch result.status {
      case .passed:
        switch result.recorded {
        case .created?: writeToStandardOutput("recorded  \(ControlCharacterEscape.escaping(target))\n")
        case .rewritten?: writeToStandardOutput("rewrote   \(ControlCharacterEscape.escaping(target))\n")
        case .unchanged?: writeToStandardOutput("unchanged \(ControlCharacterEscape.escaping(target))\n")
        case nil: writeToStandardOutput("kept      \(ControlCharacterEscape.escaping(target))\n")
        }
        printDosesRecording(result)
      case .skipped:
        writeToStandardOutput("skipped   \(result.displayPath): \(ControlCharacterEscape.escaping(result.headline))\n")
      case .failed:
        printDosesRecording(result)
        writeToStandardOutput(result.details)
        writeToStandardOutput("FAILED    \(result.displayPath): \(ControlCharacterEscape.escaping(result.headline))\n")
      case .invalidInput, .cannotRead, .cannotWrite, .internalError, .crashed, .timedOut, .memoryExceeded:
        _ = reportFailure(of: result)
      }
    }
    if runningOnCI && !force && results.flatMap(\.each).contains(where: \.refusedToRecord) {
      printError("note: CI is set, so nothing was written; pass --force to write anyway")
    }
    let code = batchExitCode(results)
    if code != TrigsimExitCode.success { throw ExitCode(code) }
  }
}

/// `record`'s line for a scenario's dose table: `recorded  x.doses`, `rewrote   x.doses`, `unchanged x.doses`.
/// And the same for its assumption report (`x.assumptions`), when it has one.
private func printDosesRecording(_ result: ScenarioResult) {
  if let path = result.expectedDosesPath {
    switch result.dosesRecorded {
    case .created?: writeToStandardOutput("recorded  \(ControlCharacterEscape.escaping(path))\n")
    case .rewritten?: writeToStandardOutput("rewrote   \(ControlCharacterEscape.escaping(path))\n")
    case .unchanged?: writeToStandardOutput("unchanged \(ControlCharacterEscape.escaping(path))\n")
    case nil: if result.dosesMatch { writeToStandardOutput("kept      \(ControlCharacterEscape.escaping(path))\n") }
    }
  }
  guard let assumptions = result.expectedAssumptionsPath else { return }
  switch result.assumptionsRecorded {
  case .created?: writeToStandardOutput("recorded  \(ControlCharacterEscape.escaping(assumptions))\n")
  case .rewritten?: writeToStandardOutput("rewrote   \(ControlCharacterEscape.escaping(assumptions))\n")
  case .unchanged?: writeToStandardOutput("unchanged \(ControlCharacterEscape.escaping(assumptions))\n")
  case nil: break
  }
}

/// `record --mode`: the record modes that write something (`trigsim test`
/// checks without writing).
enum RecordCommandMode: String, CaseIterable, ExpressibleByArgument {
  case missing
  case failed
  case all

  var recordMode: RecordMode {
    switch self {
    case .missing: .missing
    case .failed: .failed
    case .all: .all
    }
  }
}
