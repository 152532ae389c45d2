import Foundation
import Testing
@testable import TrigsimCore
import TrigsimScenario
import TrigsimTestSupport

/// The event-trace oracle for refactoring the engine's layers: every bundled
/// scenario's run handles the same events, in the same order, at the same
/// instants, phases and ranks, as `EventTraces.txt` records. It complements the
/// timelines: some events write no entry (a dose check, a stale delivery of a
/// replaced request), while the entries an event writes are the timeline's to
/// check. A change that only moves code between the world, the device, the
/// app, the ledger and the patient changes no line here. Bundled scenarios
/// only (the scenario's medicine app): a team's app's scenarios are checked
/// by their reviewed timelines.
///
/// Each line of `EventTraces.txt`: the scenario's path under `scenarios/`, the
/// number of events, how many of each kind (sorted by kind), and the SHA-256
/// of the whole trace (`Simulation.eventTrace()`, one line per event). A
/// scenario skipped here (its recorded track is absent) keeps its line. Record
/// with `TRIGSIM_RECORD=1` only for an intended change of behaviour, and say why.
@Suite struct EventTraceTests {
  static let tracesFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("EventTraces.txt")

  /// `file count kind=n … sha256`, as `EventTraces.txt` keeps it.
  static func line(for file: String, trace: [String]) -> String {
    var counts: [String: Int] = [:]
    for event in trace {
      // "instant phase rank kind(values)": the kind is the fourth field up to its values.
      let kind = event.split(separator: " ", maxSplits: 3).last.map { String($0.prefix { $0 != "(" }) } ?? "?"
      counts[kind, default: 0] += 1
    }
    var digest = SHA256Digest()
    for event in trace { digest.update(Data((event + "\n").utf8)) }
    let kinds = counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    return "\(file) \(trace.count) \(kinds) \(digest.hexDigest())"
  }

  static func recorded() throws -> [String: String] {
    guard let text = try? String(contentsOf: tracesFile, encoding: .utf8) else { return [:] }
    var lines: [String: String] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      lines[String(line.prefix { $0 != " " })] = String(line)
    }
    return lines
  }

  @Test func everyBundledScenarioHandlesTheEventsItsTraceRecords() throws {
    let recorded = try Self.recorded()
    var actual: [String: String] = recorded
    var mismatches: [String] = []
    for file in ScenarioRegressionTests.scenarioFiles {
      let path = RepositoryPaths.scenarios.appendingPathComponent(file).path
      guard let loaded = try ScenarioLoader().loadFileOrSkip(path) else { continue }
      let line = Self.line(for: file, trace: try Simulation(loaded.scenario).eventTrace())
      actual[file] = line
      if recorded[file] != line { mismatches.append("expected: \(recorded[file] ?? "(no line)")\n  actual: \(line)") }
    }
    if ScenarioRegressionTests.recording, !mismatches.isEmpty {
      let header = "# The event trace of every bundled scenario: path, events, events per kind, SHA-256 (see EventTraceTests).\n"
      try (header + actual.keys.sorted().map { actual[$0]! + "\n" }.joined()).write(to: Self.tracesFile, atomically: true, encoding: .utf8)
      Issue.record("recorded \(mismatches.count) event traces; review why they changed, then run again without TRIGSIM_RECORD")
      return
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) scenarios handle other events than recorded:\n\(mismatches.prefix(5).joined(separator: "\n"))")
  }

  @Test func theTraceSeesAnEventThatWritesNoEntry() throws {
    // The 08:00 dose was completed at 08:01: its check at the window's end writes no entry, yet the trace has it.
    let path = RepositoryPaths.scenarios.appendingPathComponent("completed-on-first-alert.yaml").path
    let scenario = try ScenarioLoader().load(path: path)
    let trace = try Simulation(scenario).eventTrace()
    let check = try #require(trace.first { $0.hasSuffix("doseDue(clock: 0, token: 0)") })
    let instant = try #require(Int64(check.prefix { $0 != " " }))
    let timeline = try Simulation(scenario).report().timeline
    #expect(!timeline.entries.contains { $0.instant.millisecondsSinceEpoch == instant })
  }
}
