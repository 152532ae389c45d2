import Foundation
import TrigsimCore
import TrigsimScenario

/// One scenario's verification with how long it took (wall clock, for the
/// summary table and JUnit only; never part of a timeline).
struct TimedVerification: Sendable {
  var verification: ScenarioVerification
  var seconds: Double
}

extension Duration {
  /// The duration in seconds, for tables and JUnit `time` attributes.
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Runs scenarios on a fixed number of worker threads and returns the
/// results in the order of `paths`, whatever order they finish in.
///
/// Each run is independent (its own loader, simulation and files), so the
/// results do not depend on `jobs`.
enum ScenarioBatch {
  static func run(_ paths: [String], jobs: Int, verifier: ScenarioVerifier) -> [TimedVerification] {
    let results = IndexedResults<TimedVerification>(count: paths.count)
    let workers = max(1, min(jobs, paths.count))
    let group = DispatchGroup()
    for _ in 0..<workers {
      group.enter()
      let thread = Thread {
        while let index = results.claimNext() {
          let clock = ContinuousClock()
          let start = clock.now
          let verification = verifier.verify(path: paths[index])
          results.store(TimedVerification(verification: verification, seconds: start.duration(to: clock.now).seconds), at: index)
        }
        group.leave()
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    group.wait()
    return results.all().map { $0! }  // every index was claimed and stored before the group was left
  }
}

extension ScenarioVerification {
  /// The word in the summary table and the exit-code rank.
  var resultWord: String {
    switch outcome {
    case .passed: recorded == .created ? "recorded" : recorded == .rewritten ? "rewritten" : "pass"
    case .failed: "FAIL"
    case .skipped: "skip"
    case .error: "ERROR"
    }
  }

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

/// The exit code of a batch: the most serious outcome wins, in the order
/// internal error (70), invalid input (65), unreadable input (66), failed
/// write (73), failed check (1), success (0).
func batchExitCode(_ results: [ScenarioVerification]) -> Int32 {
  results.map(\.exitCode).reduce(TrigsimExitCode.success, moreSerious)
}

/// The more serious of two exit codes: 70, then 65, 66, 73, 1, 0.
func moreSerious(_ a: Int32, _ b: Int32) -> Int32 {
  let severity: [Int32] = [
    TrigsimExitCode.internalError, TrigsimExitCode.invalidInput, TrigsimExitCode.cannotReadInput, TrigsimExitCode.cannotWriteOutput,
    TrigsimExitCode.timelineDiffers, TrigsimExitCode.success,
  ]
  let rank = { (code: Int32) in severity.firstIndex(of: code) ?? 0 }
  return rank(a) <= rank(b) ? a : b
}
