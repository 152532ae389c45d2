/// The phone's own events, in the engine's one order: each is queued as
/// `ScheduledEvent.Kind.phone` with the phase and rank the phone gives it,
/// and handed back to the phone (`PhoneCore.handle(_:in:at:)`) when it is due.
///
/// The event trace prints these as they are (`Simulation.eventTrace()`), so
/// a case keeps its name and shape wherever it is queued.
enum PhoneEvent {
  /// One of the scenario's scripted request changes (index into `Scenario.actions`).
  case appAction(Int)
  /// The device's location service reports on a region (index into the phone's pending reports).
  case deviceReport(Int)
  /// A calendar or interval request's delivery; `token` identifies the
  /// pending request it was computed for, so a replaced or removed request's
  /// stale deliveries are skipped.
  case timeTriggerDue(NotificationID, token: Int)
  /// A change of the app's state or permissions (index into `MedicineApp.appChanges`).
  case appChange(Int)
  /// A change of the device (index into the phone's `DeviceSchedule.changes`).
  case deviceChange(Int)
  /// The server sends push `n` (index into `RemotePushes.pushes`).
  case pushSent(Int)
  /// The push service hands over push `n`, which it delayed (`apns-priority` 5 or 1).
  case pushDelayed(Int)
  /// Scheduled Summary time.
  case summaryDue
}

extension PhoneCore {
  /// Handles one of the phone's own events when the engine reaches it.
  func handle(_ event: PhoneEvent, in run: inout SimulationRun, at now: SimulationInstant) {
    switch event {
    case .appAction(let index):
      perform(run.scenario.actions[index].action, in: &run, at: now)
    case .deviceReport(let index):
      if let report = deviceReports.removeValue(forKey: index) { handleDeviceReport(report, in: &run, at: now) }
    case .timeTriggerDue(let id, let token):
      deliverTimeTrigger(id, token: token, in: &run, at: now)
    case .appChange(let index):
      changeApp(run.scenario.medicineApp.appChanges[index], in: &run, at: now)
    case .deviceChange(let index):
      applyDeviceChange(index, in: &run, at: now)
    case .pushSent(let index):
      sendPush(index, in: &run, at: now)
    case .pushDelayed(let index):
      let transport = pushTransport
      transport.heldPushDue(index, in: &run, at: now)
    case .summaryDue:
      deliverSummary(in: &run, at: now)
    }
  }
}
