import Foundation
import TrigsimCore
import TrigsimScenario

extension Duration {
  /// The duration in seconds, for tables and JUnit `time` attributes.
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Verifies the scenarios of `test` and `record`: in `jobs` supervised worker
/// processes (`WorkerSupervisor`), so one scenario that crashes trigsim, or
/// runs past its time or memory limit, is reported as `crashed`, `timedOut`
/// or `memoryExceeded` while the others complete. The results are in the
/// order of `paths`, whatever order they finish in; each run is independent
/// (its own process, loader, simulation and files), so they do not depend on
/// `jobs`.
struct ScenarioBatch {
  var comparison: ComparisonFlags
  /// How the workers report a timeline difference (`--diff`).
  var diff: DiffStyle
  var record: RecordMode
  var force: Bool
  var isCI: Bool
  var root: RootOption
  /// Each scenario's time and each worker's memory (`--timeout`, `--memory-limit`).
  var limits: WorkerLimits
  /// The phones each scenario runs on (`--platform`), in place of its own.
  var platform = PlatformOption()

  func run(_ paths: [String], jobs: Int) -> [ScenarioResult] {
    WorkerSupervisor(workerArguments: workerArguments, jobs: jobs, limits: limits).run(paths)
  }

  /// The verifier's settings as `trigsim scenario-worker` options, each value
  /// attached with `=` so one starting with `-` is not read as an option.
  var workerArguments: [String] {
    var arguments = comparison.tolerances.map { "--tolerance=\($0)" }
    arguments += comparison.ignoredFields.map { "--ignore-field=\($0)" }
    arguments += comparison.ignoredKinds.map { "--ignore-kind=\($0)" }
    if comparison.ignoresHeader { arguments.append("--ignore-header") }
    arguments.append("--diff=\(diff.rawValue)")
    arguments.append("--record=\(record.rawValue)")
    if force { arguments.append("--force") }
    if isCI { arguments.append("--on-ci") }
    arguments += root.workerArguments
    arguments += platform.workerArguments
    return arguments
  }
}

/// The exit code of a batch: the most serious outcome wins, in the order
/// internal error (70, a crash included), a scenario stopped at a time or
/// memory limit (124), invalid input (65), unreadable input (66), failed
/// write (73), failed check (1), success (0).
func batchExitCode(_ results: [ScenarioResult]) -> Int32 {
  results.flatMap(\.each).map(\.exitCode).reduce(TrigsimExitCode.success, moreSerious)
}

extension ScenarioVerification {
  /// The documented exit code for this outcome alone.
  var exitCode: Int32 {
    switch outcome {
    case .passed, .skipped: TrigsimExitCode.success
    case .failed: TrigsimExitCode.timelineDiffers
    case .error(let kind, _):
      switch kind {
      case .invalidInput: TrigsimExitCode.invalidInput
      case .cannotRead: TrigsimExitCode.cannotReadInput
      case .cannotWrite: TrigsimExitCode.cannotWriteOutput
      case .internalError: TrigsimExitCode.internalError
      }
    }
  }
}

/// The more serious of two exit codes: 70, then 124, 65, 66, 73, 1, 0.
func moreSerious(_ a: Int32, _ b: Int32) -> Int32 {
  let severity: [Int32] = [
    TrigsimExitCode.internalError, TrigsimExitCode.limitExceeded, TrigsimExitCode.invalidInput, TrigsimExitCode.cannotReadInput, TrigsimExitCode.cannotWriteOutput,
    TrigsimExitCode.timelineDiffers, TrigsimExitCode.success,
  ]
  let rank = { (code: Int32) in severity.firstIndex(of: code) ?? 0 }
  return rank(a) <= rank(b) ? a : b
}
