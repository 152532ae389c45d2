/// How the app set an alarm with Android's `AlarmManager`. The kind decides
/// which of the system's rules apply to it (see the manual, "Android alarms").
public enum AndroidAlarmKind: String, Sendable, CaseIterable {
  /// `setExact()`: at its time outside Doze; deferred to a maintenance window in Doze.
  case exact
  /// `setExactAndAllowWhileIdle()`: at its time, in Doze too, within the
  /// while-idle quota (`AndroidAlarmRules.exactWhileIdleQuota`).
  case exactWhileIdle = "exact-while-idle"
  /// `setAlarmClock()`: at its time; exempt from Doze, buckets and Battery Saver.
  case alarmClock = "alarm-clock"
  /// `set()`: within `AndroidAlarmRules.inexactWindow` after its time; deferred in Doze.
  case inexact
  /// `setAndAllowWhileIdle()`: like `inexact`, and in Doze at most one per
  /// `AndroidAlarmRules.whileIdleInexactSpacing`.
  case inexactWhileIdle = "inexact-while-idle"
  /// `setWindow(start, length)`: within its window (at least `minWindow` long).
  case window

  /// Whether setting it needs the exact-alarm permission (`SCHEDULE_EXACT_ALARM`
  /// or `USE_EXACT_ALARM`); without it the call throws `SecurityException`
  /// (developer.android.com, "Schedule exact alarms are denied by default", Android 14).
  public var needsExactPermission: Bool {
    switch self {
    case .exact, .exactWhileIdle, .alarmClock: true
    case .inexact, .inexactWhileIdle, .window: false
    }
  }

  /// Whether the system may run it while the device is in Doze (the `…AllowWhileIdle` calls).
  public var allowedWhileIdle: Bool { self == .exactWhileIdle || self == .inexactWhileIdle }

  /// Whether its time is a window the system chooses within (not an exact instant).
  public var isInexact: Bool { self == .inexact || self == .inexactWhileIdle || self == .window }
}

/// One alarm the app set.
public struct AndroidAlarm: Sendable, Equatable {
  public var kind: AndroidAlarmKind
  /// The time the app asked for (`triggerAtMillis`, or the window's start).
  public var triggerAt: SimulationInstant
  /// `.window` only: the window's length as the app asked; stretched to `AndroidAlarmRules.minWindow`.
  public var window: SimulationDuration?
  /// Trials only: where in its allowed window an inexact or window alarm
  /// fires, a uniform draw in [0, 1) the engine makes when the alarm is set;
  /// nil in a single run (then `AndroidAlarmRules.inexactTiming` decides).
  public var windowPosition: Double?

  public init(kind: AndroidAlarmKind, triggerAt: SimulationInstant, window: SimulationDuration? = nil, windowPosition: Double? = nil) {
    self.kind = kind
    self.triggerAt = triggerAt
    self.window = window
    self.windowPosition = windowPosition
  }
}

/// Whether the app was installed fresh or upgraded from a version that held
/// the exact-alarm permission (Android 14 keeps it on upgrade).
public enum AndroidInstall: String, Sendable, CaseIterable {
  case fresh
  case upgrade
}

/// The exact-alarm permission (`SCHEDULE_EXACT_ALARM`) as a scenario states it.
public enum ExactAlarmPermission: String, Sendable, CaseIterable {
  case granted
  case denied
}

/// Where, in a single run, an inexact or window alarm fires within its allowed window.
public enum InexactAlarmTiming: String, Sendable, CaseIterable {
  /// At the window's end: the latest the documentation allows (the pessimistic reading, the default).
  case latest
  /// At the window's start (the requested time).
  case earliest
}

/// On which Android versions the standby-bucket alarm limits apply.
public enum BucketAlarmLimitScope: String, Sendable, CaseIterable {
  /// Every version. The power-details table gives the alarm limits under
  /// "Prior to Android 13" and states none for later versions, while AOSP's
  /// `AlarmManagerService` still applies bucket quotas; applying them
  /// everywhere is the reading that never reports a delivery a phone could delay. The default.
  case allVersions = "all-versions"
  /// Only below Android 13 (the table's heading read literally).
  case beforeAndroid13 = "before-android-13"
}

