import HeapModule

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
///
/// Cost: the limit is 64 on the platform but a scenario may raise it to
/// 100,000, so nothing scans every pending request per operation. The
/// retention victim comes from a heap (`retentionOrder`) and location
/// requests are indexed by region (`locationRequests`): an add, a removal,
/// a delivery or a reschedule costs O(log n), a crossing O(k log k) for
/// the k requests of its region.
struct NotificationCenterModel {
  let settings: PlatformSettings
  private(set) var pending: [NotificationID: PendingRequest] = [:]
  /// Every pending request's place in the retention order, and entries of
  /// requests since removed, replaced or rescheduled (stale: their token is
  /// no longer the pending request's), dropped when they reach the top or
  /// when they outnumber the pending requests (`compactRetentionOrder`).
  private var retentionOrder = Heap<RetentionKey>()
  /// The identifiers of the pending location requests, by region.
  private var locationRequests: [RegionID: Set<NotificationID>] = [:]
  /// Heap entries looked at to find victims, and to rebuild the heap: the
  /// work the retention policy costs (see the tests: at most a few per add).
  private(set) var retentionEntriesExamined = 0
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

  /// - Parameter appMonitored: regions the app monitors itself (a hosted
  ///   app's location manager), which count against the same limit.
  mutating func add(
    _ request: NotificationRequest, firstDelivery: SimulationInstant?, at instant: SimulationInstant, appMonitored: Set<RegionID> = []
  ) -> AddOutcome {
    var outcome = AddOutcome()
    outcome.replaced = removePending(request.id)
    if case .region(let trigger) = request.trigger {
      // The regions pending location requests monitor: the keys of `locationRequests`.
      if appMonitored.isEmpty {
        if locationRequests[trigger.region] == nil && locationRequests.count >= settings.monitoredRegionLimit {
          outcome.rejectedReason =
            "region monitoring limit of \(settings.monitoredRegionLimit) reached: pending location requests already monitor \(locationRequests.count) regions"
          return outcome
        }
      } else {
        let monitored = appMonitored.union(locationRequests.keys)
        if !monitored.contains(trigger.region) && monitored.count >= settings.monitoredRegionLimit {
          outcome.rejectedReason =
            "region monitoring limit of \(settings.monitoredRegionLimit) reached: the app's location manager and pending location requests already monitor \(monitored.count) regions"
          return outcome
        }
      }
    }
    let added = PendingRequest(
      request: request, addOrdinal: nextAddOrdinal, addedAt: instant, nextDelivery: firstDelivery, token: nextToken)
    nextAddOrdinal += 1
    nextToken += 1
    insertPending(added)
    while pending.count > settings.pendingLimit, let victim = retentionVictim() {
      _ = removePending(victim.request.id)
      if victim.request.id == request.id {
        outcome.rejectedReason = pendingLimitReason
      } else {
        outcome.dropped.append(victim)
      }
    }
    if outcome.rejectedReason == nil { outcome.added = added }
    return outcome
  }

