import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// Where the engine consults the registry: `forceQuitLocation` (the other
/// entries' tests are in TrigsimScenarioTests' `AssumptionTests`).
@Suite struct ConsultedAssumptionTests {
  func run(_ state: AppState, stating: Bool = false) throws -> SimulationReport {
    var scenario = HostedScenario.make()
    AppLifecycleTests.walkHome(&scenario)
    scenario.medicineApp.appChanges = [HostedScenario.state(state, at: "2026-05-04T07:01:00Z")]
    if stating { scenario.statedAssumptions = [.forceQuitLocation] }
    return try Simulation(scenario, app: ScriptedApp.hosted(AppLifecycleTests.monitorsHome(), log: AppLog())).report()
  }

  @Test func aRegionEventForAForceQuitAppConsultsForceQuitLocation() throws {
    #expect(try run(.forceQuit).summary.consultedAssumptions == [.forceQuitLocation])
  }

  @Test func aRegionEventForARunningAppConsultsNothing() throws {
    #expect(try run(.background).summary.consultedAssumptions.isEmpty)
    #expect(try run(.terminated).summary.consultedAssumptions.isEmpty)
  }

  @Test func aStatedSettingIsNeverConsulted() throws {
    #expect(try run(.forceQuit, stating: true).summary.consultedAssumptions.isEmpty)
  }

  @Test func applyingAReadingStatesTheSetting() throws {
    let entry = try #require(AssumptionRegistry.entry(.forceQuitLocation))
    let scenario = entry.applying(entry.alternatives[0], to: HostedScenario.make())
    #expect(scenario.platform.forceQuitLocationLaunch == .launched)
    #expect(scenario.statedAssumptions == [.forceQuitLocation])
    #expect(entry.label(entry.alternatives[0]) == "forceQuitLocation=launched")
  }

  @Test func consultedAssumptionsComeInRegistryOrder() {
    #expect(AssumptionRegistry.inRegistryOrder([.forceQuitLocation, AssumptionID("unknown"), .powerOffCatchUp])
      == [.powerOffCatchUp, .forceQuitLocation])
  }
}
