import Testing
import TrigsimTestSupport

@testable import TrigsimCore

extension PlatformSettings {
  /// Defaults but for the pending limit, its retention and the region limit.
  static func forCenterTests(limit: Int, retention: PendingRetentionPolicy, regionLimit: Int) -> PlatformSettings {
    var settings = PlatformSettings()
    settings.pendingLimit = limit
    settings.retention = retention
    settings.monitoredRegionLimit = regionLimit
    return settings
  }
}

@Suite struct NotificationCenterModelTests {
  func settings(limit: Int, retention: PendingRetentionPolicy, regionLimit: Int = 20) -> PlatformSettings {
    PlatformSettings.forCenterTests(limit: limit, retention: retention, regionLimit: regionLimit)
  }

  func request(_ id: String, _ trigger: Trigger = Build.interval(.hours(1), repeats: false)) -> NotificationRequest {
    NotificationRequest(id: NotificationID(id), title: id, trigger: trigger)
  }

  let now = SimulationInstant(millisecondsSinceEpoch: 0)

  @Test func addingTheSameIdentifierReplacesThePendingRequest() {
    var center = NotificationCenterModel(settings: PlatformSettings())
    _ = center.add(request("a"), firstDelivery: now.advanced(by: .hours(1)), at: now)
    let outcome = center.add(request("a", Build.interval(.hours(2), repeats: false)), firstDelivery: now.advanced(by: .hours(2)), at: now)
    #expect(outcome.replaced != nil)
    #expect(center.pending.count == 1)
    #expect(center.pending["a"]?.nextDelivery == now.advanced(by: .hours(2)))
  }

  @Test func lastAddedRetentionDropsTheOldestAddedRequest() {
    var center = NotificationCenterModel(settings: settings(limit: 3, retention: .lastAdded))
    for (index, id) in ["a", "b", "c"].enumerated() {
      _ = center.add(request(id), firstDelivery: now.advanced(by: .hours(Int64(10 - index))), at: now)
    }
    let outcome = center.add(request("d"), firstDelivery: now.advanced(by: .hours(20)), at: now)
    #expect(outcome.dropped.map(\.request.id) == ["a"])
    #expect(outcome.rejectedReason == nil)
    #expect(Set(center.pending.keys) == ["b", "c", "d"])
  }

  @Test func soonestRetentionDropsTheLatestDeliveryEvenWhenItIsTheNewRequest() {
    var center = NotificationCenterModel(settings: settings(limit: 2, retention: .soonest))
    _ = center.add(request("a"), firstDelivery: now.advanced(by: .hours(1)), at: now)
    _ = center.add(request("b"), firstDelivery: now.advanced(by: .hours(2)), at: now)
    let late = center.add(request("late"), firstDelivery: now.advanced(by: .hours(3)), at: now)
    #expect(late.rejectedReason != nil)
    #expect(late.added == nil)
    let early = center.add(request("early"), firstDelivery: now.advanced(by: .minutes(1)), at: now)
    #expect(early.dropped.map(\.request.id) == ["b"])
    #expect(Set(center.pending.keys) == ["a", "early"])
  }

  @Test func soonestRetentionTreatsLocationRequestsAsLatest() {
    var center = NotificationCenterModel(settings: settings(limit: 1, retention: .soonest))
    _ = center.add(request("where", .region(RegionTrigger(region: "home", repeats: false))), firstDelivery: nil, at: now)
    let outcome = center.add(request("when"), firstDelivery: now.advanced(by: .hours(100)), at: now)
    #expect(outcome.dropped.map(\.request.id) == ["where"])
  }

