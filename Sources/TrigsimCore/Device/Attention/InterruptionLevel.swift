/// How strongly a notification may interrupt the patient
/// (`UNNotificationInterruptionLevel`, iOS 15 and later). The raw values are
/// the platform's own spellings; the default is `active`.
///
/// - `passive`: added to Notification Center without lighting the screen or
///   playing a sound; never an alert.
/// - `active`: presented at once, lights the screen, may play a sound; held
///   by a Focus that does not allow the app and by Scheduled Summary.
/// - `timeSensitive`: as active, but breaks through a Focus that allows
///   time-sensitive notifications and is not held by Scheduled Summary. Needs
///   the Time Sensitive Notifications capability and the patient's per-app
///   "Time Sensitive Notifications" setting; without either it is `active`.
/// - `critical`: presented at once with sound, through any Focus, Scheduled
///   Summary and the mute switch. Needs Apple's critical-alerts entitlement
///   and the patient's per-app "Critical Alerts" setting; without either it
///   is `active`.
public enum InterruptionLevel: String, Sendable, CaseIterable, Comparable {
  case passive
  case active
  case timeSensitive
  case critical

  public static func < (lhs: Self, rhs: Self) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// What Apple granted the app: capabilities that decide whether the higher
/// interruption levels take effect.
public struct AppEntitlements: Sendable, Equatable {
  /// The Time Sensitive Notifications capability: a developer turns it on in
  /// the project; no review is needed. Default: on.
  public var timeSensitive = true
  /// `com.apple.developer.usernotifications.critical-alerts`: Apple grants
  /// it on request, to some health apps only. Default: off.
  public var criticalAlerts = false

  public init(timeSensitive: Bool = true, criticalAlerts: Bool = false) {
    self.timeSensitive = timeSensitive
    self.criticalAlerts = criticalAlerts
  }
}
