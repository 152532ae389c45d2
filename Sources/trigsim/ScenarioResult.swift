import Foundation
import TrigsimCore
import TrigsimScenario

/// What a batch (`test`, `record`) keeps of one scenario's verification:
/// everything the failure blocks, the summary table, the JUnit report and
/// `record`'s listing print, and nothing else (not the run's timeline).
///
/// A worker process sends it to its supervisor as one JSON line (see
/// `WorkerProtocol`); a scenario whose worker died, or was stopped at a
/// limit, is a `crashed`, `timedOut` or `memoryExceeded` result the
/// supervisor makes itself.
struct ScenarioResult: Codable, Sendable, Equatable {
  enum Status: String, Codable, Sendable, CaseIterable {
    case passed, failed, skipped, invalidInput, cannotRead, cannotWrite, internalError
    /// The worker process verifying it crashed or was killed: an internal error (exit 70).
    case crashed
    /// It ran past the per-scenario time limit (`--timeout`) and its worker was killed (exit 124).
    case timedOut
    /// Its worker's resident memory passed the limit (`--memory-limit`) and the worker was killed (exit 124).
    case memoryExceeded
  }

  enum Recording: String, Codable, Sendable, CaseIterable {
    case created, rewritten, unchanged

    init(_ recording: ScenarioVerification.Recording) {
      switch recording {
      case .created: self = .created
      case .rewritten: self = .rewritten
      case .unchanged: self = .unchanged
      }
    }
  }

  /// The members of a result that hold one of a fixed set of words, and
  /// those words: what a message about a partial file's wrong value lists.
  static let allowedValues: [String: [String]] = {
    let recordings = Recording.allCases.map(\.rawValue)
    var values = ["status": Status.allCases.map(\.rawValue)]
    for member in ["recorded", "trialsRecorded", "dosesRecorded", "assumptionsRecorded", "platformsRecorded"] { values[member] = recordings }
    return values
  }()

  /// A `Diagnostic` as it travels between processes.
  struct LocatedProblem: Codable, Sendable, Equatable {
    var isWarning: Bool
    var file: String
    var line: Int
    var column: Int
    var message: String
    var notes: [String]
    /// `Diagnostic.showsSourceLine`: false for a file that is not its format
    /// (`ForeignFile`), whose lines the printer must not show.
    var showsSourceLine: Bool

    init(_ diagnostic: Diagnostic) {
      isWarning = diagnostic.severity == .warning
      file = diagnostic.location.file
      line = diagnostic.location.line
      column = diagnostic.location.column
      message = diagnostic.message
      notes = diagnostic.notes
      showsSourceLine = diagnostic.showsSourceLine
    }

    var diagnostic: Diagnostic {
      var diagnostic = Diagnostic(isWarning ? .warning : .error, at: InputLocation(file: file, line: line, column: column), message, notes: notes)
      diagnostic.showsSourceLine = showsSourceLine
      return diagnostic
    }
  }

  var scenarioPath: String
  var status: Status
  /// One line: what happened, in counts (`ScenarioVerification.headline`).
  var headline: String
  /// The diff, failed assertions or error message (`ScenarioVerification.details`).
  var details: String
  /// One line naming what failed (`ScenarioVerification.failureMessage`), for JUnit.
  var failureMessage: String
  /// Why it was skipped, or the error message as printed; empty otherwise.
  var message: String = ""
  var entryCount: Int?
  var recorded: Recording?
  var expectedPath: String?
  var expectedTrialsPath: String?
  var trialsRecorded: Recording?
  var trialsMatch = true
  var expectedDosesPath: String?
  var dosesRecorded: Recording?
  var dosesMatch = true
  /// The expected assumption report (`x.assumptions`), when it was checked or recorded.
  var expectedAssumptionsPath: String?
  var assumptionsRecorded: Recording?
  var refusedToRecord = false
  var diagnostics: [LocatedProblem] = []
  /// Which phone or phones the result is about (`ScenarioVerification.platformLabel`):
  /// `android`, `ios,android` for the side-by-side table; nil on the scenario's own phone.
  var platform: String?
  /// The side-by-side table's baseline (`x.platforms`) and what recording did to it.
  var expectedPlatformsPath: String?
  var platformsRecorded: Recording?
  /// The scenario's other results when it ran on several phones: the later
  /// platforms', then the side-by-side table's (see `each`); nil on one phone
  /// (so a partial file of such scenarios is as it was before platforms).
  var more: [ScenarioResult]?
  /// Wall-clock seconds, for the table and JUnit only.
  var seconds: Double

