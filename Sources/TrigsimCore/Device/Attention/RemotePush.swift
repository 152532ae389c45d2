import Foundation

/// The identifier a scenario gives a remote push (printed as the entries' subject).
public struct PushID: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }
  public var description: String { rawValue }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A remote notification the app's server sends through the push service
/// (APNs) at an instant: the `aps` payload and the request headers that
/// change delivery.
public struct RemotePush: Sendable {
  public var id: PushID
  /// When the server sends it.
  public var instant: SimulationInstant
  /// The app's own type (a custom payload key: `new_comment`,
  /// `achievement_unlocked`); the app's per-type toggles use it.
  public var type: String?
  /// `aps.alert` title and body; a push without an alert shows nothing.
  public var title: String?
  public var body: String?
  /// `aps.badge`: 0 clears the badge, a number sets it, nil leaves it.
  public var badge: Int?
  /// `aps.sound` is present.
  public var sound: Bool
  /// `aps.category`: the actions the notification offers.
  public var category: String?
  /// `aps.thread-id`: how Notification Center groups it.
  public var thread: String?
  /// `aps.interruption-level`.
  public var interruptionLevel: InterruptionLevel
  /// `aps.content-available: 1` without an alert: a background push that
  /// wakes the app and shows nothing.
  public var contentAvailable: Bool
  /// `apns-priority`: 10 at once, 5 when the device's power allows, 1 lowest.
  public var priority: Int
  /// `apns-collapse-id`: a later push with the same identifier replaces this
  /// one, at the push service while it waits and in Notification Center.
  public var collapseID: String?
  /// `apns-expiration`: the push service gives up after this instant; nil
  /// means the service's own limit (`PushServiceRules.storageLimit`); an
  /// instant at or before `instant` means "deliver now or never" (`0`).
  public var expiration: SimulationInstant?
  /// Android: the notification channel a notification message names
  /// (FCM's `android.notification.channel_id`); nil: the app manifest's
  /// default channel, else FCM's own fallback channel.
  public var channel: String?
  public var origin: InputLocation?

  public init(
    id: PushID, instant: SimulationInstant, type: String? = nil, title: String? = nil, body: String? = nil, badge: Int? = nil,
    sound: Bool = false, category: String? = nil, thread: String? = nil, interruptionLevel: InterruptionLevel = .active,
    contentAvailable: Bool = false, priority: Int = 10, collapseID: String? = nil, expiration: SimulationInstant? = nil,
    channel: String? = nil, origin: InputLocation? = nil
  ) {
    self.id = id
    self.instant = instant
    self.type = type
    self.title = title
    self.body = body
    self.badge = badge
    self.sound = sound
    self.category = category
    self.thread = thread
    self.interruptionLevel = interruptionLevel
    self.contentAvailable = contentAvailable
    self.priority = priority
    self.collapseID = collapseID
    self.expiration = expiration
    self.channel = channel
    self.origin = origin
  }

  /// A push with an alert (title or body) is shown; one without only updates
  /// the badge or wakes the app.
  public var hasAlert: Bool { title != nil || body != nil }
}

/// The remote pushes of a scenario and the app's own notification settings.
public struct RemotePushes: Sendable {
  /// In time order (ties in scenario order).
  public var pushes: [RemotePush] = []
  /// The actions of each category a push may name (`UNNotificationCategory`).
  public var categories: [String: [String]] = [:]
  /// Where the app's per-type toggles and quiet hours act.
  public var filter: AppPreferenceFilter = .server
  /// The app's settings over time, in time order; before the first every type
  /// is on and quiet hours are off.
  public var preferenceChanges: [AppPreferenceChange] = []

  public init() {}
}

/// Where the app applies its own notification settings.
public enum AppPreferenceFilter: String, Sendable, CaseIterable {
  /// The app's server does not send a push the settings turn off: the
  /// device never hears of it.
  case server
  /// The push is sent and received; the app's notification service
  /// extension drops it (which needs Apple's notification-filtering
  /// entitlement), so it is not shown.
  case app
}

/// The app's own notification settings, set in the app (not in iOS Settings).
public struct AppPreferences: Sendable, Equatable {
  /// Types turned off (every type not listed is on).
  public var typesOff: Set<String> = []
  /// Quiet hours in device local time, when enabled.
  public var quietHours: QuietHours?

  public init() {}

  /// Why a push of `type` arriving at `instant` is not wanted, if it is not:
  /// its type is off, or the wall clock of `zone` reads a time inside the
  /// quiet hours (the rule the server's quiet hours follow too, `QuietHours`).
  func blockReason(type: String?, at instant: SimulationInstant, in zone: TimeZone) -> String? {
    if let type, typesOff.contains(type) { return "the app's '\(type)' notifications are turned off in the app" }
    if let quiet = quietHours, quiet.contains(instant, in: zone) {
      return "within the app's quiet hours \(quiet.from)–\(quiet.to)"
    }
    return nil
  }
}

/// The app's quiet hours: from (inclusive) to (exclusive), device local
/// time; a span that ends earlier than it starts runs past midnight.
public struct QuietHours: Sendable, Equatable {
  public var from: DailyTime
  public var to: DailyTime

  public init(from: DailyTime, to: DailyTime) {
    self.from = from
    self.to = to
  }

  func contains(_ time: (hour: Int, minute: Int)) -> Bool {
    let minute = time.hour * 60 + time.minute
    let start = from.hour * 60 + from.minute
    let end = to.hour * 60 + to.minute
    return start <= end ? (minute >= start && minute < end) : (minute >= start || minute < end)
  }
}

/// The patient changes the app's own settings at an instant.
public struct AppPreferenceChange: Sendable {
  public var instant: SimulationInstant
  /// Types switched on or off.
  public var types: [(type: String, on: Bool)]
  /// Quiet hours set (`.some(hours)`), switched off (`.some(nil)`), or unchanged (nil).
  public var quietHours: QuietHours??
  public var origin: InputLocation?

  public init(instant: SimulationInstant, types: [(type: String, on: Bool)] = [], quietHours: QuietHours?? = nil, origin: InputLocation? = nil) {
    self.instant = instant
    self.types = types
    self.quietHours = quietHours
    self.origin = origin
  }

  func applied(to preferences: AppPreferences) -> AppPreferences {
    var result = preferences
    for (type, on) in types {
      if on { result.typesOff.remove(type) } else { result.typesOff.insert(type) }
    }
    if let quietHours { result.quietHours = quietHours }
    return result
  }
}
