import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A team's app (`HostedApp`) behind the app seam: the engine's moments
/// become the platform's callbacks, and the app's calls on `SimulatedDevice`
/// act on the run at the callback's instant.
///
/// Rules (sources in the manual, "Your app in the loop"):
/// - Launch: a running app (background or foreground) gets
///   `didFinishLaunching(.initial)` at the clock's start. A terminated app is
///   a new process: the system makes a new instance (`HostedApp.make`) and
///   launches it when something wakes it (a region event, a background push,
///   a background refresh, an action on a notification, the patient).
/// - A force-quit app is not launched for background pushes or background
///   refresh, nor, unless `PlatformSettings.forceQuitLocationLaunch` says
///   `launched`, for region events and significant-change updates.
/// - Will-present runs only in the foreground; without a delegate, or with
///   no options, the platform presents nothing.
/// - Every callback runs to completion at its instant, on an executor that
///   runs on the engine's thread (`CallbackExecutor`). A callback still
///   suspended when that executor has nothing left to run waits on something
///   outside the simulation: the run stops with an `AppCodeError`.
class HostedAppLayer: AppLayer, @unchecked Sendable {
  let configuration: HostedApp
  private(set) var device: SimulatedDevice!
  private var app: (any SimulatedApp)?

  // What the device keeps for the app.
  /// The app's categories by identifier (`setNotificationCategories`; of two with one identifier, the last).
  var categories: [String: NotificationCategory] = [:]
  struct AppMonitoredRegion {
    var spec: CircularRegionSpec
    var since: SimulationInstant
  }
  var monitoredRegions: [AppMonitoredRegion] = []
  /// Android: what the app asked of each geofence (transitions, loitering delay).
  var geofenceOptions: [RegionID: GeofenceOptions] = [:]
  var refreshRequests: [BackgroundRefreshRequest] = []
  /// The content of every notification in Notification Center, by identifier.
  var deliveredContent: [NotificationID: NotificationRequest] = [:]
  private var significantChanges = false
  /// Whether the app asked for standard location updates, and where the service last reported.
  private var standardUpdates = false
  private var lastStandardUpdate: Coordinate?
  /// Counts the standard service's starts and stops: a report queued before the latest is dropped.
  private var standardService = 0
  /// The dose of the notification whose response `didReceive` is handling
  /// now, if any: the only dose `SimulationNotes.countAsTaken` may complete.
  var respondingDose: DoseKey?
  /// The standard service's `distanceFilter` in metres (0: every fix).
  var distanceFilter = 0.0
  /// Where and when the significant-change service last reported.
  private var lastSignificantChange: (position: Coordinate, instant: SimulationInstant)?
  /// Failures the platform reports to the location delegate after the current callback.
  private var monitoringFailures: [(CircularRegionSpec, LocationManagerError)] = []

  // What the dose table's reasons need to know of the app's requests.
  struct ReminderSlot: Hashable {
    var medicine: MedicineID
    var time: DailyTime
  }
  /// The requests the app attributed to each daily time, in the order first added.
  private var reminderRequests: [ReminderSlot: [NotificationID]] = [:]
  /// The location requests the app attributed to each medicine, in the order first added.
  private var locationRequests: [MedicineID: [NotificationID]] = [:]
  /// Every request the app added, as last added, and when.
  private var addedRequests: [NotificationID: (request: NotificationRequest, at: SimulationInstant)] = [:]
  /// Every add of a request the app attributed to a daily time, in add
  /// order, with the instant it would first fire as computed at that add
  /// (in the device's zone then): which request the app planned for a dose.
  private var plannedReminders: [ReminderSlot: [PlannedReminder]] = [:]

  struct PlannedReminder {
    var id: NotificationID
    var addedAt: SimulationInstant
    var fires: SimulationInstant
  }
  /// Why the app's own region callback (or, on Android, its geofence
  /// transition) did not run at the detection being handled.
  var regionCallbackLoss: [RegionID: String] = [:]
  /// The dose each identifier's latest delivery answered (kept after the notification leaves Notification Center).
  var deliveredDose: [NotificationID: DoseKey] = [:]
  /// The reason app code gives for the removals it makes now (`SimulationNotes.because`); engine thread only.
  var removalReason: String?
  /// A significant time change that reached the app while it was suspended:
  /// delivered when it next comes to the foreground (only the latest).
  private var queuedTimeChange: SignificantTimeChange?
  /// The schedule of midnight and daylight-saving events now valid (`timeChangeDue`).
  private var timeChangeToken = 0
  /// While `DoseExplaining.deliveredWithoutAppCode` runs: only `SimulationNotes` may be used.
  private var explaining = false

  // The callback running now. Read and written under `lock`, because app
  // code may reach the device from another thread (a misuse that is reported).
  private let lock = NSLock()
  private var attached: UnsafeMutablePointer<SimulationRun>?
  private var attachedNow: SimulationInstant?
  private var engineThread: pthread_t?
  private var misuse: String?
  /// How deeply monitoring failures re-enter callbacks (a delegate that retries at once).
  private var failureDepth = 0

  init(_ configuration: HostedApp) {
    self.configuration = configuration
    device = SimulatedDevice(host: self)
  }

  /// The app host of the scenario's phone: this one on an iPhone, the
  /// Android build's (`AndroidHostedAppLayer`) on `android`.
  static func make(_ configuration: HostedApp, for scenario: Scenario) -> HostedAppLayer {
    scenario.platform.android == nil ? HostedAppLayer(configuration) : AndroidHostedAppLayer(configuration)
  }

  // MARK: - Running app code

  /// Runs `body` (app code) with the run attached: the device API acts on it at `now`.
  func attach<T>(_ run: inout SimulationRun, at now: SimulationInstant, _ body: () -> T) -> T {
    withUnsafeMutablePointer(to: &run) { pointer in
      lock.lock()
      let saved = (attached, attachedNow)
      (attached, attachedNow, engineThread) = (pointer, now, pthread_self())
      lock.unlock()
      defer {
        lock.lock()
        (attached, attachedNow) = saved
        lock.unlock()
      }
      return body()
    }
  }

  /// The device API's way in: the run at the callback's instant, or, outside
  /// a callback or on another thread, a misuse the run reports (and `otherwise`).
  func withRun<T>(_ api: String, otherwise: T, _ body: (inout SimulationRun, SimulationInstant) throws -> T) rethrows -> T {
    lock.lock()
    let onEngineThread = engineThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    let state = onEngineThread ? (attached, attachedNow) : (nil, nil)
    if state.0 == nil && misuse == nil {
      misuse =
        "\(api) was called outside the app's callbacks (from a task the callback left running, another thread, or after it returned): trigsim runs app code only inside its callbacks, at their instants; await the work inside the callback"
    }
    lock.unlock()
    guard let pointer = state.0, let now = state.1 else { return otherwise }
    if explaining && !api.hasPrefix("SimulationNotes.") {
      noteMisuse("\(api) was called from DoseExplaining.deliveredWithoutAppCode, where no app code runs on the platform: use only device.simulation there")
      return otherwise
    }
    return try body(&pointer.pointee, now)
  }

  func noteMisuse(_ problem: String) {
    lock.lock()
    if misuse == nil { misuse = problem }
    lock.unlock()
  }

  func takeMisuse() -> String? {
    lock.lock()
    defer { lock.unlock() }
    let problem = misuse
    misuse = nil
    return problem
  }

  /// A misuse from a task that outlived its callback, noticed before the run ended.
  func runEnded(in run: inout SimulationRun) {
    if let problem = takeMisuse() { stop(&run, "a task left running by app code", at: run.end, problem) }
  }

