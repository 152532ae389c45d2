import ExampleReminderApp
import Foundation
import Testing
import TrigsimCore
import TrigsimMedicineApp
import TrigsimScenario
import TrigsimTestSupport
import TrigsimTesting

/// The Swift "The simulated device API" shows, compiled and run (each block
/// is marked `<!-- snippet: Tests/ExampleReminderAppTests/DeviceReferenceSnippets.swift -->`).
@Suite struct DeviceReferenceSnippets {
  @Test func aTeamsAppRunsItsScenarios() throws {
    let app = HostedApp(attribution: ReminderAppOnSimulatedDevice.doseAttribution) { device in
      ReminderAppOnSimulatedDevice(device: device, configuration: .shipping, places: [:])  // the team's own conformances
    }
    let path = ExampleScenario.path("taken-on-first-alert.yaml")
    assertScenario(at: path, app: app)  // expected timeline, dose table and assertions, as `verify`

    let report = try #require(runScenario(at: path, app: app))
    #expect(report.summary.droppedByPendingLimit.isEmpty)
    #expect(report.summary.doses.allSatisfy { $0.notified != nil })
  }

  @Test func theScenariosMedicineAppRunsFromSwift() throws {
    let path = RepositoryPaths.scenarios.appendingPathComponent("report-tour.yaml").path
    let scenario = try ScenarioLoader().load(path: path)
    let report = try Simulation(scenario).report()  // the scenario's medicine app

    #expect(!report.summary.doses.isEmpty)
    #expect(report.timeline.entries.contains { $0.kind == .fired })
  }
}
