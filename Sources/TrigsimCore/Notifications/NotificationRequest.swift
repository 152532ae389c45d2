/// A notification request as an app passes it to `UNUserNotificationCenter.add`.
public struct NotificationRequest: Sendable {
  public var id: NotificationID
  public var title: String
  public var body: String?
  public var trigger: Trigger
  /// Ordered `userInfo` the app attaches (medicine id, dose, ...); printed on
  /// the request's `scheduled` and `fired` entries after the standard fields.
  public var userInfo: [TimelineField]
  /// Where the scenario declares this request, for messages.
  public var origin: InputLocation?
  /// `content.interruptionLevel` (default active).
  public var interruptionLevel: InterruptionLevel = .active
  /// `content.sound` is set (medicine reminders use the default sound). A
  /// request without a sound is presented silently.
  public var sound = true
  /// `content.badge`: 0 clears the app's badge at delivery, a number sets it, nil leaves it.
  public var badge: Int?
  /// `content.categoryIdentifier`: the category whose actions the patient
  /// can choose (`UserNotificationCenter.setNotificationCategories`). Hosted
  /// apps only; it is not printed.
  public var categoryIdentifier: String?
  /// Which dose the request serves, as the app that adds it says (hosted
  /// apps; not printed). It takes precedence over `HostedApp.attribution`.
  public var doseAttribution: DoseAttribution?
  /// Android: the notification channel it is posted to (`NotificationCompat.Builder(context, channelId)`).
  public var channel: String?
  /// Android: `Notification.category`, which Do Not Disturb's policy reads.
  public var androidCategory: AndroidNotificationCategory?

  public init(
    id: NotificationID, title: String, body: String? = nil, trigger: Trigger, userInfo: [TimelineField] = [],
    origin: InputLocation? = nil
  ) {
    self.id = id
    self.title = title
    self.body = body
    self.trigger = trigger
    self.userInfo = userInfo
    self.origin = origin
  }
}

/// Something the app does at an instant of the scenario.
public enum AppAction: Sendable {
  /// `add(_:)`: schedule a request (replacing a pending one with the same identifier).
  case add(NotificationRequest)
  /// `removePendingNotificationRequests(withIdentifiers:)`.
  case removePending(NotificationID)
}

/// An app action placed at an instant, with where the scenario asked for it.
public struct ScheduledAppAction: Sendable {
  public var instant: SimulationInstant
  public var action: AppAction
  public var origin: InputLocation?

  public init(instant: SimulationInstant, action: AppAction, origin: InputLocation? = nil) {
    self.instant = instant
    self.action = action
    self.origin = origin
  }
}
