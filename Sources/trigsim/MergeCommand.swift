import ArgumentParser
import Foundation
import TrigsimCore
import TrigsimScenario

/// `trigsim merge PART...`: combines the partial files of a sharded run into
/// what the unsharded run prints (see `PartialTrialReport`, `PartialTestResults`).
struct MergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Combine the partial files of a sharded run into the report one unsharded run gives.",
    discussion: """
      The parts are the files of every shard 1/K ... K/K of one run, in any \
      order, all of one kind (told by their "format" member):

        trials  written by 'trigsim run S --trials N --seed S --shard I/K \
      --output FILE'. The merge prints the report 'trigsim run S --trials N \
      --seed S' prints, byte for byte (--format text or json), without the \
      scenario or its track.

        test    written by 'trigsim test PATHS --shard I/K --partial FILE'. \
      The merge prints the failures, the table and the count line of one \
      unsharded 'test', writes the same JUnit report (--junit), and exits \
      with its code. Durations are those the shards measured; the total is \
      their sum.

      A part of another run (another scenario or track, seed, trial count, \
      shard count, set of scenarios, comparison options, or trigsim version), \
      a shard given twice or missing, and a damaged file are errors (exit 65) \
      naming the file, and nothing is written.
      """)

  @Argument(help: "The partial files of shards 1/K ... K/K, in any order.")
  var parts: [String]

  @Option(name: .shortAndLong, help: "Trials: the report's format, text or json.")
  var format: TrialReportFormat = .text

  @Option(name: .shortAndLong, help: ArgumentHelp("Trials: write the report to this file (atomically) instead of standard output ('-' is standard output).", valueName: "file"))
  var output: String?

  @Option(help: ArgumentHelp("Test results: also write the JUnit XML report to this file (atomically; missing folders are created).", valueName: "file"))
  var junit: String?

  @Option(help: ArgumentHelp("Test results: colour the diffs: 'auto' (on a terminal, unless NO_COLOR is set and not empty), 'always' or 'never'.", valueName: "when"))
  var color: ColorChoice = .auto

  enum TrialReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  func validate() throws {
    if junit != nil { _ = try TestCommand.junitTimestamp() }
  }

  func run() throws {
    let output = try openOutput(self.output)
    var kind: String?
    var texts: [(path: String, text: String)] = []
    for path in parts {
      let (format, text) = try reportingErrors { try PartialFile.format(ofFileAt: path) }
      if let kind, format != kind {
        try reportingErrors {
          throw PartialFile.located(
            PartialReportProblem(
              [.member("format")], "the format is '\(Diagnostic.excerpt(format))', but the first part, '\(parts[0])', is '\(kind)'",
              notes: ["merge the partial files of one run: all 'run --shard' or all 'test --partial'"]),
            text: text, path: path)
        }
      }
      kind = kind ?? format
      texts.append((path, text))
    }
    switch kind {
    case PartialTrialReport.formatName:
      if junit != nil { throw ValidationError("--junit goes with the partial results of 'test', not with trial reports") }
      let report = try reportingErrors { try Self.mergeTrials(texts) }
      try emit(format == .json ? report.json : report.text, to: output)
    case PartialTestResults.formatName:
      if self.output != nil { throw ValidationError("--output goes with trial reports; the merged test results are printed (and --junit writes JUnit)") }
      if format != .text { throw ValidationError("--format goes with trial reports; the merged test results are printed as 'test' prints them") }
      try mergeTests(texts)
    default:
      try reportingErrors {
        let (path, text) = texts[0]
        throw PartialFile.located(
          PartialReportProblem(
            [.member("format")], "unsupported partial format '\(Diagnostic.excerpt(kind ?? ""))'",
            notes: ["this trigsim (\(TrigsimVersion.current)) merges '\(PartialTrialReport.formatName)' and '\(PartialTestResults.formatName)'"]),
          text: text, path: path)
      }
    }
  }

  /// The report of the trial partials `texts` (file, text), after checking
  /// each and the set (`PartialTrialReport.merged`), missing shards reported
  /// as bad input (exit 65).
  static func mergeTrials(_ texts: [(path: String, text: String)]) throws -> TrialReport {
    do {
      return try PartialTrialReport.merged(texts)
    } catch let missing as MissingShards {
      try checkComplete { throw missing }
      preconditionFailure("unreachable: checkComplete rethrows")
    }
  }

  /// Prints the merged test results and writes `--junit`; exits as `test` would.
  func mergeTests(_ texts: [(path: String, text: String)]) throws {
    var partials: [PartialTestResults] = []
    var parts: [ShardedPart] = []
    for (path, text) in texts {
      let partial = try reportingErrors { try PartialFile.decode(PartialTestResults.self, text: text, path: path, allowedValues: ScenarioResult.allowedValues) }
      let shard: Shard
      do {
        shard = try partial.checkedShard()
      } catch {
        try reportingErrors { throw PartialFile.located(error, text: text, path: path) }
        return
      }
      partials.append(partial)
      parts.append(ShardedPart(
        file: path, shard: shard,
        shared: [
          .init([.member("trigsim")], "the trigsim version", "'\(Diagnostic.excerpt(partial.trigsim))'"),
          .init([.member("selection")], "the batch's scenarios", "\(partial.selection.count) with digest \(Diagnostic.quotePath(partial.selection.digest))"),
          .init([.member("settings")], "the verification options", "'\(Diagnostic.excerpt(partial.settings.joined(separator: " ")))'"),
          .init([.member("shard"), .member("count")], "the shard count", String(partial.shard.count)),
        ]))
    }
    try reportingErrors { try Self.checkComplete(parts) }
    let results = partials.flatMap(\.results).sorted { $0.position < $1.position }.map(\.result)
    let seconds = partials.map(\.seconds).reduce(0, +)
    let jobs = Set(partials.map(\.jobs)).sorted()
    let jobsText = jobs.count == 1 ? TestCommand.jobsWords(jobs[0]) : "\(jobs.first!) to \(TestCommand.jobsWords(jobs.last!))"
    let colored = DiffColoring.enabled(color, isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
    var text = TestCommand.summary(results, colored: colored, seconds: seconds, jobs: jobsText)
    let reportFiles = partials.sorted { $0.shard.index < $1.shard.index }.flatMap(\.reportFiles)
    var code = batchExitCode(results)
    code = moreSerious(code, TestCommand.writeJUnit(results, seconds: seconds, to: junit))
    for partial in partials { code = moreSerious(code, partial.outputsExitCode) }
    // The report lines in the scenarios' order, as one 'test --reports' prints them.
    let order = Dictionary(results.enumerated().map { (TestCommand.reportName($0.element.scenarioPath), $0.offset) }) { first, _ in first }
    for file in reportFiles.sorted(by: { (order[($0 as NSString).lastPathComponent] ?? 0) < (order[($1 as NSString).lastPathComponent] ?? 0) }) {
      text += "report: \(ControlCharacterEscape.escaping(file))\n"
    }
    writeToStandardOutput(text)
    if code != TrigsimExitCode.success { throw ExitCode(code) }
  }

  /// `ShardedPart.checkComplete`, with missing shards reported as bad input (exit 65).
  static func checkComplete(_ parts: [ShardedPart]) throws {
    try checkComplete { try ShardedPart.checkComplete(parts) }
  }

  /// Runs `check`, reporting missing shards as bad input (exit 65).
  static func checkComplete(_ check: () throws -> Void) throws {
    do {
      try check()
    } catch let missing as MissingShards {
      printError("error: \(missing.description)\nnote: merge the partial files of every shard, 1 to \(missing.count), of one run")
      throw ExitCode(TrigsimExitCode.invalidInput)
    }
  }
}
