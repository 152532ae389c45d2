/// The device layer: one phone of one platform, owning its state. Each
/// conformer owns a `PhoneCore` (the notification model, the location
/// service and its reports, power and attention, the push service, the
/// phone's record of the app) built with its platform's seams (presenter,
/// location service, push transport), and adds what only its platform does:
/// `IPhone` nothing, `AndroidPhone` its alarms, WorkManager, Doze and standby
/// buckets (`AndroidScheduler`). A third phone is a third conformer (the
/// tests' pager is one); the engine and the other layers never ask which
/// phone it is.
///
/// The engine tells the phone what the world does to it (through its core,
/// and the events it queued); the other layers reach it through
/// `SimulationLayers.phone`.
protocol SimulatedPhone: AnyObject {
  /// The parts every phone has, this phone's own.
  var core: PhoneCore { get }
  /// The Android phone's scheduling, for the Android device API and push
  /// transport (alarms, work, channels, FCM); nil on other phones, and
  /// until the run starts.
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
  /// One of the events this phone's own scheduling queued is due.
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

extension SimulatedPhone {
  // A phone with no scheduling of its own (the iPhone, a test's phone): it
  // adds every scenario request, has no channels, queues nothing, and does
  // nothing of its own when it switches off or on, is unlocked, has its app
  // changed or is plugged in.
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

/// The iPhone: its core and nothing else (every requirement but `core` is
/// the default above). Its reminders are the notification center's
/// triggers, and nothing it does on its own waits in the queue.
final class IPhone: SimulatedPhone {
  let core: PhoneCore
  init(core: PhoneCore) { self.core = core }
}

/// The Android phone: its core, and the device's own scheduling of the app
/// (`AndroidScheduler`: alarms, channels, WorkManager, Doze, standby buckets,
/// the maker's killer, FCM), made when the run starts because Doze is
/// decided from the whole run's screen-on instants.
final class AndroidPhone: SimulatedPhone {
  let core: PhoneCore
  let settings: AndroidSettings
  /// The scheduling, from the run's start on.
  private(set) var scheduler: AndroidScheduler?

  init(core: PhoneCore, settings: AndroidSettings) {
    self.core = core
    self.settings = settings
  }

  var android: AndroidScheduler? { scheduler }
  var scenarioRequestsRefusal: String? { AndroidScheduler.scenarioRequestsRefusal }
  var notificationChannels: [String: AndroidChannel] { scheduler?.channels ?? [:] }

  func runStarts(in run: inout SimulationRun) {
    let scheduler = AndroidScheduler(settings: settings, startingIn: run)
    self.scheduler = scheduler
    scheduler.runStarts(in: &run)
  }

  func eventDue(_ event: AndroidEvent, in run: inout SimulationRun, at now: SimulationInstant) {
    scheduler?.eventDue(event, in: &run, at: now)
  }

  func switchedOff(in run: inout SimulationRun, at now: SimulationInstant) { scheduler?.switchedOff(in: &run, at: now) }
  func switchedOn(in run: inout SimulationRun, at now: SimulationInstant) { scheduler?.switchedOn(in: &run, at: now) }
  func firstUnlock(in run: inout SimulationRun, at now: SimulationInstant) { scheduler?.firstUnlock(in: &run, at: now) }
  func appChanged(_ change: AppChange, in run: inout SimulationRun, at now: SimulationInstant) { scheduler?.appChanged(change, in: &run, at: now) }
  func chargingReason(pluggedIn: Bool) -> String? { AndroidScheduler.chargingReason(pluggedIn: pluggedIn) }
}

extension PlatformSettings {
  /// This platform's phone of `scenario`, varied for a trial by `variation`;
  /// `presenter`, when given, replaces the platform's notification rule.
  func makePhone(
    _ scenario: Scenario, variation: DeviceVariation?, calendar: CalendarTriggerEvaluator, presenter: (any NotificationPresenter)? = nil
  ) -> any SimulatedPhone {
    let core = PhoneCore(scenario, variation: variation, calendar: calendar, presenter: presenter)
    if let android { return AndroidPhone(core: core, settings: android) }
    return IPhone(core: core)
  }
}
