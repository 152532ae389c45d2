import Testing
import TrigsimTestSupport

@testable import TrigsimCore

@Suite struct NotificationCenterModelTests {
  func settings(limit: Int, retention: PendingRetentionPolicy, regionLimit: Int = 20) -> PlatformSettings {
    var settings = PlatformSettings()
    settings.pendingLimit = limit
    settings.retention = retention
    settings.monitoredRegionLimit = regionLimit
    return settings
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
