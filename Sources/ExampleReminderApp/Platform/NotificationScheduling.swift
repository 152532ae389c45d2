import Foundation

/// The app's wrapper around the system notification center
/// (`UNUserNotificationCenter` on iOS): everything the app schedules goes
/// through it, so tests can hand it another center.
public protocol NotificationScheduling: AnyObject {
  /// Asks the patient for permission to alert; returns whether alerts are allowed.
  func requestPermission() async throws -> Bool
  /// Schedules `request`, replacing a pending request with its identifier.
  func add(_ request: ReminderRequest) async throws
  /// Cancels pending requests; identifiers that name none are ignored.
  func removePending(ids: [String])
  /// The identifiers of the pending requests, in the order they were added.
  func pendingIDs() async -> [String]
  /// Removes notifications already shown in Notification Center.
  func removeDelivered(ids: [String])
  /// Registers the categories (the action buttons) the app's notifications use.
  func setCategories(_ categories: [ActionCategory])
}

/// One notification the app asks for, in the app's own terms.
public struct ReminderRequest: Equatable, Sendable {
  /// The identifier the app names the request by (see `ReminderID`).
  public var id: String
  public var title: String
  public var body: String
  public var trigger: ReminderTrigger
  /// The category whose buttons the notification shows.
  public var categoryID: String
  /// Whether the notification may break through Focus (`.timeSensitive`).
  public var isTimeSensitive: Bool

  public init(id: String, title: String, body: String, trigger: ReminderTrigger, categoryID: String, isTimeSensitive: Bool = false) {
    self.id = id
    self.title = title
    self.body = body
    self.trigger = trigger
    self.categoryID = categoryID
    self.isTimeSensitive = isTimeSensitive
  }
}

/// When a reminder is delivered.
public enum ReminderTrigger: Equatable, Sendable {
  /// Every day at this local time (floating: it follows the phone's time zone).
  case daily(ReminderTime)
  /// Once, at this local date and time.
  case once(LocalDateTime)
  /// Once, this many seconds after it is added.
  case after(seconds: Int)
  /// When the phone arrives at a place (entry only).
  case arriving(at: SavedPlace, repeats: Bool)
}

/// A local calendar date and time of day, as the trigger's date components.
public struct LocalDateTime: Equatable, Sendable {
  public var year: Int
  public var month: Int
  public var day: Int
  public var hour: Int
  public var minute: Int

  public init(year: Int, month: Int, day: Int, hour: Int, minute: Int) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
  }
}

/// A set of buttons on the app's notifications (`UNNotificationCategory`).
public struct ActionCategory: Equatable, Sendable {
  public var id: String
  /// Action identifiers and their button titles, in the order shown.
  public var actions: [(id: String, title: String)]

  public init(id: String, actions: [(id: String, title: String)]) {
    self.id = id
    self.actions = actions
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.id == rhs.id && lhs.actions.map(\.id) == rhs.actions.map(\.id) && lhs.actions.map(\.title) == rhs.actions.map(\.title)
  }
}
