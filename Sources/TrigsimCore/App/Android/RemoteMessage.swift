import Foundation

/// A Firebase Cloud Messaging priority (`RemoteMessage.PRIORITY_HIGH`, `PRIORITY_NORMAL`).
public enum FCMPriority: String, Sendable, CaseIterable {
  /// Delivered at once, in Doze too; may wake the app.
  case high
  /// Delivered at once unless the phone dozes; then held (`FCMRules.normalPriorityInDoze`).
  case normal
}

/// A message from the app's server as `FirebaseMessagingService.onMessageReceived`
/// gets it: a data message, or a notification message while the app is in the foreground.
public struct RemoteMessage: Sendable, Equatable {
  /// `getMessageId()`: the scenario's push identifier.
  public var messageID: String
  /// `getData()`: the payload's keys (`id`, and `type` when the push has one).
  public var data: [String: String]
  /// The notification part (`getNotification()`), when the push has a title or body.
  public var title: String?
  public var body: String?
  /// `getNotification().getChannelId()`.
  public var channel: String?
  /// `getCollapseKey()`.
  public var collapseKey: String?
  /// `getPriority()`: as delivered, after FCM's bucket quota or deprioritization.
  public var priority: FCMPriority
  /// `getOriginalPriority()`: as the server sent it.
  public var originalPriority: FCMPriority
  /// `getSentTime()`.
  public var sentTime: Date

  public init(
    messageID: String, data: [String: String], title: String? = nil, body: String? = nil, channel: String? = nil, collapseKey: String? = nil,
    priority: FCMPriority, originalPriority: FCMPriority, sentTime: Date
  ) {
    self.messageID = messageID
    self.data = data
    self.title = title
    self.body = body
    self.channel = channel
    self.collapseKey = collapseKey
    self.priority = priority
    self.originalPriority = originalPriority
    self.sentTime = sentTime
  }

  /// Whether it carries a notification (title or body).
  public var isNotificationMessage: Bool { title != nil || body != nil }
}
