/// An alarm the app set and the device keeps (`AlarmManager`), until it
/// fires, the app cancels it, or the device clears it (reboot, force stop,
/// revoked exact-alarm permission).
struct PendingAlarm {
  var tag: AlarmTag
  var alarm: AndroidAlarm
  /// The intent's extras, handed back to the app when it fires.
  var extras: [String: String]
  /// The dose the app says the alarm's notification serves (nil: not said).
  var attribution: DoseAttribution?
  /// Identifies this setting of the tag: a replaced or cancelled alarm's queued event is skipped.
  var token: Int
  /// The order the alarms were set in (the rank of simultaneous firings).
  var ordinal: Int
  var setAt: SimulationInstant
  /// Why the device last held it past its time (set when the alarm model
  /// moves it; the fired entry and the dose table say it).
  var heldReason: String?
  /// The rule the timeline last said holds it back: the same rule again adds no entry (`AlarmDeferralCause`).
  var deferredBy: AlarmDeferralCause?
}

/// An alarm the device cleared before it fired: the dose table's reason for a dose nothing answered.
struct AlarmLoss {
  var tag: AlarmTag
  var triggerAt: SimulationInstant
  var at: SimulationInstant
  var what: String
  var reason: String
  /// The dose the app said the alarm served (nil: not said).
  var attribution: DoseAttribution?
}

/// Why `AlarmManager` refused an alarm.
public enum AlarmManagerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `SecurityException`: an exact or alarm-clock alarm without the exact-alarm permission.
  case exactAlarmNotPermitted(AlarmTag)

  public var description: String {
    switch self {
    case .exactAlarmNotPermitted(let tag):
      "SecurityException: alarm '\(tag)' is exact and the app may not schedule exact alarms (canScheduleExactAlarms() is false)"
    }
  }
}