  /// Runs app callback `name` to completion at `now`, after its `app` entry
  /// (unless `recorded` is false: a simulator-only callback, not the platform's).
  /// Returns its result, or nil when it could not complete (the run stops).
  @discardableResult
  func call<T>(
    _ name: String, _ fields: @autoclosure () -> [TimelineField], recorded: Bool = true, in run: inout SimulationRun, at now: SimulationInstant,
    _ body: @escaping () async -> T
  ) -> T? {
    guard run.stopReason == nil else { return nil }
    if configuration.recordsCallbacks && recorded {
      run.record(.app, name, at: now, fields() + [TimelineField("state", run.layers.phone.core.installedApp.state.rawValue)])
    }
    let (result, completed): (T?, Bool) = attach(&run, at: now) {
      let executor = CallbackExecutor()
      let outcome = CallbackOutcome<T>()
      let operation = UncheckedSendable(body)
      let task = Task(executorPreference: executor) { outcome.value = await operation.value() }
      executor.runUntilIdle()
      guard outcome.value != nil, !executor.resumedFromOutside else {
        task.cancel()
        return (nil, false)
      }
      return (outcome.value, true)
    }
    if !completed {
      stop(
        &run, name, at: now,
        "it did not return at its instant: it waits on something trigsim does not drive (real time such as Task.sleep or a timer, the main actor, a network call, a continuation never resumed); app code runs in virtual time: read device.clock, and do later work from a notification, a region event or background refresh")
      return nil
    }
    if let problem = takeMisuse() { stop(&run, name, at: now, problem) }
    if !monitoringFailures.isEmpty && run.stopReason == nil {
      failureDepth += 1
      defer { failureDepth -= 1 }
      if failureDepth > 20 {
        stop(&run, "monitoringDidFail", at: now, "region monitoring failed and the delegate started monitoring again, 20 times at one instant: the platform would keep failing")
      } else {
        reportMonitoringFailures(in: &run, at: now)
      }
    }
    return result
  }

  func stop(_ run: inout SimulationRun, _ callback: String, at now: SimulationInstant, _ problem: String) {
    guard run.stopReason == nil else { return }
    run.stopReason = AppCodeError(callback: callback, instant: run.format(now), problem: problem)
  }

  /// The system starts a new process of the app: a new instance, then `didFinishLaunching`.
  func startProcess(_ reason: LaunchReason, in run: inout SimulationRun, at now: SimulationInstant) {
    guard run.stopReason == nil else { return }
    endProcess(in: &run)
    app = attach(&run, at: now) { configuration.make(device) }
    if let problem = takeMisuse() { stop(&run, "HostedApp.make", at: now, problem) }
    let app = app!
    call("didFinishLaunching", [TimelineField("reason", reason.rawValue)], in: &run, at: now) { await app.didFinishLaunching(reason: reason) }
    scheduleTimeChanges(in: &run, after: now)
  }

  /// The app's process ends: its instance and delegates are gone, and the
  /// standard location service stops (Apple, `startUpdatingLocation()`: "If
  /// your app is terminated, the delivery of new location events stops
  /// altogether"); region monitoring and the significant-change service are
  /// the system's and go on.
  func endProcess(in run: inout SimulationRun) {
    app = nil
    queuedTimeChange = nil
    device.notificationCenter.delegate = nil
    device.locationManager.delegate = nil
    if standardUpdates {
      standardUpdates = false
      standardService += 1
      lastStandardUpdate = nil
      run.layers.phone.core.observesFixes = significantChanges
    }
    distanceFilter = 0
  }

  /// Whether an instance of the app runs (its process is alive).
  var isRunning: Bool { app != nil }

  /// A terminated app woken by the system runs in the background.
  func wake(_ reason: LaunchReason, in run: inout SimulationRun, at now: SimulationInstant) {
    let running = isRunning
    if configuration.processModel == .persistent {
      // One instance throughout: made (and launched) only if none runs yet; the state stays the scenario's.
      if !running { startProcess(reason, in: &run, at: now) }
      return
    }
    guard run.layers.phone.core.installedApp.state.isTerminated || !running else { return }
    if run.layers.phone.core.installedApp.state.isTerminated {
      run.record(.app, "state", at: now, [
        TimelineField("to", AppState.background.rawValue), TimelineField("from", run.layers.phone.core.installedApp.state.rawValue),
        TimelineField("reason", "the system launched the app (\(reason.rawValue))"),
      ])
      run.layers.phone.core.installedApp.state = .background
    }
    startProcess(reason, in: &run, at: now)
  }

  /// The app's callback cannot run because the patient force-quit it.
  func notRun(_ name: String, _ fields: [TimelineField], _ why: String, in run: inout SimulationRun, at now: SimulationInstant) {
    run.record(.app, name, at: now, fields + [TimelineField("ran", "no"), TimelineField("reason", why)])
  }

  // MARK: - AppLayer

  func scheduleEvents(in run: inout SimulationRun) {
    // The scenario's app changes and medicine changes are the world's (the patient's actions are the patient layer's).
    scheduleScenarioAppChanges(in: &run)
    // After the scenario's app changes at the start: they are the state the app starts in.
    run.queue.schedule(.appLaunch, at: run.scenario.clock.start, phase: .appChange, rank: Int.max)
  }

  func launch(in run: inout SimulationRun, at now: SimulationInstant) {
    // Not running at the start (a persistent app's one instance starts anyway), or already launched by a change
    // at the start (the patient opened it).
    guard !run.layers.phone.core.installedApp.state.isTerminated || configuration.processModel == .persistent, !isRunning else { return }
    startProcess(.initial, in: &run, at: now)
    if run.layers.phone.core.installedApp.state == .foreground, let app {
      call("didBecomeActive", [], in: &run, at: now) { await app.didBecomeActive() }
    }
  }

  func appStateChanged(from: AppState, to: AppState, in run: inout SimulationRun, at now: SimulationInstant) {
    switch to {
    case .foreground:
      if app == nil || (from.isTerminated && configuration.processModel == .platform) { startProcess(.patient, in: &run, at: now) }
      guard let app else { return }
      deliverQueuedTimeChange(in: &run, at: now)
      call("didBecomeActive", [], in: &run, at: now) { await app.didBecomeActive() }
    case .background:
      guard from == .foreground, let app else { return }
      call("didEnterBackground", [], in: &run, at: now) { await app.didEnterBackground() }
    case .terminated, .forceQuit:
      // The system ends a suspended app without running its code; the process and its memory are gone.
      if configuration.processModel == .platform { endProcess(in: &run) }
    }
  }

  func locationAuthorizationChanged(in run: inout SimulationRun, at now: SimulationInstant) {
    guard !run.layers.phone.core.installedApp.state.isTerminated, app != nil, let delegate = device.locationManager.delegate else { return }
    let fields = [TimelineField("location", run.layers.phone.core.installedApp.locationAuthorization.rawValue)]
    call("didChangeAuthorization", fields, in: &run, at: now) {
      await delegate.didChangeAuthorization()
    }
  }

  func backgroundRefresh(in run: inout SimulationRun, at now: SimulationInstant) {
    let name = "background-refresh"
    // Low Power Mode turns Background App Refresh off (Apple, Energy
    // Efficiency Guide for iOS Apps, "React to Low Power Mode").
    if run.layers.phone.core.installedApp.state == .forceQuit || !run.layers.phone.core.attention.phoneOn || run.layers.phone.core.attention.lowPower {
      let why = run.layers.phone.core.installedApp.state == .forceQuit
        ? "the patient force-quit the app: the system does not launch it for background refresh"
        : !run.layers.phone.core.attention.phoneOn ? "the phone is off"
        : "Low Power Mode: Background App Refresh does not run while it is on"
      run.record(.app, name, at: now, [TimelineField("ran", "no"), TimelineField("reason", why)])
      return
    }
    guard let position = refreshRequests.firstIndex(where: { ($0.earliestBeginDate ?? .distantPast) <= now.date }) else {
      let why = refreshRequests.isEmpty
        ? "the app has no background refresh request (Application.submit)"
        : "no request's earliest begin date has come (the first is \(refreshRequests[0].earliestBeginDate.map { run.format(SimulationInstant($0)) } ?? "none"))"
      run.record(.app, name, at: now, [TimelineField("ran", "no"), TimelineField("reason", why)])
      return
    }
    let request = refreshRequests.remove(at: position)
    wake(.backgroundRefresh, in: &run, at: now)
    guard let app else { return }
    // The device's account: the system ran the app's refresh task (its callback entry is the app's).
    run.record(.app, name, at: now, [TimelineField("ran", "yes"), TimelineField("app", run.layers.phone.core.installedApp.state.rawValue)])
    call("performBackgroundRefresh", [TimelineField("request", request.identifier)], in: &run, at: now) {
      await app.performBackgroundRefresh(request)
    }
  }

