import Foundation
import TrigsimCore
import TrigsimTestSupport

/// The entry points of a test Android build, as closures.
struct AndroidScript: Sendable {
  var created: @Sendable (ScriptedAndroidApp) async -> Void = { _ in }
  var resumed: @Sendable (ScriptedAndroidApp) async -> Void = { _ in }
  var alarm: @Sendable (ScriptedAndroidApp, AlarmIntent) async -> Void = { _, _ in }
  var broadcast: @Sendable (ScriptedAndroidApp, SystemBroadcast) async -> Void = { _, _ in }
  var geofence: @Sendable (ScriptedAndroidApp, GeofenceEvent) async -> Void = { _, _ in }
  var action: @Sendable (ScriptedAndroidApp, AndroidNotificationResponse) async -> Void = { _, _ in }
  var message: @Sendable (ScriptedAndroidApp, RemoteMessage) async -> Void = { _, _ in }
  var work: @Sendable (ScriptedAndroidApp, WorkRequestInfo) async -> Void = { _, _ in }
}

/// A test Android build whose code is an `AndroidScript`; it logs every entry point with its instance number.
final class ScriptedAndroidApp: AndroidApp, @unchecked Sendable {
  let device: AndroidDevice
  let script: AndroidScript
  let log: AppLog
  let instance: Int

  init(_ device: AndroidDevice, _ script: AndroidScript, log: AppLog, instance: Int) {
    self.device = device
    self.script = script
    self.log = log
    self.instance = instance
  }

  /// A `HostedApp` with only an Android build, a new instance per process.
  static func hosted(
    _ script: AndroidScript, log: AppLog, broadcasts: Set<SystemBroadcast> = [], permissionAnswer: NotificationPermission = .granted,
    defaultChannel: String? = nil
  ) -> HostedApp {
    let counter = AppLog()
    var app = HostedApp(permissionAnswer: permissionAnswer) { _ in fatalError("the iOS build runs on an Android scenario") }
    app.makeAndroid = { device in
      counter.add("made")
      return ScriptedAndroidApp(device, script, log: log, instance: counter.all.count)
    }
    app.androidBroadcasts = broadcasts
    app.androidDefaultNotificationChannel = defaultChannel
    return app
  }

  func onCreate() async {
    log.add("#\(instance) onCreate")
    await script.created(self)
  }
  func onActivityResumed() async {
    log.add("#\(instance) onActivityResumed")
    await script.resumed(self)
  }
  func onAlarm(_ alarm: AlarmIntent) async {
    log.add("#\(instance) onAlarm \(alarm.tag)")
    await script.alarm(self, alarm)
  }
  func onBroadcast(_ broadcast: SystemBroadcast) async {
    log.add("#\(instance) onBroadcast \(broadcast.rawValue)")
    await script.broadcast(self, broadcast)
  }
  func doWork(_ work: WorkRequestInfo) async {
    log.add("#\(instance) doWork \(work.name)")
    await script.work(self, work)
  }
  func onGeofenceTransition(_ event: GeofenceEvent) async {
    log.add("#\(instance) onGeofenceTransition \(event.geofence) \(event.transition.rawValue)")
    await script.geofence(self, event)
  }
  func onNotificationAction(_ action: AndroidNotificationResponse) async {
    log.add("#\(instance) onNotificationAction \(action.notification) \(action.action)")
    await script.action(self, action)
  }

  func onMessageReceived(_ message: RemoteMessage) async {
    log.add("#\(instance) onMessageReceived \(message.messageID) \(message.priority.rawValue)")
    await script.message(self, message)
  }
  func onDeletedMessages() async {
    log.add("#\(instance) onDeletedMessages")
  }

  /// The dose channel, high importance.
  func createDoseChannel(_ importance: ChannelImportance = .high) {
    device.notificationManager.createNotificationChannel(AndroidChannel(id: "doses", name: "Doses", importance: importance))
  }

  func notifyDose(_ id: String) {
    device.notificationManager.notify(
      NotificationID(id), AndroidNotification(title: id, channel: "doses", category: .reminder, actions: ["complete"], reportsDismissal: true))
  }
}

enum AndroidScenario {
  /// A hosted scenario on the Android device, 07:00–12:00 UTC, Android 14 fresh install, the exact-alarm permission as given.
  static func make(exactAlarms: Bool = true, _ start: String = "2026-05-04T07:00:00Z", _ end: String = "2026-05-04T12:00:00Z") -> Scenario {
    var scenario = HostedScenario.make(start, end).on(.android)
    if exactAlarms {
      var grant = AppChange(instant: Build.instant(start))
      grant.exactAlarms = true
      scenario.medicineApp.appChanges = [grant]
    }
    return scenario
  }
}
