import Foundation
import TrigsimCore
import TrigsimMedicineApp
import TrigsimTracks

/// When `verify`, `test` and `record` write expected timelines.
public enum RecordMode: String, Sendable, CaseIterable {
  /// Never write (`verify` and `test` without `--record`).
  case none
  /// Write only expected timelines that do not exist yet.
  case missing
  /// Write the expected timeline of every scenario whose run differs from it (or that has none).
  case failed
  /// Write every expected timeline (`trigsim record`).
  case all
}

/// Runs a scenario file and checks it: the run against its expected timeline
/// (under the scenario's tolerances and filters, with `overrides` laid over
/// them) and against its assertions, recording baselines as `record` says.
///
/// **CI safety.** With `isCI` (the command line sets it when the environment
/// variable `CI` is set), nothing is written unless `force` is set: a baseline
/// that would have been written is a failure, so a missing expected timeline
/// can never be recorded silently on a CI machine.
public struct ScenarioVerifier: Sendable {
  public var overrides: ComparisonOptions
  public var record: RecordMode
  public var isCI: Bool
  public var force: Bool
  /// Replaces the expected timeline the scenario names (`run --expect FILE`).
  public var expectedPathOverride: String?
  /// Worker threads for a scenario's `trials:` (the report does not depend on it).
  public var trialJobs: Int
  /// Which files scenarios may name (`--root`); `expectedPathOverride` is the user's own and not checked.
  public var pathPolicy: ScenarioPathPolicy
  /// The most a scenario may raise its limits and trial count to; nil: the
  /// standard ceiling for `pathPolicy` (see `ScenarioLoader`).
  public var limitCeiling: ScenarioLimitCeiling?
  /// How a timeline difference is reported in `ScenarioVerification.details`.
  public var diffStyle: DiffStyle = .full
  /// Whether a scenario's `trials:` are run and checked (`trigsim report`
  /// draws the one run, and leaves them out).
  public var checksTrials = true
  /// The team's app in place of the scenario's medicine app (scenarios with
  /// `appUnderTest: swift`; the manual, "Your app in the loop").
  public var app: HostedApp?
  /// Whether the assumption report is made for every scenario (`report
  /// --assumptions`), not only for those that state `robust: true`.
  public var makesAssumptionReport = false
  /// The phones to run each scenario on (`--platform ios,android`), in place
  /// of the scenario's own `platform:` and `platforms:`; nil: the scenario's
  /// (see `verifyEach(path:)`).
  public var platformOverride: [PlatformName]?

  public init(
    overrides: ComparisonOptions = ComparisonOptions(), record: RecordMode = .none, isCI: Bool = false, force: Bool = false,
    expectedPathOverride: String? = nil, trialJobs: Int = ProcessInfo.processInfo.activeProcessorCount,
    pathPolicy: ScenarioPathPolicy = .unrestricted, limitCeiling: ScenarioLimitCeiling? = nil
  ) {
    self.pathPolicy = pathPolicy
    self.limitCeiling = limitCeiling
    self.overrides = overrides
    self.record = record
    self.isCI = isCI
    self.force = force
    self.expectedPathOverride = expectedPathOverride
    self.trialJobs = trialJobs
  }

  /// Whether baselines may be written at all.
  public var mayWrite: Bool { !isCI || force }

  /// Whether an environment is a CI machine's: `CI` is set to anything but an
  /// empty string, `0` or `false` (GitHub Actions, GitLab CI, Buildkite,
  /// CircleCI and Travis all set `CI=true`).
  public static func isCI(_ environment: [String: String]) -> Bool {
    guard let value = environment["CI"] else { return false }
    return !["", "0", "false", "False", "FALSE"].contains(value)
  }

  /// Verifies the scenario at `path`. Never throws: every outcome, bad input included, is a `ScenarioVerification`.
  public func verify(path: String) -> ScenarioVerification {
    switch load(path) {
    case .success(let file): return verify(file)
    case .failure(let failed): return failed.verification
    }
  }

  /// A scenario that could not be loaded, as its verification says.
  struct LoadFailure: Error {
    var verification: ScenarioVerification
  }