/// What Battery Saver does to the app's alarms.
public enum BatterySaverAlarms: String, Sendable, CaseIterable {
  /// As AOSP's `AlarmManagerService` does for an app whose alarms Battery
  /// Saver restricts (it forces every background app into standby, Android 9
  /// "Power management"): alarm-clock alarms are exempt, while-idle alarms keep
  /// their while-idle quotas, every other alarm waits until Battery Saver ends
  /// or the phone charges. The default.
  case deferred
  /// Battery Saver does not touch alarms (only Doze and the bucket do).
  case unrestricted
}

/// How many exact while-idle alarms (`setExactAndAllowWhileIdle()`) an app
/// may fire in Doze on Android 12 and later, where Google's pages disagree:
/// the power-details table says 72 per hour, the doze-standby page still
/// says once per nine minutes, and the "Schedule alarms" page speaks of a
/// rate limit "such as 15 minutes". A registry setting (`exactWhileIdleQuota`).
public enum ExactWhileIdleQuota: String, Sendable, CaseIterable {
  /// 72 per rolling hour: the power-details table, and AOSP's
  /// `AlarmManagerService` from Android 12 (`allow_while_idle_quota` 72 in a
  /// one-hour window). The default.
  case perHour72 = "72/h"
  /// One per nine minutes: the doze-standby page's text (and AOSP's
  /// `allow_while_idle_compat_window`).
  case oneIn9Minutes = "1/9m"
  /// One per fifteen minutes: the "Schedule alarms" page's example of a rate limit.
  case oneIn15Minutes = "1/15m"

  /// The quota this reading sets.
  public var quota: AlarmQuota {
    switch self {
    case .perHour72: AlarmQuota(count: 72, per: .hours(1))
    case .oneIn9Minutes: AlarmQuota(count: 1, per: .minutes(9))
    case .oneIn15Minutes: AlarmQuota(count: 1, per: .minutes(15))
    }
  }
}

/// At most `count` alarms per rolling `period`.
public struct AlarmQuota: Sendable, Equatable, CustomStringConvertible {
  public var count: Int
  public var period: SimulationDuration

  public init(count: Int, per period: SimulationDuration) {
    self.count = count
    self.period = period
  }

  /// `10/1h`.
  public var description: String { "\(count)/\(period)" }
}

