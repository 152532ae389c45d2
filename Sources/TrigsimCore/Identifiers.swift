/// The identifier of a monitored region, as written in the scenario.
public struct RegionID: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }
  public var description: String { rawValue }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The identifier of a notification request (`UNNotificationRequest.identifier`).
///
/// Adding a request whose identifier is already pending replaces it.
public struct NotificationID: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }
  public var description: String { rawValue }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The unique name of a piece of Android WorkManager work
/// (`enqueueUniqueWork`'s and `enqueueUniquePeriodicWork`'s `uniqueWorkName`):
/// at most one enqueued work per name; enqueuing under a name in use keeps
/// or replaces the work there (`ExistingWorkPolicy`).
public struct WorkName: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }
  public var description: String { rawValue }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An Android alarm's identity: what makes two `PendingIntent`s equal
/// (`Intent.filterEquals`: action, data, component; and the request code).
/// Setting an alarm with the tag of a pending one replaces it, as
/// `AlarmManager.set*` does for an equal `PendingIntent`.
public struct AlarmTag: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }
  public var description: String { rawValue }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
