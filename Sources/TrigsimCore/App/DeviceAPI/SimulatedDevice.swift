import Foundation

/// The simulated phone as the app sees it: what an app's injected
/// dependencies are replaced with so that its code runs against trigsim's
/// device (the notification center with the 64 limit, Focus and time; the
/// location manager with the 20-region limit and the device's detections).
///
/// Use it only from inside the app's callbacks: trigsim runs app code at
/// virtual instants, and a call at any other moment (from a task the
/// callback left running, after the run) is an `AppCodeError`.
public final class SimulatedDevice: @unchecked Sendable {
  public let notificationCenter: UserNotificationCenter
  public let locationManager: LocationManager
  public let application: Application
  public let clock: DeviceClock
  /// The app's files and defaults: what survives when the system terminates the app.
  public let storage: DeviceStorage
  /// The app's own account of what it does, for the timeline and the dose
  /// table (warnings, dose remarks, removal reasons). Simulator-only: no
  /// platform equivalent.
  public let simulation: SimulationNotes

  init(host: HostedAppLayer) {
    notificationCenter = UserNotificationCenter(host: host)
    locationManager = LocationManager(host: host)
    application = Application(host: host)
    clock = DeviceClock(host: host)
    storage = DeviceStorage(host: host)
    simulation = SimulationNotes(host: host)
  }
}

/// The app's persistent storage (`UserDefaults`, files): it outlives the
/// app's process. A terminated app is a new instance when the system launches
/// it again (`HostedApp.make`), so whatever it needs then it must have kept here.
public final class DeviceStorage: @unchecked Sendable {
  private unowned let host: HostedAppLayer
  private var values: [String: Data] = [:]
  init(host: HostedAppLayer) { self.host = host }

  /// `data(forKey:)`.
  public func data(forKey key: String) -> Data? {
    host.withRun("DeviceStorage.data", otherwise: nil) { _, _ in values[key] }
  }

  /// `set(_:forKey:)`; nil removes the value.
  public func set(_ data: Data?, forKey key: String) {
    host.withRun("DeviceStorage.set", otherwise: ()) { _, _ in values[key] = data }
  }
}

/// The device's clock: virtual time and the device's zone, which travels
/// with the scenario (`clock: timeZoneChanges`). App code reads the time here,
/// never from `Date()`.
public final class DeviceClock: @unchecked Sendable {
  private unowned let host: HostedAppLayer
  init(host: HostedAppLayer) { self.host = host }

  /// The current virtual instant.
  public var now: Date { host.withRun("DeviceClock.now", otherwise: Date(timeIntervalSince1970: 0)) { run, now in now.date } }
  /// The device's time zone now.
  public var timeZone: TimeZone {
    host.withRun("DeviceClock.timeZone", otherwise: TimeZone(identifier: "UTC")!) { run, _ in run.deviceTimeZone }
  }
  /// The calendar the phone is set to (`PlatformSettings.calendar`,
  /// Gregorian by default), in the device's time zone: `Calendar.current`.
  public var calendar: Calendar {
    var calendar = Calendar(identifier: phoneCalendar.identifier)
    calendar.timeZone = timeZone
    return calendar
  }
  /// The calendar the phone is set to.
  public var phoneCalendar: PhoneCalendar {
    host.withRun("DeviceClock.phoneCalendar", otherwise: .gregorian) { run, _ in run.scenario.platform.calendar }
  }
}

/// The device's notification center (`UNUserNotificationCenter`), with the
/// platform's rules: replace by identifier, the 64 pending requests with the
/// platform's retention, nothing kept while permission is denied.
public final class UserNotificationCenter: @unchecked Sendable {
  private unowned let host: HostedAppLayer
  /// Set it before the app finishes launching, as on the platform.
  public weak var delegate: (any UserNotificationCenterDelegate)?

  init(host: HostedAppLayer) { self.host = host }

  /// `requestAuthorization(options:)`: asks the patient when permission is
  /// not determined (their answer is `HostedApp.permissionAnswer`;
  /// `.provisional` grants provisional permission without asking). Returns
  /// whether alerts are allowed.
  @discardableResult
  public func requestAuthorization(options: AuthorizationOptions) async throws -> Bool {
    host.withRun("UserNotificationCenter.requestAuthorization", otherwise: false) { run, now in
      host.requestAuthorization(options: options, in: &run, at: now)
    }
  }