/// The alarm rules of the `android` profile: every field a named setting with
/// its default and source (the manual, "Android alarms").
public struct AndroidAlarmRules: Sendable, Equatable {
  /// The phone's Android version (major). Default 14, where a fresh install
  /// has no exact-alarm permission.
  public var androidVersion = 14
  /// Whether the app was freshly installed or upgraded keeping its permission.
  public var install = AndroidInstall.fresh
  /// The exact-alarm permission as the scenario states it; nil: derived
  /// (`initialExactAlarmPermission`).
  public var exactAlarmPermission: ExactAlarmPermission?
  /// Whether the app declares `USE_EXACT_ALARM`, granted at install but by
  /// Play policy only to alarm-clock and calendar apps (Android 14 page). Default false.
  public var useExactAlarm = false
  /// How long after its time an inexact alarm (`set()`, `setAndAllowWhileIdle()`)
  /// may fire: one hour on Android 12 (API 31) and later (developer.android.com,
  /// "Schedule alarms"; earlier versions give no bound, and keep this one unless set).
  public var inexactWindow: SimulationDuration = .hours(1)
  /// The shortest `setWindow()` window; shorter ones are stretched to it on
  /// Android 12 and later (`AlarmManager.setWindow` reference: 10 minutes).
  public var minWindow: SimulationDuration = .minutes(10)
  /// Where an inexact or window alarm fires within its window in a single run
  /// (trials draw it: `AndroidAlarm.windowPosition`). Default `latest`.
  public var inexactTiming = InexactAlarmTiming.latest
  /// In Doze, at most one inexact while-idle alarm per this span (power-details
  /// table: "1 per 9 minutes").
  public var whileIdleInexactSpacing: SimulationDuration = .minutes(9)
  /// In Doze, at most this many exact while-idle alarms per rolling hour, as
  /// the scenario states it (`exactWhileIdlePerHour`); nil: the version's
  /// quota (`exactWhileIdleQuota`).
  public var whileIdleExactPerHour: Int?
  /// The exact while-idle quota on Android 12 and later when the scenario
  /// states no figure: a reading, since Google's pages disagree (the
  /// registry's `exactWhileIdleQuota`). Default 72 per hour.
  public var exactWhileIdleReading = ExactWhileIdleQuota.perHour72
  /// Whether alarm-clock alarms are exempt from Doze, the bucket limits and
  /// Battery Saver (doze-standby page: `setAlarmClock()` alarms continue to
  /// fire, the system leaves Doze shortly before). Default true.
  public var alarmClockExemption = true
  /// The app's standby bucket when the scenario states no change: a medicine
  /// app the patient opens most days is "in regular use" (App Standby Buckets
  /// page: working set). The engine passes it as the power timeline's first bucket.
  public var standbyBucket = StandbyBucket.workingSet
  /// Whether the bucket follows the patient's use of the app as AOSP's
  /// `AppStandbyController` does (`StandbyBucketSchedule`): active when the
  /// app is opened, then dropping with the time since at `bucketDecay`'s
  /// thresholds. Default false: the bucket stays `standbyBucket` unless the
  /// scenario changes it (the App Standby Buckets page lets OEMs and a
  /// machine-learning predictor bucket as they like, so no one decay is the platform's).
  public var bucketsFollowUse = false
  /// With `bucketsFollowUse`, when the app drops to each lower bucket
  /// (AOSP `AppStandbyController` elapsed-time thresholds: 12 h, 24 h, 48 h, 8 days).
  public var bucketDecay = StandbyBucketDecay()
  /// Alarm limits per bucket while on battery (power-details table, App Standby
  /// Buckets): active none, working set 10 per hour, frequent 2 per hour, rare 1
  /// per hour, restricted 1 per day.
  public var workingSetAlarms = AlarmQuota(count: 10, per: .hours(1))
  public var frequentAlarms = AlarmQuota(count: 2, per: .hours(1))
  public var rareAlarms = AlarmQuota(count: 1, per: .hours(1))
  public var restrictedAlarms = AlarmQuota(count: 1, per: .hours(24))
  /// On which versions the bucket limits apply. Default every version.
  public var bucketLimitScope = BucketAlarmLimitScope.allVersions
  /// What Battery Saver does to alarms. Default `deferred`.
  public var batterySaverAlarms = BatterySaverAlarms.deferred

  public init() {}

  /// Whether the app holds the exact-alarm permission when the run starts: as
  /// stated, else granted with `USE_EXACT_ALARM`, below Android 12 (no permission
  /// existed), on Android 12–13, or on an upgrade; denied on a fresh install on
  /// Android 14 and later (developer.android.com, Android 14 behaviour changes,
  /// "Schedule exact alarms are denied by default").
  public var initialExactAlarmPermission: Bool {
    if let exactAlarmPermission { return exactAlarmPermission == .granted }
    if useExactAlarm || androidVersion < 14 { return true }
    return install == .upgrade
  }

  /// The exact while-idle quota in Doze: the stated figure per hour; else one
  /// per nine minutes up to Android 11 (doze-standby page: neither
  /// while-idle call fires "more than once per nine minutes, per app"; AOSP
  /// before Android 12: `ALLOW_WHILE_IDLE_LONG_TIME` 9 min); else, from
  /// Android 12, `exactWhileIdleReading`.
  public var exactWhileIdleQuota: AlarmQuota {
    if let whileIdleExactPerHour { return AlarmQuota(count: whileIdleExactPerHour, per: .hours(1)) }
    if androidVersion <= 11 { return ExactWhileIdleQuota.oneIn9Minutes.quota }
    return exactWhileIdleReading.quota
  }

