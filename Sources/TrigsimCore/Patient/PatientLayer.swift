/// The patient layer of the simulated world (style §3: World → Device → App →
/// Patient): the person who perceives what the device shows and acts on it.
///
/// The device tells it what the patient perceives at once (an alert with
/// sound or banner: `perceived`) and what it lists without an alert
/// (`listed`: held by a Focus, in a summary, quietly in Notification Center,
/// a silent catch-up), which the patient sees only at their next look
/// (`lookDue`). The patient acts through the device (`run.appLayer`'s
/// `patientActed`, which removes the notification and runs the app's
/// handler). One patient sits behind it today, `ScriptedPatient` (the
/// scenario's `patient:` looks, `actions:` and `respond:` rules); another
/// kind of patient is another type behind this seam, never an `if` in the engine.
///
/// Every method that acts receives the run `inout`, as `AppLayer`'s do; the engine holds
/// the layer as a class reference and reads it first (`let layer = patientLayer`).
protocol PatientLayer: AnyObject {
  /// Queues the patient's own inputs at the run's start: scripted actions and looks.
  func scheduleEvents(in run: inout SimulationRun)
  /// The patient perceives notification `id` (shown as `serial`) now: an
  /// alert, or a listing seen at a look. Only a local notification the ledger
  /// attributes to a dose reaches the patient's response rules.
  func perceived(_ id: NotificationID, serial: Int, in run: inout SimulationRun, at now: SimulationInstant)
  /// The device listed a notification without an alert: it waits for a look.
  func listed(_ listing: Listing, in run: inout SimulationRun, at now: SimulationInstant)
  /// The patient looks at the phone now.
  func lookDue(_ cause: LookCause, in run: inout SimulationRun, at now: SimulationInstant)
  /// A scripted action is due (index into the scenario's user actions).
  func scriptedActionDue(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant)
  /// A planned response is due (index into the patient's response plans).
  func ruleResponseDue(plan: Int, in run: inout SimulationRun, at now: SimulationInstant)
  /// The run ended: what the patient planned and never did is reported.
  func runEnded(in run: inout SimulationRun)
  /// The patient's remarks on a dose row (a planned response never made).
  func doseRemarks(_ dose: DoseRecord, in run: SimulationRun) -> [String]
}

/// The scenario's patient: looks at the phone as `patient:` says (and at
/// every unlock), scripted `actions:` at their instants, and `respond:` rules
/// timed from the moment a dose is perceived, once per dose per look, refused
/// while the phone is off or when nothing of the dose is in Notification
/// Center (`SimulationRun+Patient.swift`).
final class ScriptedPatient: PatientLayer {
  /// In trials, the stream the routine's pickups are drawn from.
  let lookRandom: TrialRandom?

  init(lookRandom: TrialRandom? = nil) { self.lookRandom = lookRandom }

  func scheduleEvents(in run: inout SimulationRun) {
    for (index, action) in run.medicineApp.userActions.enumerated() where action.instant <= run.end {
      run.queue.schedule(.userAction(index), at: action.instant, phase: .userAction, rank: index)
    }
    for (index, look) in run.scenario.patientAttention.looks.enumerated() where look.instant <= run.end {
      run.queue.schedule(.look(.scripted(index)), at: look.instant, phase: .look, rank: index)
    }
    run.patient.lookRandom = lookRandom
    run.scheduleFirstRoutineLook()
  }

  func perceived(_ id: NotificationID, serial: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    run.planRuleResponse(id, at: now)
  }

  func listed(_ listing: Listing, in run: inout SimulationRun, at now: SimulationInstant) {
    run.patient.unseen.append(listing)
  }

  func lookDue(_ cause: LookCause, in run: inout SimulationRun, at now: SimulationInstant) {
    run.look(cause, at: now)
    if cause == .wake || cause == .pickup { run.scheduleNextRoutineLook(after: now) }
  }

  func scriptedActionDue(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    run.performScriptedAction(run.medicineApp.userActions[index], at: now)
  }

  func ruleResponseDue(plan: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    run.respond(plan: plan, at: now)
  }

  func runEnded(in run: inout SimulationRun) {
    if !run.medicineApp.responseRules.isEmpty { run.warnUnusedRuleSteps() }
  }

  func doseRemarks(_ dose: DoseRecord, in run: SimulationRun) -> [String] {
    run.unusedRuleStepRemarks(dose)
  }
}
