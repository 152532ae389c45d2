import Foundation

/// What the medicine-reminder app and its user do during a scenario: the
/// medicines and their edits, the app's state over time, the notification
/// category, and the user's actions on delivered notifications.
public struct MedicineApp: Sendable {
  /// Creations, edits and deletions, in time order (ties in scenario order).
  public var medicineChanges: [MedicineChange]
  /// App state and permission changes, in time order. Before the first one
  /// the app is in the background and notifications are allowed.
  public var appChanges: [AppChange]
  public var category: ReminderCategory
  /// Actions at fixed instants, in time order (ties in scenario order).
  public var userActions: [ScheduledUserAction]
  /// How the user responds to deliveries; the first rule whose pattern
  /// matches a delivered notification applies.
  public var responseRules: [ResponseRule]
  /// How the app keeps its icon badge (default: it sets none).
  public var badge: BadgePolicy = .none
  /// How the app's own code schedules (default: the model's idealised app).
  public var policy = AppPolicy()

  public init(
    medicineChanges: [MedicineChange] = [], appChanges: [AppChange] = [], category: ReminderCategory = ReminderCategory(),
    userActions: [ScheduledUserAction] = [], responseRules: [ResponseRule] = []
  ) {
    self.medicineChanges = medicineChanges
    self.appChanges = appChanges
    self.category = category
    self.userActions = userActions
    self.responseRules = responseRules
  }

  public var isEmpty: Bool { medicineChanges.isEmpty }
}

/// The user creates, edits or deletes a medicine in the app.
public struct MedicineChange: Sendable {
  public enum Kind: Sendable {
    /// The app adds the medicine's requests.
    case create(Medicine)
    /// The app removes every pending request of the medicine, then adds the new version's.
    case edit(Medicine)
    /// The app removes every pending and delivered notification of the medicine.
    case delete(MedicineID)
  }

  public var instant: SimulationInstant
  public var kind: Kind
  public var origin: InputLocation?
  /// The patient makes the change in the app's screens with the app open
  /// (`appOpen: true`): a hosted app comes to the foreground first (an `app
  /// state to=foreground` entry, `didBecomeActive`), and its
  /// `patientChangedMedicine` runs in the foreground. False (the default):
  /// the change reaches the app in whatever state it is in, as before.
  public var appOpen = false

  public init(instant: SimulationInstant, kind: Kind, origin: InputLocation? = nil, appOpen: Bool = false) {
    self.instant = instant
    self.kind = kind
    self.origin = origin
    self.appOpen = appOpen
  }

  public var medicineID: MedicineID {
    switch kind {
    case .create(let medicine), .edit(let medicine): medicine.id
    case .delete(let id): id
    }
  }
}

/// Whether app code can run when a notification is delivered.
public enum AppState: String, Sendable, CaseIterable {
  /// On screen: `willPresent` runs for every delivery, so the app learns of it.
  case foreground
  /// Suspended: deliveries are shown without running app code.
  case background
  /// Not running: as background; action handlers need the system to launch the app.
  case terminated
  /// The patient swiped the app away in the app switcher: as terminated, and
  /// the system does not launch it for background pushes.
  case forceQuit = "force-quit"

  /// Terminated, by the system or by the patient.
  public var isTerminated: Bool { self == .terminated || self == .forceQuit }
}

/// The user's notification authorization for the app (`UNAuthorizationStatus`).
public enum NotificationPermission: String, Sendable, CaseIterable {
  /// Authorized (`.authorized`; a scenario may write `authorized`).
  case granted
  /// `add()` still succeeds, but nothing is kept or shown.
  case denied
  /// The app has not asked yet: requests are kept and deliver, but nothing is shown.
  case notDetermined = "not-determined"
  /// Trial authorization without asking: deliveries go quietly to
  /// Notification Center only (no lock screen, banner, sound or badge).
  case provisional
  /// An App Clip's limited authorization: as granted while it lasts.
  case ephemeral
}

/// The user's location authorization for the app (`CLAuthorizationStatus`).
///
/// `UNLocationNotificationTrigger` needs only when-in-use authorization,
/// because the system monitors the regions itself (Apple,
/// UNLocationNotificationTrigger); without it, location requests never fire.
public enum LocationAuthorization: String, Sendable, CaseIterable {
  /// The app has not asked yet: nothing is monitored.
  case notDetermined = "not-determined"
  /// Enough for location triggers (the default).
  case whenInUse = "when-in-use"
  case always
  /// The user refused: nothing is monitored.
  case denied
  /// Parental controls or a management profile forbid it: as denied.
  case restricted

  var allowsRegionMonitoring: Bool { self == .whenInUse || self == .always }
}

/// Precise Location on or off (`CLAccuracyAuthorization`).
public enum LocationAccuracyAuthorization: String, Sendable, CaseIterable {
  case precise
  /// Reduced accuracy: apps cannot use region monitoring (Apple,
  /// `CLLocationManager.accuracyAuthorization`).
  case approximate
}

/// The app's state or permissions change at an instant.
public struct AppChange: Sendable {
  public var instant: SimulationInstant
  public var state: AppState?
  public var permission: NotificationPermission?
  public var location: LocationAuthorization?
  public var locationAccuracy: LocationAccuracyAuthorization?
  /// The system runs the app's background refresh task at this instant.
  public var backgroundRefresh = false
  /// Android: the patient grants (true) or revokes (false) the exact-alarm permission.
  public var exactAlarms: Bool?
  /// Android: the patient changes a notification channel's importance in Settings.
  public var channel: (id: String, importance: ChannelImportance)?
  /// Android: the app's App Standby bucket is set to this (by the system's
  /// judgement or `adb shell am set-standby-bucket`); see `StandbyBucketSchedule`.
  public var standbyBucket: StandbyBucket?
  public var origin: InputLocation?

