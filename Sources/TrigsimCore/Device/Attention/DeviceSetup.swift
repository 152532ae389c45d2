/// The device between a delivery and the patient's eyes, over time: the
/// patient's notification settings for the app, Focus, Scheduled Summary,
/// power and network, and the app's entitlements. With the defaults every
/// delivery is presented at once as a banner with sound (trigsim's behaviour
/// before the attention model), so a scenario states only what differs.
public struct DeviceSetup: Sendable {
  /// The app's entitlements (critical alerts, time-sensitive).
  public var entitlements = AppEntitlements()
  /// Changes to the per-app notification settings, in time order. Before the
  /// first, every setting is on (`AppNotificationSettings()`).
  public var settingsChanges: [NotificationSettingsChange] = []
  /// Focus periods, one-off or daily, in scenario order.
  public var focus: [FocusPeriod] = []
  /// Scheduled Summary, when the patient uses it.
  public var summary: ScheduledSummary?
  /// Power events, in time order. Before the first the phone is on and unlocked.
  public var power: [PowerEvent] = []
  /// Network changes, in time order. Before the first the phone is online.
  public var network: [NetworkChange] = []

  public init() {}

  /// Whether anything differs from an ideal phone (for the timeline header).
  public var isDefault: Bool {
    entitlements == AppEntitlements() && settingsChanges.isEmpty && focus.isEmpty && summary == nil && power.isEmpty
      && network.isEmpty
  }
}

/// The patient's notification settings for the app (Settings ›
/// Notifications › the app; `UNNotificationSettings`). Every one is on by default.
public struct AppNotificationSettings: Sendable, Equatable {
  /// "Allow Notifications": off means nothing of the app is shown.
  public var allow = true
  /// Alerts on the lock screen.
  public var lockScreen = true
  /// Alerts in Notification Center (the list).
  public var notificationCenter = true
  /// Banners while the phone is in use.
  public var banners = true
  public var sounds = true
  public var badges = true
  /// "Time Sensitive Notifications" for this app.
  public var timeSensitive = true
  /// "Critical Alerts" for this app (asked for with `.criticalAlert`).
  public var criticalAlerts = true
  /// "Show Previews": the body is shown always, when unlocked, or never.
  public var previews: PreviewSetting = .always

  public init() {}

  /// `lock-screen,notification-center,banners sounds badges …`, for entries.
  var summary: String {
    let alerts = [("lock-screen", lockScreen), ("notification-center", notificationCenter), ("banners", banners)]
      .filter(\.1).map(\.0)
    var words = ["alerts=\(alerts.isEmpty ? "none" : alerts.joined(separator: ","))"]
    words.append("sounds=\(sounds ? "on" : "off")")
    words.append("badges=\(badges ? "on" : "off")")
    words.append("time-sensitive=\(timeSensitive ? "on" : "off")")
    words.append("critical=\(criticalAlerts ? "on" : "off")")
    words.append("previews=\(previews.rawValue)")
    if !allow { words.insert("allow=off", at: 0) }
    return words.joined(separator: " ")
  }
}

/// "Show Previews" (`UNShowPreviewsSetting`).
public enum PreviewSetting: String, Sendable, CaseIterable {
  case always
  /// Only when the phone is unlocked (the platform's default is "always").
  case whenUnlocked = "when-unlocked"
  case never
}

/// The patient changes some of the app's notification settings at an instant.
public struct NotificationSettingsChange: Sendable {
  public var instant: SimulationInstant
  public var allow: Bool?
  public var lockScreen: Bool?
  public var notificationCenter: Bool?
  public var banners: Bool?
  public var sounds: Bool?
  public var badges: Bool?
  public var timeSensitive: Bool?
  public var criticalAlerts: Bool?
  public var previews: PreviewSetting?
  public var origin: InputLocation?

  public init(instant: SimulationInstant, origin: InputLocation? = nil) {
    self.instant = instant
    self.origin = origin
  }

  /// `settings` with this change applied.
  public func applied(to settings: AppNotificationSettings) -> AppNotificationSettings {
    var result = settings
    if let allow { result.allow = allow }
    if let lockScreen { result.lockScreen = lockScreen }
    if let notificationCenter { result.notificationCenter = notificationCenter }
    if let banners { result.banners = banners }
    if let sounds { result.sounds = sounds }
    if let badges { result.badges = badges }
    if let timeSensitive { result.timeSensitive = timeSensitive }
    if let criticalAlerts { result.criticalAlerts = criticalAlerts }
    if let previews { result.previews = previews }
    return result
  }
}

