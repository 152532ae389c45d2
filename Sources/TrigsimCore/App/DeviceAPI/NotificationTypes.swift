import Foundation

/// A category of notifications and the actions the patient can choose on
/// them (`UNNotificationCategory`). A request names its category with
/// `NotificationRequest.categoryIdentifier`.
public struct NotificationCategory: Hashable, Sendable {
  public var identifier: String
  public var actions: [NotificationAction]
  /// `UNNotificationCategoryOptions.customDismissAction`: the app hears of a
  /// dismissal (`NotificationResponse.dismissActionIdentifier`). Without it
  /// the system removes the notification and tells the app nothing.
  public var customDismissAction: Bool

  public init(identifier: String, actions: [NotificationAction], customDismissAction: Bool = false) {
    self.identifier = identifier
    self.actions = actions
    self.customDismissAction = customDismissAction
  }
}

/// A button on a notification (`UNNotificationAction`, or with `textInput`
/// `UNTextInputNotificationAction`).
///
/// What its options do here (Apple, `UNNotificationActionOptions`):
/// - `.foreground`: choosing it brings the app to the foreground (launching
///   it when it is not running) before its `didReceive` runs: an `app state
///   to=foreground` entry names the action.
/// - `.authenticationRequired`: on the platform the action is performed only
///   on an unlocked device. trigsim's iOS device has no lock state, so the
///   patient is taken to unlock at once: the action is performed at its
///   instant and its `action` entry says `authentication=required`.
/// - `.destructive`: shown in red; no other effect, and not recorded.
/// - `textInput`: the patient types text (`UNTextInputNotificationResponse.userText`),
///   which `HostedApp.typedText` gives; the `action` entry says `text=…`.
public struct NotificationAction: Hashable, Sendable {
  public var identifier: String
  public var title: String
  public var options: NotificationActionOptions
  /// Set for a text-input action (`UNTextInputNotificationAction`): its send button and placeholder.
  public var textInput: TextInputAction?

  public init(identifier: String, title: String, options: NotificationActionOptions = [], textInput: TextInputAction? = nil) {
    self.identifier = identifier
    self.title = title
    self.options = options
    self.textInput = textInput
  }

  /// The earlier spelling of `options: .foreground`.
  @available(*, deprecated, message: "use options: .foreground (UNNotificationActionOptions.foreground)")
  public init(identifier: String, title: String, opensApp: Bool) {
    self.init(identifier: identifier, title: title, options: opensApp ? .foreground : [])
  }

  /// Whether choosing it brings the app to the foreground (`options` contains `.foreground`).
  public var opensApp: Bool { options.contains(.foreground) }
}

/// `UNNotificationActionOptions`.
public struct NotificationActionOptions: OptionSet, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// `.authenticationRequired`: performed only when the device is unlocked.
  public static let authenticationRequired = NotificationActionOptions(rawValue: 1)
  /// `.destructive`: the action deletes or cancels something (shown in red).
  public static let destructive = NotificationActionOptions(rawValue: 2)
  /// `.foreground`: choosing it launches the app into the foreground.
  public static let foreground = NotificationActionOptions(rawValue: 4)
}

/// What makes an action a text-input one (`UNTextInputNotificationAction`).
public struct TextInputAction: Hashable, Sendable {
  /// `textInputButtonTitle`.
  public var buttonTitle: String
  /// `textInputPlaceholder`.
  public var placeholder: String

  public init(buttonTitle: String, placeholder: String) {
    self.buttonTitle = buttonTitle
    self.placeholder = placeholder
  }
}

/// How a notification that arrives while the app is in the foreground is
/// presented (`UNNotificationPresentationOptions`), as the app's will-present
/// callback answers. An empty set presents nothing.
public struct PresentationOptions: OptionSet, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Show a banner.
  public static let banner = PresentationOptions(rawValue: 1)
  /// Keep it in Notification Center.
  public static let list = PresentationOptions(rawValue: 2)
  /// Play its sound.
  public static let sound = PresentationOptions(rawValue: 4)
  /// Apply its badge (in the foreground, only with this option).
  public static let badge = PresentationOptions(rawValue: 8)

  /// `banner,list,sound`, or `none`.
  public var description: String {
    let names = [(Self.banner, "banner"), (.list, "list"), (.sound, "sound"), (.badge, "badge")].filter { contains($0.0) }.map(\.1)
    return names.isEmpty ? "none" : names.joined(separator: ",")
  }
}

/// What the app asks permission for (`UNAuthorizationOptions`).
public struct AuthorizationOptions: OptionSet, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let alert = AuthorizationOptions(rawValue: 1)
  public static let sound = AuthorizationOptions(rawValue: 2)
  public static let badge = AuthorizationOptions(rawValue: 4)
  /// Granted without asking, delivered quietly (`.provisional`).
  public static let provisional = AuthorizationOptions(rawValue: 8)
  public static let timeSensitive = AuthorizationOptions(rawValue: 16)
}

/// The app's notification settings as the device holds them (`UNNotificationSettings`).
public struct NotificationSettings: Hashable, Sendable {
  public var authorizationStatus: NotificationPermission
  public var alertsAllowed: Bool
  public var lockScreen: Bool
  public var notificationCenter: Bool
  public var banners: Bool
  public var sounds: Bool
  public var badges: Bool
}

/// A notification the device delivered (`UNNotification`).
public struct UserNotification: Sendable {
  /// When it was delivered (virtual time).
  public var date: Date
  public var request: NotificationRequest
}

/// The patient's answer to a notification (`UNNotificationResponse`).
public struct NotificationResponse: Sendable {
  /// The patient opened the notification (`UNNotificationDefaultActionIdentifier`).
  public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
  /// The patient dismissed it; sent only for categories with `customDismissAction`
  /// (`UNNotificationDismissActionIdentifier`).
  public static let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

  public var notification: UserNotification
  public var actionIdentifier: String
  /// The text the patient typed, for a text-input action
  /// (`UNTextInputNotificationResponse.userText`); nil for any other response.
  public var userText: String?
}

/// Why `UserNotificationCenter.add(_:)` refused a request. On iOS the first
/// three are exceptions raised when the trigger is made
/// (`UNTimeIntervalNotificationTrigger(timeInterval:repeats:)`); here `add`
/// throws them so a test can see them.
public enum NotificationCenterError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A time interval of zero or less.
  case intervalNotPositive(NotificationID)
  /// A repeating time interval under 60 seconds.
  case repeatingIntervalUnder60Seconds(NotificationID)
  /// A location trigger whose region the scenario does not declare: trigsim
  /// knows where places are only from the scenario.
  case regionNotInScenario(NotificationID, RegionID)
  /// A location trigger on a region that is not a circle.
  case regionNotCircular(NotificationID, RegionID)

  public var description: String {
    switch self {
    case .intervalNotPositive(let id):
      "'\(id)': a time-interval trigger needs an interval greater than 0 (iOS raises an exception)"
    case .repeatingIntervalUnder60Seconds(let id):
      "'\(id)': a repeating time-interval trigger needs an interval of at least 60 seconds (iOS raises an exception: \"time interval must be at least 60 if repeating\")"
    case .regionNotInScenario(let id, let region):
      "'\(id)': region '\(region)' is not in the scenario; declare it under 'regions:' so the simulated world knows where it is"
    case .regionNotCircular(let id, let region):
      "'\(id)': region '\(region)' is a polygon in the scenario; location triggers take circular regions"
    }
  }
}
