/// The patient layer of the simulated world (style §3: World → Device → App →
/// Patient): the person who perceives what the device shows and acts on it.
///
/// The engine tells it what the patient could perceive and when its planned
/// actions are due; the patient acts through the device (`run.appLayer`'s
/// `patientActed`, which removes the notification and runs the app's
/// handler). One patient sits behind it today, `ScriptedPatient` (the
/// scenario's `actions:` and `respond:` rules); a patient who looks at the
/// phone only now and then is another type behind this seam, never an `if`
/// in the engine.
///
/// Every method that acts receives the run `inout`, as `AppLayer`'s do; the engine holds
/// the layer as a class reference and reads it first (`let layer = patientLayer`).
protocol PatientLayer: AnyObject {
  /// Queues the patient's own inputs at the run's start.
  func scheduleEvents(in run: inout SimulationRun)
  /// The patient could perceive notification `id` (shown as `serial`) now:
  /// an alert, a release after a Focus, a summary. Today only a local
  /// notification the ledger attributes to a dose reaches the patient, and not
  /// a quiet delivery to Notification Center; pushes and the scenario's raw
  /// requests do not.
  func perceived(_ id: NotificationID, serial: Int, in run: inout SimulationRun, at now: SimulationInstant)
  /// A scripted action is due (index into the scenario's user actions).
  func scriptedActionDue(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant)
  /// A response rule's planned answer to notification `id` is due.
  func ruleResponseDue(rule: Int, to id: NotificationID, serial: Int, in run: inout SimulationRun, at now: SimulationInstant)
  /// The run ended: what the patient planned and never did is reported.
  func runEnded(in run: inout SimulationRun)
  /// The patient's remarks on a dose row (a planned response never made).
  func doseRemarks(_ dose: DoseRecord, in run: SimulationRun) -> [String]
}

/// The scenario's patient: scripted `actions:` at their instants and
/// `respond:` rules timed from the moment a matching notification could be
/// perceived, refused while the phone is off or when the notification is not
/// in Notification Center (`SimulationRun+Patient.swift`).
final class ScriptedPatient: PatientLayer {
  func scheduleEvents(in run: inout SimulationRun) {
    for (index, action) in run.medicineApp.userActions.enumerated() where action.instant <= run.end {
      run.queue.schedule(.userAction(index), at: action.instant, phase: .userAction, rank: index)
    }
  }

  func perceived(_ id: NotificationID, serial: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    run.planRuleResponse(id, serial: serial, at: now)
  }

  func scriptedActionDue(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    run.performScriptedAction(run.medicineApp.userActions[index], at: now)
  }

  func ruleResponseDue(rule: Int, to id: NotificationID, serial: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    run.respond(rule: rule, to: id, serial: serial, at: now)
  }

  func runEnded(in run: inout SimulationRun) {
    if !run.medicineApp.responseRules.isEmpty { run.warnUnusedRuleSteps() }
  }

  func doseRemarks(_ dose: DoseRecord, in run: SimulationRun) -> [String] {
    run.unusedRuleStepRemarks(dose)
  }
}