  /// The scenario at `path`, or the verification of why it cannot be loaded (its outcome and diagnostics).
  func load(_ path: String) -> Result<ScenarioFile, LoadFailure> {
    do {
      return .success(try ScenarioLoader(pathPolicy: pathPolicy, limitCeiling: limitCeiling).loadFile(path: path))
    } catch {
      var result = ScenarioVerification(scenarioPath: path)
      result.diffStyle = diffStyle
      result.outcome = Self.outcome(of: error)
      result.diagnostics = (error as? InputError)?.diagnostics ?? []
      return .failure(LoadFailure(verification: result))
    }
  }

  /// Verifies a scenario already loaded (its `path` names it in the result). Never throws.
  public func verify(_ file: ScenarioFile) -> ScenarioVerification {
    var result = ScenarioVerification(scenarioPath: file.path)
    result.diffStyle = diffStyle
    let path = file.path
    let report: SimulationReport
    do {
      report = try simulation(of: file.scenario).report()
    } catch {
      result.outcome = Self.outcome(of: error)
      result.diagnostics = (error as? InputError)?.diagnostics ?? []
      return result
    }
    result.report = report
    result.assertionFailures = file.checks.assertions.compactMap { $0.check(report) }
    if file.checks.robust != nil || makesAssumptionReport {
      let assumptions = assumptionReport(of: file, baseline: report)
      result.assumptionReport = assumptions
      if let origin = file.checks.robust, let failure = assumptions.robustnessFailure(origin: origin) {
        result.assertionFailures = Self.inFileOrder(result.assertionFailures + [failure])
      }
    }
    if checksTrials, let settings = file.checks.trials {
      if let problem = verifyTrials(file, settings: settings, into: &result) {
        result.outcome = problem
        return result
      }
    }
    guard let expectedPath = expectedPathOverride ?? file.checks.expectedTimelinePath else {
      result.outcome = result.assertionFailures.isEmpty && result.trialsMatch ? .passed : .failed
      return result
    }
    result.expectedPath = expectedPath
    result.expectedPathFromCommandLine = expectedPathOverride != nil
    let options = file.checks.comparison.overridden(by: overrides)

    // Read the expected timeline, if there is one.
    var expected: ExpectedTimeline?
    var unreadable: (any Error)?
    if FileManager.default.fileExists(atPath: expectedPath) {
      do {
        expected = try ExpectedTimelineReader().read(path: expectedPath, policy: expectedPathOverride == nil ? pathPolicy : .unrestricted)
      } catch let error as FileAccessError {
        // The expected timeline is input too: an unreadable one is bad input, located at the file.
        unreadable = InputError(Diagnostic(at: InputLocation(file: expectedPath, line: 1, column: 1), "cannot read the expected timeline: \(error.reason)",
                                           notes: ["record it again with 'trigsim record \(path)', or fix its permissions"]))
      } catch {
        unreadable = error
      }
    }
    if let expected {
      let comparison = TimelineComparison(expected: expected.timeline, actual: report.timeline, options: options)
      result.comparison = comparison
      result.expectedLocations = expected.entryLocations
    }

    // An unreadable timeline that is not about to be rewritten is reported
    // before the dose table is read or written: nothing is recorded for a
    // check that cannot go on.
    let wants = wantsToRecord(found: expected != nil, unreadable: unreadable != nil, matches: result.comparison?.matches ?? false)
    if let unreadable, !(wants && mayWrite) {
      if wants { result.refusedToRecord = true }
      result.outcome = Self.outcome(of: unreadable)
      result.diagnostics = (unreadable as? InputError)?.diagnostics ?? []
      return result
    }

    if expectedPathOverride == nil {
      if let problem = verifyAssumptions(file, report: report, timelinePath: expectedPath, into: &result) {
        result.outcome = problem
        return result
      }
    }
    if expectedPathOverride == nil, !file.scenario.medicineApp.isEmpty {
      if let problem = verifyDoses(report: report, timelinePath: expectedPath, tolerance: options.tolerance.largest, into: &result) {
        result.outcome = problem
        return result
      }
    }

    if wants {
      if mayWrite {
        let text = ExpectedTimelineFormat(path: expectedPath) == .json ? report.timeline.json : report.timeline.canonicalText
        do {
          result.recorded = try Self.writeBaseline(Data(text.utf8), to: expectedPath)
        } catch {
          result.outcome = .error(.cannotWrite, "error: cannot write '\(expectedPath)': \(error.localizedDescription)")
          return result
        }
        result.comparison = nil
        result.outcome = result.assertionFailures.isEmpty && result.trialsMatch && result.dosesMatch && result.assumptionsMatch ? .passed : .failed
        return result
      }
      result.refusedToRecord = true
    }
    if expected == nil { result.missingBaseline = true }
    let timelineOK = result.comparison?.matches ?? false
    result.outcome = timelineOK && result.assertionFailures.isEmpty && result.trialsMatch && result.dosesMatch && result.assumptionsMatch ? .passed : .failed
    return result
  }

