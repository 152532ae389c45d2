/// The phone's own scheduling of the app under test, beside its notification
/// center: on Android the device keeps the app's alarms and WorkManager work
/// and decides when each runs (Doze, standby buckets, the maker's killer;
/// `AndroidScheduler`); an iPhone schedules nothing of its own, its reminders
/// being the notification center's triggers (`IPhoneScheduler`). The engine
/// tells it what the world does to the phone and hands back the events it
/// queued; it never asks which phone it is.
protocol PhoneScheduler: AnyObject {
  /// The Android phone's scheduler, for the Android device API and push
  /// transport (alarms, work, channels, FCM); nil on an iPhone.
  var android: AndroidScheduler? { get }
  /// Why the scenario's own notification requests (`notifications:`) are
  /// not added on this phone; nil: they are.
  var scenarioRequestsRefusal: String? { get }
  /// The app's notification channels by identifier, as the patient left
  /// them (presentation reads their importance); empty where there are none.
  var notificationChannels: [String: AndroidChannel] { get }
  /// The run starts, before the app, the patient and the server queue their
  /// events: queues what the phone itself will do and sets the app's first
  /// notification permission where the phone decides it.
  func runStarts(in run: inout SimulationRun)
  /// One of the events this scheduler queued is due.
  func eventDue(_ event: AndroidEvent, in run: inout SimulationRun, at now: SimulationInstant)
  /// The phone switched off (a reboot, an empty battery), after its `power` entry.
  func switchedOff(in run: inout SimulationRun, at now: SimulationInstant)
  /// The phone switched on, after its `power` entry.
  func switchedOn(in run: inout SimulationRun, at now: SimulationInstant)
  /// The first unlock since the phone switched on, after its `power` entry.
  func firstUnlock(in run: inout SimulationRun, at now: SimulationInstant)
  /// The scenario's `app:` change reaches the phone's own settings for the
  /// app (after its state change), where the phone has them.
  func appChanged(_ change: AppChange, in run: inout SimulationRun, at now: SimulationInstant)
  /// What plugging the phone in (`pluggedIn`) or out changes, for its
  /// `power` entry; nil: nothing worth saying.
  func chargingReason(pluggedIn: Bool) -> String?
}

/// The iPhone's own scheduling: none. Its reminders are the notification
/// center's triggers, and nothing it does on its own waits in the queue.
final class IPhoneScheduler: PhoneScheduler {
  var android: AndroidScheduler? { nil }
  var scenarioRequestsRefusal: String? { nil }
  var notificationChannels: [String: AndroidChannel] { [:] }
  func runStarts(in run: inout SimulationRun) {}
  func eventDue(_ event: AndroidEvent, in run: inout SimulationRun, at now: SimulationInstant) {}
  func switchedOff(in run: inout SimulationRun, at now: SimulationInstant) {}
  func switchedOn(in run: inout SimulationRun, at now: SimulationInstant) {}
  func firstUnlock(in run: inout SimulationRun, at now: SimulationInstant) {}
  func appChanged(_ change: AppChange, in run: inout SimulationRun, at now: SimulationInstant) {}
  func chargingReason(pluggedIn: Bool) -> String? { nil }
}

extension PlatformSettings {
  /// The phone's own scheduler as `run` starts: Android's, or the iPhone's (none).
  func makePhoneScheduler(startingIn run: SimulationRun) -> any PhoneScheduler {
    if let android { return AndroidScheduler(settings: android, startingIn: run) }
    return IPhoneScheduler()
  }
}
