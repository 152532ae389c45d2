import Foundation

/// Why the system launched the app (`UIApplication.LaunchOptionsKey`).
public enum LaunchReason: String, Sendable, CaseIterable {
  /// Running when the run starts (in the background, unless the scenario says otherwise).
  case initial
  /// The patient opened it.
  case patient
  /// A region event (`.location`).
  case location
  /// A background push (`.remoteNotification`).
  case remoteNotification = "remote-notification"
  /// The patient acted on a notification.
  case notificationResponse = "notification-response"
  /// Background app refresh.
  case backgroundRefresh = "background-refresh"
  /// Android: one of its alarms went off (its `PendingIntent` reached the app's receiver).
  case alarm
  /// Android: a system broadcast the app's manifest receives (`BOOT_COMPLETED`, `LOCKED_BOOT_COMPLETED`, ...).
  case broadcast
  /// Android: WorkManager runs one of its work requests (`Worker.doWork`).
  case work
}

/// A request for background app refresh (`BGAppRefreshTaskRequest`): the
/// system may run the app's refresh handler at or after `earliestBeginDate`.
/// When it runs is the scenario's decision (`app: - backgroundRefresh: true`).
public struct BackgroundRefreshRequest: Hashable, Sendable {
  public var identifier: String
  public var earliestBeginDate: Date?

  public init(identifier: String, earliestBeginDate: Date? = nil) {
    self.identifier = identifier
    self.earliestBeginDate = earliestBeginDate
  }
}
