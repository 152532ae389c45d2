/// The rules of the `android` device profile (`platform: android`): every
/// row of the manual's "Android profile" table, each a named, overridable
/// setting with its source. nil on `PlatformSettings.android` means the
/// device is an iPhone (`ios`, the default).
public struct AndroidSettings: Sendable, Equatable {
  /// Alarms: exact and inexact, windows, while-idle limits, standby buckets (`AlarmManager`).
  public var alarms = AndroidAlarmRules()
  /// Doze: when the device enters it and its maintenance windows.
  public var doze = DozeRules()
  /// The runtime notification permission, channels and Do Not Disturb.
  public var notifications = AndroidNotificationRules()
  /// Geofencing (`GeofencingClient`): limits, transitions, latency, the overlap rule.
  public var geofencing = AndroidGeofenceRules()
  /// The phone maker's background killer (dontkillmyapp.com).
  public var oemKiller = OEMBackgroundKiller()
  /// Firebase Cloud Messaging: priorities in Doze and by bucket, storage while unreachable.
  public var fcm = FCMRules()
  /// When the system runs the app's WorkManager work (`JobScheduler`): Doze, buckets, Battery Saver, minimum periods.
  public var work = AndroidWorkRules()

  public init() {}

  /// The header's `android` line: every rule group's summary.
  public var summary: String {
    // The OEM killer is printed only when set, so headers without one stay as they were.
    [alarms.summary, doze.summary, notifications.summary, geofencing.summary].joined(separator: " ")
      + (oemKiller == OEMBackgroundKiller() ? "" : " " + oemKiller.summary)
      + (fcm.summary.isEmpty ? "" : " " + fcm.summary)
      + (work.summary.isEmpty ? "" : " " + work.summary)
  }
}

/// The two device profiles a scenario can run on (`platform:`, `--platform`).
public enum PlatformName: String, Sendable, CaseIterable, Comparable {
  case ios
  case android

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