  /// Whether `record` asks for a baseline to be written: `missing` only
  /// when there is none (an unreadable one is not missing), `failed` when it
  /// does not match (or cannot be read), `all` always.
  private func wantsToRecord(found: Bool, unreadable: Bool, matches: Bool) -> Bool {
    switch record {
    case .none: false
    case .missing: !found && !unreadable
    case .failed: !matches
    case .all: true
    }
  }

  /// Writes a baseline atomically, leaving the file untouched when it
  /// already holds `data`; says which of the three happened. The file there
  /// is read only as far as `data`'s size (a larger one differs).
  static func writeBaseline(_ data: Data, to path: String) throws -> ScenarioVerification.Recording {
    let previous: Data?
    do {
      previous = try RegularFile.contents(path, limit: data.count)
    } catch .tooLarge {
      previous = Data()
    } catch {
      previous = nil
    }
    if previous == data { return .unchanged }
    try AtomicFile.write(data, to: path)
    return previous == nil ? .created : .rewritten
  }

  /// Whether `record` writes a new baseline over one `refusal` refused: only
  /// one whose content is wrong (`ScenarioFileRefusal.mayBeRewritten`), only
  /// when recording what fails or everything, and only where writing is allowed.
  func rewrites(_ refusal: ScenarioFileRefusal) -> Bool {
    refusal.mayBeRewritten && (record == .failed || record == .all) && mayWrite
  }

  /// What a refused or unreadable baseline of the scenario at `path` adds: how to write it again.
  static func recordNote(_ path: String) -> String {
    "record it again with 'trigsim record \(ControlCharacterEscape.escaping(path))', then review it"
  }

  /// The dose table's baseline beside an expected timeline: `x.timeline` → `x.doses`.
  public static func dosesPath(forTimeline path: String) -> String {
    let url = URL(fileURLWithPath: path)
    let name = url.lastPathComponent
    let stem = url.pathExtension.isEmpty ? name : String(name.dropLast(url.pathExtension.count + 1))
    return String(path.dropLast(name.count)) + stem + ".doses"
  }

  /// The assumption report's baseline beside an expected timeline: `x.timeline` → `x.assumptions`.
  public static func assumptionsPath(forTimeline path: String) -> String {
    let doses = dosesPath(forTimeline: path)
    return String(doses.dropLast(".doses".count)) + ".assumptions"
  }

  /// Compares the assumption report with the `.assumptions` file beside the
  /// expected timeline, when there is one (recording it as `record` says;
  /// recording also creates it for a scenario that states `robust: true`).
  /// Returns an outcome only when the check cannot go on (an unreadable file, a failed write).
  private func verifyAssumptions(_ file: ScenarioFile, report: SimulationReport, timelinePath: String, into result: inout ScenarioVerification)
    -> ScenarioVerification.Outcome?
  {
    let path = Self.assumptionsPath(forTimeline: timelinePath)
    let exists = FileManager.default.fileExists(atPath: path)
    guard exists || (file.checks.robust != nil && record != .none) else { return nil }
    result.expectedAssumptionsPath = path
    let assumptions = result.assumptionReport ?? assumptionReport(of: file, baseline: report)
    result.assumptionReport = assumptions
    let actual = assumptions.text
    var expected: String?
    var refusal: ScenarioFileRefusal?
    if exists {
      do {
        expected = try ScenarioFileKind.expectedAssumptions.read(
          path, policy: pathPolicy, namedAt: InputLocation(file: file.path, line: 1, column: 1), recordNote: Self.recordNote(file.path)
        ).map { String(decoding: $0, as: UTF8.self) }
      } catch {
        refusal = error
      }
    }
    let matches = expected == actual
    if let refusal, !rewrites(refusal) {
      result.diagnostics = [refusal.diagnostic]
      return Self.outcome(of: refusal.error)
    }
    if wantsToRecord(found: expected != nil, unreadable: refusal != nil, matches: matches) {
      if mayWrite {
        do {
          result.assumptionsRecorded = try Self.writeBaseline(Data(actual.utf8), to: path)
        } catch {
          return .error(.cannotWrite, "error: cannot write '\(path)': \(error.localizedDescription)")
        }
        return nil
      }
      result.refusedToRecord = true
    }
    if let expected, !matches { result.assumptionsDifference = BaselineTextDifference(expected: expected, actual: actual) }
    return nil
  }

