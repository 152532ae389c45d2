import Foundation
import Testing
import TrigsimCore
import TrigsimScenario
import TrigsimTesting

/// The bundled scenarios, found from this file as "Using trigsim from Swift
/// tests" advises (the working directory under Xcode is not the package's).
let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scenarios").standardized

/// The Swift "Using trigsim from Swift tests" shows, compiled and run (each
/// block is marked `<!-- snippet: Tests/TrigsimTestingTests/ManualSnippetTests.swift -->`).
@Suite struct ManualSnippetTests {
  @Test func aScenarioRunsFromSwift() throws {
    let scenario = try ScenarioLoader().load(path: scenarios.appendingPathComponent("morning-walk.yaml").path)
    let timeline = try Simulation(scenario).run()
    let fired = timeline.entries(.fired).map(\.subject)

    // With medicines: the timeline and every dose's outcome.
    let report = try Simulation(ScenarioLoader().load(path: scenarios.appendingPathComponent("pending-limit-upfront.yaml").path)).report()
    let missed = report.summary.doses.filter { $0.outcome == .missed }  // [DoseRecord], each with a reason

    #expect(!fired.isEmpty)
    #expect(missed.allSatisfy { $0.reason != nil })
  }

  @Test func walkMatchesItsBaseline() throws {
    let timeline = try Simulation(ScenarioLoader().load(path: scenarios.appendingPathComponent("morning-walk.yaml").path)).run()
    var options = ComparisonOptions()
    options.tolerance.set(.init(milliseconds: 500), for: EntrySelector(.geofence))
    assertTimeline(timeline, matches: scenarios.appendingPathComponent("morning-walk.timeline").path, options: options)
  }

  @Test func walkVerifies() {
    assertScenario(at: scenarios.appendingPathComponent("morning-walk.yaml").path)  // expected timeline and assertions, as `trigsim verify`
  }
}