  @Test func regionLimitCountsDistinctRegionsOfPendingLocationRequests() {
    var center = NotificationCenterModel(settings: settings(limit: 64, retention: .lastAdded, regionLimit: 2))
    _ = center.add(request("home-in", .region(RegionTrigger(region: "home", repeats: true))), firstDelivery: nil, at: now)
    _ = center.add(request("home-out", .region(RegionTrigger(region: "home", repeats: true))), firstDelivery: nil, at: now)
    _ = center.add(request("work", .region(RegionTrigger(region: "work", repeats: true))), firstDelivery: nil, at: now)
    let third = center.add(request("gym", .region(RegionTrigger(region: "gym", repeats: true))), firstDelivery: nil, at: now)
    #expect(third.rejectedReason?.contains("region monitoring limit of 2") == true)
    #expect(center.pending["gym"] == nil)
    let sameRegion = center.add(request("work-2", .region(RegionTrigger(region: "work", repeats: true))), firstDelivery: nil, at: now)
    #expect(sameRegion.rejectedReason == nil)
  }

  @Test func deliveredNonRepeatingRequestLeavesPendingAndIsShownInNotificationCenter() {
    var center = NotificationCenterModel(settings: PlatformSettings())
    _ = center.add(request("a"), firstDelivery: now.advanced(by: .hours(1)), at: now)
    center.markDelivered("a", at: now.advanced(by: .hours(1)), keepPending: false)
    #expect(center.pending["a"] == nil)
    #expect(center.delivered["a"]?.instant == now.advanced(by: .hours(1)))
  }

  @Test func aNewDeliveryWithTheSameIdentifierReplacesTheShownOneWithANewSerial() {
    var center = NotificationCenterModel(settings: PlatformSettings())
    let first = center.markDelivered("a", at: now, keepPending: true)
    let second = center.markDelivered("a", at: now.advanced(by: .minutes(5)), keepPending: true)
    #expect(center.delivered.count == 1)
    #expect(center.delivered["a"]?.instant == now.advanced(by: .minutes(5)))
    #expect(first!.serial < second!.serial)
  }

  @Test func aDeliveryThatIsNotShownNeverEntersNotificationCenter() {
    var center = NotificationCenterModel(settings: PlatformSettings())
    _ = center.add(request("a"), firstDelivery: now.advanced(by: .hours(1)), at: now)
    let shown = center.markDelivered("a", at: now.advanced(by: .hours(1)), keepPending: false, shown: false)
    #expect(shown == nil)
    #expect(center.pending["a"] == nil)
    #expect(center.delivered["a"] == nil)
  }

  @Test func removingADeliveredNotificationTakesItOutOfNotificationCenter() {
    var center = NotificationCenterModel(settings: PlatformSettings())
    center.markDelivered("a", at: now, keepPending: false)
    #expect(center.removeDelivered("a")?.instant == now)
    #expect(center.delivered["a"] == nil)
    #expect(center.removeDelivered("a") == nil)
  }
}

/// The pending set's indexes (the retention heap, location requests by
/// region) give the answers a scan of every pending request gives, and the
/// work they do per operation does not grow with the number pending.
@Suite struct NotificationCenterIndexTests {
  func settings(limit: Int, retention: PendingRetentionPolicy, regionLimit: Int = 20) -> PlatformSettings {
    PlatformSettings.forCenterTests(limit: limit, retention: retention, regionLimit: regionLimit)
  }

  /// The victim by the rule, found by looking at every pending request.
  func scannedVictim(_ pending: [PendingRequest], retention: PendingRetentionPolicy) -> NotificationID? {
    switch retention {
    case .lastAdded:
      return pending.min { $0.addOrdinal < $1.addOrdinal }?.request.id
    case .soonest:
      return pending.max { lhs, rhs in
        (lhs.nextDelivery?.millisecondsSinceEpoch ?? .max, lhs.addOrdinal) < (rhs.nextDelivery?.millisecondsSinceEpoch ?? .max, rhs.addOrdinal)
      }?.request.id
    }
  }

