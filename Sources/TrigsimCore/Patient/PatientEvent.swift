/// The patient's own events in the run's queue (`ScheduledEvent.Kind.patient`),
/// each handed to the run's `PatientLayer` when due (`eventDue`).
///
/// The cases keep the shape they had as the queue's own kinds, so the event
/// trace prints them as before (`userAction(0)`, `ruleResponse(plan: 1)`,
/// `look(wake)`).
enum PatientEvent {
  /// A scripted user action (index into `MedicineApp.userActions`), phase
  /// `userAction`, ranked by its index.
  case userAction(Int)
  /// A planned response to a dose (index into `ScriptedPatient.responsePlans`),
  /// phase `userAction`, ranked after every scripted action at that instant.
  case ruleResponse(plan: Int)
  /// The patient looks at the phone, phase `look`: scripted looks ranked by
  /// their index, the daily routine's after them.
  case look(LookCause)
}