  /// Whether the exact while-idle quota rests on the `exactWhileIdleQuota`
  /// reading (Android 12 and later, no figure stated).
  public var exactWhileIdleQuotaIsAReading: Bool { whileIdleExactPerHour == nil && androidVersion >= 12 }

  /// Whether windows are stretched to `minWindow` and inexact alarms bounded
  /// by `inexactWindow` as documented (Android 12, API 31, and later).
  var hasAPI31AlarmRules: Bool { androidVersion >= 12 }

  /// The alarm limit of `bucket`, or nil when it has none (or the limits do not apply on this version).
  public func quota(for bucket: StandbyBucket) -> AlarmQuota? {
    if bucketLimitScope == .beforeAndroid13 && androidVersion >= 13 { return nil }
    switch bucket {
    case .active: return nil
    case .workingSet: return workingSetAlarms
    case .frequent: return frequentAlarms
    case .rare: return rareAlarms
    case .restricted: return restrictedAlarms
    }
  }

  /// `android-version=14 install=fresh exact-alarms=denied inexact-window=1h
  /// min-window=10m inexact-timing=latest while-idle-spacing=9m
  /// exact-while-idle=72/h bucket=working-set`, then each other setting only
  /// when it differs from its default.
  public var summary: String {
    let defaults = AndroidAlarmRules()
    var words = [
      "android-version=\(androidVersion)", "install=\(install.rawValue)",
      "exact-alarms=\(initialExactAlarmPermission ? "granted" : "denied")",
      "inexact-window=\(inexactWindow)", "min-window=\(minWindow)", "inexact-timing=\(inexactTiming.rawValue)",
      "while-idle-spacing=\(whileIdleInexactSpacing)", "exact-while-idle=\(Self.describe(exactWhileIdleQuota))",
      "bucket=\(standbyBucket.rawValue)",
    ]
    if useExactAlarm != defaults.useExactAlarm { words.append("use-exact-alarm=\(useExactAlarm)") }
    if alarmClockExemption != defaults.alarmClockExemption { words.append("alarm-clock-exempt=\(alarmClockExemption)") }
    if workingSetAlarms != defaults.workingSetAlarms { words.append("working-set-alarms=\(workingSetAlarms)") }
    if frequentAlarms != defaults.frequentAlarms { words.append("frequent-alarms=\(frequentAlarms)") }
    if rareAlarms != defaults.rareAlarms { words.append("rare-alarms=\(rareAlarms)") }
    if restrictedAlarms != defaults.restrictedAlarms { words.append("restricted-alarms=\(restrictedAlarms)") }
    if bucketLimitScope != defaults.bucketLimitScope { words.append("bucket-limits=\(bucketLimitScope.rawValue)") }
    if batterySaverAlarms != defaults.batterySaverAlarms { words.append("battery-saver-alarms=\(batterySaverAlarms.rawValue)") }
    if bucketsFollowUse != defaults.bucketsFollowUse { words.append("buckets-follow-use=\(bucketsFollowUse)") }
    if bucketDecay != defaults.bucketDecay { words.append("bucket-decay=\(bucketDecay)") }
    return words.joined(separator: " ")
  }

  /// `72/h`, `1/9m`.
  static func describe(_ quota: AlarmQuota) -> String {
    quota.period == .hours(1) ? "\(quota.count)/h" : "\(quota.count)/\(quota.period)"
  }
}

