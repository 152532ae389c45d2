import Foundation

/// The simulated Android phone as the app's code sees it: `AlarmManager`,
/// `NotificationManager` with channels, `GeofencingClient`, and the device's
/// clock and storage. Every call acts on the run at the callback's instant,
/// with the `android` profile's rules (the manual, "Android profile").
public final class AndroidDevice: @unchecked Sendable {
  public let alarmManager: AlarmManager
  public let notificationManager: NotificationManager
  public let geofencingClient: GeofencingClient
  /// `WorkManager` (AndroidX): deferrable work the system runs when it allows.
  public let workManager: WorkManager
  public let clock: DeviceClock
  /// `SharedPreferences` and files: they outlive the app's process.
  public let storage: DeviceStorage
  /// Notes for the dose table that no platform API carries.
  public let simulation: SimulationNotes
  private unowned let host: AndroidHostedAppLayer

  init(host: AndroidHostedAppLayer) {
    self.host = host
    alarmManager = AlarmManager(host: host)
    notificationManager = NotificationManager(host: host)
    geofencingClient = GeofencingClient(host: host)
    workManager = WorkManager(host: host)
    clock = DeviceClock(host: host)
    storage = DeviceStorage(host: host)
    simulation = SimulationNotes(host: host)
  }

  /// `Build.VERSION.SDK_INT`'s release: the scenario's `android: version:`.
  public var androidVersion: Int {
    host.withRun("AndroidDevice.androidVersion", otherwise: 0) { run, _ in run.layers.phone.android?.settings.alarms.androidVersion ?? 0 }
  }
}

/// `AlarmManager`. Alarms are identified by their tag (an equal
/// `PendingIntent`): setting one with the tag of a pending alarm replaces it.
public final class AlarmManager: @unchecked Sendable {
  private unowned let host: AndroidHostedAppLayer
  init(host: AndroidHostedAppLayer) { self.host = host }

  /// `canScheduleExactAlarms()`: whether exact and alarm-clock alarms are allowed.
  public func canScheduleExactAlarms() -> Bool {
    host.withRun("AlarmManager.canScheduleExactAlarms", otherwise: false) { run, _ in run.layers.phone.android?.exactAlarmsAllowed ?? false }
  }

  /// Sets an alarm of `kind` at `date` (`setExact`, `setExactAndAllowWhileIdle`,
  /// `setAlarmClock`, `set`, `setAndAllowWhileIdle`; `setWindow` with `window`).
  /// Throws `AlarmManagerError.exactAlarmNotPermitted` (the platform's
  /// `SecurityException`) for an exact kind without the permission.
  /// `attribution` (a simulator extension, like a notification's) names the
  /// dose the notification the alarm will post serves: a dose that goes
  /// unnotified because the device cleared this alarm names it as the reason.
  public func set(
    _ kind: AndroidAlarmKind, at date: Date, tag: AlarmTag, window: TimeInterval? = nil, extras: [String: String] = [:],
    attribution: DoseAttribution? = nil
  ) throws {
    try host.withRun("AlarmManager.set", otherwise: ()) { run, now in
      let alarm = AndroidAlarm(
        kind: kind, triggerAt: SimulationInstant(date), window: window.map { SimulationDuration(milliseconds: Int64(($0 * 1000).rounded())) },
        windowPosition: nil)
      guard let android = run.layers.phone.android else { return }
      try android.setAlarm(tag, alarm, extras: extras, attribution: attribution, in: &run, at: now)
    }
  }

  /// `cancel(PendingIntent)`.
  public func cancel(_ tag: AlarmTag) {
    host.withRun("AlarmManager.cancel", otherwise: ()) { run, now in
      let android = run.layers.phone.android
      android?.cancelAlarm(tag, reason: host.removalReason ?? "cancelled by the app", in: &run, at: now)
    }
  }

  /// The alarms the device keeps for the app, in the order set (a
  /// simulator view: the platform offers only `getNextAlarmClock()`).
  public var pendingAlarms: [AlarmTag] {
    host.withRun("AlarmManager.pendingAlarms", otherwise: []) { run, _ in run.layers.phone.android?.alarmsInSetOrder.map(\.tag) ?? [] }
  }
}

/// `NotificationManager` (with `NotificationManagerCompat`'s permission check).
public final class NotificationManager: @unchecked Sendable {
  private unowned let host: AndroidHostedAppLayer
  init(host: AndroidHostedAppLayer) { self.host = host }

