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

  /// Adds `remark` to the dose table's remarks of the dose that notification
  /// `id` answers: the dose its latest delivery answered, or, for a request
  /// not delivered yet, the dose the app attributed it to with a due date
  /// (`DoseAttribution`'s `due:`). A remark the dose already has is not
  /// repeated. Returns false, and records nothing, when no dose is known.
  @discardableResult
  public func remark(_ remark: String, onDoseOf id: NotificationID) -> Bool {
    host.withRun("SimulationNotes.remark", otherwise: false) { run, _ in
      guard let dose = host.dose(answeredBy: id, in: run), run.ledger.doses[dose] != nil else { return false }
      if run.ledger.doses[dose]?.notes.contains(remark) == false { run.ledger.doses[dose]?.notes.append(remark) }
      return true
    }
  }

  /// Runs `body`, in which the requests app code removes and the
  /// notifications it clears (`removePendingNotificationRequests`,
  /// `removeDeliveredNotifications` and their `removeAll` forms) carry
  /// `reason` in their `removed` and `cleared` entries, in place of
  /// "removed by the app". Nested calls: the innermost reason applies.
  public func because<T>(_ reason: String, _ body: () throws -> T) rethrows -> T {
    let previous = host.removalReason
    host.removalReason = reason
    defer { host.removalReason = previous }
    return try body()
  }
}
