/// The patient layer of the simulated world (style §3: World → Device → App →
/// Patient): the person who perceives what the device shows and acts on it.
///
/// The device tells it what the patient perceives at once (an alert with
/// sound or banner: `perceived`) and what it lists without an alert
/// (`listed`: held by a Focus, in a summary, quietly in Notification Center,
/// a silent catch-up), which the patient sees only at their next look
/// (`lookDue`). The patient acts through the device (`run.layers.app`'s
/// `patientActed`, which removes the notification and runs the app's
/// handler). One patient sits behind it today, `ScriptedPatient` (the
/// scenario's `patient:` looks, `actions:` and `respond:` rules); another
/// kind of patient is another type behind this seam, never an `if` in the engine.
///
/// The layer owns what the patient has seen and planned; the rest of the run
/// reaches it only through these requirements, and its queued events are
/// `PatientEvent`s the engine hands back to it (`eventDue`). Every method that
/// acts receives the run `inout`, as `AppLayer`'s do; the engine holds the layer
/// as a class reference and reads it first (`let layer = patientLayer`).
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
  /// The scripted actions the patient could not carry out (on a notification
  /// not in Notification Center, or while the phone was off): invalid input,
  /// each at its line, which the run throws once it has ended.
  var rejectedActions: [Diagnostic] { get }
}

extension PatientLayer {
  /// One of the patient's own queued events is due: handed to the requirement it names.
  func eventDue(_ event: PatientEvent, in run: inout SimulationRun, at now: SimulationInstant) {
    switch event {
    case .userAction(let index): scriptedActionDue(index, in: &run, at: now)
    case .ruleResponse(let plan): ruleResponseDue(plan: plan, in: &run, at: now)
    case .look(let cause): lookDue(cause, in: &run, at: now)
    }
  }
}

/// A notification the device listed without an alert: seen at the patient's
/// next look, if it is still there.
struct Listing {
  var source: HeldNotification.Source
  var subject: String
  var kind: PerceptionRecord.Kind
  /// Where it is listed: `lock-screen`, `summary`, `notification-center`.
  var how: String
  var listedAt: SimulationInstant
  /// Why it was listed without an alert, for the dose's note.
  var why: String
}

