import Foundation

/// The device's record of the app under test as the world changes it (the
/// scenario's `app:` changes), and the device's side of the app's removals:
/// whichever app runs.
extension SimulationRun {
  /// The scenario's app section: its app-state changes, medicine changes and scripted actions.
  var medicineApp: MedicineApp { scenario.medicineApp }
  /// The scenario's `policy:` (its identifier templates name the requests the dose ledger attributes).
  var policy: AppPolicy { medicineApp.policy }

  /// Queues the scenario's app-state changes and the patient's medicine changes.
  mutating func scheduleAppAndMedicineChanges() {
    for (index, change) in medicineApp.appChanges.enumerated() where change.instant <= end {
      queue.schedule(.appChange(index), at: change.instant, phase: .appChange, rank: index)
    }
    let rawActions = scenario.actions.count
    for (index, change) in medicineApp.medicineChanges.enumerated() where change.instant <= end {
      queue.schedule(.medicineChange(index), at: change.instant, phase: .appAction, rank: rawActions + index)
    }
  }

  // MARK: - App state

  mutating func changeApp(_ change: AppChange, at now: SimulationInstant) {
    if let state = change.state, state != phone.installedApp.state {
      record(.app, "state", at: now, [TimelineField("to", state.rawValue), TimelineField("from", phone.installedApp.state.rawValue)])
      let previous = phone.installedApp.state
      phone.installedApp.state = state
      let layer = appLayer
      layer.appStateChanged(from: previous, to: state, in: &self, at: now)
    }
    if let granted = change.exactAlarms { changeExactAlarmPermission(granted: granted, at: now) }
    if let channel = change.channel { changeChannel(channel.id, to: channel.importance, at: now) }
    if change.backgroundRefresh {
      let layer = appLayer
      layer.backgroundRefresh(in: &self, at: now)
    }
    let locationBefore = (phone.installedApp.locationAuthorization, phone.installedApp.locationAccuracy)
    if let permission = change.permission, permission != phone.installedApp.permission {
      record(.app, "permission", at: now, [TimelineField("to", permission.rawValue), TimelineField("from", phone.installedApp.permission.rawValue)])
      phone.installedApp.permission = permission
    }
    let wasBlocked = phone.installedApp.regionMonitoringBlockedReason
    if let location = change.location, location != phone.installedApp.locationAuthorization {
      record(.app, "location", at: now, [TimelineField("to", location.rawValue), TimelineField("from", phone.installedApp.locationAuthorization.rawValue)])
      phone.installedApp.locationAuthorization = location
    }
    if let accuracy = change.locationAccuracy, accuracy != phone.installedApp.locationAccuracy {
      record(.app, "location-accuracy", at: now, [TimelineField("to", accuracy.rawValue), TimelineField("from", phone.installedApp.locationAccuracy.rawValue)])
      phone.installedApp.locationAccuracy = accuracy
    }
    let blocked = phone.installedApp.regionMonitoringBlockedReason
    if wasBlocked == nil, let blocked {
      for pending in phone.center.pendingInAddOrder() {
        if case .region = pending.request.trigger { warnNeverFires(pending.request, reason: blocked, at: now) }
      }
    }
    if blocked != wasBlocked {
      if wasBlocked != nil { phone.monitoringBlockedSpans[phone.monitoringBlockedSpans.count - 1].until = now }
      if let blocked { phone.monitoringBlockedSpans.append((from: now, until: nil, reason: blocked)) }
      // Allowed again: the replay restarted the location service at this instant (`monitoringRestarts`),
      // unless the phone's power still keeps monitoring off.
      assert(blocked != nil || phone.monitoringRestarts.contains(now) || phone.deviceSchedule.monitoringBlockedReason(at: now) != nil)
    }
    if locationBefore != (phone.installedApp.locationAuthorization, phone.installedApp.locationAccuracy) {
      let layer = appLayer
      layer.locationAuthorizationChanged(in: &self, at: now)
    }
  }

  /// A location request that cannot fire while region monitoring is off.
  mutating func warnNeverFires(_ request: NotificationRequest, reason: String, at now: SimulationInstant) {
    record(.warning, request.id.rawValue, at: now,
           [TimelineField("trigger", request.trigger.summary), TimelineField("reason", "never fires while \(reason)")])
  }

  mutating func removePending(_ id: NotificationID, reason: String, at now: SimulationInstant) {
    guard let removed = phone.center.removePending(id) else { return }
    record(.removed, id.rawValue, at: now, [TimelineField("trigger", removed.request.trigger.summary), TimelineField("reason", reason)])
    ledger.requestLost(id, "removed at \(format(now)): \(reason)")
  }

  /// `removeDeliveredNotifications` for the shown medicine notifications that
  /// `matches` selects, in delivery order.
  mutating func clearDelivered(at now: SimulationInstant, reason: String, where matches: (NotificationID) -> Bool) {
    let shown = phone.center.delivered.values.filter { matches($0.id) }.sorted { $0.serial < $1.serial }
    for notification in shown {
      phone.center.removeDelivered(notification.id)
      forgetHeld(notification.id)
      ledger.notificationLeft(notification.id, "cleared by the app at \(format(now)) (\(reason))")
      record(.cleared, notification.id.rawValue, at: now, [TimelineField("reason", reason)])
    }
  }

  /// The patient's choice takes a notification out of Notification Center.
  mutating func takeOutOfNotificationCenter(_ id: NotificationID, chosen action: UserAction, at now: SimulationInstant) {
    phone.center.removeDelivered(id)
    forgetHeld(id)
    ledger.notificationLeft(id, "the user chose '\(action)' at \(format(now))")
  }
}