  /// Compares the run's doses with the `.doses` file beside the expected
  /// timeline (recording it as `record` says), instants within `tolerance`.
  /// Returns an outcome only when the check cannot go on (an unreadable or
  /// malformed file that is not rewritten, a failed write).
  private func verifyDoses(report: SimulationReport, timelinePath: String, tolerance: SimulationDuration, into result: inout ScenarioVerification)
    -> ScenarioVerification.Outcome?
  {
    let path = Self.dosesPath(forTimeline: timelinePath)
    result.expectedDosesPath = path
    let actual = report.summary.doseBaseline
    var expected: ExpectedDoses?
    var unreadable: (any Error)?
    if FileManager.default.fileExists(atPath: path) {
      do {
        expected = try ExpectedDosesReader().read(path: path, policy: pathPolicy)
      } catch let error as FileAccessError {
        unreadable = InputError(Diagnostic(at: InputLocation(file: path, line: 1, column: 1), "cannot read the expected dose table: \(error.reason)",
                                           notes: ["record it again with 'trigsim record \(result.scenarioPath)', or fix its permissions"]))
      } catch {
        unreadable = error
      }
    }
    if let expected {
      // The medicines' names, from the run's doses (the baseline keeps identifiers only).
      var names: [MedicineID: String] = [:]
      for dose in report.summary.doses where names[dose.key.medicine] == nil { names[dose.key.medicine] = dose.medicineName }
      result.doseComparison = DoseComparison(expected: expected.baseline, actual: actual, tolerance: tolerance, medicineNames: names)
      result.expectedDoseLines = expected.doseLines
    }
    if wantsToRecord(found: expected != nil, unreadable: unreadable != nil, matches: result.doseComparison?.matches ?? false) {
      if mayWrite {
        do {
          result.dosesRecorded = try Self.writeBaseline(Data(actual.canonicalText.utf8), to: path)
        } catch {
          return .error(.cannotWrite, "error: cannot write '\(path)': \(error.localizedDescription)")
        }
        result.doseComparison = nil
        return nil
      }
      result.refusedToRecord = true
      result.refusedToRecordDoses = true
    }
    if let unreadable {
      result.diagnostics = (unreadable as? InputError)?.diagnostics ?? []
      return Self.outcome(of: unreadable)
    }
    if expected == nil { result.missingDoseBaseline = true }
    return nil
  }

  /// Runs the scenario's trials, checks the probability assertions and
  /// compares the report with the expected `.trials` file (recording it as
  /// `record` says). Returns an outcome only when the check cannot go on.
  private func verifyTrials(_ file: ScenarioFile, settings: TrialSettings, into result: inout ScenarioVerification) -> ScenarioVerification.Outcome? {
    let report: TrialReport
    do {
      report = try TrialRunner(file.scenario, app: app(for: file.scenario)).run(TrialPlan(count: settings.count, seed: settings.seed, jobs: trialJobs))
    } catch {
      result.diagnostics = (error as? InputError)?.diagnostics ?? []
      return Self.outcome(of: error)
    }
    result.trialReport = report
    result.assertionFailures += file.checks.probabilityAssertions.compactMap { $0.check(report) }
    result.assertionFailures = Self.inFileOrder(result.assertionFailures)
    let path = settings.expectedReportPath
    result.expectedTrialsPath = path
    let text = report.text
    let previous: Data?
    do {
      previous = try ScenarioFileKind.expectedTrials.read(
        path, policy: pathPolicy, namedAt: settings.origin, recordNote: Self.recordNote(result.scenarioPath))
    } catch {
      // A baseline that is not a trial report may be written over where `record` asks for it; nothing else goes on.
      guard rewrites(error) else {
        result.diagnostics = [error.diagnostic]
        return Self.outcome(of: error.error)
      }
      previous = Data()
    }
    let matches = previous == Data(text.utf8)
    let wants: Bool
    switch record {
    case .none: wants = false
    case .missing: wants = previous == nil
    case .failed: wants = !matches
    case .all: wants = true
    }
    if wants && !matches {
      guard mayWrite else {
        result.refusedToRecord = true
        result.trialsDifference = previous.map { TrialReportDifference(expected: String(decoding: $0, as: UTF8.self), actual: text) }
        result.missingTrialBaseline = previous == nil
        return nil
      }
      do {
        try AtomicFile.write(Data(text.utf8), to: path)
      } catch {
        return .error(.cannotWrite, "error: cannot write '\(path)': \(error.localizedDescription)")
      }
      result.trialsRecorded = previous == nil ? .created : .rewritten
      return nil
    }
    if previous == nil {
      result.missingTrialBaseline = true
    } else if !matches {
      result.trialsDifference = TrialReportDifference(expected: String(decoding: previous!, as: UTF8.self), actual: text)
    }
    return nil
  }

