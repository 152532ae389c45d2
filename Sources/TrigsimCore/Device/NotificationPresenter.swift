/// What the device does with a notification that has been delivered: the
/// step between `fired` (or a push `received`) and what the patient can
/// perceive. A platform profile provides it (`PlatformSettings.makePresenter`),
/// beside the location service; the engine asks it and records its answer.
///
/// The presenter is pure: it decides from the delivery and the device's
/// state at that instant (`AttentionContext`). Releasing what it held (a
/// Focus ending, a summary time) is the engine's: it asks again then.
protocol NotificationPresenter {
  /// How a delivery at this instant is presented.
  func perception(of delivery: DeliveryAttributes, in context: AttentionContext) -> Perception
}

/// What about a delivery decides its presentation.
struct DeliveryAttributes: Equatable {
  var interruptionLevel: InterruptionLevel
  /// The content has a sound.
  var sound: Bool
  /// Android: the channel it was posted to (nil on iOS).
  var channel: String? = nil
  /// Android: `Notification.category` (nil: none, or iOS).
  var category: AndroidNotificationCategory? = nil
}

/// The device's state that decides presentation, at one instant.
struct AttentionContext {
  var authorization: NotificationPermission
  var settings: AppNotificationSettings
  var entitlements: AppEntitlements
  /// The Focus in force, if any.
  var focus: ActiveFocus?
  /// The next Scheduled Summary time, when the patient put the app in the summary.
  var nextSummary: SimulationInstant?
  /// Android: the app's notification channels by identifier (empty on iOS).
  var channels: [String: AndroidChannel] = [:]
}

/// A Focus in force at an instant.
struct ActiveFocus: Equatable {
  var name: String
  var allowsApp: Bool
  var allowsTimeSensitive: Bool
  /// When it ends (nil: not within the run).
  var until: SimulationInstant?
}

/// How an alert is shown.
struct AlertStyle: Equatable {
  var banner: Bool
  var lockScreen: Bool
  var sound: Bool

  /// Everything on: trigsim's presentation before the attention model.
  static let full = AlertStyle(banner: true, lockScreen: true, sound: true)

  /// `banner+lock-screen+sound`, or `silent` when the alert lights the screen only.
  var description: String {
    let parts = [("banner", banner), ("lock-screen", lockScreen), ("sound", sound)].filter(\.1).map(\.0)
    return parts.isEmpty ? "none" : parts.joined(separator: "+")
  }
}

/// The presenter's answer for one delivery.
enum Perception: Equatable {
  /// An alert the patient perceives now; `note` says what about it is not
  /// plain (a Focus broken through, sound off), nil when nothing is.
  case alert(AlertStyle, note: String?)
  /// Silenced by a Focus: in Notification Center now, seen on the lock
  /// screen when the Focus ends.
  case heldByFocus(ActiveFocus, reason: String)
  /// Held for Scheduled Summary, shown with it at `at`.
  case heldForSummary(at: SimulationInstant, reason: String)
  /// Delivered quietly to Notification Center (or the lock screen without
  /// lighting it): there if the patient looks, but no alert.
  case quiet(reason: String)
  /// Not shown at all (the request still counts as delivered), and why in
  /// words and as a cause (the `suppressed` entry's `cause`).
  case notShown(reason: String, cause: SuppressionCause)

  /// The patient is alerted now.
  var alertsNow: Bool {
    if case .alert = self { return true }
    return false
  }
}

