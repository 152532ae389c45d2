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

/// What the Android device keeps for the app under test: its alarms, its
/// notification channels, the exact-alarm permission and whether the app is
/// force-stopped. nil on an iPhone (`SimulationRun.android`).
struct AndroidDeviceState {
  let settings: AndroidSettings
  var alarms: [AlarmTag: PendingAlarm] = [:]
  var nextAlarmToken = 0
  var nextAlarmOrdinal = 0
  var dispatcher: AlarmDispatcher
  /// `AlarmManager.canScheduleExactAlarms()`.
  var exactAlarmsAllowed: Bool
  /// The app's channels by identifier (`NotificationManager.createNotificationChannel`), as the patient left them.
  var channels: [String: AndroidChannel] = [:]
  /// The channels the patient changed: the app cannot raise their importance again.
  var channelsEditedByPatient: Set<String> = []
  /// Settings › Apps › Force stop: nothing of the app runs until the patient opens it.
  var forceStopped = false
  /// The boot receiver waits for the first unlock after a boot (`BOOT_COMPLETED`).
  var bootCompletedDue = false
  /// The alarm whose receiver is running now, and why it fired late (for the dose table's remarks).
  var firing: (alarm: PendingAlarm, late: SimulationDuration, reason: String?)?
  /// The alarms the device cleared, and why (the dose table's reasons for a missed dose).
  var alarmLosses: [AlarmLoss] = []
  /// Firebase Cloud Messaging's state for the app (stored messages, quotas).
  var fcm = FCMState()
  /// Counts the app's spans out of the foreground: an OEM kill queued for an earlier one is void.
  var backgroundSpan = 0
  /// In trials, the stream the system's choices are drawn from (where an
  /// inexact alarm fires in its window); nil in a single run.
  var random: TrialRandom?
  /// Mixed into the trial's seed so this stream is not the location service's or the push service's.
  static let alarmSalt: UInt64 = 0xA1A2_4D0E_5EED_0024
  /// Mixed into the trial's seed for the stream the maintenance windows' delays
  /// are drawn from, so the alarm stream's draws stay as they were.
  static let maintenanceSalt: UInt64 = 0x3A1E_D0CE_0B0C_0024
  /// The app's standby-bucket changes after the run's start (`StandbyBucketSchedule`), recorded as each takes effect.
  var bucketChanges: [StandbyBucketChange] = []
  /// The app's WorkManager work by unique name (`SimulationRun+Work.swift`).
  var work: [WorkName: PendingWork] = [:]
  var nextWorkToken = 0
  var nextWorkOrdinal = 0
  var workDispatcher: WorkDispatcher
  /// A force stop (or the maker's killer) cancelled the `JobScheduler` jobs
  /// under the work: none runs until WorkManager reschedules them when the app's process next starts.
  var workJobsCancelled = false
  /// The phone rebooted: WorkManager reschedules its work from its own `BOOT_COMPLETED` receiver (after the first unlock).
  var workAwaitsBoot = false

  init(settings: AndroidSettings, power: AndroidPowerTimeline, describe: @escaping @Sendable (SimulationInstant) -> String = { $0.description }) {
    self.settings = settings
    dispatcher = AlarmDispatcher(rules: settings.alarms, power: power, describe: describe)
    workDispatcher = WorkDispatcher(rules: settings.work, power: power, describe: describe)
    exactAlarmsAllowed = settings.alarms.initialExactAlarmPermission
  }

  /// The pending alarms in the order they were set.
  var alarmsInSetOrder: [PendingAlarm] { alarms.values.sorted { $0.ordinal < $1.ordinal } }
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