  /// Failed assertions in the order the scenario writes them (run and
  /// probability assertions are checked apart); the sort is stable, and
  /// failures without an origin keep their place after those with one.
  static func inFileOrder(_ failures: [AssertionFailure]) -> [AssertionFailure] {
    failures.enumerated().sorted { a, b in
      let left = a.element.origin.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
      let right = b.element.origin.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
      return left != right ? left < right : a.offset < b.offset
    }.map(\.element)
  }

  /// The verifier's app, or the scenario's own medicine app.
  func app(for scenario: Scenario) -> HostedApp { app ?? MedicineReminderApp.hosted(for: scenario) }

  /// The scenario's assumption report (`AssumptionReport`): its run
  /// `baseline`, then one rerun per alternative of each consulted
  /// assumption, on up to `trialJobs` threads, with the app for each.
  public func assumptionReport(of file: ScenarioFile, baseline: SimulationReport) -> AssumptionReport {
    let verifier = self
    return AssumptionReport(scenario: file.scenario, baseline: baseline, assertions: file.checks.assertions, jobs: trialJobs) { scenario in
      verifier.simulation(of: scenario)
    }
  }

  /// The scenario with the verifier's app, or the scenario's own medicine app.
  public func simulation(of scenario: Scenario) -> Simulation { Simulation(scenario, app: app(for: scenario)) }

  static func outcome(of error: any Error) -> ScenarioVerification.Outcome {
    switch error {
    case let error as AppCodeError: .error(.invalidInput, "error: \(error)")
    case let error as InputError: .error(.invalidInput, error.diagnostics.map(\.description).joined(separator: "\n"))
    case let error as FileAccessError: .error(.cannotRead, "error: \(error)")
    case let error as ScenarioOutsideRoot: .error(.invalidInput, error.description)
    case let skipped as ScenarioSkipped: .skipped(skipped.description)
    default: .error(.internalError, "internal error: \(error)\nplease report this with the scenario that caused it")
    }
  }
}

/// What became of one scenario: its outcome, the run, the comparison and the assertions.
public struct ScenarioVerification: Sendable {
  public enum Outcome: Sendable, Equatable {
    case passed
    /// The timeline differs, the baseline is missing, or an assertion failed.
    case failed
    /// The scenario says it cannot run here (`ifMissing: skip`); the message says why.
    case skipped(String)
    /// Bad input, an unreadable file, a failed write or an internal error; the message is printable as is.
    case error(ErrorKind, String)
  }

  public enum ErrorKind: Sendable, Equatable { case invalidInput, cannotRead, cannotWrite, internalError }

  public enum Recording: Sendable, Equatable { case created, rewritten, unchanged }

