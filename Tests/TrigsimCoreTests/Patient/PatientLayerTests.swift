import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

/// The patient seam (`PatientLayer`): every moment the patient could
/// perceive a notification, and every planned action, goes through it, so a
/// different patient is a different type, not an `if` in the engine.
@Suite struct PatientLayerTests {
  /// A patient who ignores the scenario's script and completes each dose the
  /// moment its notification could first be perceived, logging those moments.
  final class CompletesOnSight: PatientLayer {
    var perceivedAt: [String] = []
    var listedAt: [String] = []
    var looks: [String] = []
    var scriptedActionsOffered = 0
    var ruleResponsesDue: [String] = []
    var ended = false
    /// The scripted patient whose script, listings and looks this one borrows.
    let script = ScriptedPatient()

    /// Queues the script, as the scripted patient does, to see that its moments reach this layer.
    func scheduleEvents(in run: inout SimulationRun) { script.scheduleEvents(in: &run) }
    func perceived(_ id: NotificationID, serial: Int, in run: inout SimulationRun, at now: SimulationInstant) {
      perceivedAt.append("\(id) \(InstantFormatter.format(now, offsetSeconds: 0))")
      // Plans the scenario's response rules as the scripted patient does, to see them come due here.
      script.planRuleResponse(id, in: &run, at: now)
      let app = run.layers.app
      app.patientActed(.complete, on: id, by: "patient on sight", in: &run, at: now)
    }
    func listed(_ listing: Listing, in run: inout SimulationRun, at now: SimulationInstant) {
      listedAt.append("\(listing.subject) \(InstantFormatter.format(now, offsetSeconds: 0))")
      script.listed(listing, in: &run, at: now)
    }
    func lookDue(_ cause: LookCause, in run: inout SimulationRun, at now: SimulationInstant) {
      looks.append("\(cause) \(InstantFormatter.format(now, offsetSeconds: 0))")
      // What is seen at the look is perceived through the run's patient layer: this one.
      script.look(cause, in: &run, at: now)
    }
    func scriptedActionDue(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) { scriptedActionsOffered += 1 }
    func ruleResponseDue(plan: Int, in run: inout SimulationRun, at now: SimulationInstant) {
      let plan = script.responsePlans[plan]
      ruleResponsesDue.append("\(plan.dose.occurrenceLabel) \(InstantFormatter.format(now, offsetSeconds: 0))")
    }
    func runEnded(in run: inout SimulationRun) { ended = true }
    func doseRemarks(_ dose: DoseRecord, in run: SimulationRun) -> [String] { ["remark from the patient"] }
    var rejectedActions: [Diagnostic] { [] }
  }

  func sleepingScenario() -> Scenario {
    var scenario = F.scenario(
      MedicineApp(
        medicineChanges: [F.create(F.medicine("a", times: ["07:00", "12:00"], snooze: nil), at: "06:00")],
        userActions: [F.action(.snooze(.minutes(5)), on: "medicine_a_reminder_1", at: "12:01")],
        responseRules: [ResponseRule(pattern: IdentifierPattern("medicine_a_*"), after: .minutes(1), actions: [.complete])]),
      start: "2026-03-28T06:00:00Z", end: "2026-03-28T13:00:00Z")
    scenario.device.focus = [
      FocusPeriod(name: "Sleep", schedule: .daily(from: F.time("22:30"), to: F.time("07:30"), weekdays: nil), allowsTimeSensitive: true)
    ]
    // The patient looks at the phone at 07:40: the 07:00 reminder, listed silently when Sleep ends, is seen then.
    scenario.patientAttention.looks = [ScriptedLook(instant: F.at("07:40"))]
    return scenario
  }

  @Test func theEngineAsksThePatientLayerWhatThePatientPerceivesAndDoes() throws {
    let patient = CompletesOnSight()
    var run = SimulationRun(sleepingScenario(), patientLayer: patient)
    try run.execute()
    let summary = run.summary()

    // Held by the Focus until 07:30 and listed then, so perceived (and completed) at the 07:40 look;
    // the 12:00 dose at once.
    #expect(patient.listedAt == ["medicine_a_reminder_0 \(F.local("07:30"))"])
    #expect(patient.looks == ["scripted \(F.local("07:40"))"])
    #expect(patient.perceivedAt == ["medicine_a_reminder_0 \(F.local("07:40"))", "medicine_a_reminder_1 \(F.local("12:00"))"])
    #expect(summary.dose("a", .time(F.time("07:00")))?.completed == F.at("07:40"))
    #expect(summary.dose("a", .time(F.time("12:00")))?.completed == F.at("12:00"))
    // The scenario's scripted snooze comes due through this patient, who does not act on it.
    #expect(patient.scriptedActionsOffered == 1)
    let timeline = try #require(run.sink as? Timeline)
    #expect(timeline.entries.filter { $0.kind == .action }.map { $0[field: "by"] } == ["patient on sight", "patient on sight"])
    // The planned responses come due through it (the scripted patient would have completed both doses at +1 min).
    #expect(patient.ruleResponsesDue == ["2026-03-28 \(F.local("07:41"))", "2026-03-28 \(F.local("12:01"))"])
    // The run's end reaches it, instead of the scripted patient's warning for rule steps never used.
    #expect(patient.ended)
    #expect(!timeline.entries.contains { $0.kind == .warning && $0[field: "rule"] != nil })
    // Its remarks reach the dose table.
    #expect(summary.doses.count == 2)
    #expect(summary.doses.allSatisfy { $0.notes.contains("remark from the patient") })
  }

  @Test func theScriptedPatientIsTheDefaultAndActsOnTheScript() throws {
    var run = SimulationRun(sleepingScenario())
    try run.execute()
    let timeline = try #require(run.sink as? Timeline)
    // The 07:00 dose, held until 07:30 and seen at the 07:40 look, is completed by the rule a minute later. At 12:01 the scripted
    // snooze comes first (scripted actions rank before rule responses), so the rule's answer finds the
    // reminder gone and answers the snoozed alert at 12:07 instead.
    #expect(timeline.entries.filter { $0.kind == .action }.map { "\($0.subject) \($0[field: "by"] ?? "")" } == [
      "medicine_a_reminder_0 rule medicine_a_* step 1/1", "medicine_a_reminder_1 script",
      "medicine_a_reminder_1_snoozed rule medicine_a_* step 1/1",
    ])
    #expect(run.summary().dose("a", .time(F.time("07:00")))?.completed == F.at("07:41"))
    #expect(run.summary().dose("a", .time(F.time("12:00")))?.completed == F.at("12:07"))
  }
}
