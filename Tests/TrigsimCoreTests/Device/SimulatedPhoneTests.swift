import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// The device layer's two phones (`SimulatedPhone`): each is made for its
/// platform's scenario and adds to its core only what its platform does.
@Suite struct SimulatedPhoneTests {
  @Test func theAndroidPhoneMakesItsSchedulingWhenTheRunStartsAndRefusesTheScenarioRequests() throws {
    var run = AndroidSchedulerTests.pluggedInPhone()
    let phone = run.layers.phone
    #expect(phone is AndroidPhone)
    #expect(phone.android == nil)
    phone.runStarts(in: &run)
    let scheduler = try #require(phone.android)
    // The same scheduler from then on: its state is the phone's.
    #expect(phone.android === scheduler)
    #expect(phone.scenarioRequestsRefusal?.hasPrefix("the scenario's 'notifications:' are iOS notification requests") == true)
    #expect(phone.chargingReason(pluggedIn: true) == "plugged in: no Doze and no App Standby limits while charging")
    // A fresh Android 14 install: POST_NOTIFICATIONS not yet asked for.
    #expect(phone.core.installedApp.permission == .notDetermined)
  }

  @Test func theIPhoneQueuesNothingOfItsOwnAndRefusesNoScenarioRequest() throws {
    var scenario = Scenario(name: "scheduler", clock: Build.clock("2026-05-04T07:00:00Z", "2026-05-04T12:00:00Z"))
    scenario.device.power = [PowerEvent(instant: Build.instant("2026-05-04T07:00:00Z"), kind: .chargingOn)]
    var run = SimulationRun(scenario)
    let phone = run.layers.phone
    #expect(phone is IPhone)
    phone.runStarts(in: &run)
    #expect(phone.android == nil)
    #expect(phone.scenarioRequestsRefusal == nil)
    #expect(phone.chargingReason(pluggedIn: true) == nil)
    #expect(run.queue.isEmpty)
  }
}
