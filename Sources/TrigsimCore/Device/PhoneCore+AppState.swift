import Foundation

/// The device's record of the app under test as the world changes it (the
/// scenario's `app:` changes), and the device's side of the app's removals:
/// whichever app runs.
extension PhoneCore {
  // MARK: - App state

  func changeApp(_ change: AppChange, in run: inout SimulationRun, at now: SimulationInstant) {
    if let state = change.state, state != installedApp.state {
      run.record(.app, "state", at: now, [TimelineField("to", state.rawValue), TimelineField("from", installedApp.state.rawValue)])
      let previous = installedApp.state
      installedApp.state = state
      let layer = run.layers.app
      layer.appStateChanged(from: previous, to: state, in: &run, at: now)
    }
    let phone = run.layers.phone
    phone.appChanged(change, in: &run, at: now)
    if change.backgroundRefresh {
      let layer = run.layers.app
      layer.backgroundRefresh(in: &run, at: now)
    }
    let locationBefore = (installedApp.locationAuthorization, installedApp.locationAccuracy)
    if let permission = change.permission, permission != installedApp.permission {
      run.record(.app, "permission", at: now, [TimelineField("to", permission.rawValue), TimelineField("from", installedApp.permission.rawValue)])
      installedApp.permission = permission
    }
    let wasBlocked = installedApp.regionMonitoringBlockedReason
    if let location = change.location, location != installedApp.locationAuthorization {
      run.record(.app, "location", at: now, [TimelineField("to", location.rawValue), TimelineField("from", installedApp.locationAuthorization.rawValue)])
      installedApp.locationAuthorization = location
    }
    if let accuracy = change.locationAccuracy, accuracy != installedApp.locationAccuracy {
      run.record(.app, "location-accuracy", at: now, [TimelineField("to", accuracy.rawValue), TimelineField("from", installedApp.locationAccuracy.rawValue)])
      installedApp.locationAccuracy = accuracy
    }
    let blocked = installedApp.regionMonitoringBlockedReason
    if wasBlocked == nil, let blocked {
      for pending in center.pendingInAddOrder() {
        if case .region = pending.request.trigger { warnNeverFires(pending.request, reason: blocked, in: &run, at: now) }
      }
    }
    if blocked != wasBlocked {
      if wasBlocked != nil { monitoringBlockedSpans[monitoringBlockedSpans.count - 1].until = now }
      if let blocked { monitoringBlockedSpans.append((from: now, until: nil, reason: blocked)) }
      // Allowed again: the replay restarted the location service at this instant (`monitoringRestarts`),
      // unless the phone's power still keeps monitoring off.
      assert(blocked != nil || monitoringRestarts.contains(now) || deviceSchedule.monitoringBlockedReason(at: now) != nil)
    }
    if locationBefore != (installedApp.locationAuthorization, installedApp.locationAccuracy) {
      let layer = run.layers.app
      layer.locationAuthorizationChanged(in: &run, at: now)
    }
  }

  /// A location request that cannot fire while region monitoring is off.
  func warnNeverFires(_ request: NotificationRequest, reason: String, in run: inout SimulationRun, at now: SimulationInstant) {
    run.record(.warning, request.id.rawValue, at: now,
           [TimelineField("trigger", request.trigger.summary), TimelineField("reason", "never fires while \(reason)")])
  }

  func removePending(_ id: NotificationID, reason: String, in run: inout SimulationRun, at now: SimulationInstant) {
    guard let removed = center.removePending(id) else { return }
    run.record(.removed, id.rawValue, at: now, [TimelineField("trigger", removed.request.trigger.summary), TimelineField("reason", reason)])
    run.layers.ledger.requestLost(id, "removed at \(run.format(now)): \(reason)")
  }

  /// `removeDeliveredNotifications` for the shown medicine notifications that
  /// `matches` selects, in delivery order.
  func clearDelivered(in run: inout SimulationRun, at now: SimulationInstant, reason: String, where matches: (NotificationID) -> Bool) {
    let shown = center.delivered.values.filter { matches($0.id) }.sorted { $0.serial < $1.serial }
    for notification in shown {
      center.removeDelivered(notification.id)
      forgetHeld(notification.id)
      run.layers.ledger.notificationLeft(notification.id, "cleared by the app at \(run.format(now)) (\(reason))")
      run.record(.cleared, notification.id.rawValue, at: now, [TimelineField("reason", reason)])
    }
  }

  /// The patient's choice takes a notification out of Notification Center.
  func takeOutOfNotificationCenter(_ id: NotificationID, chosen action: UserAction, in run: inout SimulationRun, at now: SimulationInstant) {
    center.removeDelivered(id)
    forgetHeld(id)
    run.layers.ledger.notificationLeft(id, "the user chose '\(action)' at \(run.format(now))")
  }
}