  init(_ verification: ScenarioVerification, seconds: Double) {
    scenarioPath = verification.scenarioPath
    headline = verification.headline
    details = verification.details
    failureMessage = verification.failureMessage
    switch verification.outcome {
    case .passed: status = .passed
    case .failed: status = .failed
    case .skipped(let why):
      status = .skipped
      message = why
    case .error(let kind, let text):
      message = text
      // Bad input is shown as `run` shows it: each diagnostic with its source line and caret.
      if !verification.diagnostics.isEmpty { details = DiagnosticPrinter().render(verification.diagnostics) }
      switch kind {
      case .invalidInput: status = .invalidInput
      case .cannotRead: status = .cannotRead
      case .cannotWrite: status = .cannotWrite
      case .internalError: status = .internalError
      }
    }
    entryCount = verification.entryCount
    recorded = verification.recorded.map(Recording.init)
    expectedPath = verification.expectedPath
    expectedTrialsPath = verification.expectedTrialsPath
    trialsRecorded = verification.trialsRecorded.map(Recording.init)
    trialsMatch = verification.trialsMatch
    expectedDosesPath = verification.expectedDosesPath
    dosesRecorded = verification.dosesRecorded.map(Recording.init)
    dosesMatch = verification.dosesMatch
    expectedAssumptionsPath = verification.expectedAssumptionsPath
    assumptionsRecorded = verification.assumptionsRecorded.map(Recording.init)
    refusedToRecord = verification.refusedToRecord
    diagnostics = verification.diagnostics.map(LocatedProblem.init)
    platform = verification.platformLabel
    expectedPlatformsPath = verification.expectedPlatformsPath
    platformsRecorded = verification.platformsRecorded.map(Recording.init)
    self.seconds = seconds
  }

  /// The result of a scenario run on each of its phones (`verifyEach`): the
  /// first platform's, carrying the others in `more`; the seconds shared out evenly.
  init(_ verifications: [ScenarioVerification], seconds: Double) {
    let share = seconds / Double(max(verifications.count, 1))
    self.init(verifications[0], seconds: share)
    if verifications.count > 1 { more = verifications.dropFirst().map { ScenarioResult($0, seconds: share) } }
  }

  /// The results of one scenario's platforms (and side-by-side table) as
  /// one: the first, carrying the others in `more`.
  static func combining(_ parts: [ScenarioResult]) -> ScenarioResult {
    let rows = parts.flatMap(\.each)
    var first = rows[0]
    if rows.count > 1 { first.more = Array(rows.dropFirst()) }
    return first
  }

  /// This result and those in `more`, one per platform (and the side-by-side
  /// table), each without `more`: what tables, JUnit and exit codes count.
  var each: [ScenarioResult] {
    var first = self
    first.more = nil
    return [first] + (more ?? [])
  }

  /// The scenario's path, and the phone in brackets when the result names one: `x.yaml [android]`;
  /// escaped by `ControlCharacterEscape`'s rule (a file name may hold ESC or a line break), as
  /// everything a batch prints of a file name is.
  var displayPath: String { ControlCharacterEscape.escaping(scenarioPath + (platform.map { " [\($0)]" } ?? "")) }

