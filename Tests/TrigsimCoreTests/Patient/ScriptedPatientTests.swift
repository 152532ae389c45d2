import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

/// The scripted patient on its own: what it does at a look or a scripted
/// action, asked directly, with nothing run before it.
@Suite struct ScriptedPatientTests {
  /// Awake 07:40–11:40 with four looks a day; a scripted snooze at 09:00 on a
  /// reminder no medicine ever delivers.
  func scenario() -> Scenario {
    var scenario = F.scenario(
      MedicineApp(userActions: [F.action(.snooze(.minutes(5)), on: "medicine_a_reminder_0", at: "09:00")]),
      start: "2026-03-28T06:00:00Z", end: "2026-03-28T13:00:00Z")
    scenario.patientAttention.day = DailyRoutine(wake: F.time("07:40"), sleep: F.time("11:40"), pickupsPerDay: 4)
    return scenario
  }

  @Test func aLookWithNothingListedRecordsNothingAndQueuesTheNextPickup() throws {
    let patient = ScriptedPatient()
    var run = SimulationRun(scenario(), patientLayer: patient)
    patient.lookDue(.wake, in: &run, at: F.at("07:40"))
    #expect(try #require(run.sink as? Timeline).entries.isEmpty)
    // Four hours awake, four looks: the next one an hour after waking, ranked after the (no) scripted looks.
    let queued = run.queue.popNext(notAfter: run.end)
    let next = try #require(queued)
    #expect(next.instant == F.at("08:40"))
    #expect(next.phase == .look)
    #expect(next.rank == 0)
    guard case .layer(.patient(.look(.pickup))) = next.kind else {
      Issue.record("queued \(next.kind), not a pickup look")
      return
    }
    #expect(run.queue.isEmpty)
  }

  @Test func aScriptedActionOnANotificationNeverDeliveredIsRejectedNotPerformed() throws {
    let patient = ScriptedPatient()
    var run = SimulationRun(scenario(), patientLayer: patient)
    patient.scriptedActionDue(0, in: &run, at: F.at("09:00"))
    // No action entry: the patient kept the problem, which the run throws once it ends.
    #expect(try #require(run.sink as? Timeline).entries.isEmpty)
    #expect(patient.rejectedActions.count == 1)
    #expect(patient.rejectedActions.first?.message.hasSuffix(
      "acts on 'medicine_a_reminder_0', which is not in Notification Center: it was never delivered before this instant") == true)
  }
}