  public init(
    instant: SimulationInstant, state: AppState? = nil, permission: NotificationPermission? = nil,
    location: LocationAuthorization? = nil, locationAccuracy: LocationAccuracyAuthorization? = nil, origin: InputLocation? = nil
  ) {
    self.instant = instant
    self.state = state
    self.permission = permission
    self.location = location
    self.locationAccuracy = locationAccuracy
    self.origin = origin
  }
}

/// How the medicine app keeps its icon badge, meant to show how many doses
/// wait for the patient (doses with a notification in Notification Center).
public enum BadgePolicy: String, Sendable, CaseIterable {
  /// The app sets no badge.
  case none
  /// Each request carries `content.badge` = the doses waiting when it is
  /// added, plus one (what most apps write: the number is fixed at `add`),
  /// and the app sets the true count whenever its code runs.
  case countAtAdd = "count-at-add"
  /// Only the app's code sets the badge (`setBadgeCount`), whenever it runs:
  /// in the foreground, in an action handler, on a background push.
  case appCode = "app-code"
}

/// The reminder notifications' category (`UNNotificationCategory`) and what
/// the app does with each action.
public struct ReminderCategory: Sendable {
  /// `.customDismissAction`: without it the platform never tells the app
  /// that the user cleared a notification.
  public var customDismiss: Bool = false
  /// The snooze durations the category offers as actions.
  public var snoozeOptions: [SimulationDuration] = [.minutes(5), .minutes(15), .minutes(30), .minutes(60)]
  /// The duration of a plain `snooze`.
  public var defaultSnooze: SimulationDuration = .minutes(15)
  /// What opening the notification (a tap) does besides telling the app of it.
  public var openCompletes: Bool = false

  public init() {}
}

/// What the user does with a delivered notification.
public enum UserAction: Sendable, Equatable, CustomStringConvertible {
  /// The app re-alerts after the duration and cancels the rest of the dose's chain.
  case snooze(SimulationDuration)
  /// The dose is taken: the app cancels the rest of the chain and clears the dose's delivered notifications.
  case complete
  /// The user clears the notification; the app hears of it only with a custom dismiss action.
  case dismiss
  /// The user taps the notification: the app learns of it.
  case open
  /// An explicit choice to leave the notification alone.
  case ignore

  /// `snooze 15m`, `complete`, ...
  public var description: String {
    switch self {
    case .snooze(let duration): "snooze \(duration)"
    case .complete: "complete"
    case .dismiss: "dismiss"
    case .open: "open"
    case .ignore: "ignore"
    }
  }
}

/// A user action at a fixed instant on a named notification.
///
/// The notification must be in Notification Center at that instant
/// (delivered and not yet removed); otherwise the run reports an input error
/// at `origin`.
public struct ScheduledUserAction: Sendable {
  public var instant: SimulationInstant
  public var notification: NotificationID
  public var action: UserAction
  public var origin: InputLocation?

  public init(instant: SimulationInstant, notification: NotificationID, action: UserAction, origin: InputLocation? = nil) {
    self.instant = instant
    self.notification = notification
    self.action = action
    self.origin = origin
  }
}

/// How the user responds to deliveries of matching notifications: `after`
/// each delivery, the next action of `actions` for that dose (per rule and
/// dose); once the list is used up, later deliveries get no response.
///
/// A response is planned per delivery; if the notification has left
/// Notification Center by then, there is nothing to respond to and no step
/// is used.
public struct ResponseRule: Sendable {
  public var pattern: IdentifierPattern
  public var after: SimulationDuration
  public var actions: [UserAction]
  public var origin: InputLocation?

  public init(pattern: IdentifierPattern, after: SimulationDuration, actions: [UserAction], origin: InputLocation? = nil) {
    self.pattern = pattern
    self.after = after
    self.actions = actions
    self.origin = origin
  }
}

/// A glob over notification identifiers: `*` matches any run of characters
/// (including none), `?` one character; everything else matches itself.
public struct IdentifierPattern: Sendable, CustomStringConvertible {
  public let text: String
  private let characters: [Character]

  public init(_ text: String) {
    self.text = text
    self.characters = Array(text)
  }

  public var description: String { text }

  public func matches(_ identifier: String) -> Bool {
    let subject = Array(identifier)
    // Iterative glob matching with one backtrack point (linear in practice).
    var p = 0
    var s = 0
    var starAt: Int? = nil
    var matchAfterStar = 0
    while s < subject.count {
      if p < characters.count, characters[p] == "?" || (characters[p] != "*" && characters[p] == subject[s]) {
        p += 1
        s += 1
      } else if p < characters.count, characters[p] == "*" {
        starAt = p
        matchAfterStar = s
        p += 1
      } else if let star = starAt {
        p = star + 1
        matchAfterStar += 1
        s = matchAfterStar
      } else {
        return false
      }
    }
    while p < characters.count, characters[p] == "*" { p += 1 }
    return p == characters.count
  }
}

extension MedicineApp {
  /// The app's spans in the foreground, known before the run: from each
  /// `app:` change to the foreground to the next change out of it (the last
  /// one open until `end`).
  func foregroundSpans(until end: SimulationInstant) -> [Range<SimulationInstant>] {
    var spans: [Range<SimulationInstant>] = []
    var since: SimulationInstant?
    // In time order (of equal instants, as listed), as the queue applies them.
    let ordered = appChanges.enumerated().sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }
    for change in ordered.map(\.element) {
      guard let state = change.state else { continue }
      if state == .foreground, since == nil { since = change.instant }
      if state != .foreground, let start = since {
        spans.append(start..<max(start, change.instant))
        since = nil
      }
    }
    if let start = since { spans.append(start..<max(start, end)) }
    return spans
  }
}
