/// Why the device showed or delivered nothing of something that came due:
/// the `cause` of every `suppressed` timeline entry (its `reason` says the
/// rest in words).
///
/// Each cause is a different story for the patient and for the team, so
/// each has its own words wherever a suppression is summed up (the report's
/// legend): a reminder lost because the phone was off is never read as one
/// lost to a missing permission. Cases are listed in the order the report's
/// legend lists them.
public enum SuppressionCause: String, CaseIterable, Sendable {
  /// The app has no notification permission: denied, or never asked for
  /// (iOS authorization, Android 13's `POST_NOTIFICATIONS`).
  case permission
  /// The patient turned the app's notifications off: notifications or every
  /// alert style off in Settings, or the Android channel blocked (importance none).
  case settings
  /// Android: posted without a notification channel, or to a channel the app never created.
  case channel
  /// The app was in the foreground and asked for no presentation (its
  /// will-present returned no banner, list or sound, or it has no delegate).
  case foreground
  /// The phone was off when it came due, and the platform delivers nothing
  /// (or nothing that old) of what came due while off (`powerOffCatchUp`).
  case phoneOff = "phone-off"
  /// The device detected a region crossing while region monitoring could not
  /// act on it (location permission or precise location off, the app's state,
  /// the phone locked since it was switched on): the location trigger delivered nothing.
  case regionMonitoring = "region-monitoring"
  /// A background push the system did not hand to the app: the app
  /// force-quit, Low Power Mode, or the hourly budget spent.
  case backgroundPush = "background-push"
  /// Android: the app is force-stopped; Android delivers nothing to it until the patient opens it.
  case forceStopped = "force-stopped"
}
