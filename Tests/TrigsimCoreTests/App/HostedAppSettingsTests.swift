import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// `HostedApp`'s process model, polygon regions and the end of a batch of
/// medicine changes: one rule per test.
@Suite struct HostedAppSettingsTests {
  /// The patient completes "pill" at 08:05 after the system terminated the app at 07:30.
  static func terminatedBeforeAnAction() -> Scenario {
    var scenario = HostedScenario.make()
    scenario.medicineApp.appChanges = [HostedScenario.state(.terminated, at: "2026-05-04T07:30:00Z")]
    scenario.medicineApp.userActions = [HostedScenario.act(.complete, on: "pill", at: "2026-05-04T08:05:00Z")]
    return scenario
  }

  static func pillScript() -> AppScript {
    var script = AppScript()
    script.launched = { app, _ in
      app.device.notificationCenter.setNotificationCategories([HostedScenario.doseCategory])
      await app.add(HostedScenario.daily("pill", hour: 8))
    }
    return script
  }

  @Test func onThePlatformATerminatedAppIsANewInstanceLaunchedInTheBackground() throws {
    let log = AppLog()
    let report = try Simulation(Self.terminatedBeforeAnAction(), app: ScriptedApp.hosted(Self.pillScript(), log: log)).report()
    #expect(log.all == ["#1 didFinishLaunching initial", "#2 didFinishLaunching notification-response", "#2 didReceive pill complete"])
    #expect(HostedScenario.lines(report.timeline).contains(
      #"2026-05-04T08:05:00 app state to=background from=terminated reason=the system launched the app (notification-response)"#))
  }

  @Test func aPersistentAppKeepsItsOneInstanceAndTheScenariosState() throws {
    let log = AppLog()
    var app = ScriptedApp.hosted(Self.pillScript(), log: log)
    app.processModel = .persistent
    let report = try Simulation(Self.terminatedBeforeAnAction(), app: app).report()
    #expect(log.all == ["#1 didFinishLaunching initial", "#1 didReceive pill complete"])
    let lines = HostedScenario.lines(report.timeline)
    #expect(!lines.contains { $0.contains("the system launched the app") })
    #expect(lines.contains { $0.hasPrefix("2026-05-04T08:00:00 fired pill") })
    // The handler ran in the state the scenario gave the app.
    #expect(lines.contains("2026-05-04T08:05:00 app didReceive notification=pill action=complete state=terminated"))
  }

  @Test func aPersistentAppTerminatedAtTheStartStillStartsItsInstance() throws {
    let log = AppLog()
    var app = ScriptedApp.hosted(Self.pillScript(), log: log)
    app.processModel = .persistent
    var scenario = Self.terminatedBeforeAnAction()
    scenario.medicineApp.appChanges = [AppChange(instant: scenario.clock.start, state: .terminated)]
    _ = try Simulation(scenario, app: app).report()
    #expect(log.all == ["#1 didFinishLaunching initial", "#1 didReceive pill complete"])
  }

  /// A square the scenario declares that is not a circle (trigsim's polygons are GEOS's; any non-circle will do).
  final class Square: RegionShape {
    func contains(_ coordinate: Coordinate) -> Bool { abs(coordinate.latitude - 50) < 0.001 && abs(coordinate.longitude - 10) < 0.001 }
    func appendCrossings(from a: TrackSample, to b: TrackSample, insideAtStart: Bool, into crossings: inout [BoundaryCrossing]) {}
    var summary: String { "square" }
  }