  func medicineChanged(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    let (edit, dueBeforeEdit) = HostedMedicineChange.record(index, in: &run, at: now, showingChains: configuration.medicineEntriesShowChains)
    if run.scenario.medicineApp.medicineChanges[index].appOpen {
      bringToForeground(.patient, reason: "the patient opened the app to enter medicine '\(edit.medicineID)'", in: &run, at: now)
    }
    if run.layers.phone.core.installedApp.state.isTerminated || app == nil {
      wake(.patient, in: &run, at: now)
    }
    if let app {
      call("patientChangedMedicine", [TimelineField("medicine", edit.medicineID.rawValue)], in: &run, at: now) {
        await app.patientChangedMedicine(edit)
      }
    }
    let changes = run.scenario.medicineApp.medicineChanges
    if let app, index + 1 == changes.count || changes[index + 1].instant != changes[index].instant {
      // Simulator-only (no platform callback): no `app` entry.
      call("patientFinishedChangingMedicines", [], recorded: false, in: &run, at: now) { await app.patientFinishedChangingMedicines() }
    }
    // The doses the edit took away get their record once the app has heard of it, so
    // its remarks about the requests it removed for the edit do not reach them.
    if case .edited(let medicine) = edit, let dueBeforeEdit {
      run.layers.ledger.noteDosesRemovedByEdit(of: medicine, dueBeforeEdit: dueBeforeEdit, in: run, at: now)
    }
  }

  /// The app's time-change callback, if its current instance observes time changes.
  var timeChangeObserver: (any SignificantTimeChangeObserving)? { app as? any SignificantTimeChangeObserving }

  /// The device's zone changed (recorded already): an app that observes
  /// time changes hears of it now in the foreground, when it next comes to
  /// the foreground if suspended, and not at all when terminated
  /// (`SignificantTimeChangeObserving` states the rule and its source).
  func timeZoneChanged(from previous: TimeZone, in run: inout SimulationRun, at now: SimulationInstant) {
    scheduleTimeChanges(in: &run, after: now)
    tell(SignificantTimeChange(cause: .timeZone, date: now.date, timeZone: run.deviceTimeZone, previousTimeZone: previous), in: &run, at: now)
  }

  /// Midnight or a daylight-saving change in the device's zone, queued by
  /// `scheduleTimeChanges` while the app observes time changes.
  func timeChangeDue(_ cause: SignificantTimeChange.Cause, token: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    guard token == timeChangeToken else { return }
    scheduleTimeChanges(in: &run, after: now)
    tell(SignificantTimeChange(cause: cause, date: now.date, timeZone: run.deviceTimeZone, previousTimeZone: run.deviceTimeZone), in: &run, at: now)
  }

  /// Queues the next midnight and the next daylight-saving change of the
  /// device's zone after `now` (up to the clock's end), when the app's
  /// instance observes time changes; voids those queued before. Nothing is
  /// queued for any other app, so their runs are as before.
  private func scheduleTimeChanges(in run: inout SimulationRun, after now: SimulationInstant) {
    timeChangeToken += 1
    guard timeChangeObserver != nil else { return }
    let zone = run.deviceTimeZone
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let midnight = calendar.nextDate(
      after: now.date, matching: DateComponents(hour: 0, minute: 0, second: 0), matchingPolicy: .nextTime)
    let transition = zone.nextDaylightSavingTimeTransition(after: now.date)
    for (cause, date) in [(SignificantTimeChange.Cause.midnight, midnight), (.daylightSaving, transition)] {
      guard let date, SimulationInstant(date) > now, SimulationInstant(date) <= run.end else { continue }
      run.queue.schedule(.timeChange(cause, token: timeChangeToken), at: SimulationInstant(date), phase: .timeZoneChange, rank: Int.max)
    }
  }

  /// Tells the app of `change` as iOS does in its state (`SignificantTimeChangeObserving`).
  private func tell(_ change: SignificantTimeChange, in run: inout SimulationRun, at now: SimulationInstant) {
    guard run.stopReason == nil, let observer = timeChangeObserver else { return }
    let fields = timeChangeFields(change, in: run)
    switch run.layers.phone.core.installedApp.state {
    case .foreground:
      call("significantTimeChange", fields, in: &run, at: now) { await observer.significantTimeChange(change) }
    case .background:
      queuedTimeChange = change
      notRun("significantTimeChange", fields + [TimelineField("state", AppState.background.rawValue)],
             "the app is suspended: iOS queues the change until the app returns to the foreground (only the latest is delivered)", in: &run, at: now)
    case .terminated, .forceQuit:
      notRun("significantTimeChange", fields + [TimelineField("state", run.layers.phone.core.installedApp.state.rawValue)],
             "the app is not running: the system does not launch it for a time change", in: &run, at: now)
    }
  }

  /// Delivers the change queued while the app was suspended, as it comes to the foreground.
  private func deliverQueuedTimeChange(in run: inout SimulationRun, at now: SimulationInstant) {
    guard let change = queuedTimeChange else { return }
    queuedTimeChange = nil
    guard let observer = timeChangeObserver else { return }
    let fields = timeChangeFields(change, in: run) + [TimelineField("queued", run.format(SimulationInstant(change.date)))]
    call("significantTimeChange", fields, in: &run, at: now) { await observer.significantTimeChange(change) }
  }

  private func timeChangeFields(_ change: SignificantTimeChange, in run: SimulationRun) -> [TimelineField] {
    [TimelineField("cause", change.cause.rawValue), TimelineField("zone", run.scenario.clock.name(of: change.timeZone))]
      + (change.cause == .timeZone ? [TimelineField("from", run.scenario.clock.name(of: change.previousTimeZone))] : [])
  }

  /// The app's explanations of its doses, if its current instance gives them.
  var explainer: (any DoseExplaining)? { app as? any DoseExplaining }

  func delivered(
    _ shown: DeliveredNotification, request: NotificationRequest, dose: DoseKey?, perception: Perception,
    in run: inout SimulationRun, at now: SimulationInstant
  ) -> Presentation {
    deliveredContent[shown.id] = request
    deliveredDose[shown.id] = dose
    guard run.layers.phone.core.installedApp.state == .foreground, app != nil else {
      if let explainer, let dose {
        let notification = UserNotification(date: now.date, request: request)
        let state = run.layers.phone.core.installedApp.state
        // No app code runs now: the hook may only tell the simulator (SimulationNotes); any other device call is a misuse.
        explaining = true
        attach(&run, at: now) { explainer.deliveredWithoutAppCode(notification, dose: dose, state: state, notes: device.simulation) }
        explaining = false
        if let problem = takeMisuse() { stop(&run, "deliveredWithoutAppCode", at: now, problem) }
      }
      return Presentation(perception: perception)
    }
    let notification = UserNotification(date: now.date, request: request)
    let fields = [TimelineField("notification", shown.id.rawValue)]
    guard let delegate = device.notificationCenter.delegate else {
      notRun("willPresent", fields, "no notification center delegate is set", in: &run, at: now)
      return Presentation(
        perception: .notShown(reason: "the app is in the foreground and has no notification center delegate, so the platform presents nothing", cause: .foreground),
        appliesBadge: false)
    }
    guard let options = call("willPresent", fields, in: &run, at: now, { await delegate.willPresent(notification) }) else {
      return Presentation(perception: perception)
    }
    return Self.presentation(of: options, platform: perception)
  }

  /// What will-present's options make of a foreground delivery (Apple,
  /// `UNNotificationPresentationOptions`): `banner` shows it and `sound`
  /// plays it (either alerts the patient, as the device otherwise would);
  /// `list` keeps it in Notification Center (alone: filed there silently);
  /// `badge` applies its badge; none of banner, list or sound shows nothing.
  static func presentation(of options: PresentationOptions, platform perception: Perception) -> Presentation {
    let alerts = options.contains(.banner) || options.contains(.sound)
    let badge = options.contains(.badge)
    guard alerts || options.contains(.list) else {
      return Presentation(
        perception: .notShown(reason: "the app is in the foreground and its will-present returned options \(options), so the platform presents nothing", cause: .foreground),
        appliesBadge: badge)
    }
    guard alerts || !perception.alertsNow else {
      return Presentation(
        perception: .quiet(
          reason: "the app is in the foreground and its will-present returned options \(options): listed in Notification Center without a banner or sound"),
        appliesBadge: badge)
    }
    return Presentation(perception: perception, appliesBadge: badge, staysListed: options.contains(.list))
  }