  public var scenarioPath: String
  public var outcome: Outcome = .failed
  public var report: SimulationReport?
  public var expectedPath: String?
  public var expectedLocations: [InputLocation]?
  public var comparison: TimelineComparison?
  public var assertionFailures: [AssertionFailure] = []
  /// The expected timeline does not exist (and was not recorded).
  public var missingBaseline = false
  /// A baseline would have been written, but CI is set and `force` is not.
  public var refusedToRecord = false
  /// The dose table in particular would have been written (its notes say so, not the timeline's).
  public var refusedToRecordDoses = false
  /// What recording did, when it wrote (or would have written the same bytes).
  public var recorded: Recording?
  /// The located problems behind an `invalidInput` error (scenario or expected timeline).
  public var diagnostics: [Diagnostic] = []
  /// The expected timeline was named on the command line (`run --expect`), not by the scenario.
  public var expectedPathFromCommandLine = false
  /// The report of the scenario's `trials:`, when it has them.
  public var trialReport: TrialReport?
  /// The expected assumption report's path (`x.assumptions`), when it is checked.
  public var expectedAssumptionsPath: String?
  /// The expected and the actual assumption report, when they differ.
  public var assumptionsDifference: BaselineTextDifference?
  /// What recording did to the expected assumption report.
  public var assumptionsRecorded: Recording?
  /// No assumption report to compare, or it matches.
  public var assumptionsMatch: Bool { assumptionsDifference == nil }
  /// The assumption report, when the scenario states `robust: true` or the
  /// verifier makes one for every scenario (`makesAssumptionReport`).
  public var assumptionReport: AssumptionReport?
  /// The expected trial report's path, when the scenario has `trials:`.
  public var expectedTrialsPath: String?
  /// The expected trial report does not exist (and was not recorded).
  public var missingTrialBaseline = false
  /// How the trial report differs from the expected one.
  public var trialsDifference: TrialReportDifference?
  /// What recording did to the expected trial report.
  public var trialsRecorded: Recording?
  /// How `details` reports a timeline difference.
  public var diffStyle: DiffStyle = .full
  /// The expected dose table's path (`x.doses` beside `x.timeline`), when the scenario has medicines.
  public var expectedDosesPath: String?
  /// How the run's doses differ from the expected dose table, when it was read.
  public var doseComparison: DoseComparison?
  /// The line of each dose of the expected dose table.
  public var expectedDoseLines: [Int]?
  /// The expected dose table does not exist (and was not recorded).
  public var missingDoseBaseline = false
  /// What recording did to the expected dose table.
  public var dosesRecorded: Recording?
  /// The phone this verification ran on, when the scenario ran on another
  /// than its own or on several (its files are then named after it: `x.android.timeline`).
  public var platform: PlatformName?
  /// The side-by-side dose table this verification checks (it ran nothing
  /// itself: the platforms' verifications did), when it is that check.
  public var sideBySide: PlatformComparison?
  /// The side-by-side table's baseline (`x.platforms`).
  public var expectedPlatformsPath: String?
  /// The expected and the actual side-by-side table, when they differ.
  public var platformsDifference: BaselineTextDifference?
  /// The side-by-side table's baseline does not exist (and was not recorded).
  public var missingPlatformsBaseline = false
  /// What recording did to the side-by-side table's baseline.
  public var platformsRecorded: Recording?

  /// Which phone or phones this verification is about, for tables and JUnit:
  /// `android`, `ios,android` for the side-by-side table; nil for a run on the scenario's own phone.
  public var platformLabel: String? {
    platform?.rawValue ?? sideBySide.map { $0.platforms.map(\.rawValue).joined(separator: ",") }
  }

  /// No trials, or their report matches the expected one.
  public var trialsMatch: Bool { !missingTrialBaseline && trialsDifference == nil }

  /// No dose table to compare, or the run's doses match it.
  public var dosesMatch: Bool { !missingDoseBaseline && (doseComparison?.matches ?? true) }

  public init(scenarioPath: String) { self.scenarioPath = scenarioPath }

  /// The number of timeline entries the run produced.
  public var entryCount: Int? { report?.timeline.entries.count }

  /// One line for logs and JUnit messages: what failed, in counts.
  public var headline: String {
    switch outcome {
    case .passed:
      func word(_ recording: Recording) -> String { recording == .created ? "recorded" : recording == .rewritten ? "re-recorded" : "unchanged" }
      if let recorded {
        return "passed; expected timeline \(word(recorded))" + (dosesRecorded.map { ", dose table \(word($0))" } ?? "")
      }
      if let dosesRecorded { return "passed; dose table \(word(dosesRecorded))" }
      if let platformsRecorded { return "passed; side-by-side table \(word(platformsRecorded))" }
      if let note = comparison?.toleranceNote, !note.isEmpty { return "passed (\(note))" }
      return "passed"
    case .skipped(let why): return "skipped: \(why)"
    case .error(let kind, _):
      switch kind {
      case .invalidInput: return "invalid input"
      case .cannotRead: return "cannot read the scenario"
      case .cannotWrite: return "cannot write a baseline"
      case .internalError: return "internal error"
      }
    case .failed:
      var parts = failedComparisons
      if !assertionFailures.isEmpty { parts.append("\(assertionFailures.count) assertion\(assertionFailures.count == 1 ? "" : "s") failed") }
      return parts.joined(separator: "; ")
    }
  }

