import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// A medicine the patient enters with the app open (`MedicineChange.appOpen`):
/// the app comes to the foreground, its code schedules the medicine there,
/// and the run goes on.
@Suite struct ForegroundMedicineEntryTests {
  static let metformin = Medicine(id: "1", name: "Metformin", dosage: "500", unit: "mg", times: [DailyTime(hour: 8, minute: 0)])

  /// An app that adds a daily 08:00 reminder for every medicine it is told of.
  static func schedulingApp() -> AppScript {
    var script = AppScript()
    script.medicine = { app, change in
      app.log.add("#\(app.instance) schedules in \(app.device.application.applicationState.rawValue)")
      await app.add(HostedScenario.daily("metformin-0800", hour: 8))
    }
    return script
  }

  static func run(appOpen: Bool, appState: AppState? = nil, log: AppLog) throws -> SimulationReport {
    var scenario = HostedScenario.make()
    if let appState { scenario.medicineApp.appChanges = [HostedScenario.state(appState, at: "2026-05-04T07:10:00Z")] }
    scenario.medicineApp.medicineChanges = [
      MedicineChange(instant: Build.instant("2026-05-04T07:30:00Z"), kind: .create(metformin), appOpen: appOpen)
    ]
    return try Simulation(scenario, app: ScriptedApp.hosted(schedulingApp(), log: log)).report()
  }

  @Test func theAppComesForwardSchedulesTheMedicineAndItsReminderIsPresentedInTheForeground() throws {
    let log = AppLog()
    let report = try Self.run(appOpen: true, log: log)
    #expect(log.all == [
      "#1 didFinishLaunching initial", "#1 didBecomeActive", "#1 patientChangedMedicine 1", "#1 schedules in foreground",
      "#1 willPresent metformin-0800",
    ])
    let lines = HostedScenario.lines(report.timeline)
    #expect(lines.contains("2026-05-04T07:30:00 app state to=foreground from=background reason=the patient opened the app to enter medicine '1'"))
    #expect(lines.contains("2026-05-04T07:30:00 app patientChangedMedicine medicine=1 state=foreground"))
    #expect(report.timeline.entries.filter { $0.kind == .fired }.map(\.instant) == [Build.instant("2026-05-04T08:00:00Z")])
  }

  @Test func aTerminatedAppIsLaunchedByThePatientIntoTheForeground() throws {
    let log = AppLog()
    _ = try Self.run(appOpen: true, appState: .terminated, log: log)
    #expect(log.all.prefix(4) == [
      "#1 didFinishLaunching initial", "#2 didFinishLaunching patient", "#2 didBecomeActive", "#2 patientChangedMedicine 1",
    ])
    #expect(log.all.contains("#2 schedules in foreground"))
  }

  @Test func withoutAppOpenTheChangeReachesTheAppInItsState() throws {
    let log = AppLog()
    let report = try Self.run(appOpen: false, log: log)
    #expect(log.all == ["#1 didFinishLaunching initial", "#1 patientChangedMedicine 1", "#1 schedules in background"])
    #expect(!report.timeline.entries.contains { $0.kind == .app && $0.subject == "state" })
  }
}
