import Foundation

/// A team's Android build on the simulated Android phone: the entry points
/// the platform calls (`Application.onCreate`, the activity, the manifest's
/// broadcast receivers, the `PendingIntent`s of its alarms, notification
/// actions and geofences). App code reaches the device only through the
/// `AndroidDevice` it was made with and reads the time from `device.clock`.
///
/// Every callback may be `async`; it runs to completion at its instant. Each
/// has a default that does nothing. A force-stopped app gets none of them
/// until the patient opens it (`onActivityResumed`).
public protocol AndroidApp: AnyObject {
  /// `Application.onCreate()`: the process started (at the run's start, or
  /// when the system starts it for a receiver, or the patient opens it).
  func onCreate() async
  /// The patient opened the app (`Activity.onResume()`).
  func onActivityResumed() async
  /// The app left the screen (`Activity.onPause()`).
  func onActivityPaused() async
  /// One of the app's alarms went off: its `PendingIntent` reached the app's receiver.
  func onAlarm(_ alarm: AlarmIntent) async
  /// A system broadcast the app's manifest asks for.
  func onBroadcast(_ broadcast: SystemBroadcast) async
  /// WorkManager runs one of the app's work requests (`Worker.doWork()`): at
  /// the earliest instant the system allows after its schedule (the manual,
  /// "Android work scheduling").
  func doWork(_ work: WorkRequestInfo) async
  /// A geofence transition the app asked for (`GeofencingEvent` from its `PendingIntent`).
  func onGeofenceTransition(_ event: GeofenceEvent) async
  /// The patient tapped the notification or one of its action buttons (the
  /// action's `PendingIntent`); dismissing (a swipe) is reported only when
  /// the notification has a delete intent.
  func onNotificationAction(_ action: AndroidNotificationResponse) async
  /// The patient created, edited or deleted a medicine in the app's screens.
  func patientChangedMedicine(_ change: MedicineEdit) async
  /// After the last of the scenario's medicine changes at one instant.
  func patientFinishedChangingMedicines() async
  /// `FirebaseMessagingService.onMessageReceived`: a data message, or a
  /// notification message while the app is in the foreground (in the
  /// background the system shows a notification message without the app).
  func onMessageReceived(_ message: RemoteMessage) async
  /// `FirebaseMessagingService.onDeletedMessages`: FCM discarded messages it
  /// kept for the phone (more than it stores); a careful app syncs in full.
  func onDeletedMessages() async
}

extension AndroidApp {
  public func onCreate() async {}
  public func onActivityResumed() async {}
  public func onActivityPaused() async {}
  public func onAlarm(_ alarm: AlarmIntent) async {}
  public func onBroadcast(_ broadcast: SystemBroadcast) async {}
  public func doWork(_ work: WorkRequestInfo) async {}
  public func onGeofenceTransition(_ event: GeofenceEvent) async {}
  public func onNotificationAction(_ action: AndroidNotificationResponse) async {}
  public func patientChangedMedicine(_ change: MedicineEdit) async {}
  public func patientFinishedChangingMedicines() async {}
  public func onMessageReceived(_ message: RemoteMessage) async {}
  public func onDeletedMessages() async {}
}

/// The intent an alarm delivers: its tag and the extras the app put in it.
public struct AlarmIntent: Sendable, Equatable {
  public var tag: AlarmTag
  public var extras: [String: String]
  /// The instant the app asked for, and the instant it fired.
  public var triggerAt: Date
  public var firedAt: Date
}

/// The system broadcasts a medicine app's manifest receives.
public enum SystemBroadcast: String, Sendable, CaseIterable {
  /// `ACTION_LOCKED_BOOT_COMPLETED`: after a boot, before the first unlock;
  /// only receivers that are direct-boot aware get it.
  case lockedBootCompleted = "LOCKED_BOOT_COMPLETED"
  /// `ACTION_BOOT_COMPLETED`: after the first unlock following a boot
  /// (needs `RECEIVE_BOOT_COMPLETED`). Registered alarms did not survive the boot.
  case bootCompleted = "BOOT_COMPLETED"
  /// `ACTION_SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED`: the patient granted
  /// the exact-alarm permission (sent on grant only; a revocation kills the app instead).
  case exactAlarmPermissionGranted = "SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED"
  /// `PROVIDERS_CHANGED` with location on again: geofences were removed while it was off.
  case locationProvidersChanged = "PROVIDERS_CHANGED"
}

/// A geofence transition as the app's receiver gets it.
public struct GeofenceEvent: Sendable, Equatable {
  public var transition: GeofenceTransition
  public var geofence: RegionID
  public var reason: String?
}

/// The patient's tap on a posted notification.
public struct AndroidNotificationResponse: Sendable, Equatable {
  public var notification: NotificationID
  /// The action button's identifier, `AndroidNotificationResponse.contentTap`, or `.dismissed`.
  public var action: String
  public var extras: [String: String]
  /// A tap on the notification's body (its content intent).
  public static let contentTap = "content"
  /// A swipe away (its delete intent).
  public static let dismissed = "delete"
}

/// What the app posts (`NotificationCompat.Builder`).
public struct AndroidNotification: Sendable {
  public var title: String
  public var body: String?
  /// The channel (Android 8 and later: without one that exists, nothing is shown).
  public var channel: String
  public var category: AndroidNotificationCategory?
  /// Action buttons' identifiers (`addAction`), in order.
  public var actions: [String]
  /// `setDeleteIntent`: the app hears when the patient swipes it away.
  public var reportsDismissal: Bool
  public var extras: [String: String]
  /// Printed after the standard fields of its `fired` entry.
  public var userInfo: [TimelineField]
  /// Which dose it serves (for the dose table).
  public var doseAttribution: DoseAttribution?

  public init(
    title: String, body: String? = nil, channel: String, category: AndroidNotificationCategory? = nil, actions: [String] = [],
    reportsDismissal: Bool = false, extras: [String: String] = [:], userInfo: [TimelineField] = [], doseAttribution: DoseAttribution? = nil
  ) {
    self.title = title
    self.body = body
    self.channel = channel
    self.category = category
    self.actions = actions
    self.reportsDismissal = reportsDismissal
    self.extras = extras
    self.userInfo = userInfo
    self.doseAttribution = doseAttribution
  }
}

/// A geofence as the app builds it (`Geofence.Builder`): a circle of the scenario.
public struct Geofence: Sendable, Equatable {
  public var id: RegionID
  public var center: Coordinate
  public var radius: Double
  public var options: GeofenceOptions

  public init(id: RegionID, center: Coordinate, radius: Double, options: GeofenceOptions = GeofenceOptions()) {
    self.id = id
    self.center = center
    self.radius = radius
    self.options = options
  }
}

/// `GeofenceStatusCodes` the geofencing client fails with.
public enum GeofencingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `GEOFENCE_TOO_MANY_GEOFENCES`: more than the limit (100) per app.
  case tooManyGeofences(limit: Int)
  /// `GEOFENCE_NOT_AVAILABLE`: location is off, or the app lacks background location.
  case notAvailable(String)
  /// The geofence is not a circle of the scenario.
  case notInScenario(RegionID)

  public var description: String {
    switch self {
    case .tooManyGeofences(let limit): "GEOFENCE_TOO_MANY_GEOFENCES: an app may register at most \(limit) geofences"
    case .notAvailable(let why): "GEOFENCE_NOT_AVAILABLE: \(why)"
    case .notInScenario(let id): "geofence '\(id)' is not a circle of the scenario with this centre and radius"
    }
  }
}
