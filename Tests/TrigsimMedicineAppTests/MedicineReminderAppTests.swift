import Foundation
import Testing
import TrigsimCore
import TrigsimMedicineApp
import TrigsimScenario

/// `Simulation(scenario)` and `TrialRunner(scenario)` run the scenario's
/// own medicine app (`MedicineReminderApp`), and refuse a scenario written for a team's app.
@Suite struct MedicineReminderAppTests {
  static let medicines = """
    trigsim: 1
    clock: { start: 2026-05-04T07:00:00Z, end: 2026-05-04T09:00:00Z, timezone: UTC }
    medicines:
      - { id: 1, name: Metformin, dosage: 500, unit: mg, times: ["08:00"] }

    """

  @Test func theScenariosMedicineAppAddsItsDailyReminderWhenThePatientCreatesTheMedicine() throws {
    let scenario = try ScenarioLoader().load(yaml: Self.medicines, file: "s.yaml")
    let report = try Simulation(scenario).report()
    #expect(report.timeline.entries.map(\.kindAndSubjectForTest).prefix(2) == ["medicine medicine_1", "scheduled medicine_1_reminder_0"])
    #expect(report.summary.doses.map(\.outcome) == [.unanswered])
    #expect(Simulation(scenario).app.isScenarioMedicineApp)
    #expect(TrialRunner(scenario).app.isScenarioMedicineApp)
  }

  @Test func aScenarioWrittenForATeamsAppIsRefusedAtItsKey() throws {
    let scenario = try ScenarioLoader().load(yaml: "appUnderTest: swift\n" + Self.medicines, file: "s.yaml")
    #expect {
      try Simulation(scenario).report()
    } throws: { error in
      let diagnostic = (error as? InputError)?.diagnostics.first
      return diagnostic?.location == InputLocation(file: "s.yaml", line: 1, column: 15)
        && diagnostic?.message == "this scenario is written for a team's Swift app ('appUnderTest: swift'); the scenario's medicine app cannot run it"
    }
    let trialError = #expect(throws: InputError.self) { try TrialRunner(scenario).run(TrialPlan(count: 2, seed: 1)) }
    #expect(trialError?.diagnostics.first?.location == InputLocation(file: "s.yaml", line: 1, column: 15))
    // A team's app runs it.
    let report = try Simulation(scenario, app: HostedApp { _ in QuietApp() }).report()
    #expect(report.timeline.entries.contains { $0.kind == .medicine })
  }
}

/// An app that does nothing.
final class QuietApp: SimulatedApp {}

extension TimelineEntry {
  var kindAndSubjectForTest: String { "\(kind) \(subject)" }
}