  /// `notificationSettings()`.
  public func notificationSettings() async -> NotificationSettings {
    host.withRun("UserNotificationCenter.notificationSettings", otherwise: NotificationSettings(
      authorizationStatus: .notDetermined, alertsAllowed: false, lockScreen: false, notificationCenter: false, banners: false,
      sounds: false, badges: false)
    ) { run, _ in
      let settings = run.layers.phone.core.attention.settings
      return NotificationSettings(
        authorizationStatus: run.layers.phone.core.installedApp.permission, alertsAllowed: settings.allow, lockScreen: settings.lockScreen,
        notificationCenter: settings.notificationCenter, banners: settings.banners, sounds: settings.sounds, badges: settings.badges)
    }
  }

  /// `add(_:)`: schedules a request, replacing a pending one with its
  /// identifier. Throws for triggers the platform refuses
  /// (`NotificationCenterError`); a request the platform accepts but does not
  /// keep (permission denied, the 64 limit) is not an error, as on iOS: the
  /// timeline says what became of it.
  public func add(_ request: NotificationRequest) async throws {
    try host.withRun("UserNotificationCenter.add", otherwise: ()) { run, now in try host.add(request, in: &run, at: now) }
  }

  /// `pendingNotificationRequests()`, in the order they were added.
  public func pendingNotificationRequests() async -> [NotificationRequest] {
    host.withRun("UserNotificationCenter.pendingNotificationRequests", otherwise: []) { run, _ in
      run.layers.phone.core.center.pendingInAddOrder().map(\.request)
    }
  }

  /// `deliveredNotifications()`: those still in Notification Center, oldest first.
  public func deliveredNotifications() async -> [UserNotification] {
    host.withRun("UserNotificationCenter.deliveredNotifications", otherwise: []) { run, _ in host.delivered(in: run) }
  }

  /// `removePendingNotificationRequests(withIdentifiers:)`; identifiers that
  /// name no pending request are ignored, as on the platform.
  public func removePendingNotificationRequests(withIdentifiers identifiers: [NotificationID]) {
    host.withRun("UserNotificationCenter.removePendingNotificationRequests", otherwise: ()) { run, now in
      let reason = host.removalReason ?? "removed by the app"
      for id in identifiers { run.layers.phone.core.removePending(id, reason: reason, in: &run, at: now) }
    }
  }

  /// `removeAllPendingNotificationRequests()`.
  public func removeAllPendingNotificationRequests() {
    host.withRun("UserNotificationCenter.removeAllPendingNotificationRequests", otherwise: ()) { run, now in
      let reason = host.removalReason ?? "removed by the app (all)"
      for pending in run.layers.phone.core.center.pendingInAddOrder() { run.layers.phone.core.removePending(pending.request.id, reason: reason, in: &run, at: now) }
    }
  }

  /// `removeDeliveredNotifications(withIdentifiers:)`.
  public func removeDeliveredNotifications(withIdentifiers identifiers: [NotificationID]) {
    host.withRun("UserNotificationCenter.removeDeliveredNotifications", otherwise: ()) { run, now in
      let ids = Set(identifiers)
      run.layers.phone.core.clearDelivered(in: &run, at: now, reason: host.removalReason ?? "removed by the app") { ids.contains($0) }
    }
  }

  /// `removeAllDeliveredNotifications()`.
  public func removeAllDeliveredNotifications() {
    host.withRun("UserNotificationCenter.removeAllDeliveredNotifications", otherwise: ()) { run, now in
      run.layers.phone.core.clearDelivered(in: &run, at: now, reason: host.removalReason ?? "removed by the app (all)") { _ in true }
    }
  }