  /// Where a pending request stands in the retention order: the heap's
  /// largest key is the request given up first.
  struct RetentionKey: Comparable {
    /// `last-added`: 0; `soonest`: the next delivery (none counts as latest).
    var delivery: Int64
    /// `last-added`: minus the add ordinal (the oldest-added is largest);
    /// `soonest`: the add ordinal (of equal deliveries, the most recently added).
    var ordinal: Int
    var id: NotificationID
    /// The pending request's token when the key was made: a different one means the key is stale.
    var token: Int

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.delivery, lhs.ordinal) < (rhs.delivery, rhs.ordinal) }
    static func == (lhs: Self, rhs: Self) -> Bool { (lhs.delivery, lhs.ordinal) == (rhs.delivery, rhs.ordinal) }
  }

  private func retentionKey(_ request: PendingRequest) -> RetentionKey {
    switch settings.retention {
    case .lastAdded:
      RetentionKey(delivery: 0, ordinal: -request.addOrdinal, id: request.request.id, token: request.token)
    case .soonest:
      RetentionKey(
        delivery: request.nextDelivery?.millisecondsSinceEpoch ?? .max, ordinal: request.addOrdinal, id: request.request.id,
        token: request.token)
    }
  }

  /// Makes `request` pending (its identifier is not) and indexes it.
  private mutating func insertPending(_ request: PendingRequest) {
    pending[request.request.id] = request
    if case .region(let trigger) = request.request.trigger {
      locationRequests[trigger.region, default: []].insert(request.request.id)
    }
    retentionOrder.insert(retentionKey(request))
    if retentionOrder.count > 2 * pending.count + 64 { compactRetentionOrder() }
  }

  /// Rebuilds the heap from the pending requests alone, once stale entries
  /// outnumber them: memory stays proportional to the pending requests, and
  /// each rebuild is paid for by the insertions that made the stale entries.
  private mutating func compactRetentionOrder() {
    retentionEntriesExamined += pending.count
    retentionOrder = Heap(pending.values.map(retentionKey))
  }

  /// The pending request the retention policy gives up first: the largest
  /// key that is not stale (stale keys on top are dropped on the way).
  private mutating func retentionVictim() -> PendingRequest? {
    while let top = retentionOrder.max {
      retentionEntriesExamined += 1
      if let request = pending[top.id], request.token == top.token { return request }
      retentionOrder.removeMax()
    }
    return nil
  }

  /// Removes a pending request (`removePendingNotificationRequests`, or the
  /// center's own bookkeeping); its heap entry goes stale.
  mutating func removePending(_ id: NotificationID) -> PendingRequest? {
    guard let removed = pending.removeValue(forKey: id) else { return nil }
    if case .region(let trigger) = removed.request.trigger {
      locationRequests[trigger.region]?.remove(id)
      if locationRequests[trigger.region]?.isEmpty == true { locationRequests[trigger.region] = nil }
    }
    return removed
  }

  /// Records a delivery; a request that does not repeat stops being pending.
  /// A shown delivery (`shown`) enters Notification Center, replacing one
  /// with the same identifier; one not shown (permission denied) does not.
  @discardableResult
  mutating func markDelivered(_ id: NotificationID, at instant: SimulationInstant, keepPending: Bool, shown: Bool = true)
    -> DeliveredNotification?
  {
    if !keepPending { _ = removePending(id) }
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
    insertPending(request)
    return request
  }

  /// Pending location requests for `region` that deliver on this kind of
  /// crossing, in add order; with `addedAtOrBefore`, only those that were
  /// already monitoring the region at that instant.
  func regionRequests(for region: RegionID, entering: Bool, addedAtOrBefore instant: SimulationInstant? = nil) -> [PendingRequest] {
    (locationRequests[region] ?? []).compactMap { pending[$0] }.filter { pending in
      guard case .region(let trigger) = pending.request.trigger else { return false }
      if let instant, pending.addedAt > instant { return false }
      return entering ? trigger.notifyOnEntry : trigger.notifyOnExit
    }.sorted { $0.addOrdinal < $1.addOrdinal }
  }

  /// Whether any pending location request monitors `region` (on entry or
  /// exit); with `addedAtOrBefore`, one that was already monitoring it then.
  func monitors(_ region: RegionID, addedAtOrBefore instant: SimulationInstant? = nil) -> Bool {
    guard let ids = locationRequests[region] else { return false }
    guard let instant else { return true }
    return ids.contains { pending[$0].map { $0.addedAt <= instant } ?? false }
  }

  /// Pending calendar requests without a time zone, in add order.
  func floatingCalendarRequests() -> [PendingRequest] {
    pending.values.filter { pending in
      if case .calendar(let trigger) = pending.request.trigger { return trigger.timeZone == nil }
      return false
    }.sorted { $0.addOrdinal < $1.addOrdinal }
  }
}