/// iOS 15 and later: authorization, the per-app settings, interruption
/// levels, Focus and Scheduled Summary, in that order. Each rule's source is
/// in the manual ("From fired to seen").
struct IOSPresenter: NotificationPresenter {
  func perception(of delivery: DeliveryAttributes, in context: AttentionContext) -> Perception {
    let settings = context.settings
    switch context.authorization {
    case .denied:
      return .notShown(reason: "notification permission denied: the platform shows nothing", cause: .permission)
    case .notDetermined:
      return .notShown(reason: "notification authorization not determined: the app never asked, so the platform shows nothing", cause: .permission)
    case .provisional:
      return .quiet(reason: "provisional authorization: delivered quietly to Notification Center only (no lock screen, banner or sound)")
    case .granted, .ephemeral:
      break
    }
    guard settings.allow else { return .notShown(reason: "notifications for the app are off in Settings", cause: .settings) }
    guard settings.lockScreen || settings.banners || settings.notificationCenter else {
      return .notShown(reason: "every alert style (lock screen, Notification Center, banners) is off in Settings", cause: .settings)
    }
    let level = effectiveLevel(delivery.interruptionLevel, context)
    var downgrade: String?
    if level.level != delivery.interruptionLevel { downgrade = level.reason }
    if level.level == .passive {
      return .quiet(reason: "passive interruption level: added to Notification Center without lighting the screen or a sound")
    }
    guard settings.lockScreen || settings.banners else {
      return .quiet(reason: "only Notification Center is on in Settings (no lock screen, no banners): listed without an alert")
    }
    let style = AlertStyle(
      banner: settings.banners, lockScreen: settings.lockScreen,
      sound: delivery.sound && (settings.sounds || level.level == .critical))
    var notes: [String] = []
    if let downgrade { notes.append(downgrade) }
    if level.level == .critical {
      if let focus = context.focus, !focus.allowsApp { notes.append("critical alert: breaks through Focus '\(focus.name)'") }
      if !settings.sounds && delivery.sound { notes.append("critical alert: plays its sound although sounds are off") }
      return .alert(style, note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }
    if level.level == .active, let summaryAt = context.nextSummary {
      return .heldForSummary(at: summaryAt, reason: (notes + ["the app is in Scheduled Summary: held until the next summary"]).joined(separator: "; "))
    }
    if let focus = context.focus, !focus.allowsApp {
      if level.level == .timeSensitive && focus.allowsTimeSensitive {
        notes.append("time-sensitive: breaks through Focus '\(focus.name)'")
      } else {
        let why = level.level == .timeSensitive
          ? "Focus '\(focus.name)' does not allow time-sensitive notifications"
          : "Focus '\(focus.name)' does not allow the app; only time-sensitive and critical notifications break through"
        return .heldByFocus(focus, reason: (notes + [why]).joined(separator: "; "))
      }
    }
    if !delivery.sound { notes.append("the notification has no sound") } else if !style.sound { notes.append("sounds are off in Settings") }
    if !style.banner { notes.append("banners are off in Settings") }
    if !style.lockScreen { notes.append("lock screen alerts are off in Settings") }
    switch settings.previews {
    case .always: break
    case .whenUnlocked: notes.append("previews only when unlocked: the lock screen shows the app's name, not the title or body")
    case .never: notes.append("previews never: only the app's name is shown, not the title or body")
    }
    if level.level == .timeSensitive && context.nextSummary != nil { notes.append("time-sensitive: not held by Scheduled Summary") }
    return .alert(style, note: notes.isEmpty ? nil : notes.joined(separator: "; "))
  }

  /// The level the platform applies: time-sensitive and critical need the
  /// entitlement and the patient's setting; without them they are active.
  func effectiveLevel(_ level: InterruptionLevel, _ context: AttentionContext) -> (level: InterruptionLevel, reason: String?) {
    switch level {
    case .critical:
      if !context.entitlements.criticalAlerts {
        return (.active, "critical without the critical-alerts entitlement: presented as active")
      }
      if !context.settings.criticalAlerts { return (.active, "critical alerts are off in Settings: presented as active") }
      return (.critical, nil)
    case .timeSensitive:
      if !context.entitlements.timeSensitive {
        return (.active, "time-sensitive without the Time Sensitive Notifications capability: presented as active")
      }
      if !context.settings.timeSensitive { return (.active, "time-sensitive notifications are off in Settings: presented as active") }
      return (.timeSensitive, nil)
    case .active, .passive:
      return (level, nil)
    }
  }
}