  /// The patient's action on `id`: the `action` entry's fields, and the
  /// notification taken out of Notification Center (unless ignored).
  func takeAction(
    _ action: UserAction, on id: NotificationID, by source: String, dose: DoseKey?, in run: inout SimulationRun, at now: SimulationInstant
  ) -> [TimelineField] {
    var fields = [TimelineField("action", action.description), TimelineField("by", source)]
    if let dose { fields.append(TimelineField("dose", dose.occurrenceLabel)) }
    if action != .ignore {
      run.layers.phone.core.takeOutOfNotificationCenter(id, chosen: action, in: &run, at: now)
      deliveredContent[id] = nil
    }
    return fields
  }

  func canAct(on id: NotificationID, in run: SimulationRun) -> Bool { deliveredContent[id] != nil }

  func patientActed(_ action: UserAction, on id: NotificationID, by source: String, in run: inout SimulationRun, at now: SimulationInstant) {
    guard let request = deliveredContent[id], let shown = run.layers.phone.core.center.delivered[id] else { return }
    let dose = run.layers.ledger.shownDose[id]
    let category = request.categoryIdentifier.flatMap { categories[$0] }
    let identifier = configuration.actionIdentifier(action)
    // Open, dismiss and ignore need no button; snooze and complete are the category's actions.
    let needsButton: Bool
    switch action {
    case .snooze, .complete: needsButton = true
    case .open, .dismiss, .ignore: needsButton = false
    }
    if needsButton && category?.actions.contains(where: { $0.identifier == identifier }) != true {
      unavailable(action, identifier, category, request, in: &run, at: now)
      return
    }
    let fields = takeAction(action, on: id, by: source, dose: dose, in: &run, at: now)
    /// The action entry of a response the app never hears, and the dose's remark.
    func notHandled(_ field: TimelineField, _ reason: String, note: String) {
      run.record(.action, id.rawValue, at: now, fields + [field, TimelineField("reason", reason)])
      if let dose { run.layers.ledger.remark(dose, note) }
    }
    if action == .dismiss && category?.customDismissAction != true {
      notHandled(
        TimelineField("reported", "no"),
        explainer?.dismissNotReportedReason(id, facts: SimulationFacts(run: run)) ?? "the category has no custom dismiss action, so the app is not told",
        note: "dismissed at \(run.format(now)) without telling the app (no custom dismiss action)")
      return
    }
    if action != .ignore && run.layers.phone.core.installedApp.state.isTerminated && run.scenario.platform.terminatedActions == .lost {
      notHandled(
        TimelineField("handled", "no"), "the app is terminated and its action handler did not run (platform terminatedActions: lost)",
        note: "'\(action)' at \(run.format(now)) lost: the app was terminated")
      return
    }
    let state = run.layers.phone.core.installedApp.state
    let chosen = category?.actions.first { $0.identifier == identifier }
    let typed = chosen?.textInput != nil ? configuration.typedText(id, identifier) : nil
    var extra = explainer?.actionEntryFields(id, actionIdentifier: identifier, state: state) ?? []
    // The device has no lock state: the patient is taken to unlock at once (NotificationAction states the rule).
    if chosen?.options.contains(.authenticationRequired) == true { extra.append(TimelineField("authentication", "required")) }
    if let typed { extra.append(TimelineField("text", typed)) }
    run.record(.action, id.rawValue, at: now, fields + extra)
    // The patient's act is the world's truth, whatever the app does with it.
    if let dose {
      let ledger = run.layers.ledger
      ledger.recordPatientAct(action, on: dose, in: &run, at: now)
    }
    guard action != .ignore else { return }
    if let chosen, chosen.options.contains(.foreground) {
      bringToForeground(.notificationResponse, reason: "the patient chose '\(chosen.identifier)', a foreground action", in: &run, at: now)
    }
    if run.layers.phone.core.installedApp.state.isTerminated || app == nil { wake(.notificationResponse, in: &run, at: now) }
    let response = NotificationResponse(
      notification: UserNotification(date: shown.instant.date, request: request), actionIdentifier: identifier, userText: typed)
    let responseFields = [TimelineField("notification", id.rawValue), TimelineField("action", identifier)]
    guard let delegate = device.notificationCenter.delegate else {
      notRun("didReceive", responseFields, "no notification center delegate is set", in: &run, at: now)
      return
    }
    respondingDose = dose
    defer { respondingDose = nil }
    call("didReceive", responseFields, in: &run, at: now) { await delegate.didReceive(response) }
  }

  /// The app comes to the foreground for the patient (launched for `launch`
  /// when it is not running), before the callback that follows: a
  /// `.foreground` action's `didReceive` (Apple, `UNNotificationActionOptions.foreground`),
  /// or a medicine the patient enters with the app open (`MedicineChange.appOpen`).
  private func bringToForeground(_ launch: LaunchReason, reason: String, in run: inout SimulationRun, at now: SimulationInstant) {
    let previous = run.layers.phone.core.installedApp.state
    guard previous != .foreground else { return }
    run.record(.app, "state", at: now, [
      TimelineField("to", AppState.foreground.rawValue), TimelineField("from", previous.rawValue), TimelineField("reason", reason),
    ])
    run.layers.phone.core.installedApp.state = .foreground
    if app == nil || (previous.isTerminated && configuration.processModel == .platform) { startProcess(launch, in: &run, at: now) }
    guard let app else { return }
    deliverQueuedTimeChange(in: &run, at: now)
    call("didBecomeActive", [], in: &run, at: now) { await app.didBecomeActive() }
  }

  /// The patient cannot choose an action the notification does not offer.
  private func unavailable(
    _ action: UserAction, _ identifier: String, _ category: NotificationCategory?, _ request: NotificationRequest,
    in run: inout SimulationRun, at now: SimulationInstant
  ) {
    let offered = category.map { "its category '\($0.identifier)' offers \($0.actions.map(\.identifier).joined(separator: ", "))" }
      ?? (request.categoryIdentifier.map { "its category '\($0)' is not registered (setNotificationCategories)" } ?? "it has no category")
    run.record(.warning, request.id.rawValue, at: now, [
      TimelineField("reason", "the patient cannot choose '\(action)' (action '\(identifier)'): \(offered)"),
    ])
  }

  func silentPushReceived(_ push: RemotePush, in run: inout SimulationRun, at now: SimulationInstant) {
    wake(.remoteNotification, in: &run, at: now)
    guard let app else { return }
    var userInfo = ["id": push.id.rawValue]
    if let type = push.type { userInfo["type"] = type }
    call("didReceiveRemoteNotification", [TimelineField("push", push.id.rawValue)], in: &run, at: now) {
      await app.didReceiveRemoteNotification(userInfo)
    }
  }

  // An iPhone has no alarms, WorkManager, system broadcasts, geofences or FCM: the
  // engine calls these only on the Android device, whose host (`AndroidHostedAppLayer`) overrides them.
  func alarmFired(_ alarm: PendingAlarm, in run: inout SimulationRun, at now: SimulationInstant) {}
  func workRan(_ work: WorkRequestInfo, in run: inout SimulationRun, at now: SimulationInstant) {}
  func geofencesRemoved(reason: String, in run: inout SimulationRun, at now: SimulationInstant) {}
  func systemBroadcast(_ broadcast: SystemBroadcast, in run: inout SimulationRun, at now: SimulationInstant) {}
  func fcmMessageReceived(_ message: RemoteMessage, in run: inout SimulationRun, at now: SimulationInstant) {}
  func fcmMessagesDeleted(in run: inout SimulationRun, at now: SimulationInstant) {}
  var fcmDefaultChannel: String? { nil }