  /// One line naming what failed, for JUnit's `message`: the headline, with
  /// the first failed assertion's text and finding in place of the count of
  /// failed assertions (`assertion failed: nothing fired from 22:00 to 07:00
  /// (every day, device time): 2 fired entries in the window (and 1 more)`).
  ///
  /// A changed dose comes first, named in full (`dose changed: levo
  /// 2026-05-05 07:00 → 08:00: notified 07:30 lock screen → 08:00 alert (and
  /// 1 more)`): it is what a reviewer of a medicine scenario looks for.
  public var failureMessage: String {
    guard case .failed = outcome else { return headline }
    var parts = failedComparisons
    if let comparison = doseComparison, let first = comparison.changes.first, let index = parts.firstIndex(where: { $0.hasPrefix("doses differ") }) {
      let more = comparison.changes.count - 1 + comparison.headerChanges.count
      parts[index] = "dose changed: \(first.description)" + (more > 0 ? " (and \(more) more)" : "")
    }
    if let first = assertionFailures.first {
      var assertion = "assertion failed: \(first.assertion): \(first.finding)"
      if assertionFailures.count > 1 { assertion += " (and \(assertionFailures.count - 1) more)" }
      parts.append(assertion)
    }
    return parts.isEmpty ? headline : parts.joined(separator: "; ")
  }

  /// What the verification found, one line each, for a page that shows why
  /// (`trigsim report`): a missing dose table, each changed dose (with where
  /// the baseline has it), and each failed assertion with what it found.
  public var findings: [String] {
    guard case .failed = outcome else { return [] }
    var lines: [String] = []
    if missingDoseBaseline, let path = expectedDosesPath { lines.append("no expected dose table at \(Diagnostic.quotePath(path))") }
    if let comparison = doseComparison, !comparison.matches, let path = expectedDosesPath {
      lines += comparison.lines(expectedName: path, expectedLines: expectedDoseLines)
    }
    for failure in assertionFailures {
      lines.append((failure.origin.map { "\($0): " } ?? "") + "assertion failed: \(failure.assertion): \(failure.finding)")
    }
    return lines
  }

  /// The comparisons with expected files that failed, one phrase each, in the headline's order.
  private var failedComparisons: [String] {
    var parts: [String] = []
    if missingDoseBaseline { parts.append("no expected dose table") }
    if let comparison = doseComparison, !comparison.matches { parts.append("doses differ: \(comparison.summaryLine)") }
    if missingBaseline { parts.append("no expected timeline") }
    if let comparison, !comparison.matches { parts.append("timeline differs: \(comparison.summaryLine)") }
    if missingTrialBaseline { parts.append("no expected trial report") }
    if let difference = trialsDifference { parts.append("trial report differs: \(difference.summaryLine)") }
    if assumptionsDifference != nil { parts.append("assumption report differs") }
    if missingPlatformsBaseline { parts.append("no expected side-by-side table") }
    if platformsDifference != nil { parts.append("side-by-side table differs") }
    return parts
  }