  /// `setNotificationCategories(_:)`: replaces the app's categories. Of two
  /// with one identifier, the one that sorts last by its actions is kept, so
  /// the choice does not depend on the set's order.
  public func setNotificationCategories(_ categories: Set<NotificationCategory>) {
    host.withRun("UserNotificationCenter.setNotificationCategories", otherwise: ()) { _, _ in
      func key(_ category: NotificationCategory) -> String {
        category.identifier + "\u{0}" + category.actions.map { $0.identifier + "\u{1}" + $0.title }.joined(separator: "\u{2}")
          + (category.customDismissAction ? "\u{3}" : "")
      }
      let ordered = categories.sorted { key($0) < key($1) }
      host.categories = Dictionary(ordered.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
    }
  }

  /// `notificationCategories()`.
  public func notificationCategories() async -> Set<NotificationCategory> {
    host.withRun("UserNotificationCenter.notificationCategories", otherwise: []) { _, _ in Set(host.categories.values) }
  }

  /// When `trigger` next fires after `date` on this device, under the
  /// device's time zone and the platform's rules for DST gaps and repeated
  /// times (`UNCalendarNotificationTrigger.nextTriggerDate()`, from any
  /// instant); nil when it never does.
  public func nextTriggerDate(for trigger: CalendarTrigger, after date: Date) -> Date? {
    host.withRun("UserNotificationCenter.nextTriggerDate", otherwise: nil) { run, _ in
      run.calendarEvaluator.nextDelivery(of: trigger, after: SimulationInstant(date), deviceTimeZone: run.deviceTimeZone)?.date
    }
  }

  /// `setBadgeCount(_:)` (shown when badges are allowed).
  public func setBadgeCount(_ count: Int) async throws {
    host.withRun("UserNotificationCenter.setBadgeCount", otherwise: ()) { run, now in run.layers.phone.core.setBadge(count, by: "app code", in: &run, at: now) }
  }
}

/// The device's location manager (`CLLocationManager`): authorization, region
/// monitoring with the platform's region limit, standard location updates
/// and significant-change updates.
/// Region events come from the device profile's detections on the track.
public final class LocationManager: @unchecked Sendable {
  private unowned let host: HostedAppLayer
  public weak var delegate: (any LocationManagerDelegate)?

  init(host: HostedAppLayer) { self.host = host }

  public var authorizationStatus: LocationAuthorization {
    host.withRun("LocationManager.authorizationStatus", otherwise: .notDetermined) { run, _ in run.layers.phone.core.installedApp.locationAuthorization }
  }

  public var accuracyAuthorization: LocationAccuracyAuthorization {
    host.withRun("LocationManager.accuracyAuthorization", otherwise: .precise) { run, _ in run.layers.phone.core.installedApp.locationAccuracy }
  }

  /// `requestWhenInUseAuthorization()`. The patient's answer is the scenario's
  /// (`app: - location:` at this instant or later); the request is recorded.
  public func requestWhenInUseAuthorization() {
    host.withRun("LocationManager.requestWhenInUseAuthorization", otherwise: ()) { run, now in
      host.noteLocationRequest("when-in-use", in: &run, at: now)
    }
  }

  /// `requestAlwaysAuthorization()`; as `requestWhenInUseAuthorization()`.
  public func requestAlwaysAuthorization() {
    host.withRun("LocationManager.requestAlwaysAuthorization", otherwise: ()) { run, now in
      host.noteLocationRequest("always", in: &run, at: now)
    }
  }

  /// `location`: the device's most recent fix (nil before the track's
  /// first). trigsim reads each fix before the events up to its instant, so
  /// between two fixes this is the later one (at most one track step ahead);
  /// it does not depend on location permission or power.
  public var location: Coordinate? {
    host.withRun("LocationManager.location", otherwise: nil) { run, _ in run.replay.previousFix?.coordinate }
  }

  /// The most regions one app may monitor (20 on iOS, shared with pending location triggers).
  public var maximumMonitoredRegions: Int {
    host.withRun("LocationManager.maximumMonitoredRegions", otherwise: 0) { run, _ in run.scenario.platform.monitoredRegionLimit }
  }

  /// `startMonitoring(for:)`. A failure is reported to the delegate's
  /// `monitoringDidFail(for:error:)`, as on the platform.
  public func startMonitoring(for region: CircularRegionSpec) {
    host.withRun("LocationManager.startMonitoring", otherwise: ()) { run, now in host.startMonitoring(region, in: &run, at: now) }
  }

