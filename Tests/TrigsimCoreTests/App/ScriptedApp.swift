import Foundation
import TrigsimCore
import TrigsimTestSupport

/// What a scripted app did, across its instances (a terminated app is re-made).
final class AppLog: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func add(_ line: String) {
    lock.lock()
    lines.append(line)
    lock.unlock()
  }
  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return lines
  }
}

/// The callbacks of a test app, as closures: each test states only the code it needs.
struct AppScript: Sendable {
  var launched: @Sendable (ScriptedApp, LaunchReason) async -> Void = { _, _ in }
  var medicine: @Sendable (ScriptedApp, MedicineEdit) async -> Void = { _, _ in }
  var willPresent: (@Sendable (ScriptedApp, UserNotification) async -> PresentationOptions)? = { _, _ in [.banner, .sound, .list] }
  var received: @Sendable (ScriptedApp, NotificationResponse) async -> Void = { _, _ in }
  var region: @Sendable (ScriptedApp, CircularRegionSpec, Bool) async -> Void = { _, _, _ in }
  var refresh: @Sendable (ScriptedApp, BackgroundRefreshRequest) async -> Void = { _, _ in }
  var push: @Sendable (ScriptedApp, [String: String]) async -> Void = { _, _ in }
  var failed: @Sendable (ScriptedApp, CircularRegionSpec, LocationManagerError) async -> Void = { _, _, _ in }
  var foreground: @Sendable (ScriptedApp) async -> Void = { _ in }
  var sets = (notificationDelegate: true, locationDelegate: true)
}

/// A test app whose code is an `AppScript`; it logs every callback with its instance number.
final class ScriptedApp: SimulatedApp, UserNotificationCenterDelegate, LocationManagerDelegate, @unchecked Sendable {
  let device: SimulatedDevice
  let script: AppScript
  let log: AppLog
  let instance: Int

  init(_ device: SimulatedDevice, _ script: AppScript, log: AppLog, instance: Int) {
    self.device = device
    self.script = script
    self.log = log
    self.instance = instance
  }

  /// A `HostedApp` making a new `ScriptedApp` per launch, numbered from 1.
  static func hosted(
    _ script: AppScript, log: AppLog, attribution: (@Sendable (NotificationRequest) -> DoseAttribution?)? = nil, recordsCallbacks: Bool = true
  ) -> HostedApp {
    let counter = AppLog()
    return HostedApp(attribution: attribution, recordsCallbacks: recordsCallbacks) { device in
      counter.add("made")
      return ScriptedApp(device, script, log: log, instance: counter.all.count)
    }
  }

  func didFinishLaunching(reason: LaunchReason) async {
    log.add("#\(instance) didFinishLaunching \(reason.rawValue)")
    if script.sets.notificationDelegate { device.notificationCenter.delegate = self }
    if script.sets.locationDelegate { device.locationManager.delegate = self }
    await script.launched(self, reason)
  }
  func didBecomeActive() async {
    log.add("#\(instance) didBecomeActive")
    await script.foreground(self)
  }
  func didEnterBackground() async { log.add("#\(instance) didEnterBackground") }
  func patientChangedMedicine(_ change: MedicineEdit) async {
    log.add("#\(instance) patientChangedMedicine \(change.medicineID)")
    await script.medicine(self, change)
  }
  func performBackgroundRefresh(_ request: BackgroundRefreshRequest) async {
    log.add("#\(instance) performBackgroundRefresh \(request.identifier)")
    await script.refresh(self, request)
  }
  func didReceiveRemoteNotification(_ userInfo: [String: String]) async {
    log.add("#\(instance) didReceiveRemoteNotification \(userInfo["id"] ?? "")")
    await script.push(self, userInfo)
  }
  func willPresent(_ notification: UserNotification) async -> PresentationOptions {
    log.add("#\(instance) willPresent \(notification.request.id)")
    return await script.willPresent?(self, notification) ?? []
  }
  func didReceive(_ response: NotificationResponse) async {
    log.add("#\(instance) didReceive \(response.notification.request.id) \(response.actionIdentifier)")
    await script.received(self, response)
  }
  func didEnterRegion(_ region: CircularRegionSpec) async {
    log.add("#\(instance) didEnterRegion \(region.identifier)")
    await script.region(self, region, true)
  }
  func didExitRegion(_ region: CircularRegionSpec) async {
    log.add("#\(instance) didExitRegion \(region.identifier)")
    await script.region(self, region, false)
  }
  func monitoringDidFail(for region: CircularRegionSpec, error: LocationManagerError) async {
    log.add("#\(instance) monitoringDidFail \(region.identifier)")
    await script.failed(self, region, error)
  }

  /// Adds `request`, logging a refusal instead of throwing.
  func add(_ request: NotificationRequest) async {
    do {
      try await device.notificationCenter.add(request)
    } catch {
      log.add("#\(instance) add refused: \(error)")
    }
  }
}

/// Scenarios for hosted-app tests: a day in UTC, `appUnderTest: swift`.
enum HostedScenario {
  static func make(_ start: String = "2026-05-04T07:00:00Z", _ end: String = "2026-05-04T12:00:00Z") -> Scenario {
    var scenario = Scenario(name: "hosted", clock: Build.clock(start, end))
    scenario.appUnderTest = .swift
    return scenario
  }

  static func daily(_ id: String, hour: Int, minute: Int = 0, category: String? = "dose") -> NotificationRequest {
    var request = NotificationRequest(
      id: NotificationID(id), title: id, trigger: .calendar(CalendarTrigger(components: CalendarComponents(hour: hour, minute: minute), repeats: true)))
    request.categoryIdentifier = category
    return request
  }

  static func after(_ id: String, seconds: Int64, repeats: Bool = false, category: String? = "dose") -> NotificationRequest {
    var request = NotificationRequest(id: NotificationID(id), title: id, trigger: .interval(IntervalTrigger(interval: .seconds(seconds), repeats: repeats)))
    request.categoryIdentifier = category
    return request
  }

  /// Circle `r<index>` of a row of small circles 1.1 km apart, as the app names it.
  static func rowCircle(_ index: Int) -> CircularRegionSpec {
    CircularRegionSpec(identifier: RegionID("r\(index)"), center: Coordinate(latitude: 50 + Double(index) * 0.01, longitude: 10), radius: 100)
  }

  /// Circles `r0`… of `rowCircle`, as the scenario declares them.
  static func rowRegions(_ count: Int) -> [MonitoredRegion] {
    (0..<count).map { index in
      let spec = rowCircle(index)
      return MonitoredRegion(id: spec.identifier, shape: CircularRegion(center: spec.center, radius: spec.radius))
    }
  }

  static let doseCategory = NotificationCategory(
    identifier: "dose",
    actions: [NotificationAction(identifier: "complete", title: "Taken"), NotificationAction(identifier: "snooze-15m", title: "15 min")])

  /// `action` on notification `id` by the patient at `at`.
  static func act(_ action: UserAction, on id: String, at: String) -> ScheduledUserAction {
    ScheduledUserAction(instant: Build.instant(at), notification: NotificationID(id), action: action)
  }

  static func state(_ state: AppState, at: String) -> AppChange { AppChange(instant: Build.instant(at), state: state) }

  /// The entries as `kind subject fields…` lines without instants' zone noise: for asserting what happened.
  static func lines(_ timeline: Timeline) -> [String] {
    timeline.entries.map { entry in
      ([entry.localInstant.prefix(19).description, entry.kind.rawValue, entry.subject] + entry.fields.map { "\($0.key)=\($0.value)" })
        .joined(separator: " ")
    }
  }
}
