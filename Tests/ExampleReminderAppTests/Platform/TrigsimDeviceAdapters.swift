import ExampleReminderApp
import Foundation
import TrigsimCore

// The conformances a team writes so that its app's wrappers run on trigsim's
// simulated phone instead of UIKit's and Core Location's objects: each maps
// the app's own value types onto trigsim's (`ReminderRequest` onto
// `NotificationRequest`, `SavedPlace` onto `CircularRegionSpec`).

extension UserNotificationCenter: NotificationScheduling {
  public func requestPermission() async throws -> Bool {
    try await requestAuthorization(options: [.alert, .sound, .badge])
  }

  public func add(_ request: ReminderRequest) async throws {
    try await add(request.notificationRequest)
  }

  public func removePending(ids: [String]) {
    removePendingNotificationRequests(withIdentifiers: ids.map { NotificationID($0) })
  }

  public func pendingIDs() async -> [String] {
    await pendingNotificationRequests().map(\.id.rawValue)
  }

  public func removeDelivered(ids: [String]) {
    removeDeliveredNotifications(withIdentifiers: ids.map { NotificationID($0) })
  }

  public func setCategories(_ categories: [ActionCategory]) {
    setNotificationCategories(Set(categories.map { category in
      NotificationCategory(
        identifier: category.id, actions: category.actions.map { NotificationAction(identifier: $0.id, title: $0.title) })
    }))
  }
}

extension ReminderRequest {
  /// The request as the platform's notification center takes it.
  var notificationRequest: NotificationRequest {
    var request = NotificationRequest(id: NotificationID(id), title: title, body: body, trigger: trigger.platformTrigger)
    request.categoryIdentifier = categoryID
    request.interruptionLevel = isTimeSensitive ? .timeSensitive : .active
    return request
  }
}

extension ReminderTrigger {
  /// `UNCalendarNotificationTrigger` (floating components),
  /// `UNTimeIntervalNotificationTrigger` or `UNLocationNotificationTrigger`.
  var platformTrigger: Trigger {
    switch self {
    case .daily(let time):
      .calendar(CalendarTrigger(components: CalendarComponents(hour: time.hour, minute: time.minute), repeats: true))
    case .once(let local):
      .calendar(CalendarTrigger(
        components: CalendarComponents(year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute),
        repeats: false))
    case .after(let seconds):
      .interval(IntervalTrigger(interval: .seconds(Int64(seconds)), repeats: false))
    case .arriving(let place, let repeats):
      .region(RegionTrigger(region: RegionID(place.id), notifyOnEntry: true, notifyOnExit: false, repeats: repeats))
    }
  }
}

extension LocationManager: RegionMonitoring {
  public func startMonitoring(_ place: SavedPlace) { startMonitoring(for: place.arrivalRegion) }
  public func stopMonitoring(_ place: SavedPlace) { stopMonitoring(for: place.arrivalRegion) }
  public var monitoredPlaceIDs: [String] { monitoredRegions.map(\.identifier.rawValue).sorted() }
}

extension SavedPlace {
  /// The circle watched for arrivals (`CLCircularRegion` with `notifyOnExit` off).
  var arrivalRegion: CircularRegionSpec {
    CircularRegionSpec(
      identifier: RegionID(id), center: Coordinate(latitude: latitude, longitude: longitude), radius: radius, notifyOnEntry: true,
      notifyOnExit: false)
  }
}

// The device's clock and storage already have the members the app's protocols ask for.
extension DeviceClock: AppClock {}
extension DeviceStorage: KeyValueStore {}