  /// `stopMonitoring(for:)`.
  public func stopMonitoring(for region: CircularRegionSpec) {
    host.withRun("LocationManager.stopMonitoring", otherwise: ()) { run, now in host.stopMonitoring(region, in: &run, at: now) }
  }

  /// `monitoredRegions`, by identifier.
  public var monitoredRegions: [CircularRegionSpec] {
    host.withRun("LocationManager.monitoredRegions", otherwise: []) { _, _ in host.monitoredRegions.map(\.spec) }
  }

  /// `startMonitoringSignificantLocationChanges()`.
  public func startMonitoringSignificantLocationChanges() {
    host.withRun("LocationManager.startMonitoringSignificantLocationChanges", otherwise: ()) { run, now in
      host.setSignificantChanges(true, in: &run, at: now)
    }
  }

  /// `startUpdatingLocation()`: the standard location service reports every
  /// fix of the track (at least `distanceFilter` metres from the last one it
  /// reported) while the app runs in the foreground with when-in-use or
  /// always authorization, starting with the device's most recent fix (at
  /// once, or at its instant when the track's next fix is ahead). It delivers
  /// nothing to a background or suspended app, launches none, and stops
  /// when the app's process ends (Apple, `startUpdatingLocation()`: a
  /// suspended app gets no events until it runs again; "If your app is
  /// terminated, the delivery of new location events stops altogether";
  /// background delivery needs `allowsBackgroundLocationUpdates`, which
  /// trigsim does not model). Under `processModel: .persistent` the one
  /// instance keeps it across a termination.
  public func startUpdatingLocation() {
    host.withRun("LocationManager.startUpdatingLocation", otherwise: ()) { run, now in host.setStandardUpdates(true, in: &run, at: now) }
  }

  /// `stopUpdatingLocation()`.
  public func stopUpdatingLocation() {
    host.withRun("LocationManager.stopUpdatingLocation", otherwise: ()) { run, now in host.setStandardUpdates(false, in: &run, at: now) }
  }

  /// `distanceFilter`: the metres the device must move from the last
  /// reported fix before the standard service reports again. 0, the
  /// default, or any negative value (the platform's `kCLDistanceFilterNone`
  /// is −1) reports every fix; a negative value reads back as 0. It is the
  /// process's: a new process starts at 0.
  public var distanceFilter: Double {
    get { host.withRun("LocationManager.distanceFilter", otherwise: 0) { _, _ in host.distanceFilter } }
    set { host.withRun("LocationManager.distanceFilter", otherwise: ()) { _, _ in host.distanceFilter = max(0, newValue) } }
  }

  /// `stopMonitoringSignificantLocationChanges()`.
  public func stopMonitoringSignificantLocationChanges() {
    host.withRun("LocationManager.stopMonitoringSignificantLocationChanges", otherwise: ()) { run, now in
      host.setSignificantChanges(false, in: &run, at: now)
    }
  }
}

/// The app as the system sees it (`UIApplication`, `BGTaskScheduler`).
public final class Application: @unchecked Sendable {
  private unowned let host: HostedAppLayer
  init(host: HostedAppLayer) { self.host = host }

  /// The app's state: foreground, background (or, for a moment, terminated).
  public var applicationState: AppState {
    host.withRun("Application.applicationState", otherwise: .terminated) { run, _ in run.layers.phone.core.installedApp.state }
  }

  /// `BGTaskScheduler.submit(_:)`: replaces a request with the same identifier.
  public func submit(_ request: BackgroundRefreshRequest) throws {
    host.withRun("Application.submit", otherwise: ()) { run, now in host.submit(request, in: &run, at: now) }
  }

  /// `BGTaskScheduler.cancel(taskRequestWithIdentifier:)`.
  public func cancelBackgroundRefresh(identifier: String) {
    host.withRun("Application.cancelBackgroundRefresh", otherwise: ()) { _, _ in host.refreshRequests.removeAll { $0.identifier == identifier } }
  }

  /// The refresh requests waiting, in submission order.
  public var pendingBackgroundRefreshRequests: [BackgroundRefreshRequest] {
    host.withRun("Application.pendingBackgroundRefreshRequests", otherwise: []) { _, _ in host.refreshRequests }
  }
}