  /// A scenario whose verification ended with its process: `what` is how it
  /// ended ("crashed (SIGILL)", "exited with status 3"); `lastWords` the
  /// first line the process wrote to standard error, if any.
  /// `platform` names the phone whose run it was, for a unit of a side-by-side scenario.
  static func crashed(_ path: String, what: String, lastWords: String?, seconds: Double, platform: String? = nil) -> ScenarioResult {
    let scenario = platform.map { "this scenario's \($0) run" } ?? "this scenario"
    var message = "error: trigsim \(what) while verifying \(scenario); please report it with the scenario\n"
    if let lastWords { message += "note: its last message: \(lastWords)\n" }
    message += "note: " + (platform == nil ? "the other scenarios ran in other processes and are not affected" : "the other scenarios, and this scenario's other platforms, keep their own results") + "\n"
    var result = ScenarioResult(
      scenarioPath: path, status: .crashed, headline: "trigsim \(what) while verifying \(scenario); please report it",
      message: message, seconds: seconds)
    result.platform = platform
    return result
  }

  /// A scenario whose worker the supervisor killed at `limit`. The message
  /// names the limit, not the time or memory measured, so it is the same on
  /// every run; `platform` the phone whose run it stopped, for a unit of a
  /// side-by-side scenario (each platform's run has the whole limit).
  static func stopped(_ path: String, at limit: WorkerLimits.Limit, seconds: Double, platform: String? = nil) -> ScenarioResult {
    let headline = (platform.map { "the \($0) run " } ?? "") + "exceeded \(limit.description)"
    let message = """
      error: the scenario\(platform.map { "'s \($0) run" } ?? "") \(platform == nil ? headline : "exceeded \(limit.description)"); its worker process was stopped
      note: \(limit.advice); check the scenario's clock, repeating intervals, 'limits:' and 'trials: { count: N }'
      note: \(platform == nil ? "the other scenarios ran in other processes and are not affected" : "the other scenarios, and this scenario's other platforms, keep their own results")

      """
    let status: Status
    switch limit {
    case .time: status = .timedOut
    case .memory: status = .memoryExceeded
    }
    var result = ScenarioResult(scenarioPath: path, status: status, headline: headline, message: message, seconds: seconds)
    result.platform = platform
    return result
  }

  /// A scenario the supervisor could not have verified (no worker process would start).
  static func internalError(_ path: String, _ reason: String, seconds: Double = 0) -> ScenarioResult {
    ScenarioResult(
      scenarioPath: path, status: .internalError, headline: "internal error",
      message: "internal error: \(reason)\nplease report this with the scenario that caused it\n", seconds: seconds)
  }

  private init(scenarioPath: String, status: Status, headline: String, message: String, seconds: Double) {
    self.scenarioPath = scenarioPath
    self.status = status
    self.headline = headline
    self.details = message
    self.failureMessage = headline
    self.message = message
    self.seconds = seconds
  }

  var isError: Bool { ![.passed, .failed, .skipped].contains(status) }

  /// The word in the summary table.
  var resultWord: String {
    switch status {
    case .passed: recorded == .created ? "recorded" : recorded == .rewritten ? "rewritten" : "pass"
    case .failed: "FAIL"
    case .skipped: "skip"
    case .crashed: "CRASH"
    case .timedOut: "TIMEOUT"
    case .memoryExceeded: "MEMORY"
    case .invalidInput, .cannotRead, .cannotWrite, .internalError: "ERROR"
    }
  }

  /// The documented exit code for this outcome alone.
  var exitCode: Int32 {
    switch status {
    case .passed, .skipped: TrigsimExitCode.success
    case .failed: TrigsimExitCode.timelineDiffers
    case .invalidInput: TrigsimExitCode.invalidInput
    case .cannotRead: TrigsimExitCode.cannotReadInput
    case .cannotWrite: TrigsimExitCode.cannotWriteOutput
    case .internalError, .crashed: TrigsimExitCode.internalError
    case .timedOut, .memoryExceeded: TrigsimExitCode.limitExceeded
    }
  }
}

/// Prints why a batch's scenario did not pass to standard error (diagnostics
/// with their source lines, or the message) and returns its exit code.
func reportFailure(of result: ScenarioResult) -> Int32 {
  if !result.diagnostics.isEmpty {
    DiagnosticPrinter.standardError.print(result.diagnostics.map(\.diagnostic))
  } else {
    writeToStandardError(result.details)
    if result.status == .failed { printError("\(result.displayPath): FAILED: \(ControlCharacterEscape.escaping(result.headline))") }
  }
  return result.exitCode
}