  func monitorsRegion(_ id: RegionID, addedAtOrBefore instant: SimulationInstant?) -> Bool {
    monitoredRegions.contains { $0.spec.identifier == id && (instant == nil || $0.since <= instant!) }
  }

  var appMonitoredRegions: Set<RegionID> { Set(monitoredRegions.map(\.spec.identifier)) }

  func regionDetected(
    _ region: Int, entering: Bool, transition: GeofenceTransition?, condition: SimulationInstant?, in run: inout SimulationRun, at now: SimulationInstant
  ) {
    let id = run.scenario.regions[region].id
    // iOS has no DWELL.
    guard transition != .dwell else { return }
    guard let monitored = monitoredRegions.first(where: { $0.spec.identifier == id && (condition == nil || $0.since <= condition!) }),
      entering ? monitored.spec.notifyOnEntry : monitored.spec.notifyOnExit
    else { return }
    let name = entering ? "didEnterRegion" : "didExitRegion"
    let fields = [TimelineField("region", id.rawValue)]
    regionCallbackLoss[id] = nil
    if run.layers.phone.core.installedApp.state == .forceQuit { run.layers.assumptionLog.consult(.forceQuitLocation) }
    guard run.layers.phone.core.installedApp.state != .forceQuit || run.scenario.platform.forceQuitLocationLaunch == .launched else {
      let why = "the patient force-quit the app: the system does not relaunch it for region events"
      notRun(name, fields, why, in: &run, at: now)
      regionCallbackLoss[id] = "the app's \(name) did not run at \(run.format(now)): \(why)"
      return
    }
    wake(.location, in: &run, at: now)
    guard let delegate = device.locationManager.delegate else {
      notRun(name, fields, "no location manager delegate is set", in: &run, at: now)
      regionCallbackLoss[id] = "the app's \(name) did not run at \(run.format(now)): no location manager delegate is set"
      return
    }
    let spec = monitored.spec
    call(name, fields, in: &run, at: now) {
      if entering { await delegate.didEnterRegion(spec) } else { await delegate.didExitRegion(spec) }
    }
  }

  /// Each fix, while the app asked for location updates: the
  /// significant-change service's report, then the standard service's (in
  /// the foreground), queued at the fix after its position events.
  func observe(_ fix: TrackSample, in run: inout SimulationRun) {
    observeSignificantChange(fix, in: &run)
    guard standardUpdates, run.layers.phone.core.installedApp.state == .foreground, run.layers.phone.core.installedApp.locationAuthorization.allowsRegionMonitoring,
      fix.instant <= run.end
    else { return }
    if let last = lastStandardUpdate, distanceFilter > 0, Geodesic.distance(last, fix.coordinate) < distanceFilter { return }
    lastStandardUpdate = fix.coordinate
    run.queue.schedule(.locationUpdate(fix.coordinate, service: standardService), at: fix.instant, phase: .position, rank: Int.max)
  }

  private func observeSignificantChange(_ fix: TrackSample, in run: inout SimulationRun) {
    guard significantChanges else { return }
    let rules = run.scenario.platform.significantChange
    if let last = lastSignificantChange {
      guard last.instant.duration(to: fix.instant) >= rules.minimumInterval, Geodesic.distance(last.position, fix.coordinate) >= rules.distance
      else { return }
    }
    lastSignificantChange = (fix.coordinate, fix.instant)
    guard fix.instant <= run.end else { return }
    run.queue.schedule(.significantLocationChange(fix.coordinate), at: fix.instant, phase: .position, rank: Int.max)
  }

  /// The standard service's report: only to an app still in the foreground
  /// (an `app` entry when callbacks are recorded; nothing otherwise).
  func locationUpdate(_ position: Coordinate, service: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    guard standardUpdates, service == standardService, run.layers.phone.core.installedApp.state == .foreground,
      run.layers.phone.core.installedApp.locationAuthorization.allowsRegionMonitoring, let delegate = device.locationManager.delegate
    else { return }
    // Called at every foreground fix: the entry's fields are built only when callbacks are recorded.
    call("didUpdateLocation", [TimelineField("at", position.description), TimelineField("service", LocationUpdateService.standard.rawValue)], in: &run, at: now) {
      await delegate.didUpdateLocation(position, from: .standard)
    }
  }

  func placeNotMonitoredReason(set: Int, place: Int, in run: SimulationRun) -> String? {
    let placeSet = run.scenario.placeSets[set]
    return explainer?.placeNotMonitoredReason(set: placeSet.id, place: placeSet.places[place].id, facts: SimulationFacts(run: run))
  }

  func significantLocationChange(_ position: Coordinate, in run: inout SimulationRun, at now: SimulationInstant) {
    guard significantChanges else { return }
    let fields = [TimelineField("at", position.description)]
    if run.layers.phone.core.installedApp.state == .forceQuit { run.layers.assumptionLog.consult(.forceQuitLocation) }
    guard run.layers.phone.core.installedApp.state != .forceQuit || run.scenario.platform.forceQuitLocationLaunch == .launched else {
      notRun("didUpdateLocation", fields, "the patient force-quit the app: the system does not relaunch it for significant-change updates", in: &run, at: now)
      return
    }
    guard run.layers.phone.core.attention.phoneOn else {
      notRun("didUpdateLocation", fields, "the phone is off", in: &run, at: now)
      return
    }
    wake(.location, in: &run, at: now)
    guard let delegate = device.locationManager.delegate else {
      notRun("didUpdateLocation", fields, "no location manager delegate is set", in: &run, at: now)
      return
    }
    call("didUpdateLocation", fields, in: &run, at: now) { await delegate.didUpdateLocation(position, from: .significantChange) }
  }

  func noFollowUpsRemark(_ dose: DoseRecord, in run: SimulationRun) -> String? {
    guard dose.resolved == nil else { return nil }
    return explainer?.unansweredRemark(dose, facts: SimulationFacts(run: run))
  }

  /// The app's requests for the daily time, read against the dose's window:
  /// the one that should have answered it and what became of it.
  ///
  /// The rule: the reason is the first broken link the timeline records for
  /// this dose. An app that explains its doses (`DoseExplaining`) answers
  /// first. Then the request the app planned for the dose (the first add,
  /// attributed to this daily time, whose first fire as computed at its add
  /// lay in the window; `plannedRequestReason`): it fired outside the window
  /// (a time-zone change moved its floating time), or it was removed,
  /// dropped, replaced or not shown before it fired. Only when no request
  /// was planned for the dose, or its plan held, do later requests explain
  /// it (one that would fire in the window but was not pending, then the
  /// next firing of one still pending): a later day's request never hides
  /// what happened to this day's.
  func missedReason(_ clock: DoseClock, _ dose: PrescribedDose, in run: SimulationRun) -> String {
    if let explainer {
      let missed = MissedDose(
        medicine: clock.medicine, time: clock.time, timeIndex: clock.index, due: dose.due,
        previousDue: clock.doses.last(where: { $0.due < dose.due })?.due ?? run.scenario.clock.start, prescription: clock.prescription)
      if let reason = explainer.missedReason(missed, facts: SimulationFacts(run: run)) { return reason }
    }
    let window = "the prescription's window (\(clock.prescription.summary))"
    let opens = dose.due.advanced(by: SimulationDuration(milliseconds: -clock.prescription.before.milliseconds))
    let closes = dose.due.advanced(by: clock.prescription.after)
    let slot = ReminderSlot(medicine: clock.medicine, time: clock.time)
    if run.layers.phone.android != nil, let reason = androidAlarmReason(slot, opens: opens, closes: closes, window: window, in: run) { return reason }
    if run.layers.phone.android != nil, reminderRequests[slot] == nil {
      return androidEarlierAlarmHeld(slot, before: opens, window: window, in: run)
        ?? "no alarm of the app was set for \(window) and it posted no notification for the \(clock.time) reminder of medicine \(clock.medicine)"
    }
    if let reason = plannedRequestReason(slot, due: dose.due, opens: opens, closes: closes, window: window, in: run) { return reason }
    guard let ids = reminderRequests[slot], let last = ids.last else {
      return "never scheduled: the app added no request it attributes to the \(clock.time) reminder of medicine \(clock.medicine)"
    }
    for id in ids {
      guard let added = addedRequests[id], let fires = firstDelivery(of: added.request, added: added.at, atOrAfter: opens, in: run), fires <= closes
      else { continue }
      return "\(id) " + (run.layers.ledger.lossReason[id] ?? "was not pending when it would have fired, \(run.format(fires))")
    }
    if let id = ids.last(where: { run.layers.phone.core.center.pending[$0] != nil }), let next = run.layers.phone.core.center.pending[id]?.nextDelivery {
      return "the reminder \(id) next fires \(run.format(next)), outside \(window)"
    }
    if run.layers.phone.android != nil, let reason = androidEarlierAlarmHeld(slot, before: opens, window: window, in: run) { return reason }
    return "no request the app attributes to the \(clock.time) reminder fires in \(window)"
      + (run.layers.ledger.lossReason[last].map { "; the last, \(last): \($0)" } ?? "")
  }

