import ArgumentParser
import Foundation
import TrigsimReport
import TrigsimCore
import TrigsimScenario

struct TestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Verify many scenarios in parallel and print a summary table.",
    discussion: """
      Paths may be scenario files, folders (searched recursively for *.yaml and \
      *.yml) or globs. Scenarios are sorted by path; --shard i/n keeps every n-th \
      one starting at the i-th, so n CI jobs with shards 1/n ... n/n run each \
      scenario exactly once, and with --partial FILE each writes its results for \
      'trigsim merge', which prints the summary and writes the JUnit report one \
      unsharded 'test' would. Failures are printed in full (diff, failed \
      assertions, diagnostics), then the table. The exit code is that of the most \
      serious outcome (see 'trigsim --help'). Each job is a worker process: a \
      scenario that crashes trigsim is reported as CRASH (exit 70), one that \
      runs past --timeout or --memory-limit as TIMEOUT or MEMORY (exit 124), \
      and the others complete. With --reports DIR, every scenario that fails gets the \
      HTML report of 'trigsim report' in DIR, for a CI job's artifacts.
      """)

  @Argument(help: "Scenario files, folders or globs.")
  var paths: [String]

  @Option(help: "Scenarios run at once (default: the number of cores).")
  var jobs: Int?

  /// `--jobs`, or one per core.
  var jobCount: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

  @Option(help: ArgumentHelp("Run only part i of n of the sorted scenarios (1-based), e.g. 2/4.", valueName: "i/n"))
  var shard: Shard?

  @Option(help: ArgumentHelp("Also write a JUnit XML report to this file (atomically; missing folders are created).", valueName: "file"))
  var junit: String?

  @Option(help: ArgumentHelp("Also write this shard's results to this file (atomically; missing folders are created) for 'trigsim merge'; without --shard, the whole batch is shard 1/1.", valueName: "file"))
  var partial: String?

  @Option(help: ArgumentHelp("Write the HTML report ('trigsim report') of every failed scenario into this folder (created when missing).", valueName: "dir"))
  var reports: String?

  @OptionGroup var comparison: ComparisonFlags
  @OptionGroup var diffFlags: DiffFlags
  @OptionGroup var recording: RecordFlags
  @OptionGroup var root: RootOption
  @OptionGroup var workerLimits: WorkerLimitFlags
  @OptionGroup var platform: PlatformOption

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    if junit != nil { _ = try Self.junitTimestamp() }
  }

  /// The JUnit report's timestamp from `SOURCE_DATE_EPOCH`; a malformed value is a usage error (64), found before anything runs.
  static func junitTimestamp() throws -> String? {
    do { return try JUnitReport.timestampFromEnvironment() } catch { throw ValidationError("\(error)") }
  }

  func run() throws {
    let collected: [String]
    do { collected = try ScenarioCollection.expand(paths) } catch { throw ValidationError("\(error)") }
    // The partial file is checked (and its temporary file created) before any scenario runs.
    let partialOutput = try partial.map { try openOutput($0, creatingFolders: true) }
    let positions = (shard ?? .whole).select(Array(collected.indices))
    let files = positions.map { collected[$0] }
    let batch = ScenarioBatch(
      comparison: comparison, diff: diffFlags.diff, record: recording.record, force: recording.force, isCI: runningOnCI, root: root,
      limits: try workerLimits.limits(), platform: platform)
    let clock = ContinuousClock()
    let start = clock.now
    let results = batch.run(files, jobs: jobCount)
    let totalSeconds = start.duration(to: clock.now).seconds

    writeToStandardOutput(
      Self.summary(
        results, colored: diffFlags.colors(descriptor: STDOUT_FILENO), seconds: totalSeconds,
        jobs: Self.jobsWords(jobCount) + (shard.map { ", shard \($0)" } ?? "")))

    var code = batchExitCode(results)
    code = moreSerious(code, Self.writeJUnit(results, seconds: totalSeconds, to: junit))
    // What the shard's own outputs cost (a report that could not be written): 'merge' keeps it.
    var outputsCode = TrigsimExitCode.success
    var reportFiles: [String] = []
    if let reports {
      var drawn: Set<String> = []
      for result in results.flatMap(\.each) where result.status == .failed && drawn.insert(result.scenarioPath).inserted {
        let target = (reports as NSString).appendingPathComponent(Self.reportName(result.scenarioPath))
        do {
          let (document, _) = try drawReport(
            of: result.scenarioPath, overrides: try comparison.options(), expect: nil, loader: root.loader(), options: ReportOptions(),
            platforms: try platform.override)
          try emit(document.html, to: target, creatingFolders: true)
          writeToStandardOutput("report: \(ControlCharacterEscape.escaping(target))\n")
          reportFiles.append(target)
        } catch let failure as ExitCode {
          outputsCode = moreSerious(outputsCode, failure.rawValue)
        }
      }
    }
    code = moreSerious(code, outputsCode)
    if let partialOutput {
      let partial = PartialTestResults(
        shard: shard ?? .whole, collected: collected, settings: batch.workerArguments, jobs: jobCount, seconds: totalSeconds,
        positions: positions, results: results, reportFiles: reportFiles, outputsExitCode: outputsCode)
      do {
        try emit(partial.canonicalJSON(), to: partialOutput)
      } catch let failure as ExitCode {
        code = moreSerious(code, failure.rawValue)
      }
    }
    if code != TrigsimExitCode.success { throw ExitCode(code) }
  }

  /// `2 jobs`, `1 job`.
  static func jobsWords(_ count: Int) -> String { "\(count) job\(count == 1 ? "" : "s")" }

  /// What `test` prints (and `merge` of its partials): every result that
  /// did not pass or skip in full (coloured when `colored`), the table, and
  /// the count line ending `in SECONDS (JOBS)`.
  static func summary(_ results: [ScenarioResult], colored: Bool, seconds: Double, jobs: String) -> String {
    // A scenario run on several phones is a row per platform and one for the side-by-side table.
    let results = results.flatMap(\.each)
    var output = ""
    for result in results where result.status != .passed && result.status != .skipped {
      output += "=== \(result.resultWord) \(result.displayPath): \(ControlCharacterEscape.escaping(result.headline))\n"
      output += result.details + "\n"
    }
    if colored { output = DiffColoring.colored(output) }
    output += Self.table(results)
    let passed = results.count { $0.status == .passed }
    let failed = results.count { $0.status == .failed }
    let errors = results.count(where: \.isError)
    let skipped = results.count { $0.status == .skipped }
    let recorded = results.count { $0.recorded == .created || $0.recorded == .rewritten }
    output += "\(passed) passed, \(failed) failed, \(errors) errors, \(skipped) skipped"
    let dosesRecorded = results.count { $0.dosesRecorded == .created || $0.dosesRecorded == .rewritten }
    var written: [String] = []
    if recorded > 0 { written.append("\(recorded) expected timeline\(recorded == 1 ? "" : "s")") }
    if dosesRecorded > 0 { written.append("\(dosesRecorded) dose table\(dosesRecorded == 1 ? "" : "s")") }
    if !written.isEmpty { output += " (\(written.joined(separator: ", ")) written)" }
    output += " in \(String(format: "%.2f", seconds))s (\(jobs))\n"
    return output
  }

  /// Writes the JUnit report of `results` to `path` (nothing when nil) and
  /// returns the exit code of the write: 0, or 73 when it failed (a failed
  /// report write must not hide a more serious outcome, so the caller keeps the more serious).
  static func writeJUnit(_ results: [ScenarioResult], seconds: Double, to path: String?) -> Int32 {
    guard let path else { return TrigsimExitCode.success }
    do {
      // Checked in `validate()`: a malformed value never gets this far.
      let timestamp = try? JUnitReport.timestampFromEnvironment()
      try emit(JUnitReport.xml(results, suiteSeconds: seconds, timestamp: timestamp ?? nil), to: path, creatingFolders: true)
      return TrigsimExitCode.success
    } catch let failure as ExitCode {
      return failure.rawValue
    } catch {
      return TrigsimExitCode.cannotWriteOutput
    }
  }

  /// The file name of a scenario's report in `--reports`: its path as given
  /// (without a leading `./`, which names the same file), written with `_`
  /// as the escape character, then `.html`:
  /// - `/` is written `__`, so `scenarios/corpus/walk.yaml` is
  ///   `scenarios__corpus__walk.yaml.html`;
  /// - `_` itself is written `_-`, so `a__b.yaml` is `a_-_-b.yaml.html`
  ///   and cannot meet `a/b.yaml`'s `a__b.yaml.html`;
  /// - a scalar `ControlCharacterEscape` escapes (ESC, a line break, NUL, a
  ///   bidirectional override) is written `_x` HEX `_` (`_x1B_`), so a file
  ///   name never holds one;
  /// - every other scalar is itself, the extension included.
  ///
  /// The mapping is injective: after `_` comes `_`, `-` or `x`, and `x`'s hex
  /// digits end at the next `_`, so a name reads back to exactly one path, and
  /// two scenarios of one batch never write the same page.
  static func reportName(_ scenarioPath: String) -> String {
    var path = Substring(scenarioPath)
    while path.hasPrefix("./") { path = path.dropFirst(2) }
    var name = ""
    for scalar in path.unicodeScalars {
      switch scalar {
      case "/": name += "__"
      case "_": name += "_-"
      default:
        if ControlCharacterEscape.isEscaped(scalar) {
          name += "_x" + String(scalar.value, radix: 16, uppercase: true) + "_"
        } else {
          name.unicodeScalars.append(scalar)
        }
      }
    }
    return name + ".html"
  }

  /// `scenario  result  entries  duration`, aligned, one row per scenario in path order.
  static func table(_ results: [ScenarioResult]) -> String {
    var rows = [["scenario", "result", "entries", "duration"]]
    for result in results.flatMap(\.each) {
      rows.append([
        result.displayPath, result.resultWord, result.entryCount.map(String.init) ?? "-",
        String(format: "%.3fs", result.seconds),
      ])
    }
    var widths = [0, 0, 0, 0]
    for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
    var text = ""
    for row in rows {
      let cells = [
        row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0),
        row[1].padding(toLength: widths[1], withPad: " ", startingAt: 0),
        String(repeating: " ", count: widths[2] - row[2].count) + row[2],
        String(repeating: " ", count: widths[3] - row[3].count) + row[3],
      ]
      text += cells.joined(separator: "  ") + "\n"
    }
    return text
  }
}