  /// `areNotificationsEnabled()`.
  public func areNotificationsEnabled() -> Bool {
    host.withRun("NotificationManager.areNotificationsEnabled", otherwise: false) { run, _ in run.layers.phone.core.installedApp.permission == .granted }
  }

  /// Asks for `POST_NOTIFICATIONS` (Android 13 and later) when it has not
  /// been answered: the patient's answer is `HostedApp.permissionAnswer`.
  /// Returns whether notifications are allowed.
  public func requestPermission() async -> Bool {
    host.withRun("NotificationManager.requestPermission", otherwise: false) { run, now in
      host.requestAuthorization(options: [.alert, .sound], in: &run, at: now)
    }
  }

  /// `createNotificationChannel`: creates the channel; for an existing one
  /// only its name changes (the app cannot change a channel's importance or
  /// Do Not Disturb bypass after creating it; `NotificationChannel` reference).
  public func createNotificationChannel(_ channel: AndroidChannel) {
    host.withRun("NotificationManager.createNotificationChannel", otherwise: ()) { run, now in
      guard let device = run.layers.phone.android else { return }
      if var existing = device.channels[channel.id] {
        existing.name = channel.name
        device.channels[channel.id] = existing
        return
      }
      device.channels[channel.id] = channel
      if host.configuration.recordsAppCalls {
        run.record(.app, "channel", at: now, [
          TimelineField("id", channel.id), TimelineField("importance", channel.importance.rawValue),
          TimelineField("bypass-dnd", channel.bypassDnd ? "yes" : "no"),
        ])
      }
    }
  }

  /// The channel as the patient left it, or nil.
  public func notificationChannel(_ id: String) -> AndroidChannel? {
    host.withRun("NotificationManager.notificationChannel", otherwise: nil) { run, _ in run.layers.phone.android?.channels[id] }
  }

  /// `notify(id, notification)`: shown at once by its channel's rules,
  /// replacing one shown under `id`.
  public func notify(_ id: NotificationID, _ notification: AndroidNotification) {
    host.withRun("NotificationManager.notify", otherwise: ()) { run, now in host.notify(id, notification, in: &run, at: now) }
  }

  /// `cancel(id)`: removes the notification from the shade.
  public func cancel(_ id: NotificationID) {
    host.withRun("NotificationManager.cancel", otherwise: ()) { run, now in
      run.layers.phone.core.clearDelivered(in: &run, at: now, reason: host.removalReason ?? "cancelled by the app") { $0 == id }
    }
  }

  /// `getActiveNotifications()`, oldest first.
  public var activeNotifications: [NotificationID] {
    host.withRun("NotificationManager.activeNotifications", otherwise: []) { run, _ in
      run.layers.phone.core.center.delivered.values.sorted { $0.serial < $1.serial }.map(\.id)
    }
  }
}

/// `GeofencingClient` (Google Play services).
public final class GeofencingClient: @unchecked Sendable {
  private unowned let host: AndroidHostedAppLayer
  init(host: AndroidHostedAppLayer) { self.host = host }

  /// `addGeofences(GeofencingRequest, PendingIntent)`: adds (or replaces by
  /// identifier) the geofences. The request's initial trigger is the
  /// scenario's `android: geofencing: initialTrigger` (default ENTER and
  /// DWELL, the builder's default): a geofence the device is inside fires
  /// ENTER at once and DWELL after its loitering delay. Throws
  /// `GeofencingError` past the limit (100) or while location is off.
  public func addGeofences(_ geofences: [Geofence]) throws {
    try host.withRun("GeofencingClient.addGeofences", otherwise: ()) { run, now in
      try host.addGeofences(geofences, in: &run, at: now)
    }
  }

  /// `removeGeofences(List<String>)`.
  public func removeGeofences(_ ids: [RegionID]) {
    host.withRun("GeofencingClient.removeGeofences", otherwise: ()) { run, now in
      for id in ids { host.removeGeofence(id, reason: "removed by the app", in: &run, at: now) }
    }
  }

  /// The geofences registered now, by identifier.
  public var geofences: [RegionID] {
    host.withRun("GeofencingClient.geofences", otherwise: []) { _, _ in host.monitoredRegions.map(\.spec.identifier) }
  }
}
