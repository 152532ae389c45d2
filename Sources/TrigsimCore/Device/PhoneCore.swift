/// The parts every simulated phone has: its notification center,
/// presenter, location service, power and attention, push service, and its
/// record of the app under test, built with its platform's seams. Each
/// phone (`SimulatedPhone`) owns one; the run reaches it through
/// `SimulationLayers.phone.core`, and what only a platform does goes through
/// the phone (`run.layers.phone`).
///
/// The properties the engine reads or writes at every fix (the location
/// service, its report buffer, the monitoring restarts' cursor, whether the
/// app hears fixes, the app's state) are `@exclusivity(unchecked)`: the
/// runtime's check of each access to a class's stored property cost about
/// 85 instructions, four of them a fix, 7 % of a 1-day iPhone run (callgrind:
/// 408 M instructions when these were the run's own struct fields, 440 M
/// behind the class with the checks). A run is one thread and its accesses
/// to these properties never overlap; the compiler's static checks still apply.
///
/// The world (the track, its geometry and crossings, the clock and its
/// time-zone changes) stays in the engine; the phone is told what the world
/// does and reacts to it.
final class PhoneCore {
  // MARK: - Notifications

  /// The notification model: pending requests, delivered notifications, limits.
  var center: NotificationCenterModel
  /// Decides what the patient can perceive of a delivery (Focus, settings, interruption levels).
  let presenter: any NotificationPresenter
  /// The most requests pending at once, and when that was first reached.
  var pendingPeak = 0
  var pendingPeakAt: SimulationInstant?

  // MARK: - Location

  /// The location service the platform profile provides: turns fixes and crossings into region reports.
  @exclusivity(unchecked) var locationService: any LocationService
  @exclusivity(unchecked) var reportBuffer: [DeviceRegionReport] = []
  /// Reports waiting in the queue, by the index their event carries.
  var deviceReports: [Int: DeviceRegionReport] = [:]
  var nextReportIndex = 0
  /// When location authorization lets region monitoring start again after
  /// blocking it, in handling order; the location service is restarted at
  /// each (the segment split there), `nextMonitoringRestart` being the next.
  let monitoringRestarts: [SimulationInstant]
  @exclusivity(unchecked) var nextMonitoringRestart = 0
  /// The spans during which region monitoring was blocked, with the reason.
  var monitoringBlockedSpans: [(from: SimulationInstant, until: SimulationInstant?, reason: String)] = []
  /// The report whose detection is being delivered: which visit a location
  /// dose belongs to (none for a detection of a side the true path did not reach).
  var locationReportContext: (region: Int, visit: Int?, entering: Bool)?
  /// What a trial needs to know about location requests (nil outside trials: nothing is kept).
  var locationLog: LocationRequestLog?
  /// Whether the app sees every fix (a location service the app started: significant-change or standard updates).
  @exclusivity(unchecked) var observesFixes = false

  // MARK: - The app under test, power and attention

  /// The phone's record of the app under test: its state and permissions.
  @exclusivity(unchecked) var installedApp = InstalledAppState()
  /// The scenario's device changes (Focus, power, connectivity, settings) in time order.
  let deviceSchedule: DeviceSchedule
  /// What stands between a delivery and the patient.
  var attention = AttentionState()
  /// Set while a catch-up delivery after power-on is made: when it came due.
  var catchUpDue: SimulationInstant?
  /// With `catchUpDue`: whether it came due while the phone was off (else
  /// after switch-on, before the first unlock).
  var catchUpWhileOff = true
  /// Whether the run keeps the badge and waiting-dose histories (a badge can change).
  let tracksBadge: Bool

  // MARK: - Pushes

  /// The push service between the app's server and the phone (what it stores, when it hands over).
  var pushService: PushService
  /// How pushes reach the app on this platform (APNs or FCM).
  let pushTransport: any PushTransport
  /// Every push the app's server sends in this run: the scenario's scripted
  /// `pushes:`, then those the reminder server (`server:`) sends as it goes.
  /// Push events and the push service name pushes by their index here.
  var remotePushes: [RemotePush]

  /// The core of `scenario`'s platform's phone, varied for a trial by `variation`;
  /// `presenter`, when given, replaces
  /// the platform's notification rule (another phone's presentation, behind
  /// the `NotificationPresenter` seam).
  init(
    _ scenario: Scenario, variation: DeviceVariation?, calendar: CalendarTriggerEvaluator, presenter: (any NotificationPresenter)? = nil
  ) {
    self.locationService = scenario.platform.makeLocationService(regions: scenario.regions, variation: variation)
    self.presenter = presenter ?? scenario.platform.makePresenter()
    self.pushService = PushService(rules: scenario.platform.attention, trialSeed: variation?.seed)
    self.pushTransport = scenario.platform.makePushTransport()
    self.remotePushes = scenario.pushes.pushes
    self.center = NotificationCenterModel(settings: scenario.platform)
    self.deviceSchedule = DeviceSchedule(scenario: scenario, calendar: calendar)
    self.monitoringRestarts = DeviceSchedule.monitoringRestarts(
      appChanges: scenario.medicineApp.appChanges, powerBlocked: deviceSchedule.monitoringBlocked, until: scenario.clock.end)
    self.tracksBadge = scenario.medicineApp.badge != .none || scenario.pushes.pushes.contains { $0.badge != nil }
      || scenario.actions.contains { if case .add(let request) = $0.action { request.badge != nil } else { false } }
  }
}