  @Test(arguments: [PendingRetentionPolicy.lastAdded, .soonest])
  func randomAddsRemovalsDeliveriesAndReschedulesDropWhatAScanWouldDrop(retention: PendingRetentionPolicy) {
    var random = TrialRandom(seed: 8)
    var center = NotificationCenterModel(settings: settings(limit: 7, retention: retention, regionLimit: 3))
    let regions: [RegionID] = ["a", "b", "c", "d"]
    for step in 0..<4000 {
      let now = SimulationInstant(millisecondsSinceEpoch: Int64(step) * 1000)
      let id = NotificationID("n\(Int.random(in: 0..<20, using: &random))")
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<5:
        let location = Int.random(in: 0..<4, using: &random) == 0
        let trigger: Trigger = location
          ? .region(RegionTrigger(region: regions.randomElement(using: &random)!, notifyOnEntry: Bool.random(using: &random), repeats: true))
          : Build.interval(.hours(1), repeats: false)
        let delivery = location ? nil : now.advanced(byMilliseconds: Int64.random(in: 1...50, using: &random) * 1000)
        var before = center.pending
        before[id] = nil
        let wouldMonitor = Set(before.values.compactMap { if case .region(let t) = $0.request.trigger { t.region } else { nil } })
        let outcome = center.add(NotificationRequest(id: id, title: "t", trigger: trigger), firstDelivery: delivery, at: now)
        if case .region(let t) = trigger, !wouldMonitor.contains(t.region) && wouldMonitor.count >= 3 {
          #expect(outcome.rejectedReason?.hasPrefix("region monitoring limit") == true)
          continue
        }
        // What a scan of the pending requests after the add would have given up.
        guard let added = outcome.added ?? (outcome.rejectedReason != nil ? PendingRequest(
          request: NotificationRequest(id: id, title: "t", trigger: trigger), addOrdinal: .max, addedAt: now, nextDelivery: delivery, token: 0) : nil)
        else { continue }
        var after = before
        after[id] = added
        if after.count > 7 {
          let victim = scannedVictim(Array(after.values), retention: retention)
          #expect((outcome.dropped.first?.request.id ?? (outcome.rejectedReason != nil ? id : nil)) == victim, "step \(step)")
        }
      case 5, 6:
        _ = center.removePending(id)
      case 7:
        center.markDelivered(id, at: now, keepPending: false)
      default:
        _ = center.reschedule(id, nextDelivery: now.advanced(byMilliseconds: Int64.random(in: 1...50, using: &random) * 1000))
      }
      #expect(center.pending.count <= 7)
      for region in regions {
        let scanned = center.pending.values.filter { if case .region(let t) = $0.request.trigger { t.region == region && t.notifyOnEntry } else { false } }
          .sorted { $0.addOrdinal < $1.addOrdinal }.map(\.request.id)
        #expect(center.regionRequests(for: region, entering: true).map(\.request.id) == scanned)
        #expect(center.monitors(region) == center.pending.values.contains { if case .region(let t) = $0.request.trigger { t.region == region } else { false } })
      }
    }
  }

  /// 20,000 adds against a limit of 5,000, with removals and reschedules: a
  /// scan would look at 5,000 requests per drop (75 million in all); the
  /// heap looks at a few entries per operation.
  @Test(arguments: [PendingRetentionPolicy.lastAdded, .soonest])
  func theRetentionWorkPerOperationDoesNotGrowWithThePendingCount(retention: PendingRetentionPolicy) {
    var center = NotificationCenterModel(settings: settings(limit: 5000, retention: retention))
    var operations = 0
    var dropped = 0
    for index in 0..<20_000 {
      let now = SimulationInstant(millisecondsSinceEpoch: Int64(index) * 1000)
      let outcome = center.add(
        NotificationRequest(id: NotificationID("n\(index)"), title: "t", trigger: Build.interval(.hours(1), repeats: false)),
        firstDelivery: now.advanced(byMilliseconds: Int64((index * 7919) % 100_000) * 1000), at: now)
      operations += 1
      dropped += outcome.dropped.count + (outcome.rejectedReason == nil ? 0 : 1)
      if index % 3 == 0 {
        _ = center.reschedule(NotificationID("n\(index - index % 6)"), nextDelivery: now.advanced(by: .hours(2)))
        operations += 1
      }
      if index % 5 == 0 {
        _ = center.removePending(NotificationID("n\(index / 2)"))
        operations += 1
      }
    }
    #expect(center.pending.count == 5000)
    #expect(dropped > 10_000)
    #expect(center.retentionEntriesExamined <= 4 * operations, "\(center.retentionEntriesExamined) entries for \(operations) operations")
  }
}