  /// Everything a reader needs to see what went wrong: the diff, the missing
  /// baseline, the failed assertions, or the error's diagnostics.
  public var details: String {
    switch outcome {
    case .passed, .skipped: return ""
    case .error(_, let message): return message.hasSuffix("\n") ? message : message + "\n"
    case .failed:
      var text = ""
      if missingDoseBaseline, let path = expectedDosesPath {
        text += "no expected dose table at \(Diagnostic.quotePath(path))\n"
        text += refusedToRecordDoses
          ? "note: CI is set, so it was not recorded; record it locally with 'trigsim record \(scenarioPath)', review it and commit it (or pass --force)\n"
          : "note: record it with 'trigsim record \(scenarioPath)', then review it\n"
      }
      if let comparison = doseComparison, !comparison.matches, let path = expectedDosesPath {
        text += comparison.report(expectedName: path, expectedLines: expectedDoseLines, limit: diffStyle == .compact ? 10 : .max)
        if refusedToRecordDoses { text += "note: CI is set, so the expected dose table was not rewritten (pass --force to write it)\n" }
      }
      if missingBaseline, let expectedPath {
        text += "no expected timeline at \(Diagnostic.quotePath(expectedPath))\n"
        text += expectedPathFromCommandLine
          ? "note: write one with 'trigsim run \(scenarioPath) --output \(expectedPath)' (add '--format json' for a .json file), then review it\n"
          : refusedToRecord
          ? "note: CI is set, so it was not recorded; record it locally with 'trigsim record \(scenarioPath)', review it and commit it (or pass --force)\n"
          : "note: record it with 'trigsim record \(scenarioPath)', then review it\n"
      }
      if let comparison, !comparison.matches, let expectedPath {
        switch diffStyle {
        case .full: text += comparison.report(expectedName: expectedPath, actualName: "run of \(scenarioPath)", expectedLocations: expectedLocations)
        case .compact: text += comparison.compactReport(expectedName: expectedPath, expectedLocations: expectedLocations)
        }
        if refusedToRecord { text += "note: CI is set, so the expected timeline was not rewritten (pass --force to write it)\n" }
      }
      if let path = expectedTrialsPath {
        if missingTrialBaseline {
          text += "no expected trial report at \(Diagnostic.quotePath(path))\n"
          text += refusedToRecord
            ? "note: CI is set, so it was not recorded; record it locally with 'trigsim record \(scenarioPath)', review it and commit it (or pass --force)\n"
            : "note: record it with 'trigsim record \(scenarioPath)', then review it\n"
        }
        if let difference = trialsDifference { text += difference.report(expectedName: path, actualName: "trials of \(scenarioPath)") }
      }
      if let difference = assumptionsDifference, let path = expectedAssumptionsPath {
        text += difference.report(expectedName: path, actualName: "assumption report of \(scenarioPath)")
        if refusedToRecord { text += "note: CI is set, so the expected assumption report was not rewritten (pass --force to write it)\n" }
      }
      if missingPlatformsBaseline, let path = expectedPlatformsPath {
        text += "no expected side-by-side table at \(Diagnostic.quotePath(path))\n"
        text += refusedToRecord
          ? "note: CI is set, so it was not recorded; record it locally with 'trigsim record \(scenarioPath)', review it and commit it (or pass --force)\n"
          : "note: record it with 'trigsim record \(scenarioPath)', then review it\n"
      }
      if let difference = platformsDifference, let path = expectedPlatformsPath {
        text += difference.report(expectedName: path, actualName: "side-by-side table of \(scenarioPath)")
        if refusedToRecord { text += "note: CI is set, so the expected side-by-side table was not rewritten (pass --force to write it)\n" }
      }
      for failure in assertionFailures { text += failure.description }
      return text
    }
  }
}

/// Where a trial report differs from the expected one: the changed lines, in
/// order (the reports have a fixed line structure, so a line-by-line
/// comparison names what moved).
public struct TrialReportDifference: Sendable, Equatable {
  public var expected: [String]
  public var actual: [String]

  public init(expected: String, actual: String) {
    self.expected = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    self.actual = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// The line numbers (1-based) whose text differs, and lines only one side has.
  public var changedLines: [Int] {
    (0..<max(expected.count, actual.count)).filter { index in
      (index < expected.count ? expected[index] : nil) != (index < actual.count ? actual[index] : nil)
    }.map { $0 + 1 }
  }

  public var summaryLine: String {
    let count = changedLines.count
    return "\(count) line\(count == 1 ? "" : "s") changed"
  }

  /// `- expected` / `+ actual` pairs for each changed line, at most 20, each
  /// located in the expected file and quoted as `BaselineTextDifference.quoted` says.
  public func report(expectedName: String, actualName: String, limit: Int = 20) -> String {
    var text = "--- \(expectedName)\n+++ \(actualName)\n"
    let lines = changedLines
    for line in lines.prefix(limit) {
      let index = line - 1
      text += "@@ \(expectedName):\(line):1\n"
      if index < expected.count { text += "- \(BaselineTextDifference.quoted(expected[index]))\n" }
      if index < actual.count { text += "+ \(BaselineTextDifference.quoted(actual[index]))\n" }
    }
    if lines.count > limit { text += "... and \(lines.count - limit) more changed lines\n" }
    return text
  }
}