  /// What broke the request the app planned for the dose of `slot` due at
  /// `due`: the first add attributed to `slot` whose first fire, computed at
  /// that add, lies in `opens...closes`. If it fired (and was shown) after
  /// that add outside the window, that firing; else, when it is no longer
  /// pending, why it went (`DoseLedger.lossReason`). Nil when no request was
  /// planned for the dose, or nothing the timeline records broke its plan.
  func plannedRequestReason(
    _ slot: ReminderSlot, due: SimulationInstant, opens: SimulationInstant, closes: SimulationInstant, window: String, in run: SimulationRun
  ) -> String? {
    guard let planned = plannedReminders[slot]?.first(where: { $0.fires >= opens && $0.fires <= closes }) else { return nil }
    if let fired = run.layers.ledger.reminderFirings[planned.id]?.first(where: { $0 >= planned.addedAt }) {
      guard fired < opens || fired > closes else { return nil }
      // Each instant in the zone in force at it, as its own timeline entry shows it (the plan: in the zone at the add).
      let clock = run.scenario.clock
      let offset = fired.duration(to: due)
      let side = offset.milliseconds > 0 ? "\(offset) before" : "\(SimulationDuration(milliseconds: -offset.milliseconds)) after"
      var reason = "\(planned.id) fired \(clock.local(fired)), \(side) the dose was due, outside \(window)"
      // The plan in the zone it was made in: the wall time the app asked for.
      let planZone = clock.deviceZone(at: planned.addedAt)
      let plannedText = InstantFormatter.format(planned.fires, offsetSeconds: planZone.secondsFromGMT(for: planned.fires.date))
      reason += "; when added at \(clock.local(planned.addedAt)) it was to fire \(plannedText)"
      if let change = clock.timeZoneChanges.last(where: { $0.instant > planned.addedAt && $0.instant <= fired }) {
        let from = clock.deviceZone(at: change.instant.advanced(byMilliseconds: -1)).identifier
        reason += ": the time-zone change at \(clock.local(change.instant)) (\(from) → \(change.timeZone.identifier)) moved its floating time"
      }
      return reason
    }
    guard run.layers.phone.core.center.pending[planned.id] == nil, let loss = run.layers.ledger.lossReason[planned.id] else { return nil }
    return "\(planned.id) \(loss)"
  }

  /// Android: why no notification answered the dose of `slot` due in
  /// `opens...closes`, from the app's alarms for that window: one the device
  /// cleared (an alarm the app attributed to this daily time first, else one
  /// it attributed to nothing, never another dose's), or one the device held
  /// past the window. nil: no alarm for the window says why.
  func androidAlarmReason(_ slot: ReminderSlot, opens: SimulationInstant, closes: SimulationInstant, window: String, in run: SimulationRun) -> String? {
    let losses = run.layers.phone.android?.alarmLosses.filter { $0.triggerAt >= opens && $0.triggerAt <= closes } ?? []
    if let loss = losses.last(where: { $0.attribution?.dailySlot == slot }) ?? losses.last(where: { $0.attribution == nil }) {
      return "the app's alarm '\(loss.tag)' for \(run.format(loss.triggerAt)) was \(loss.what) at \(run.format(loss.at)): \(loss.reason)"
    }
    let held = run.layers.phone.android?.alarmsInSetOrder.first {
      $0.attribution?.dailySlot == slot && $0.alarm.triggerAt >= opens && $0.alarm.triggerAt <= closes
    }
    return held.map {
      "the app's alarm '\($0.tag)' for \(run.format($0.alarm.triggerAt)) was held by the device past \(window): \($0.heldReason ?? "deferred by the system")"
    }
  }

  /// Android: the alarm of an earlier occurrence of `slot` that the device
  /// still holds (the app sets the next day's alarm when one fires), if any.
  func androidEarlierAlarmHeld(_ slot: ReminderSlot, before opens: SimulationInstant, window: String, in run: SimulationRun) -> String? {
    let earlier = run.layers.phone.android?.alarmsInSetOrder.last { $0.attribution?.dailySlot == slot && $0.alarm.triggerAt < opens }
    return earlier.map {
      "no alarm of the app was set for \(window): its alarm '\($0.tag)' for \(run.format($0.alarm.triggerAt)), whose receiver sets the next one, was still held by the device: \($0.heldReason ?? "deferred by the system")"
    }
  }

  /// When `request`, added at `added`, first fires at or after `instant` (nil: never).
  private func firstDelivery(of request: NotificationRequest, added: SimulationInstant, atOrAfter instant: SimulationInstant, in run: SimulationRun)
    -> SimulationInstant?
  {
    switch request.trigger {
    case .calendar(let trigger):
      let after = max(instant, added).advanced(byMilliseconds: -1)
      return run.calendarEvaluator.nextDelivery(of: trigger, after: after, deviceTimeZone: run.scenario.clock.deviceZone(at: after))
    case .interval(let trigger):
      var fires = added.advanced(by: trigger.interval)
      if trigger.repeats && fires < instant {
        let periods = (instant.millisecondsSinceEpoch - fires.millisecondsSinceEpoch + trigger.interval.milliseconds - 1) / trigger.interval.milliseconds
        fires = fires.advanced(byMilliseconds: periods * trigger.interval.milliseconds)
      }
      return fires >= instant ? fires : nil
    case .posted:
      return added >= instant ? added : nil
    case .region:
      return nil
    }
  }

  func locationDoseObstacle(_ medicine: MedicineID, region: RegionID, in run: SimulationRun) -> String? {
    if let reason = explainer?.locationDoseObstacle(medicine, region: region, facts: SimulationFacts(run: run)) { return reason }
    if monitoredRegions.contains(where: { $0.spec.identifier == region }) { return nil }
    let ids = locationRequests(of: medicine, at: region)
    if ids.contains(where: { run.layers.phone.core.center.pending[$0] != nil }) { return nil }
    guard let last = ids.last else {
      return "the app added no location request for \(region) it attributes to medicine \(medicine), and does not monitor \(region)"
    }
    return run.layers.ledger.lossReason[last] ?? "the location request \(last) was not pending"
  }

  func locationDetectionLoss(_ medicine: MedicineID, region: RegionID, in run: SimulationRun) -> String? {
    if let reason = explainer?.locationDetectionLoss(medicine, region: region, facts: SimulationFacts(run: run)) { return reason }
    if let loss = regionCallbackLoss[region] { return loss }
    return locationRequests(of: medicine, at: region).last.flatMap { run.layers.ledger.lossReason[$0] }
  }

  /// The app's location triggers on `region` it attributes to `medicine`, in the order first added.
  private func locationRequests(of medicine: MedicineID, at region: RegionID) -> [NotificationID] {
    (locationRequests[medicine] ?? []).filter { id in
      if case .region(let trigger) = addedRequests[id]?.request.trigger { trigger.region == region } else { false }
    }
  }

  // MARK: - The device API's operations