/// When the device enters Doze and when its maintenance windows open (the
/// manual, "Android alarms").
public struct DozeRules: Sendable, Equatable {
  /// Whether the device dozes at all. Default true.
  public var enabled = true
  /// How long the screen must be off and the phone unplugged before deep Doze
  /// begins: about an hour (AOSP `DeviceIdleController`: 30 min inactive, 30
  /// min idle-pending, then motion sensing and locating; developer reports of
  /// the first window after 1 h). A single run takes this, the earliest.
  public var enterAfter: SimulationDuration = .hours(1)
  /// Trials only: entry is drawn uniformly in [enterAfter, enterAfter + this)
  /// (AOSP's sensing 4 min and locating 30 s steps that follow the hour).
  public var enterSpread: SimulationDuration = .seconds(270)
  /// The idle spans before the first maintenance windows, each measured from
  /// the end of the previous window (or from entry): 1 h, 2 h, 4 h (AOSP
  /// `DeviceIdleController` idle timeout 1 h doubling; developer reports).
  public var maintenanceAfter: [SimulationDuration] = [.hours(1), .hours(2), .hours(4)]
  /// The idle span between later windows (AOSP's largest idle timeout, 6 h).
  public var maintenanceEvery: SimulationDuration = .hours(6)
  /// How long a maintenance window stays open. It closes once deferred work
  /// is done, but not before 30 s (AOSP `MIN_DEEP_MAINTENANCE_TIME`) and not
  /// after 5–10 min (idle-pending timeout); the shortest is the default, the
  /// reading under which least runs on time.
  public var maintenanceLength: SimulationDuration = .seconds(30)
  /// Trials only: each maintenance window opens later than its idle span
  /// says by a uniform draw in [0, this); later windows follow from it. A
  /// window stays open from AOSP's `MIN_DEEP_MAINTENANCE_TIME` (30 s, this
  /// model's `maintenanceLength`) up to the idle-pending timeout
  /// (`IDLE_PENDING_TIMEOUT`, 5 min) while deferred work runs, and the next
  /// idle span counts from its close, so an opening can come up to 4 min 30 s
  /// later than the shortest windows give. A single run draws nothing (each
  /// window at its earliest).
  public var maintenanceSpread: SimulationDuration = .seconds(270)

  public init() {}

  /// The shortest idle span a scenario may give (`maintenanceAfter`,
  /// `maintenanceEvery`): 5 minutes, the shortest idle timeout of any Doze
  /// stage in AOSP's `DeviceIdleController` (`LIGHT_IDLE_TIMEOUT`; deep
  /// Doze's first is an hour, `IDLE_TIMEOUT`). A floor from the platform, so
  /// that no setting makes maintenance windows by the million over a long clock.
  public static let shortestIdleSpan = SimulationDuration.minutes(5)
  /// The shortest maintenance window a scenario may give: 5 seconds, AOSP's
  /// `MIN_LIGHT_MAINTENANCE_TIME` (a deep window lasts at least 30 s,
  /// `MIN_DEEP_MAINTENANCE_TIME`, this model's default).
  public static let shortestMaintenanceLength = SimulationDuration.seconds(5)

  /// `doze=on enter-after=1h maintenance-after=1h,2h,4h maintenance-every=6h maintenance-length=30s`, or `doze=off`.
  public var summary: String {
    guard enabled else { return "doze=off" }
    let defaults = DozeRules()
    var words = [
      "doze=on", "enter-after=\(enterAfter)", "maintenance-after=\(maintenanceAfter.map(\.description).joined(separator: ","))",
      "maintenance-every=\(maintenanceEvery)", "maintenance-length=\(maintenanceLength)",
    ]
    if enterSpread != defaults.enterSpread { words.append("enter-spread=\(enterSpread)") }
    if maintenanceSpread != defaults.maintenanceSpread { words.append("maintenance-spread=\(maintenanceSpread)") }
    return words.joined(separator: " ")
  }

  /// The idle span before maintenance window `index` (0-based).
  func idleSpan(before index: Int) -> SimulationDuration {
    index < maintenanceAfter.count ? maintenanceAfter[index] : maintenanceEvery
  }
}

/// The app's App Standby bucket (Android 9 and later), which limits how often its alarms run.
public enum StandbyBucket: String, Sendable, CaseIterable {
  case active
  case workingSet = "working-set"
  case frequent
  case rare
  case restricted
}