/// A Focus (Do Not Disturb, Sleep, Work, …) on for a span, once or every day.
///
/// A Focus that does not allow the app silences its notifications: they go
/// to Notification Center without a banner, sound or lit screen and are
/// seen on the lock screen when the Focus ends. Time-sensitive
/// notifications break through when the Focus allows them; critical alerts
/// always do.
public struct FocusPeriod: Sendable {
  public enum Schedule: Sendable {
    /// From `from` (inclusive) to `to` (exclusive).
    case once(from: SimulationInstant, to: SimulationInstant)
    /// Every day (or on the given weekdays, 1 = Sunday … 7 = Saturday, of the
    /// day it starts) in device local time; a span that ends earlier than it
    /// starts runs past midnight.
    case daily(from: DailyTime, to: DailyTime, weekdays: Set<Int>?)
  }

  /// `Sleep`, `Do Not Disturb`, `Work`, … (printed in entries).
  public var name: String
  public var schedule: Schedule
  /// The app is on the Focus's allowed list: its notifications are not silenced.
  public var allowsApp: Bool
  /// The Focus's "Time Sensitive Notifications" switch as the scenario
  /// states it; `false` when it does not (see `timeSensitiveStated`).
  public var allowsTimeSensitive: Bool
  /// Whether the scenario stated the switch. Apple documents no default; an
  /// unstated switch follows the platform's `focusTimeSensitiveDefault`
  /// (silenced unless changed), so a scenario that counts on a breakthrough says so.
  public var timeSensitiveStated: Bool
  public var origin: InputLocation?

  /// `allowsTimeSensitive`: the switch, or nil when the scenario does not state it.
  public init(name: String, schedule: Schedule, allowsApp: Bool = false, allowsTimeSensitive: Bool? = nil, origin: InputLocation? = nil) {
    self.name = name
    self.schedule = schedule
    self.allowsApp = allowsApp
    self.allowsTimeSensitive = allowsTimeSensitive ?? false
    self.timeSensitiveStated = allowsTimeSensitive != nil
    self.origin = origin
  }

  /// The switch in force: as stated, or the platform's default for an unstated one.
  public func allowsTimeSensitive(unstated: FocusTimeSensitiveDefault) -> Bool {
    timeSensitiveStated ? allowsTimeSensitive : unstated == .allowed
  }
}

/// Scheduled Summary: the patient chose times at which notifications of
/// the apps in the summary are shown together, instead of as they come.
/// Time-sensitive and critical notifications are not held.
public struct ScheduledSummary: Sendable, Equatable {
  /// Device local times, at least one (the platform suggests 08:00 and 18:00).
  public var times: [DailyTime]
  /// Whether the patient put this app in the summary.
  public var includesApp: Bool

  public init(times: [DailyTime], includesApp: Bool = true) {
    self.times = times.sorted()
    self.includesApp = includesApp
  }
}

/// Something that happens to the phone's power at an instant.
public struct PowerEvent: Sendable {
  public enum Kind: String, Sendable, CaseIterable {
    /// The patient switches the phone off.
    case switchOff = "switch-off"
    /// The battery runs out: the phone switches itself off.
    case batteryEmpty = "battery-empty"
    /// The phone is switched on; it stays locked until `unlock`.
    case switchOn = "switch-on"
    /// The phone restarts: off now, on again after the platform's boot time,
    /// locked until `unlock`.
    case reboot
    /// The patient unlocks the phone (the first unlock after a start lets
    /// region monitoring run again).
    case unlock
    case lowPowerOn = "low-power-on"
    case lowPowerOff = "low-power-off"
    /// Airplane mode: the phone is unreachable for pushes and region
    /// monitoring is unavailable (Apple, archived Location and Maps
    /// Programming Guide: "the device is in Airplane mode and can't power up
    /// the necessary hardware") until `airplane-mode-off`.
    case airplaneModeOn = "airplane-mode-on"
    case airplaneModeOff = "airplane-mode-off"
    /// The phone is plugged in: Android does not enter Doze while charging,
    /// and App Standby limits do not apply (Android, "Optimize for Doze and
    /// App Standby"). No effect on an iPhone.
    case chargingOn = "charging-on"
    case chargingOff = "charging-off"
  }

  public var instant: SimulationInstant
  public var kind: Kind
  public var origin: InputLocation?

  public init(instant: SimulationInstant, kind: Kind, origin: InputLocation? = nil) {
    self.instant = instant
    self.kind = kind
    self.origin = origin
  }
}

/// The phone goes offline or online (flight mode, no coverage) at an
/// instant; remote pushes wait at the push service meanwhile.
public struct NetworkChange: Sendable {
  public var instant: SimulationInstant
  public var online: Bool
  public var origin: InputLocation?

  public init(instant: SimulationInstant, online: Bool, origin: InputLocation? = nil) {
    self.instant = instant
    self.online = online
    self.origin = origin
  }
}