  @Test(arguments: [false, true])
  func aLocationTriggerOnAPolygonIsRefusedUnlessTheAppAcceptsPolygons(accepts: Bool) throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      await app.add(NotificationRequest(id: "park", title: "park", trigger: .region(RegionTrigger(region: "square", notifyOnEntry: true, notifyOnExit: false, repeats: true))))
    }
    var scenario = HostedScenario.make()
    scenario.regions = [MonitoredRegion(id: "square", shape: Square())]
    var app = ScriptedApp.hosted(script, log: log)
    app.acceptsPolygonRegions = accepts
    let report = try Simulation(scenario, app: app).report()
    let refused = log.all.contains { $0.hasPrefix("#1 add refused: 'park': region 'square' is a polygon in the scenario") }
    #expect(refused == !accepts)
    #expect(report.timeline.entries.contains { $0.kind == .scheduled && $0.subject == "park" } == accepts)
  }

  /// Logs each medicine change and the end of each instant's batch.
  final class BatchingApp: SimulatedApp, @unchecked Sendable {
    let log: AppLog
    init(_ log: AppLog) { self.log = log }
    func patientChangedMedicine(_ change: MedicineEdit) async { log.add("changed \(change.medicineID)") }
    func patientFinishedChangingMedicines() async { log.add("finished") }
  }

  @Test func theEndOfABatchFollowsTheLastMedicineChangeOfAnInstantWithoutAnEntry() throws {
    var scenario = HostedScenario.make()
    let times = [DailyTime(hour: 9, minute: 0)]
    scenario.medicineApp.medicineChanges = [
      MedicineChange(instant: scenario.clock.start, kind: .create(Medicine(id: "1", name: "A", dosage: "1", unit: "mg", times: times))),
      MedicineChange(instant: scenario.clock.start, kind: .create(Medicine(id: "2", name: "B", dosage: "1", unit: "mg", times: times))),
      MedicineChange(instant: Build.instant("2026-05-04T09:30:00Z"), kind: .delete("1")),
    ]
    let log = AppLog()
    let report = try Simulation(scenario, app: HostedApp { _ in BatchingApp(log) }).report()
    #expect(log.all == ["changed 1", "changed 2", "finished", "changed 1", "finished"])
    #expect(!report.timeline.entries.contains { $0.subject == "patientFinishedChangingMedicines" })
  }

  @Test(arguments: [true, false])
  func theAppsOwnCallsAreEntriesUnlessLeftOut(recorded: Bool) throws {
    var scenario = HostedScenario.make()
    AppLifecycleTests.walkHome(&scenario)
    var app = ScriptedApp.hosted(AppLifecycleTests.monitorsHome(), log: AppLog())
    app.recordsAppCalls = recorded
    let report = try Simulation(scenario, app: app).report()
    let started = report.timeline.entries.filter { $0.kind == .app && $0.subject == "monitoring" }
    #expect(started.count == (recorded ? 1 : 0))
    // The monitoring itself happens either way: the device reports the entry at home.
    #expect(report.timeline.entries.contains { $0.kind == .enter && $0.subject == "home" })
  }

  @Test func theLocationIsTheDevicesMostRecentFixAndNilWithoutOne() throws {
    for withTrack in [true, false] {
      let log = AppLog()
      var script = AppScript()
      script.launched = { app, _ in app.log.add("at \(app.device.locationManager.location.map { String(format: "%.4f", $0.latitude) } ?? "none")") }
      var scenario = HostedScenario.make()
      if withTrack { AppLifecycleTests.walkHome(&scenario) }
      _ = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
      #expect(log.all.last == (withTrack ? "at 55.6711" : "at none"))
    }
  }

  @Test func aMedicineEntryShowsTheChainOnlyWhenTheAppSaysTheScenarioDescribesIt() throws {
    for shows in [false, true] {
      var scenario = HostedScenario.make()
      var medicine = Medicine(id: "1", name: "Metformin", dosage: "500", unit: "mg", times: [DailyTime(hour: 8, minute: 0)])
      medicine.snooze = SnoozeChainPolicy(every: .minutes(6), count: 3, scheduling: .upfront)
      scenario.medicineApp.medicineChanges = [MedicineChange(instant: scenario.clock.start, kind: .create(medicine))]
      var app = ScriptedApp.hosted(AppScript(), log: AppLog())
      app.medicineEntriesShowChains = shows
      let report = try Simulation(scenario, app: app).report()
      let entry = try #require(report.timeline.entries.first { $0.kind == .medicine })
      #expect(entry[field: "snooze"] == (shows ? "6m x3 upfront" : nil))
    }
  }
}
