/// The choices a team makes in the medicine app's Android build (the
/// scenario's `policy: android:`); the defaults are what a careful Android
/// app does (the manual, "Android profile").
public struct AndroidAppPolicy: Sendable, Equatable {
  /// Which alarms carry the reminders.
  public var alarms = AndroidAlarmStrategy.exactWithFallback
  /// Whether a `BOOT_COMPLETED` receiver re-registers alarms and geofences
  /// after a reboot (registered alarms do not survive one).
  public var reRegisterAtBoot = true
  /// Whether that receiver is direct-boot aware (`LOCKED_BOOT_COMPLETED`:
  /// it runs before the first unlock).
  public var directBootAware = false
  /// Whether the app asks for `POST_NOTIFICATIONS` when it first starts
  /// (Android 13 and later show nothing until it does and the patient allows).
  public var asksNotificationPermission = true
  /// The importance of the reminder channel the app creates.
  public var channelImportance = ChannelImportance.high
  /// `Notification.category` of the reminders (Do Not Disturb reads it).
  public var category: AndroidNotificationCategory? = .reminder
  /// A periodic WorkManager work (`refresh-alarms`, first run one period
  /// after the app starts) that re-registers every alarm and geofence each
  /// period: a safety net some teams add against lost alarms. nil (off) by
  /// default. Its runs wait for Doze's maintenance windows and the bucket's
  /// job windows, and a force stop or the maker's killer stops it too, until
  /// the patient opens the app (the manual, "Android work scheduling").
  public var refreshWork: SimulationDuration?

  public init() {}

  /// `android-alarms=exact-with-fallback boot=re-register ...`, for the `app` header line.
  public var summary: String {
    "android-alarms=\(alarms.rawValue) boot=\(reRegisterAtBoot ? (directBootAware ? "re-register-locked" : "re-register") : "none") "
      + "ask-permission=\(asksNotificationPermission ? "yes" : "no") channel=\(channelImportance.rawValue) category=\(category?.rawValue ?? "none")"
      + (refreshWork.map { " refresh-work=\($0)" } ?? "")
  }
}

/// How the Android build sets its reminder alarms.
public enum AndroidAlarmStrategy: String, Sendable, CaseIterable {
  /// `setExactAndAllowWhileIdle` when `canScheduleExactAlarms()`, else
  /// `setAndAllowWhileIdle` (inexact): what the Android 14 documentation tells apps to do.
  case exactWithFallback = "exact-with-fallback"
  /// `setAlarmClock` when allowed (exempt from Doze), else `setAndAllowWhileIdle`.
  case alarmClock = "alarm-clock"
  /// Always `setAndAllowWhileIdle` (inexact): an app that never asks for exact alarms.
  case inexact
}