  func requestAuthorization(options: AuthorizationOptions, in run: inout SimulationRun, at now: SimulationInstant) -> Bool {
    // Not determined: the patient is asked (or, for `.provisional`, not). Provisional: a full request asks the patient.
    if run.layers.phone.core.installedApp.permission == .notDetermined || (run.layers.phone.core.installedApp.permission == .provisional && !options.contains(.provisional)) {
      let provisional = options.contains(.provisional)
      let answer: NotificationPermission = provisional ? .provisional : configuration.permissionAnswer
      run.record(.app, "permission", at: now, [
        TimelineField("to", answer.rawValue), TimelineField("from", run.layers.phone.core.installedApp.permission.rawValue),
        TimelineField("reason", provisional ? "the app asked for provisional authorization: granted without asking" : "the patient answered the app's request"),
      ])
      run.layers.phone.core.installedApp.permission = answer
    }
    return [.granted, .provisional, .ephemeral].contains(run.layers.phone.core.installedApp.permission)
  }

  func add(_ request: NotificationRequest, in run: inout SimulationRun, at now: SimulationInstant) throws {
    try check(request, in: run)
    attribute(request, in: &run, at: now)
    run.layers.phone.core.add(request, in: &run, at: now)
  }

  /// The platform's refusals of a request's trigger.
  private func check(_ request: NotificationRequest, in run: SimulationRun) throws {
    switch request.trigger {
    case .interval(let trigger):
      if trigger.interval.milliseconds <= 0 { throw NotificationCenterError.intervalNotPositive(request.id) }
      if trigger.repeats && trigger.interval.milliseconds < 60_000 { throw NotificationCenterError.repeatingIntervalUnder60Seconds(request.id) }
    case .region(let trigger):
      guard let region = run.scenario.regions.first(where: { $0.id == trigger.region }) else {
        throw NotificationCenterError.regionNotInScenario(request.id, trigger.region)
      }
      guard region.shape is CircularRegion || configuration.acceptsPolygonRegions else {
        throw NotificationCenterError.regionNotCircular(request.id, trigger.region)
      }
    case .calendar, .posted:
      break
    }
  }

  /// Tells the ledger which dose `request` serves (its own attribution, the
  /// app's function, or the scenario's identifier templates).
  func attribute(_ request: NotificationRequest, in run: inout SimulationRun, at now: SimulationInstant) {
    // The request's own attribution first, then the app's function, then the scenario's identifier templates.
    var info = request.doseAttribution.map { run.layers.ledger.requestInfo(of: $0) }
      ?? configuration.attribution.map { attribute in attribute(request).map { run.layers.ledger.requestInfo(of: $0) } } ?? run.layers.ledger.rawRequestInfo(request.id, in: run)
    // Posted from a region callback (a time trigger, not another location trigger): it answers that visit's dose.
    if info?.role == .location, !request.trigger.isRegion, let context = run.layers.phone.core.locationReportContext, let visit = context.visit,
      let medicine = info?.medicine
    {
      info?.dose = run.layers.ledger.locationDoseOfVisit[
        DoseLedger.LocationVisit(medicine: medicine, region: context.region, visit: visit, entering: context.entering)]
    }
    if let info {
      // Under an identifier of another role or dose, the request replaces it (the ledger's account of the replaced one).
      run.layers.ledger.claim(request.id, for: info, in: run, at: now)
      if info.role.isMain { run.layers.ledger.mainRequestAdded(request.id) }
    }
    run.layers.ledger.requestAttributed(request.id, to: info)
    addedRequests[request.id] = (request, now)
    if let info {
      switch info.role {
      case .reminder(_, let time):
        let slot = ReminderSlot(medicine: info.medicine, time: time)
        if reminderRequests[slot]?.contains(request.id) != true { reminderRequests[slot, default: []].append(request.id) }
        if let fires = firstDelivery(of: request, added: now, atOrAfter: now, in: run) {
          plannedReminders[slot, default: []].append(PlannedReminder(id: request.id, addedAt: now, fires: fires))
        }
      case .location:
        if locationRequests[info.medicine]?.contains(request.id) != true { locationRequests[info.medicine, default: []].append(request.id) }
      case .followUp, .snoozedAlert:
        break
      }
    }
  }

  /// The dose the latest delivery under `id` answered (shown now, or acted on).
  func dose(answeredBy id: NotificationID, in run: SimulationRun) -> DoseKey? { deliveredDose[id] }

  /// The dose the pending request `id` is attributed to, when the attribution names one.
  func dose(ofPending id: NotificationID, in run: SimulationRun) -> DoseKey? {
    guard run.layers.phone.core.center.pending[id] != nil, let info = run.layers.ledger.requestInfo[id] else { return nil }
    if let dose = info.dose { return dose }
    guard let due = info.chainDue, let time = info.chainTime else { return nil }
    return run.layers.ledger.doseKey(info.medicine, time, fire: due, in: run)
  }

  func delivered(in run: SimulationRun) -> [UserNotification] {
    run.layers.phone.core.center.delivered.values.sorted { $0.serial < $1.serial }.compactMap { shown in
      deliveredContent[shown.id].map { UserNotification(date: shown.instant.date, request: $0) }
    }
  }

  func noteLocationRequest(_ kind: String, in run: inout SimulationRun, at now: SimulationInstant) {
    run.record(.app, "location-request", at: now, [
      TimelineField("asked", kind), TimelineField("current", run.layers.phone.core.installedApp.locationAuthorization.rawValue),
      TimelineField("reason", "the patient's answer is the scenario's ('app: - location:')"),
    ])
  }

  func startMonitoring(_ spec: CircularRegionSpec, in run: inout SimulationRun, at now: SimulationInstant) {
    guard let region = run.scenario.regions.first(where: { $0.id == spec.identifier }), let circle = region.shape as? CircularRegion,
      abs(circle.center.latitude - spec.center.latitude) < 1e-7, abs(circle.center.longitude - spec.center.longitude) < 1e-7,
      abs(circle.radius - spec.radius) < 0.01
    else {
      noteMisuse(
        "LocationManager.startMonitoring: region '\(spec.identifier)' (\(spec.center), \(spec.radius) m) is not a circle of the scenario with this centre and radius; declare it under 'regions:' so the simulated world knows where it is")
      return
    }
    monitoredRegions.removeAll { $0.spec.identifier == spec.identifier }
    if let blocked = run.layers.phone.core.installedApp.regionMonitoringBlockedReason {
      monitoringFailures.append((spec, .regionMonitoringDenied(spec.identifier, reason: blocked)))
      return
    }
    let limit = run.scenario.platform.monitoredRegionLimit
    let triggerRegions = Set(run.layers.phone.core.center.pendingInAddOrder().compactMap { pending -> RegionID? in
      if case .region(let trigger) = pending.request.trigger { trigger.region } else { nil }
    })
    let inUse = Set(monitoredRegions.map(\.spec.identifier)).union(triggerRegions).subtracting([spec.identifier])
    guard inUse.count < limit else {
      monitoringFailures.append((spec, .regionMonitoringFailure(spec.identifier, limit: limit)))
      return
    }
    monitoredRegions.append(AppMonitoredRegion(spec: spec, since: now))
    monitoredRegions.sort { $0.spec.identifier < $1.spec.identifier }
    if configuration.recordsAppCalls {
      run.record(.app, "monitoring", at: now, [TimelineField("region", spec.identifier.rawValue), TimelineField("change", "started")])
    }
  }

  func stopMonitoring(_ spec: CircularRegionSpec, in run: inout SimulationRun, at now: SimulationInstant) {
    guard monitoredRegions.contains(where: { $0.spec.identifier == spec.identifier }) else { return }
    monitoredRegions.removeAll { $0.spec.identifier == spec.identifier }
    if configuration.recordsAppCalls {
      run.record(.app, "monitoring", at: now, [TimelineField("region", spec.identifier.rawValue), TimelineField("change", "stopped")])
    }
  }

  private func reportMonitoringFailures(in run: inout SimulationRun, at now: SimulationInstant) {
    let failures = monitoringFailures
    monitoringFailures = []
    for (spec, error) in failures {
      let fields = [TimelineField("region", spec.identifier.rawValue), TimelineField("error", error.description)]
      guard let delegate = device.locationManager.delegate else {
        notRun("monitoringDidFail", fields, "no location manager delegate is set", in: &run, at: now)
        continue
      }
      call("monitoringDidFail", fields, in: &run, at: now) { await delegate.monitoringDidFail(for: spec, error: error) }
    }
  }

