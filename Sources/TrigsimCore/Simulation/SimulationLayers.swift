/// The layers of the simulated world that a run drives, each a type that
/// owns its state: the phone, the app under test, the patient, the reminder
/// server, and the observers (the dose ledger and the assumption log).
///
/// The engine (`SimulationRun`) holds them as one value and knows none of
/// them by role: it hands each event to the layer it is addressed to and
/// collects the entries they make. A layer reaches another only through the
/// protocol the other is held by here (the run hands itself to each call),
/// never through another layer's state.
struct SimulationLayers {
  /// The phone the app runs on: its notification model, location service,
  /// power and attention, and its platform's own scheduling (`Phone`).
  let phone: Phone
  /// The app under test, behind the app seam (`AppLayer`).
  let app: any AppLayer
  /// The patient who perceives and acts (`PatientLayer`).
  let patient: any PatientLayer
  /// The app's reminder server (`server:`), an actor of the world beside the clock and the track (`ServerLayer`).
  let server: any ServerLayer
  /// The prescription and what became of each dose, whichever app runs (an observer: `DoseLedgerLayer`).
  let ledger: any DoseLedgerLayer
  /// The registry settings the run's decisions depended on (an observer: `AssumptionLog`).
  let assumptionLog: AssumptionLog
}
