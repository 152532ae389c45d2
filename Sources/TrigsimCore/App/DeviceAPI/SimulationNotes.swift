import Foundation

/// What app code tells the simulator about itself: the timeline's and the
/// dose table's account of why the app did what it did. It has no platform
/// equivalent. A team calls it from its test conformance of its own
/// notification wrapper (the code that ships never sees it), or from the
/// delegates it plugs into `SimulatedDevice`.
///
/// Like the rest of the device API it works only inside the app's callbacks,
/// at their instants.
public final class SimulationNotes: @unchecked Sendable {
  private unowned let host: HostedAppLayer
  init(host: HostedAppLayer) { self.host = host }

  /// Records a `warning` entry about `subject` (a request identifier, or any
  /// name the app chooses) at the callback's instant, with `reason`.
  public func warn(_ subject: String, _ reason: String) {
    host.withRun("SimulationNotes.warn", otherwise: ()) { run, now in
      run.record(.warning, subject, at: now, [TimelineField("reason", reason)])
    }
  }

  /// Adds `remark` to the dose table's remarks of the dose that the latest
  /// delivery under `id` answered (shown now, or acted on), once. Returns
  /// false, and records nothing, when no delivery under `id` answered a dose
  /// that has a record; true when the dose has the remark (already or now).
  @discardableResult
  public func remark(_ remark: String, onDoseOf id: NotificationID) -> Bool {
    host.withRun("SimulationNotes.remark", otherwise: false) { run, _ in
      guard let dose = host.dose(answeredBy: id, in: run), run.layers.ledger.doses[dose] != nil else { return false }
      run.layers.ledger.note(dose, remark)
      return true
    }
  }

  /// Adds `remark` to `dose`'s remarks in the dose table, once. Returns
  /// false, and records nothing, when the dose has no record yet.
  @discardableResult
  public func remark(_ remark: String, on dose: DoseKey) -> Bool {
    host.withRun("SimulationNotes.remark", otherwise: false) { run, _ in
      guard run.layers.ledger.doses[dose] != nil else { return false }
      run.layers.ledger.note(dose, remark)
      return true
    }
  }

  /// The dose the latest delivery under `id` answered: the notification
  /// shown now, or the one the patient just acted on (nil: none, or it served no dose).
  public func dose(answeredBy id: NotificationID) -> DoseKey? {
    host.withRun("SimulationNotes.dose", otherwise: nil) { run, _ in host.dose(answeredBy: id, in: run) }
  }

  /// The dose the pending request `id` is attributed to, when its
  /// attribution names one (`followUpOfDose`, or `followUp` with `due:`); nil
  /// when `id` is not pending. An identifier reused for every day's chain
  /// answers here for the request pending now, and in `dose(answeredBy:)`
  /// for the one delivered last.
  public func dose(ofPending id: NotificationID) -> DoseKey? {
    host.withRun("SimulationNotes.dose", otherwise: nil) { run, _ in host.dose(ofPending: id, in: run) }
  }

  /// What the dose table knows of `dose` now (when it was due, the patient's
  /// snoozes, whether it was completed), or nil when it has no record yet.
  public func record(of dose: DoseKey) -> DoseRecord? {
    host.withRun("SimulationNotes.record", otherwise: nil) { run, _ in run.layers.ledger.doses[dose] }
  }

  /// The dose of `medicine`'s daily `time` that a reminder firing at `date`
  /// serves: the prescribed dose whose window holds `date`, or an
  /// unprescribed one (`DoseKey.isPrescribed` false) when none does.
  public func prescribedDose(of medicine: MedicineID, at time: DailyTime, firingAt date: Date) -> DoseKey {
    host.withRun("SimulationNotes.prescribedDose", otherwise: DoseKey(medicine: medicine, slot: .time(time), occurrence: 0)) { run, _ in
      run.layers.ledger.doseKey(medicine, time, fire: SimulationInstant(date), in: run)
    }
  }

  /// The app counts the patient's response to a notification of `dose` as
  /// taking it, now: an app that records a dose as taken when the patient
  /// opens its notification (the scenario's `category: { open: complete }`).
  /// The dose table then says `completed` at this instant (unless it was
  /// completed already); the patient's own complete action needs no call.
  /// Only inside `didReceive`, for the dose of the notification the patient
  /// answered: anywhere else it is an `AppCodeError` (the app cannot take a
  /// dose for the patient).
  public func countAsTaken(_ dose: DoseKey) {
    host.withRun("SimulationNotes.countAsTaken", otherwise: ()) { run, now in
      guard host.respondingDose == dose else {
        host.noteMisuse(
          "SimulationNotes.countAsTaken(\(dose.medicine) \(dose.occurrenceLabel)) was called outside didReceive for a response to a notification of that dose: only the patient's response can count as taking it")
        return
      }
      if run.layers.ledger.countedAsTaken(dose, at: now) {
        let reminderServer = run.layers.server
        reminderServer.doseAnswered(dose, in: &run, at: now)
      }
    }
  }

  /// `date` as the timeline writes an instant: local time in the device's
  /// zone now, with its offset (`2026-05-04T08:00:00.000+02:00`), for the
  /// app's own warnings and remarks.
  public func timestamp(_ date: Date) -> String {
    host.withRun("SimulationNotes.timestamp", otherwise: SimulationInstant(date).description) { run, _ in run.format(SimulationInstant(date)) }
  }

  /// Records a `regions` entry for place set `set` (`places:`): the app
  /// changed which of its places it watches (`medicine=2 cause="significant
  /// change" added=3 removed=3 nearest=20 at=[…]`, the fields as given).
  public func placesChanged(_ set: PlaceSetID, _ fields: [TimelineField]) {
    host.withRun("SimulationNotes.placesChanged", otherwise: ()) { run, now in run.record(.regions, set.rawValue, at: now, fields) }
  }

  /// Runs `body`, in which the requests app code removes and the
  /// notifications it clears (`removePendingNotificationRequests`,
  /// `removeDeliveredNotifications` and their `removeAll` forms) carry
  /// `reason` in their `removed` and `cleared` entries, in place of
  /// "removed by the app". Nested calls: the innermost reason applies.
  /// Only inside a callback, on its thread: elsewhere the body runs without the reason and the misuse is reported.
  public func because<T>(_ reason: String, _ body: () throws -> T) rethrows -> T {
    let onEngineThread = host.withRun("SimulationNotes.because", otherwise: false) { _, _ in true }
    guard onEngineThread else { return try body() }
    let previous = host.removalReason
    host.removalReason = reason
    defer { host.removalReason = previous }
    return try body()
  }
}