  /// After a location service started or stopped: whether the run hands
  /// this layer every fix, and the app call's own entry.
  private func locationServiceChanged(_ subject: String, on: Bool, in run: inout SimulationRun, at now: SimulationInstant) {
    run.layers.phone.core.observesFixes = significantChanges || standardUpdates
    if configuration.recordsAppCalls { run.record(.app, subject, at: now, [TimelineField("change", on ? "started" : "stopped")]) }
  }

  /// Starting the service reports the device's most recent fix (Apple,
  /// `startMonitoringSignificantLocationChanges()`: "The first event to be
  /// delivered is usually the most recently cached location event"): at
  /// once, or at its own instant when the track's next fix lies ahead of now;
  /// later reports are measured from it.
  func setSignificantChanges(_ on: Bool, in run: inout SimulationRun, at now: SimulationInstant) {
    guard on != significantChanges else { return }
    significantChanges = on
    lastSignificantChange = nil
    locationServiceChanged("significant-changes", on: on, in: &run, at: now)
    // The fix the device has: read before the events up to its instant, it may lie ahead of now; then it comes at its instant.
    if on, let last = run.replay.previousFix, last.instant <= run.end {
      lastSignificantChange = (last.coordinate, last.instant)
      run.queue.schedule(.significantLocationChange(last.coordinate), at: max(now, last.instant), phase: .position, rank: Int.max)
    }
  }

  /// Starts or stops the standard location service. Starting it in the
  /// foreground reports the device's most recent fix (Apple,
  /// `startUpdatingLocation()`: the manager obtains an initial fix and
  /// reports it), as the significant-change service does; later reports
  /// follow the fixes.
  func setStandardUpdates(_ on: Bool, in run: inout SimulationRun, at now: SimulationInstant) {
    guard on != standardUpdates else { return }
    standardUpdates = on
    standardService += 1
    lastStandardUpdate = nil
    locationServiceChanged("location-updates", on: on, in: &run, at: now)
    // The fix the device has: read before the events up to its instant, it may lie ahead of now; then it comes at its instant.
    if on, run.layers.phone.core.installedApp.state == .foreground, run.layers.phone.core.installedApp.locationAuthorization.allowsRegionMonitoring, let last = run.replay.previousFix,
      last.instant <= run.end
    {
      lastStandardUpdate = last.coordinate
      run.queue.schedule(.locationUpdate(last.coordinate, service: standardService), at: max(now, last.instant), phase: .position, rank: Int.max)
    }
  }

  func submit(_ request: BackgroundRefreshRequest, in run: inout SimulationRun, at now: SimulationInstant) {
    refreshRequests.removeAll { $0.identifier == request.identifier }
    refreshRequests.append(request)
    var fields = [TimelineField("request", request.identifier)]
    if let earliest = request.earliestBeginDate { fields.append(TimelineField("earliest", run.format(SimulationInstant(earliest)))) }
    if configuration.recordsAppCalls {
      run.record(.app, "background-refresh-request", at: now, fields)
    }
  }
}

/// Runs a callback's jobs on the engine's thread, in the order they are
/// enqueued, until none is left (SE-0417 task executors).
///
/// A job enqueued from another thread means the callback left this executor
/// and is being resumed from outside the simulation (a timer, the main
/// actor, a continuation resumed elsewhere): `resumedFromOutside` is set. A
/// callback that leaves the executor fails either way: its queue runs dry
/// with the callback unfinished, or a job reaches it from another thread
/// first, so the verdict (an error) does not depend on which comes first.
final class CallbackExecutor: TaskExecutor, @unchecked Sendable {
  private let lock = NSLock()
  private var jobs: [UnownedJob] = []
  private let owner = pthread_self()
  private var foreign = false

  /// Whether a job came from another thread.
  var resumedFromOutside: Bool {
    lock.lock()
    defer { lock.unlock() }
    return foreign
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    lock.lock()
    if pthread_equal(owner, pthread_self()) == 0 { foreign = true }
    jobs.append(job)
    lock.unlock()
  }

  func runUntilIdle() {
    while true {
      lock.lock()
      guard !jobs.isEmpty else {
        lock.unlock()
        return
      }
      let job = jobs.removeFirst()
      lock.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

private final class CallbackOutcome<T>: @unchecked Sendable {
  var value: T?
}

/// A medicine change under a hosted app (either platform's host): the
/// `medicine` entry and the prescription's dose clocks (the world's truth),
/// told to the dose ledger; the app hears of it separately and removes or
/// adds its own requests.
enum HostedMedicineChange {
  static func record(
    _ index: Int, in run: inout SimulationRun, at now: SimulationInstant, showingChains: Bool
  ) -> (MedicineEdit, dueBeforeEdit: [(time: DailyTime, due: SimulationInstant, key: DoseKey)]?) {
    let change = run.scenario.medicineApp.medicineChanges[index]
    let ledger = run.layers.ledger
    switch change.kind {
    case .create(let medicine):
      run.record(.medicine, "medicine_\(medicine.id)", at: now, [TimelineField("change", "created")] + (showingChains ? medicine.summaryFields : medicine.prescriptionFields))
      ledger.prescriptionCreated(medicine, in: &run, at: now)
      if medicine.location != nil { ledger.locationReminderArmed(medicine.id, true) }
      return (.created(medicine), nil)
    case .edit(let medicine):
      run.record(.medicine, "medicine_\(medicine.id)", at: now, [TimelineField("change", "edited")] + (showingChains ? medicine.summaryFields : medicine.prescriptionFields))
      let dueBeforeEdit = ledger.prescriptionReplaced(medicine, in: &run, at: now)
      ledger.locationReminderArmed(medicine.id, medicine.location != nil)
      return (.edited(medicine), dueBeforeEdit)
    case .delete(let id):
      if let medicine = ledger.medicines[id] {
        run.record(.medicine, "medicine_\(id)", at: now, [TimelineField("change", "deleted"), TimelineField("name", medicine.name)])
        ledger.prescriptionDeleted(id, in: run)
      }
      return (.deleted(id), nil)
    }
  }
}

extension DoseLedgerLayer {
  /// What the ledger needs to know of a request a hosted app attributes to a
  /// dose. The medicine need not exist yet: the dose is found at delivery.
  func requestInfo(of attribution: DoseAttribution) -> MedicineRequestInfo {
    switch attribution {
    case .reminder(let id, let time):
      return MedicineRequestInfo(medicine: id, role: .reminder(medicines[id]?.times.firstIndex(of: time) ?? -1, time))
    case .location(let id):
      return MedicineRequestInfo(medicine: id, role: .location)
    case .postedReminder(let id, let time, let due):
      return MedicineRequestInfo(
        medicine: id, role: .reminder(medicines[id]?.times.firstIndex(of: time) ?? -1, time), doseScheduled: SimulationInstant(due))
    case .followUp(let id, let time, let number, let due):
      return MedicineRequestInfo(
        medicine: id, role: .followUp(index: number), doseScheduled: due.map(SimulationInstant.init), chainTime: time,
        chainDue: due.map(SimulationInstant.init))
    case .snoozedAlert(let id, let time, let due):
      return MedicineRequestInfo(
        medicine: id, role: .snoozedAlert, doseScheduled: due.map(SimulationInstant.init), chainTime: time, chainDue: due.map(SimulationInstant.init))
    case .followUpOfDose(let dose, let number, let due):
      return MedicineRequestInfo(medicine: dose.medicine, role: .followUp(index: number), dose: dose, doseScheduled: due.map(SimulationInstant.init))
    case .snoozedAlertOfDose(let dose, let due):
      return MedicineRequestInfo(medicine: dose.medicine, role: .snoozedAlert, dose: dose, doseScheduled: due.map(SimulationInstant.init))
    }
  }
}

extension Medicine {
  /// The `medicine` entry's fields under a hosted app: the prescription the
  /// patient entered, without the scenario's snooze policy (the medicine app's).
  var prescriptionFields: [TimelineField] { summaryFields.filter { $0.key != "snooze" } }
}

extension MedicineEdit {
  /// The medicine it concerns.
  public var medicineID: MedicineID {
    switch self {
    case .created(let medicine), .edited(let medicine): medicine.id
    case .deleted(let id): id
    }
  }
}
