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

  /// The app's spans in the foreground, known before the run: from each
  /// `app:` change to the foreground to the next change out of it.
  func foregroundSpans() -> [Range<SimulationInstant>] {
    var spans: [Range<SimulationInstant>] = []
    var since: SimulationInstant?
    // In time order (of equal instants, as listed), as the queue applies them.
    let ordered = scenario.medicineApp.appChanges.enumerated().sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }
    for change in ordered.map(\.element) {
      guard let state = change.state else { continue }
      if state == .foreground, since == nil { since = change.instant }
      if state != .foreground, let start = since {
        spans.append(start..<max(start, change.instant))
        since = nil
      }
    }
    if let start = since { spans.append(start..<max(start, end)) }
    return spans
  }

  // MARK: - App state

  mutating func changeApp(_ change: AppChange, at now: SimulationInstant) {
    if let state = change.state, state != installedApp.state {
      record(.app, "state", at: now, [TimelineField("to", state.rawValue), TimelineField("from", installedApp.state.rawValue)])
      let previous = installedApp.state
      installedApp.state = state
      let layer = appLayer
      layer.appStateChanged(from: previous, to: state, in: &self, at: now)
    }
    let phone = phoneScheduler
    phone.appChanged(change, in: &self, at: now)
    if change.backgroundRefresh {
      let layer = appLayer
      layer.backgroundRefresh(in: &self, at: now)
    }
    let locationBefore = (installedApp.locationAuthorization, installedApp.locationAccuracy)
    if let permission = change.permission, permission != installedApp.permission {
      record(.app, "permission", at: now, [TimelineField("to", permission.rawValue), TimelineField("from", installedApp.permission.rawValue)])
      installedApp.permission = permission
    }
    let wasBlocked = installedApp.regionMonitoringBlockedReason
    if let location = change.location, location != installedApp.locationAuthorization {
      record(.app, "location", at: now, [TimelineField("to", location.rawValue), TimelineField("from", installedApp.locationAuthorization.rawValue)])
      installedApp.locationAuthorization = location
    }
    if let accuracy = change.locationAccuracy, accuracy != installedApp.locationAccuracy {
      record(.app, "location-accuracy", at: now, [TimelineField("to", accuracy.rawValue), TimelineField("from", installedApp.locationAccuracy.rawValue)])
      installedApp.locationAccuracy = accuracy
    }
    let blocked = installedApp.regionMonitoringBlockedReason
    if wasBlocked == nil, let blocked {
      for pending in center.pendingInAddOrder() {
        if case .region = pending.request.trigger { warnNeverFires(pending.request, reason: blocked, at: now) }
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
    guard let removed = center.removePending(id) else { return }
    record(.removed, id.rawValue, at: now, [TimelineField("trigger", removed.request.trigger.summary), TimelineField("reason", reason)])
    ledger.requestLost(id, "removed at \(format(now)): \(reason)")
  }

  /// `removeDeliveredNotifications` for the shown medicine notifications that
  /// `matches` selects, in delivery order.
  mutating func clearDelivered(at now: SimulationInstant, reason: String, where matches: (NotificationID) -> Bool) {
    let shown = center.delivered.values.filter { matches($0.id) }.sorted { $0.serial < $1.serial }
    for notification in shown {
      center.removeDelivered(notification.id)
      forgetHeld(notification.id)
      ledger.notificationLeft(notification.id, "cleared by the app at \(format(now)) (\(reason))")
      record(.cleared, notification.id.rawValue, at: now, [TimelineField("reason", reason)])
    }
  }

  /// The patient's choice takes a notification out of Notification Center.
  mutating func takeOutOfNotificationCenter(_ id: NotificationID, chosen action: UserAction, at now: SimulationInstant) {
    center.removeDelivered(id)
    forgetHeld(id)
    ledger.notificationLeft(id, "the user chose '\(action)' at \(format(now))")
  }
}
