/// A request the notification center holds as pending.
struct PendingRequest {
  var request: NotificationRequest
  /// Increases with every `add`; a replacement gets a new one.
  var addOrdinal: Int
  /// When it was added (a replacement: when it replaced the previous one).
  /// A location request monitors its region from this instant on.
  var addedAt: SimulationInstant
  /// The next calendar or interval delivery; nil for location requests.
  var nextDelivery: SimulationInstant?
  /// Changes whenever the next delivery is recomputed, so stale queued deliveries are skipped.
  var token: Int
}

/// A notification shown in Notification Center.
struct DeliveredNotification {
  var id: NotificationID
  var instant: SimulationInstant
  /// Increases with every delivery, so a response planned for one delivery
  /// is not applied to a later one with the same identifier.
  var serial: Int
}

/// The platform's `UNUserNotificationCenter`, as far as delivery goes:
/// pending requests, the pending and region limits, and delivered notifications.
///
/// Rules:
/// - `add` with the identifier of a pending request replaces it.
/// - At most `pendingLimit` requests are pending; an `add` beyond it drops
///   one request chosen by the retention policy (possibly the new one under
///   `soonest`). The platform reports nothing; the timeline does.
/// - Pending location requests may monitor at most `monitoredRegionLimit`
///   distinct regions; an `add` that would monitor one more is dropped.
/// - A non-repeating request stops being pending once it delivers.
/// - Delivered notifications do not count toward the pending limit.
struct NotificationCenterModel {
  let settings: PlatformSettings
  private(set) var pending: [NotificationID: PendingRequest] = [:]
  /// Notifications shown in Notification Center: delivered and not yet
  /// removed by the user or the app. A new delivery with the same identifier
  /// replaces the one shown.
  private(set) var delivered: [NotificationID: DeliveredNotification] = [:]
  private var nextAddOrdinal = 0
  private var nextDeliverySerial = 0
  private var nextToken = 0

  init(settings: PlatformSettings) { self.settings = settings }

  struct AddOutcome {
    var replaced: PendingRequest?
    var added: PendingRequest?
    var dropped: [PendingRequest] = []
    /// Set when the new request itself was not kept.
    var rejectedReason: String?
  }

  var pendingLimitReason: String {
    switch settings.retention {
    case .lastAdded:
      "pending limit of \(settings.pendingLimit) reached: the platform keeps the \(settings.pendingLimit) most recently added requests"
    case .soonest:
      "pending limit of \(settings.pendingLimit) reached: the platform keeps the \(settings.pendingLimit) requests that deliver soonest"
    }
  }

  mutating func add(_ request: NotificationRequest, firstDelivery: SimulationInstant?, at instant: SimulationInstant) -> AddOutcome {
    var outcome = AddOutcome()
    outcome.replaced = pending.removeValue(forKey: request.id)
    if case .region(let trigger) = request.trigger {
      let monitored = Set(pending.values.compactMap { pending -> RegionID? in
        if case .region(let other) = pending.request.trigger { return other.region }
        return nil
      })
      if !monitored.contains(trigger.region) && monitored.count >= settings.monitoredRegionLimit {
        outcome.rejectedReason =
          "region monitoring limit of \(settings.monitoredRegionLimit) reached: pending location requests already monitor \(monitored.count) regions"
        return outcome
      }
    }
    let added = PendingRequest(
      request: request, addOrdinal: nextAddOrdinal, addedAt: instant, nextDelivery: firstDelivery, token: nextToken)
    nextAddOrdinal += 1
    nextToken += 1
    pending[request.id] = added
    while pending.count > settings.pendingLimit, let victim = retentionVictim() {
      pending.removeValue(forKey: victim.request.id)
      if victim.request.id == request.id {
        outcome.rejectedReason = pendingLimitReason
      } else {
        outcome.dropped.append(victim)
      }
    }
    if outcome.rejectedReason == nil { outcome.added = added }
    return outcome
  }

  /// The pending request the retention policy gives up first.
  private func retentionVictim() -> PendingRequest? {
    switch settings.retention {
    case .lastAdded:
      return pending.values.min { $0.addOrdinal < $1.addOrdinal }
    case .soonest:
      // Latest delivery first; no date counts as latest; among equals the most recently added.
      return pending.values.max { lhs, rhs in
        let l = lhs.nextDelivery?.millisecondsSinceEpoch ?? .max
        let r = rhs.nextDelivery?.millisecondsSinceEpoch ?? .max
        return (l, lhs.addOrdinal) < (r, rhs.addOrdinal)
      }
    }
  }

  mutating func removePending(_ id: NotificationID) -> PendingRequest? { pending.removeValue(forKey: id) }

  /// Records a delivery; a request that does not repeat stops being pending.
  /// A shown delivery (`shown`) enters Notification Center, replacing one
  /// with the same identifier; one not shown (permission denied) does not.
  @discardableResult
  mutating func markDelivered(_ id: NotificationID, at instant: SimulationInstant, keepPending: Bool, shown: Bool = true)
    -> DeliveredNotification?
  {
    if !keepPending { pending.removeValue(forKey: id) }
    guard shown else { return nil }
    let notification = DeliveredNotification(id: id, instant: instant, serial: nextDeliverySerial)
    nextDeliverySerial += 1
    delivered[id] = notification
    return notification
  }

  /// Removes a notification from Notification Center (the user acted on it,
  /// or the app called `removeDeliveredNotifications`).
  @discardableResult
  mutating func removeDelivered(_ id: NotificationID) -> DeliveredNotification? { delivered.removeValue(forKey: id) }

  /// Pending requests in add order.
  func pendingInAddOrder() -> [PendingRequest] { pending.values.sorted { $0.addOrdinal < $1.addOrdinal } }

  /// Sets a pending request's next delivery and returns it with a fresh token.
  mutating func reschedule(_ id: NotificationID, nextDelivery: SimulationInstant) -> PendingRequest? {
    guard var request = pending[id] else { return nil }
    request.nextDelivery = nextDelivery
    request.token = nextToken
    nextToken += 1
    pending[id] = request
    return request
  }

  /// Pending location requests for `region` that deliver on this kind of
  /// crossing, in add order; with `addedAtOrBefore`, only those that were
  /// already monitoring the region at that instant.
  func regionRequests(for region: RegionID, entering: Bool, addedAtOrBefore instant: SimulationInstant? = nil) -> [PendingRequest] {
    pending.values.filter { pending in
      guard case .region(let trigger) = pending.request.trigger, trigger.region == region else { return false }
      if let instant, pending.addedAt > instant { return false }
      return entering ? trigger.notifyOnEntry : trigger.notifyOnExit
    }.sorted { $0.addOrdinal < $1.addOrdinal }
  }

  /// Whether any pending location request monitors `region` (on entry or
  /// exit); with `addedAtOrBefore`, one that was already monitoring it then.
  func monitors(_ region: RegionID, addedAtOrBefore instant: SimulationInstant? = nil) -> Bool {
    pending.values.contains { pending in
      guard case .region(let trigger) = pending.request.trigger, trigger.region == region else { return false }
      return instant.map { pending.addedAt <= $0 } ?? true
    }
  }

  /// Pending calendar requests without a time zone, in add order.
  func floatingCalendarRequests() -> [PendingRequest] {
    pending.values.filter { pending in
      if case .calendar(let trigger) = pending.request.trigger { return trigger.timeZone == nil }
      return false
    }.sorted { $0.addOrdinal < $1.addOrdinal }
  }
}
