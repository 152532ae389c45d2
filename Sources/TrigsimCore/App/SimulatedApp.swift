import Foundation

/// A team's app on the simulated phone: the callbacks of its application
/// delegate (`UIApplicationDelegate`, `BGTaskScheduler`'s handler). Its
/// notification and location callbacks are the delegates it sets on
/// `UserNotificationCenter` and `LocationManager`, as on the platform.
///
/// Every callback may be synchronous or `async`; it runs to completion at its
/// instant before virtual time moves on. Each has a default that does
/// nothing, so an app implements only what it uses. App code reaches the
/// device only through the `SimulatedDevice` it was made with, and reads the
/// time from `device.clock`, never from `Date()`.
///
/// Callbacks run only in the app states in which the platform runs them
/// (the manual, "Your app in the loop"): a force-quit app is not launched for
/// background pushes or background refresh, nor, by default
/// (`PlatformSettings.forceQuitLocationLaunch`), for region events.
public protocol SimulatedApp: AnyObject {
  /// `application(_:didFinishLaunchingWithOptions:)`: the system started the app.
  func didFinishLaunching(reason: LaunchReason) async
  /// `applicationDidBecomeActive(_:)`: the app came to the foreground.
  func didBecomeActive() async
  /// `applicationDidEnterBackground(_:)`: the app left the foreground.
  func didEnterBackground() async
  /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`
  /// for a background (content-available) push.
  func didReceiveRemoteNotification(_ userInfo: [String: String]) async
  /// The handler of a `BGAppRefreshTask` the app asked for with `Application.submit(_:)`.
  func performBackgroundRefresh(_ request: BackgroundRefreshRequest) async
  /// The patient created, edited or deleted a medicine in the app's screens
  /// (the scenario's `medicines:`).
  func patientChangedMedicine(_ change: MedicineEdit) async
  /// After the last of the scenario's medicine changes at one instant (several
  /// medicines entered at once, as an import does): an app that saves them
  /// as one batch adds its requests here.
  func patientFinishedChangingMedicines() async
}

extension SimulatedApp {
  public func didFinishLaunching(reason: LaunchReason) async {}
  public func didBecomeActive() async {}
  public func didEnterBackground() async {}
  public func didReceiveRemoteNotification(_ userInfo: [String: String]) async {}
  public func performBackgroundRefresh(_ request: BackgroundRefreshRequest) async {}
  public func patientChangedMedicine(_ change: MedicineEdit) async {}
  public func patientFinishedChangingMedicines() async {}
}

/// What the patient did to a medicine in the app.
public enum MedicineEdit: Sendable {
  case created(Medicine)
  case edited(Medicine)
  case deleted(MedicineID)
}

/// `UNUserNotificationCenterDelegate`.
public protocol UserNotificationCenterDelegate: AnyObject {
  /// A notification arrived while the app is in the foreground: how to present it.
  /// The default presents nothing, as on the platform when the delegate does
  /// not implement it.
  func willPresent(_ notification: UserNotification) async -> PresentationOptions
  /// The patient acted on a notification (an action, open, or, with a custom
  /// dismiss action, dismiss).
  func didReceive(_ response: NotificationResponse) async
}

extension UserNotificationCenterDelegate {
  public func willPresent(_ notification: UserNotification) async -> PresentationOptions { [] }
  public func didReceive(_ response: NotificationResponse) async {}
}

/// `CLLocationManagerDelegate`.
public protocol LocationManagerDelegate: AnyObject {
  func didEnterRegion(_ region: CircularRegionSpec) async
  func didExitRegion(_ region: CircularRegionSpec) async
  func monitoringDidFail(for region: CircularRegionSpec, error: LocationManagerError) async
  /// `locationManagerDidChangeAuthorization(_:)`.
  func didChangeAuthorization() async
  /// A location update (`didUpdateLocations`), from either service; by
  /// default `didUpdateLocation(_:from:)` forwards here, as the platform has one callback for both.
  func didUpdateLocation(_ coordinate: Coordinate) async
  /// A location update and the service that sent it. On the platform an app
  /// tells the two apart by the `CLLocationManager` instance that reports;
  /// trigsim's device has one manager, so it names the service instead.
  func didUpdateLocation(_ coordinate: Coordinate, from service: LocationUpdateService) async
}

/// The location service that reported a location update.
public enum LocationUpdateService: String, Sendable {
  /// `startUpdatingLocation()`: every fix while the app runs in the foreground (after `distanceFilter`).
  case standard
  /// `startMonitoringSignificantLocationChanges()`.
  case significantChange = "significant-change"
}

extension LocationManagerDelegate {
  public func didEnterRegion(_ region: CircularRegionSpec) async {}
  public func didExitRegion(_ region: CircularRegionSpec) async {}
  public func monitoringDidFail(for region: CircularRegionSpec, error: LocationManagerError) async {}
  public func didChangeAuthorization() async {}
  public func didUpdateLocation(_ coordinate: Coordinate) async {}
  public func didUpdateLocation(_ coordinate: Coordinate, from service: LocationUpdateService) async {
    await didUpdateLocation(coordinate)
  }
}

/// Which dose a hosted app's request serves, for the dose table. A team
/// supplies this mapping from its own identifiers or `userInfo`
/// (`HostedApp.attribution`); without one, trigsim matches identifiers
/// against the scenario's `policy: identifiers:` templates.
public enum DoseAttribution: Sendable, Equatable {
  /// The reminder of a medicine's daily time: its delivery opens that day's dose.
  case reminder(MedicineID, time: DailyTime)
  /// A location reminder; posted from a region callback, it answers that visit's dose.
  case location(MedicineID)
  /// The reminder of a medicine's daily time that app code posts when its
  /// alarm fires (Android): it answers the dose due at `due`, however late it
  /// is posted, so the dose table shows the lateness.
  case postedReminder(MedicineID, time: DailyTime, due: Date)
  /// Follow-up `number` of a dose of the daily time: the dose due at `due`
  /// (the instant the app computed the reminder for; the dose whose
  /// prescription window holds it), or, without `due`, the latest dose of
  /// the daily time due by the time it fires. Give `due` when a follow-up
  /// can fire after the next dose is due (a chain longer than the gap
  /// between doses, a time-zone change, a chain the app forgot to cancel).
  case followUp(MedicineID, time: DailyTime, number: Int, due: Date? = nil)
  /// A snoozed re-alert of a dose of the daily time: the dose due at `due`,
  /// or, without it, the latest dose of the daily time due by the time it fires.
  case snoozedAlert(MedicineID, time: DailyTime, due: Date? = nil)
  /// Follow-up `number` of exactly `dose`, a daily or a location dose, as
  /// `SimulationNotes.dose(answeredBy:)` or `prescribedDose(of:at:firingAt:)`
  /// named it; `due` is when that dose was due, for a dose that has no record
  /// yet when the follow-up fires.
  case followUpOfDose(DoseKey, number: Int, due: Date? = nil)
  /// A snoozed re-alert of exactly `dose` (see `followUpOfDose`).
  case snoozedAlertOfDose(DoseKey, due: Date? = nil)
}

extension DoseAttribution {
  /// The daily time of a medicine it belongs to (nil: a location dose, or a dose named by its key).
  var dailySlot: HostedAppLayer.ReminderSlot? {
    switch self {
    case .reminder(let id, let time), .postedReminder(let id, let time, _), .followUp(let id, let time, _, _), .snoozedAlert(let id, let time, _):
      HostedAppLayer.ReminderSlot(medicine: id, time: time)
    case .location, .followUpOfDose, .snoozedAlertOfDose:
      nil
    }
  }
}

/// The app under test: a team's app, or the scenario's medicine app (`MedicineReminderApp.hosted(for:)`):
/// `Simulation(scenario, app: HostedApp { device in MyApp(device) })`.
///
/// `make` is called at each launch of the app's process: at the run's start
/// (and each trial's), and again whenever the system launches the app after
/// it was terminated. Each instance gets the same device; what the app must
/// keep across a termination it keeps in `device.storage`.
public struct HostedApp: Sendable {
  public var make: @Sendable (SimulatedDevice) -> any SimulatedApp
  /// Which dose each request serves (nil: the scenario's identifier templates).
  public var attribution: (@Sendable (NotificationRequest) -> DoseAttribution?)?
  /// The patient's answer when the app asks for notification permission
  /// while it is not determined (`granted` or `denied`).
  public var permissionAnswer: NotificationPermission
  /// How the app's process lives and dies (default `.platform`).
  public var processModel: AppProcessModel
  /// Whether location triggers may name a polygon region of the scenario
  /// (default false: `add` throws `regionNotCircular`, as the platform takes
  /// circles only). The scenario's medicine app accepts them, as the
  /// scenario's own `notifications:` always have.
  public var acceptsPolygonRegions: Bool
  /// Whether the timeline has an `app` entry for each callback that runs
  /// (`app didReceive notification=… action=… state=background`). False
  /// leaves them out, for timelines that show only what the device and the
  /// patient did; a callback that could not run is recorded either way
  /// (`ran=no` and why), since it explains a loss.
  public var recordsCallbacks: Bool
  /// Whether the timeline has an `app` entry for each of the app's calls that
  /// only its own account shows (`monitoring … change=started`,
  /// `significant-changes`, `background-refresh-request`). False leaves them
  /// out; what the calls do (a failure, the monitoring itself) is recorded either way.
  public var recordsAppCalls: Bool
  /// Whether the world's `medicine` entries show each medicine's follow-up
  /// chain (`snooze="6m x10 upfront"`), which the scenario's `medicines:`
  /// declare for the scenario's medicine app (default false: a team's app has
  /// its own chain, which the scenario does not describe).
  public var medicineEntriesShowChains: Bool
  /// How a scenario's action on a notification becomes the action identifier
  /// the app hears (default: `complete` → "complete", `snooze 15m` →
  /// "snooze-15m", `open` and `dismiss` → the platform's identifiers).
  public var actionIdentifier: @Sendable (UserAction) -> String
  /// Whether this is the scenario's own medicine app (`medicines:`,
  /// `policy:`; `MedicineReminderApp.hosted(for:)`), which a scenario written
  /// for a team's app (`appUnderTest: swift`) refuses (default false).
  public var isScenarioMedicineApp = false
  /// The app's Android build, run when the scenario runs on `android` (nil:
  /// the app has none, and such a run stops naming it).
  public var makeAndroid: (@Sendable (AndroidDevice) -> any AndroidApp)?
  /// The system broadcasts the Android build's manifest receives
  /// (`RECEIVE_BOOT_COMPLETED`; `LOCKED_BOOT_COMPLETED` only with a
  /// direct-boot-aware receiver). Default: none.
  public var androidBroadcasts: Set<SystemBroadcast> = []
  /// The Android build's manifest entry
  /// `com.google.firebase.messaging.default_notification_channel_id`: the
  /// channel a notification message naming none (or one the app never
  /// created) is shown in. nil (the default): FCM's own fallback channel,
  /// "Miscellaneous", which the FCM library creates with default importance
  /// ("Set up a Firebase Cloud Messaging client app on Android").
  public var androidDefaultNotificationChannel: String?
  /// What the patient types when they choose a text-input action
  /// (`NotificationAction.textInput`) on notification `id` (the action's
  /// identifier second): the response's `userText`. Default: nothing typed, "".
  public var typedText: @Sendable (NotificationID, String) -> String = { _, _ in "" }

  public init(
    attribution: (@Sendable (NotificationRequest) -> DoseAttribution?)? = nil,
    permissionAnswer: NotificationPermission = .granted,
    actionIdentifier: @escaping @Sendable (UserAction) -> String = HostedApp.defaultActionIdentifier,
    recordsCallbacks: Bool = true,
    recordsAppCalls: Bool = true,
    medicineEntriesShowChains: Bool = false,
    processModel: AppProcessModel = .platform,
    acceptsPolygonRegions: Bool = false,
    make: @escaping @Sendable (SimulatedDevice) -> any SimulatedApp
  ) {
    self.make = make
    self.recordsCallbacks = recordsCallbacks
    self.recordsAppCalls = recordsAppCalls
    self.medicineEntriesShowChains = medicineEntriesShowChains
    self.processModel = processModel
    self.acceptsPolygonRegions = acceptsPolygonRegions
    self.attribution = attribution
    self.permissionAnswer = permissionAnswer
    self.actionIdentifier = actionIdentifier
  }

  /// `complete` → "complete", `snooze 15m` → "snooze-15m", `open` →
  /// `NotificationResponse.defaultActionIdentifier`, `dismiss` →
  /// `NotificationResponse.dismissActionIdentifier`, `ignore` → "ignore".
  @Sendable public static func defaultActionIdentifier(_ action: UserAction) -> String {
    switch action {
    case .complete: "complete"
    case .snooze(let duration): "snooze-\(duration)"
    case .open: NotificationResponse.defaultActionIdentifier
    case .dismiss: NotificationResponse.dismissActionIdentifier
    case .ignore: "ignore"
    }
  }
}

/// How a hosted app's process lives and dies.
public enum AppProcessModel: Sendable {
  /// As on the platform: a terminated or force-quit app has no process; the
  /// system launches a new instance (`HostedApp.make`) in the background for
  /// the events that wake it (an `app state … reason="the system launched the
  /// app (…)"` entry), and only `device.storage` survives.
  case platform
  /// The model the scenario's medicine app has always run under: one
  /// instance for the whole run, whose memory survives termination; its code
  /// runs in whatever state the scenario's `app:` changes and power events
  /// give it, and the events that would launch it leave the state alone.
  case persistent
}

/// App code misused the simulated device: it waited on something trigsim
/// does not drive (real time, the main actor, a network call), or called the
/// device outside a callback. The run stops at the callback that misbehaved.
public struct AppCodeError: Error, Sendable, CustomStringConvertible {
  /// The callback that was running (`didEnterRegion`, `willPresent`, ...).
  public var callback: String
  public var instant: String
  public var problem: String

  public var description: String { "app code error in \(callback) at \(instant): \(problem)" }
}
