import Foundation
import Testing
import TrigsimCore
import TrigsimScenario

/// Checks a timeline against an expected one and records a Swift Testing
/// issue with the readable diff when they differ (see `TimelineComparison`).
///
///     let report = try Simulation(ScenarioLoader().load(path: "scenarios/walk.yaml")).report()
///     assertTimeline(report.timeline, matches: "scenarios/walk.timeline", options: options)
///
/// - Parameters:
///   - actual: the timeline a run produced.
///   - expectedPath: a `.timeline` (canonical text) or `.json` file.
///   - options: tolerances and filters; exact by default.
///   - sourceLocation: where the issue is recorded: the caller's line by default.
/// - Returns: the comparison, or nil when the expected file could not be read (an issue is recorded).
@discardableResult
public func assertTimeline(
  _ actual: Timeline, matches expectedPath: String, options: ComparisonOptions = ComparisonOptions(),
  sourceLocation: SourceLocation = #_sourceLocation
) -> TimelineComparison? {
  let expected: ExpectedTimeline
  do {
    expected = try ExpectedTimelineReader().read(path: expectedPath)
  } catch {
    Issue.record("cannot read the expected timeline '\(expectedPath)':\n\(error)", sourceLocation: sourceLocation)
    return nil
  }
  let comparison = TimelineComparison(expected: expected.timeline, actual: actual, options: options)
  if !comparison.matches {
    let report = comparison.report(expectedName: expectedPath, actualName: "actual timeline", expectedLocations: expected.entryLocations)
    Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
  }
  return comparison
}

/// Checks a timeline against an expected `Timeline` value, recording an issue with the diff when they differ.
@discardableResult
public func assertTimeline(
  _ actual: Timeline, matches expected: Timeline, options: ComparisonOptions = ComparisonOptions(),
  sourceLocation: SourceLocation = #_sourceLocation
) -> TimelineComparison {
  let comparison = TimelineComparison(expected: expected, actual: actual, options: options)
  if !comparison.matches {
    Issue.record(Comment(rawValue: comparison.report(expectedName: "expected timeline", actualName: "actual timeline")), sourceLocation: sourceLocation)
  }
  return comparison
}

/// Verifies a scenario file as `trigsim verify` does (expected timeline under
/// the scenario's `expect:` settings, then its `assert:` list) and records one
/// issue with the diff and failed assertions when it does not pass. A skipped
/// scenario (`ifMissing: skip` with the track absent) passes.
///
/// Nothing is written unless `record` says so, and never when `CI` is set in
/// the environment (unless `force`).
///
/// With `app`, the team's app runs in place of the scenario's medicine app
/// (scenarios with `appUnderTest: swift`); its trials make one app per trial:
///
///     assertScenario(at: "Scenarios/pharmacy.yaml", app: HostedApp { device in MyApp(device) })
@discardableResult
public func assertScenario(
  at path: String, app: HostedApp? = nil, record: RecordMode = .none, force: Bool = false,
  sourceLocation: SourceLocation = #_sourceLocation
) -> ScenarioVerification {
  let isCI = ScenarioVerifier.isCI(ProcessInfo.processInfo.environment)
  var verifier = ScenarioVerifier(record: record, isCI: isCI, force: force)
  verifier.app = app
  let verification = verifier.verify(path: path)
  switch verification.outcome {
  case .passed, .skipped:
    break
  case .failed, .error:
    Issue.record(Comment(rawValue: "\(path): \(verification.headline)\n\(verification.details)"), sourceLocation: sourceLocation)
  }
  return verification
}

/// Runs the scenario at `path` with the team's app and returns its report
/// (timeline and dose table), recording an issue and returning nil when the
/// scenario cannot be read or the app misbehaves (`AppCodeError`).
///
///     let report = try #require(runScenario(at: "Scenarios/week.yaml", app: HostedApp { MyApp($0) }))
///     #expect(report.summary.doses.allSatisfy { $0.notified != nil })
public func runScenario(
  at path: String, app: HostedApp, sourceLocation: SourceLocation = #_sourceLocation
) -> SimulationReport? {
  do {
    return try Simulation(ScenarioLoader().load(path: path), app: app).report()
  } catch {
    Issue.record("\(path): \(error)", sourceLocation: sourceLocation)
    return nil
  }
}
