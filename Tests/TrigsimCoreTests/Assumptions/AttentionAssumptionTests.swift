import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

/// Where the attention layer consults the registry: each entry is consulted
/// where its reading could change what happens, not elsewhere, and never
/// when the scenario states it.
@Suite struct AttentionAssumptionTests {
  func consulted(_ scenario: Scenario) throws -> [AssumptionID] {
    try Simulation(scenario).report().summary.consultedAssumptions
  }

  func scenario(times: [String] = ["07:00"], level: InterruptionLevel = .active, change: (inout Scenario) -> Void = { _ in }) -> Scenario {
    var medicine = F.medicine("a", times: times, snooze: nil)
    medicine.interruptionLevel = level
    var scenario = F.scenario(
      MedicineApp(medicineChanges: [F.create(medicine, at: "06:00")]), start: "2026-03-28T06:00:00Z", end: "2026-03-28T12:00:00Z",
      platform: .idealLocation)
    change(&scenario)
    return scenario
  }

  func focus(_ name: String, from: String, to: String, timeSensitive: Bool? = nil) -> FocusPeriod {
    FocusPeriod(name: name, schedule: .once(from: F.at(from), to: F.at(to)), allowsTimeSensitive: timeSensitive)
  }

  func push(_ id: PushID, at time: String, priority: Int = 10) -> RemotePush {
    RemotePush(id: id, instant: F.at(time), title: "T", sound: true, priority: priority)
  }

  @Test func aPlainDayConsultsNothing() throws {
    #expect(try consulted(scenario()).isEmpty)
  }

  @Test func aCatchUpDeliveryConsultsItsPresentationUnlessStated() throws {
    let off = scenario { scenario in
      scenario.platform.attention.powerOffCatchUp = .all
      scenario.statedAssumptions = [.powerOffCatchUp]
      scenario.device.power = [
        PowerEvent(instant: F.at("06:30"), kind: .switchOff), PowerEvent(instant: F.at("08:00"), kind: .switchOn),
        PowerEvent(instant: F.at("08:05"), kind: .unlock),
      ]
    }
    // The catch-up waits for the first unlock (a reading of its own), then is presented.
    #expect(try consulted(off) == [.catchUpPresentation, .deliveryBeforeFirstUnlock])
    var stated = off
    stated.statedAssumptions.formUnion([.catchUpPresentation, .deliveryBeforeFirstUnlock])
    #expect(try consulted(stated).isEmpty)
  }

  @Test func aDeliveryHeldByAFocusConsultsWhetherALookSeesIt() throws {
    let held = scenario { $0.device.focus = [focus("Sleep", from: "06:30", to: "07:30")] }
    #expect(try consulted(held) == [.focusSilencedOnLockScreen])
    // A Focus that holds nothing consults nothing.
    let idle = scenario { $0.device.focus = [focus("Sleep", from: "09:00", to: "10:00")] }
    #expect(try consulted(idle).isEmpty)
  }

  @Test func aFocusStartingWhileAnotherIsOnConsultsWhetherTheOtherResumes() throws {
    let nested = scenario(times: []) { $0.device.focus = [focus("Sleep", from: "06:30", to: "09:00"), focus("Work", from: "07:00", to: "08:00")] }
    #expect(try consulted(nested) == [.focusResumes])
    let apart = scenario(times: []) { $0.device.focus = [focus("Sleep", from: "06:30", to: "07:00"), focus("Work", from: "07:00", to: "08:00")] }
    #expect(try consulted(apart).isEmpty)
  }

  @Test func aTimeSensitiveDeliveryInAFocusThatDoesNotStateItsSwitchConsultsTheDefault() throws {
    let unstated = scenario(level: .timeSensitive) { $0.device.focus = [focus("Sleep", from: "06:30", to: "07:30")] }
    #expect(try consulted(unstated) == [.focusSilencedOnLockScreen, .focusTimeSensitiveDefault])
    let stated = scenario(level: .timeSensitive) { $0.device.focus = [focus("Sleep", from: "06:30", to: "07:30", timeSensitive: true)] }
    #expect(try consulted(stated).isEmpty)
  }

  @Test func aLowPriorityAlertPushConsultsPriorityFiveAndSeveralStoredPushesTheStoredChoice() throws {
    let lowPriority = scenario(times: []) { $0.pushes.pushes = [self.push("p5", at: "07:00", priority: 5)] }
    #expect(try consulted(lowPriority) == [.priority5Alerts])
    let offline = scenario(times: []) { scenario in
      scenario.device.network = [NetworkChange(instant: F.at("07:00"), online: false), NetworkChange(instant: F.at("08:00"), online: true)]
      scenario.pushes.pushes = [self.push("a", at: "07:10"), self.push("b", at: "07:20")]
    }
    #expect(try consulted(offline) == [.storedPush])
    let one = scenario(times: []) { scenario in
      scenario.device.network = [NetworkChange(instant: F.at("07:00"), online: false), NetworkChange(instant: F.at("08:00"), online: true)]
      scenario.pushes.pushes = [self.push("a", at: "07:10")]
    }
    #expect(try consulted(one).isEmpty)
  }
}

/// Where the device rules of issue 23 consult the registry.
@Suite struct DeviceModeAssumptionTests {
  func consulted(_ scenario: Scenario) throws -> [AssumptionID] {
    try Simulation(scenario).report().summary.consultedAssumptions
  }

  @Test func aDeliveryDueBeforeTheFirstUnlockConsultsWhetherItIsHeld() throws {
    var scenario = F.scenario(
      MedicineApp(medicineChanges: [F.create(F.medicine("a", times: ["08:00"], snooze: nil), at: "06:00")]),
      start: "2026-03-28T06:00:00Z", end: "2026-03-28T12:00:00Z", platform: .idealLocation)
    scenario.device.power = [
      PowerEvent(instant: F.at("07:00"), kind: .switchOff), PowerEvent(instant: F.at("07:30"), kind: .switchOn),
      PowerEvent(instant: F.at("08:30"), kind: .unlock),
    ]
    // Held until the unlock, then delivered as a catch-up: how it is presented is a reading too.
    #expect(try consulted(scenario) == [.catchUpPresentation, .deliveryBeforeFirstUnlock])
    // Unlocked before the dose: nothing comes due while locked.
    scenario.device.power[2] = PowerEvent(instant: F.at("07:45"), kind: .unlock)
    #expect(try consulted(scenario).isEmpty)
  }

  @Test func lowPowerModeConsultsRegionMonitoringOnlyWhereThereAreRegions() throws {
    var scenario = F.scenario(
      MedicineApp(medicineChanges: [F.create(F.medicine("a", times: ["08:00"], snooze: nil), at: "06:00")]),
      start: "2026-03-28T06:00:00Z", end: "2026-03-28T12:00:00Z", platform: .idealLocation)
    scenario.device.power = [PowerEvent(instant: F.at("07:00"), kind: .lowPowerOn)]
    #expect(try consulted(scenario).isEmpty)
    scenario.regions = [MonitoredRegion(id: "home", shape: CircularRegion(center: Coordinate(latitude: 55.67, longitude: 12.56), radius: 100))]
    #expect(try consulted(scenario) == [.lowPowerRegionMonitoring])
    scenario.statedAssumptions = [.lowPowerRegionMonitoring]
    #expect(try consulted(scenario).isEmpty)
  }
}
