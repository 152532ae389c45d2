/// The importance of an Android notification channel
/// (`NotificationManager.IMPORTANCE_*`; Android `NotificationChannel`
/// reference): it decides how every notification posted to the channel is
/// shown. The app sets it when it creates the channel; afterwards only the
/// patient can change it (Settings › Apps › the app › Notifications), and
/// the app cannot raise it again.
public enum ChannelImportance: String, Sendable, CaseIterable {
  /// `IMPORTANCE_HIGH`: sound and a heads-up banner.
  case high
  /// `IMPORTANCE_DEFAULT`: sound, no heads-up (status bar icon, shade, lock screen).
  case `default`
  /// `IMPORTANCE_LOW`: no sound; in the shade and status bar.
  case low
  /// `IMPORTANCE_MIN`: no sound, no status bar icon; collapsed in the shade.
  case min
  /// `IMPORTANCE_NONE`: the channel is blocked; nothing is shown.
  case none
}

/// A notification channel as the app creates it (`NotificationChannel`).
public struct AndroidChannel: Sendable, Equatable {
  public var id: String
  public var name: String
  public var importance: ChannelImportance
  /// `setBypassDnd(true)`: notifications break through Do Not Disturb's
  /// priority mode. The platform honours it only for apps with notification
  /// policy access, and only until the patient edits the channel.
  public var bypassDnd: Bool

  public init(id: String, name: String, importance: ChannelImportance = .default, bypassDnd: Bool = false) {
    self.id = id
    self.name = name
    self.importance = importance
    self.bypassDnd = bypassDnd
  }
}

/// `Notification.category` (`CATEGORY_ALARM`, `CATEGORY_REMINDER`, ...):
/// what Do Not Disturb's priority mode lets through depends on it.
public enum AndroidNotificationCategory: String, Sendable, CaseIterable {
  case alarm
  case reminder
  case event
  case message
  case call
}

/// Do Not Disturb's mode while it is on (`NotificationManager.INTERRUPTION_FILTER_*`).
public enum DoNotDisturbMode: String, Sendable, CaseIterable {
  /// `INTERRUPTION_FILTER_PRIORITY`: only what the patient's policy allows breaks through.
  case priorityOnly = "priority-only"
  /// `INTERRUPTION_FILTER_ALARMS`: only alarms (`CATEGORY_ALARM`).
  case alarmsOnly = "alarms-only"
  /// `INTERRUPTION_FILTER_NONE`: nothing breaks through.
  case totalSilence = "total-silence"
}

/// The notification side of the `android` profile: the runtime permission,
/// Do Not Disturb's policy, and how a silenced notification is shown. Each
/// rule's source is in the manual ("Android profile").
public struct AndroidNotificationRules: Sendable, Equatable {
  /// Do Not Disturb's mode during the scenario's `focus:` periods (on
  /// Android a Focus period is Do Not Disturb; Digital Wellbeing's Focus
  /// mode pauses apps, which trigsim does not model). Default
  /// `priority-only`, the mode the Quick Settings tile turns on.
  public var dndMode = DoNotDisturbMode.priorityOnly
  /// The categories the patient's Do Not Disturb policy lets through in
  /// priority mode. Default: alarms only (Android's default policy allows
  /// alarms and media; reminders and events are off until the patient turns
  /// them on: `NotificationManager.Policy.PRIORITY_CATEGORY_REMINDERS`;
  /// developer report krelltunez/dayGLANCE PR 1025).
  public var dndAllowedCategories: Set<AndroidNotificationCategory> = [.alarm]
  /// Whether the app holds notification policy access
  /// (`ACCESS_NOTIFICATION_POLICY`), without which a channel's
  /// `setBypassDnd(true)` is ignored (`NotificationChannel.setBypassDnd`
  /// reference). Default false: a medicine app rarely asks for it.
  public var notificationPolicyAccess = false

  public init() {}

  /// `dnd=priority-only dnd-allows=alarm`, for the header; the policy access only when granted.
  public var summary: String {
    let allowed = dndAllowedCategories.map(\.rawValue).sorted()
    return "dnd=\(dndMode.rawValue) dnd-allows=\(allowed.isEmpty ? "none" : allowed.joined(separator: ","))"
      + (notificationPolicyAccess ? " policy-access=granted" : "")
  }
}

/// The runtime notification permission at install (`POST_NOTIFICATIONS`,
/// Android 13, API 33): a fresh install on Android 13 or later has not been
/// asked, and shows nothing until the app asks and the patient allows; an
/// app updated from before 13 that had a channel is pre-granted; below 13
/// notifications are on from install (Android documentation, "Notification
/// runtime permission").
public func initialNotificationPermission(androidVersion: Int, freshInstall: Bool) -> NotificationPermission {
  androidVersion >= 13 && freshInstall ? .notDetermined : .granted
}
