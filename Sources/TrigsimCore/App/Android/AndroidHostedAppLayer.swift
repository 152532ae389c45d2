import Foundation

/// The app's Android build behind the app seam: the engine's moments become
/// the Android entry points (`AndroidApp`), with the platform's rules:
/// - Force stop (the scenario's `state: force-quit` on `android`; Settings ›
///   Apps › Force stop) cancels the app's alarms and removes its
///   notifications; until the patient opens the app again no alarm, boot
///   broadcast, geofence or notification intent reaches it (developer report:
///   rafaelsetragni/awesome_notifications #601; Android's "stopped state").
/// - A receiver launches the app's process in the background when it is not
///   running (`onCreate`, then the receiver).
///
/// It is the iPhone host's sibling behind the same seam (`HostedAppLayer.make`
/// picks it for `platform: android`): the bookkeeping of delivered
/// notifications, dose attribution and app-code calls is shared; every
/// entry point the engine calls is the Android platform's.
final class AndroidHostedAppLayer: HostedAppLayer, @unchecked Sendable {
  /// The Android device API the app's Android build is made with.
  private(set) var androidDevice: AndroidDevice!
  /// The running instance of the app's Android build (nil: no process).
  var androidApp: (any AndroidApp)?
  /// What each posted notification offers (its action buttons, delete intent, extras).
  var androidContent: [NotificationID: AndroidNotification] = [:]
  /// Whether location was off at the last location change (geofences are gone).
  var androidLocationOff = false

  override init(_ configuration: HostedApp) {
    super.init(configuration)
    androidDevice = AndroidDevice(host: self)
  }

  // MARK: - The process

  override var isRunning: Bool { androidApp != nil }

  override func startProcess(_ reason: LaunchReason, in run: inout SimulationRun, at now: SimulationInstant) {
    guard run.stopReason == nil else { return }
    endProcess(in: &run)
    launchAndroid(reason, in: &run, at: now)
  }

  override func endProcess(in run: inout SimulationRun) {
    super.endProcess(in: &run)
    androidApp = nil
  }

  // MARK: - AppLayer

  override func launch(in run: inout SimulationRun, at now: SimulationInstant) {
    // Not running at the start (a persistent app's one instance starts anyway), or already launched by a change
    // at the start (the patient opened it).
    guard !run.layers.phone.core.installedApp.state.isTerminated || configuration.processModel == .persistent, !isRunning else { return }
    guard configuration.makeAndroid != nil else {
      stop(&run, "HostedApp.makeAndroid", at: now, "the scenario runs on android and the app has no Android build (HostedApp.makeAndroid is nil)")
      return
    }
    startProcess(.initial, in: &run, at: now)
    if run.layers.phone.core.installedApp.state == .foreground, let androidApp {
      call("onActivityResumed", [], in: &run, at: now) { await androidApp.onActivityResumed() }
    }
  }

  /// Android: the time-zone broadcast (`ACTION_TIMEZONE_CHANGED`) is not
  /// modelled; the app reads the zone from its device when its code runs.
  override func timeZoneChanged(from previous: TimeZone, in run: inout SimulationRun, at now: SimulationInstant) {}
  override func timeChangeDue(_ cause: SignificantTimeChange.Cause, token: Int, in run: inout SimulationRun, at now: SimulationInstant) {}

  override func appStateChanged(from: AppState, to: AppState, in run: inout SimulationRun, at now: SimulationInstant) {
    androidAppStateChanged(from: from, to: to, in: &run, at: now)
  }

  override func locationAuthorizationChanged(in run: inout SimulationRun, at now: SimulationInstant) {
    androidLocationChanged(in: &run, at: now)
  }

  override func backgroundRefresh(in run: inout SimulationRun, at now: SimulationInstant) {
    run.record(.app, "background-refresh", at: now, [
      TimelineField("ran", "no"),
      TimelineField("reason", "background app refresh is iOS's; on android the app schedules work with WorkManager (doWork)"),
    ])
  }

  override func medicineChanged(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    let (edit, dueBeforeEdit) = HostedMedicineChange.record(index, in: &run, at: now, showingChains: configuration.medicineEntriesShowChains)
    androidMedicineChanged(index, edit, in: &run, at: now)
    // As on iOS: the doses the edit took away get their record once the app has heard of it.
    if case .edited(let medicine) = edit, let dueBeforeEdit {
      run.layers.ledger.noteDosesRemovedByEdit(of: medicine, dueBeforeEdit: dueBeforeEdit, in: run, at: now)
    }
  }

  /// Android shows what its channel decides; no app code runs at a posting.
  override func delivered(
    _ shown: DeliveredNotification, request: NotificationRequest, dose: DoseKey?, perception: Perception,
    in run: inout SimulationRun, at now: SimulationInstant
  ) -> Presentation {
    deliveredContent[shown.id] = request
    deliveredDose[shown.id] = dose
    return Presentation(perception: perception)
  }

  override func patientActed(_ action: UserAction, on id: NotificationID, by source: String, in run: inout SimulationRun, at now: SimulationInstant) {
    guard let request = deliveredContent[id], run.layers.phone.core.center.delivered[id] != nil else { return }
    androidPatientActed(action, on: id, request: request, by: source, in: &run, at: now)
  }

  /// On Android messages reach the app through FCM (`FCMTransport`, `fcmMessageReceived`), not as iOS background pushes.
  override func silentPushReceived(_ push: RemotePush, in run: inout SimulationRun, at now: SimulationInstant) {}

  override func regionDetected(
    _ region: Int, entering: Bool, transition: GeofenceTransition?, condition: SimulationInstant?, in run: inout SimulationRun, at now: SimulationInstant
  ) {
    let id = run.scenario.regions[region].id
    guard let monitored = monitoredRegions.first(where: { $0.spec.identifier == id && (condition == nil || $0.since <= condition!) }) else { return }
    let transition = transition ?? (entering ? .enter : .exit)
    guard geofenceOptions[id]?.transitions.contains(transition) ?? false else { return }
    geofenceTransition(monitored.spec, transition: transition, in: &run, at: now)
  }

  // MARK: - The Android platform's entry points

  /// A new process of the Android build: a new instance, then `onCreate`.
  func launchAndroid(_ reason: LaunchReason, in run: inout SimulationRun, at now: SimulationInstant) {
    guard let make = configuration.makeAndroid else {
      stop(&run, "HostedApp.makeAndroid", at: now, "the scenario runs on android and the app has no Android build (HostedApp.makeAndroid is nil)")
      return
    }
    androidApp = attach(&run, at: now) { make(androidDevice) }
    if let problem = takeMisuse() { stop(&run, "HostedApp.makeAndroid", at: now, problem) }
    guard let app = androidApp else { return }
    call("onCreate", [TimelineField("reason", reason.rawValue)], in: &run, at: now) { await app.onCreate() }
  }

  /// Whether the app is force-stopped: then nothing but the patient opening it runs its code.
  func forceStopped(_ run: SimulationRun) -> Bool { run.layers.phone.android?.forceStopped ?? false }

  /// Why a receiver of a force-stopped app did not run.
  static let forceStoppedReason = "the app is force-stopped: nothing reaches it until the patient opens it"

  func androidAppStateChanged(from: AppState, to: AppState, in run: inout SimulationRun, at now: SimulationInstant) {
    if let android = run.layers.phone.android {
      switch to {
      case .foreground: android.cameToForeground()
      case .background, .terminated, .forceQuit: if from == .foreground { android.leftForeground(in: &run, at: now) }
      }
    }
    switch to {
    case .foreground:
      if forceStopped(run) {
        run.layers.phone.android?.forceStopped = false
        run.record(.app, "force-stop", at: now, [TimelineField("state", "ended"), TimelineField("reason", "the patient opened the app")])
        let android = run.layers.phone.android
        android?.rescheduleWorkAtProcessStart(in: &run, at: now)
      }
      if androidApp == nil || (from.isTerminated && configuration.processModel == .platform) { launchAndroid(.patient, in: &run, at: now) }
      guard let app = androidApp else { return }
      call("onActivityResumed", [], in: &run, at: now) { await app.onActivityResumed() }
    case .background:
      guard from == .foreground, let app = androidApp else { return }
      call("onActivityPaused", [], in: &run, at: now) { await app.onActivityPaused() }
    case .terminated:
      if configuration.processModel == .platform { endProcess(in: &run) }
    case .forceQuit:
      run.layers.phone.android?.forceStopped = true
      run.record(.app, "force-stop", at: now, [
        TimelineField("state", "on"),
        TimelineField("reason", "Settings › Force stop: the app's alarms are cancelled and its notifications removed; nothing reaches it until the patient opens it"),
      ])
      if let android = run.layers.phone.android {
        android.clearAlarms(reason: "force stop cancels the app's alarms", in: &run, at: now)
        android.stopWorkJobs(reason: "force stop", in: &run, at: now)
      }
      run.layers.phone.core.clearDelivered(in: &run, at: now, reason: "force stop removes the app's notifications") { _ in true }
      // The process ends (a persistent app's one instance keeps its memory, as its model says).
      if configuration.processModel == .platform { endProcess(in: &run) }
    }
  }

  func androidMedicineChanged(_ index: Int, _ edit: MedicineEdit, in run: inout SimulationRun, at now: SimulationInstant) {
    // The patient uses the app's screens: that opens it (a force stop ends).
    if forceStopped(run) {
      run.layers.phone.android?.forceStopped = false
      run.record(.app, "force-stop", at: now, [TimelineField("state", "ended"), TimelineField("reason", "the patient opened the app")])
      let android = run.layers.phone.android
      android?.rescheduleWorkAtProcessStart(in: &run, at: now)
    }
    if run.layers.phone.core.installedApp.state.isTerminated || androidApp == nil { wake(.patient, in: &run, at: now) }
    guard let app = androidApp else { return }
    call("patientChangedMedicine", [TimelineField("medicine", edit.medicineID.rawValue)], in: &run, at: now) {
      await app.patientChangedMedicine(edit)
    }
    let changes = run.scenario.medicineApp.medicineChanges
    if index + 1 == changes.count || changes[index + 1].instant != changes[index].instant {
      call("patientFinishedChangingMedicines", [], recorded: false, in: &run, at: now) { await app.patientFinishedChangingMedicines() }
    }
  }

  override func alarmFired(_ alarm: PendingAlarm, in run: inout SimulationRun, at now: SimulationInstant) {
    let fields = [TimelineField("alarm", alarm.tag.rawValue)]
    guard !forceStopped(run) else {
      notRun("onAlarm", fields, Self.forceStoppedReason, in: &run, at: now)
      return
    }
    wake(.alarm, in: &run, at: now)
    guard let app = androidApp else { return }
    let intent = AlarmIntent(tag: alarm.tag, extras: alarm.extras, triggerAt: alarm.alarm.triggerAt.date, firedAt: now.date)
    call("onAlarm", fields, in: &run, at: now) { await app.onAlarm(intent) }
  }

  override func systemBroadcast(_ broadcast: SystemBroadcast, in run: inout SimulationRun, at now: SimulationInstant) {
    let fields = [TimelineField("broadcast", broadcast.rawValue)]
    guard configuration.androidBroadcasts.contains(broadcast) else {
      if broadcast == .bootCompleted || broadcast == .lockedBootCompleted {
        let why = broadcast == .bootCompleted
          ? "the app's manifest has no BOOT_COMPLETED receiver: nothing re-registers its alarms after the boot"
          : "the app's boot receiver is not direct-boot aware: it waits for BOOT_COMPLETED after the first unlock"
        notRun("onBroadcast", fields, why, in: &run, at: now)
      }
      return
    }
    guard !forceStopped(run) else {
      notRun("onBroadcast", fields, Self.forceStoppedReason, in: &run, at: now)
      return
    }
    wake(.broadcast, in: &run, at: now)
    guard let app = androidApp else { return }
    call("onBroadcast", fields, in: &run, at: now) { await app.onBroadcast(broadcast) }
  }

  func geofenceTransition(_ spec: CircularRegionSpec, transition: GeofenceTransition, in run: inout SimulationRun, at now: SimulationInstant) {
    let fields = [TimelineField("geofence", spec.identifier.rawValue), TimelineField("transition", transition.rawValue)]
    let id = spec.identifier
    regionCallbackLoss[id] = nil
    // A dose of this crossing that nothing notifies is missed for this reason (`locationDetectionLoss`).
    func refused(_ why: String) -> String {
      "the device detected the crossing at \(run.format(now)), but the app's onGeofenceTransition did not run: \(why)"
    }
    guard !forceStopped(run) else {
      notRun("onGeofenceTransition", fields, Self.forceStoppedReason, in: &run, at: now)
      regionCallbackLoss[id] = refused(Self.forceStoppedReason)
      return
    }
    // Android 10 and later: geofences fire in the background only with "Allow all the time"
    // (ACCESS_BACKGROUND_LOCATION; geofencing guide, "Request background location").
    guard run.layers.phone.core.installedApp.state == .foreground || run.layers.phone.core.installedApp.locationAuthorization == .always else {
      let why =
        "the app has location '\(run.layers.phone.core.installedApp.locationAuthorization.rawValue)', not 'always': Android 10 and later deliver geofence transitions to an app in the background only with background location (Allow all the time)"
      notRun("onGeofenceTransition", fields, why, in: &run, at: now)
      regionCallbackLoss[id] = refused(
        "the app lacks background location permission (ACCESS_BACKGROUND_LOCATION, 'Allow all the time'; it has '\(run.layers.phone.core.installedApp.locationAuthorization.rawValue)'), which Android 10 and later require to deliver a geofence transition to an app in the background")
      return
    }
    wake(.location, in: &run, at: now)
    guard let app = androidApp else { return }
    let event = GeofenceEvent(transition: transition, geofence: spec.identifier, reason: nil)
    call("onGeofenceTransition", fields, in: &run, at: now) { await app.onGeofenceTransition(event) }
  }

  /// Location turned off (the scenario's `location: denied`, or reduced to
  /// approximate): Play services answers `GEOFENCE_NOT_AVAILABLE` and removes
  /// every geofence (geofencing guide, "Re-register geofences only when
  /// required"); turned on again, the app's `PROVIDERS_CHANGED` receiver may
  /// add them back.
  func androidLocationChanged(in run: inout SimulationRun, at now: SimulationInstant) {
    let off = run.layers.phone.core.installedApp.regionMonitoringBlockedReason != nil
    defer { androidLocationOff = off }
    if off && !androidLocationOff {
      removeAllGeofences(reason: "location is off: GEOFENCE_NOT_AVAILABLE removes every geofence", in: &run, at: now)
    } else if !off && androidLocationOff {
      systemBroadcast(.locationProvidersChanged, in: &run, at: now)
    }
  }

  /// `NotificationManager.notify`: the request the device shows, attributed to its dose.
  func notify(_ id: NotificationID, _ notification: AndroidNotification, in run: inout SimulationRun, at now: SimulationInstant) {
    var request = NotificationRequest(id: id, title: notification.title, body: notification.body, trigger: .posted, userInfo: notification.userInfo)
    request.channel = notification.channel
    request.androidCategory = notification.category
    request.doseAttribution = notification.doseAttribution
    androidContent[id] = notification
    attribute(request, in: &run, at: now)
    let android = run.layers.phone.android
    android?.post(request, in: &run, at: now)
  }

  /// The patient acts on a posted notification: a tap or an action button
  /// runs the app's intent; a swipe reaches the app only with a delete intent.
  func androidPatientActed(
    _ action: UserAction, on id: NotificationID, request: NotificationRequest, by source: String, in run: inout SimulationRun,
    at now: SimulationInstant
  ) {
    let dose = run.layers.ledger.shownDose[id]
    let content = androidContent[id]
    let identifier: String
    switch action {
    case .open: identifier = AndroidNotificationResponse.contentTap
    case .dismiss: identifier = AndroidNotificationResponse.dismissed
    default: identifier = configuration.actionIdentifier(action)
    }
    let needsButton: Bool
    switch action {
    case .snooze, .complete: needsButton = true
    case .open, .dismiss, .ignore: needsButton = false
    }
    if needsButton && content?.actions.contains(identifier) != true {
      let offered = content.map { $0.actions.isEmpty ? "it has no action buttons" : "it offers \($0.actions.joined(separator: ", "))" } ?? "it has no action buttons"
      run.record(.warning, id.rawValue, at: now, [TimelineField("reason", "the patient cannot choose '\(action)' (action '\(identifier)'): \(offered)")])
      return
    }
    let fields = takeAction(action, on: id, by: source, dose: dose, in: &run, at: now)
    if action == .dismiss && content?.reportsDismissal != true {
      run.record(.action, id.rawValue, at: now, fields + [
        TimelineField("reported", "no"), TimelineField("reason", "the notification has no delete intent, so the app is not told"),
      ])
      if let dose {
        let note = "dismissed at \(run.format(now)) without telling the app (no delete intent)"
        run.layers.ledger.remark(dose, note)
      }
      return
    }
    run.record(.action, id.rawValue, at: now, fields)
    if let dose {
      let ledger = run.layers.ledger
      ledger.recordPatientAct(action, on: dose, in: &run, at: now)
    }
    guard action != .ignore else { return }
    let responseFields = [TimelineField("notification", id.rawValue), TimelineField("action", identifier)]
    guard !forceStopped(run) else {
      notRun("onNotificationAction", responseFields, Self.forceStoppedReason, in: &run, at: now)
      return
    }
    if action == .open {
      // A tap on the body opens the app's activity.
      if run.layers.phone.core.installedApp.state != .foreground {
        run.record(.app, "state", at: now, [
          TimelineField("to", AppState.foreground.rawValue), TimelineField("from", run.layers.phone.core.installedApp.state.rawValue),
          TimelineField("reason", "the patient tapped the notification"),
        ])
        let previous = run.layers.phone.core.installedApp.state
        run.layers.phone.core.installedApp.state = .foreground
        androidAppStateChanged(from: previous, to: .foreground, in: &run, at: now)
      }
    } else {
      wake(.notificationResponse, in: &run, at: now)
    }
    guard let app = androidApp else { return }
    let response = AndroidNotificationResponse(notification: id, action: identifier, extras: content?.extras ?? [:])
    respondingDose = dose
    defer { respondingDose = nil }
    call("onNotificationAction", responseFields, in: &run, at: now) { await app.onNotificationAction(response) }
  }

  /// `GeofencingClient.addGeofences`.
  func addGeofences(_ geofences: [Geofence], in run: inout SimulationRun, at now: SimulationInstant) throws {
    guard let rules = run.layers.phone.android?.settings.geofencing else { return }
    if let blocked = run.layers.phone.core.installedApp.regionMonitoringBlockedReason {
      throw GeofencingError.notAvailable(blocked)
    }
    if !run.layers.phone.core.attention.phoneOn || run.layers.phone.core.attention.airplane { throw GeofencingError.notAvailable("location is off") }
    var indices: [Int] = []
    for geofence in geofences {
      guard let index = run.scenario.regions.firstIndex(where: { $0.id == geofence.id }),
        let circle = run.scenario.regions[index].shape as? CircularRegion,
        abs(circle.center.latitude - geofence.center.latitude) < 1e-7, abs(circle.center.longitude - geofence.center.longitude) < 1e-7,
        abs(circle.radius - geofence.radius) < 0.01
      else { throw GeofencingError.notInScenario(geofence.id) }
      indices.append(index)
    }
    let existing = Set(monitoredRegions.map(\.spec.identifier))
    let added = Set(geofences.map(\.id)).subtracting(existing)
    guard rules.admitsGeofence(registered: existing.count + added.count - 1) || added.isEmpty else {
      throw GeofencingError.tooManyGeofences(limit: rules.limit)
    }
    for (geofence, index) in zip(geofences, indices) {
      monitoredRegions.removeAll { $0.spec.identifier == geofence.id }
      let spec = CircularRegionSpec(
        identifier: geofence.id, center: geofence.center, radius: geofence.radius,
        notifyOnEntry: geofence.options.transitions.contains(.enter) || geofence.options.transitions.contains(.dwell),
        notifyOnExit: geofence.options.transitions.contains(.exit))
      monitoredRegions.append(AppMonitoredRegion(spec: spec, since: now))
      geofenceOptions[geofence.id] = geofence.options
      if var service = run.layers.phone.core.locationService as? GeofencingService {
        service.setOptions(geofence.options, forRegion: index)
        run.layers.phone.core.locationService = service
      }
      if configuration.recordsAppCalls {
        run.record(.app, "geofence", at: now, [
          TimelineField("region", geofence.id.rawValue), TimelineField("change", "added"),
          TimelineField("transitions", geofence.options.transitions.map(\.rawValue).sorted().joined(separator: ",")),
        ])
      }
      // The initial trigger (GeofencingRequest.setInitialTrigger, the scenario's `initialTrigger`): a geofence
      // added while the device is inside fires ENTER at once, and DWELL after its loitering delay (unlike iOS).
      if run.replay.firstFixInstant != nil, run.layers.phone.core.locationService.believesInside(index) {
        run.layers.phone.core.reportBuffer.append(run.layers.phone.core.locationService.entryForMonitoringStartedInside(index, at: now))
        run.layers.phone.core.queueDeviceReports(in: &run)
      }
    }
    monitoredRegions.sort { $0.spec.identifier < $1.spec.identifier }
  }

  func removeGeofence(_ id: RegionID, reason: String, in run: inout SimulationRun, at now: SimulationInstant) {
    guard monitoredRegions.contains(where: { $0.spec.identifier == id }) else { return }
    monitoredRegions.removeAll { $0.spec.identifier == id }
    geofenceOptions[id] = nil
    if configuration.recordsAppCalls || reason != "removed by the app" {
      run.record(.app, "geofence", at: now, [TimelineField("region", id.rawValue), TimelineField("change", "removed"), TimelineField("reason", reason)])
    }
  }

  override func geofencesRemoved(reason: String, in run: inout SimulationRun, at now: SimulationInstant) {
    removeAllGeofences(reason: reason, in: &run, at: now)
  }

  /// Every geofence is gone (a reboot, location turned off): the app must add them again.
  func removeAllGeofences(reason: String, in run: inout SimulationRun, at now: SimulationInstant) {
    for region in monitoredRegions.map(\.spec.identifier) { removeGeofence(region, reason: reason, in: &run, at: now) }
  }

  // MARK: - Firebase Cloud Messaging

  override func fcmMessageReceived(_ message: RemoteMessage, in run: inout SimulationRun, at now: SimulationInstant) {
    let fields = [TimelineField("push", message.messageID), TimelineField("priority", message.priority.rawValue)]
    guard !forceStopped(run) else {
      notRun("onMessageReceived", fields, Self.forceStoppedReason, in: &run, at: now)
      return
    }
    wake(.remoteNotification, in: &run, at: now)
    guard let app = androidApp else { return }
    call("onMessageReceived", fields, in: &run, at: now) { await app.onMessageReceived(message) }
  }

  override func fcmMessagesDeleted(in run: inout SimulationRun, at now: SimulationInstant) {
    guard !forceStopped(run) else {
      notRun("onDeletedMessages", [], Self.forceStoppedReason, in: &run, at: now)
      return
    }
    wake(.remoteNotification, in: &run, at: now)
    guard let app = androidApp else { return }
    call("onDeletedMessages", [], in: &run, at: now) { await app.onDeletedMessages() }
  }

  override var fcmDefaultChannel: String? { configuration.androidDefaultNotificationChannel }

  // MARK: - WorkManager

  /// WorkManager's runs reach the app's code by the same path as its alarms:
  /// a force-stopped app gets none; otherwise the system starts its process
  /// in the background if it is not running (`onCreate`), then `doWork`.
  override func workRan(_ work: WorkRequestInfo, in run: inout SimulationRun, at now: SimulationInstant) {
    let fields = [TimelineField("work", work.name.rawValue)]
    guard !forceStopped(run) else {
      notRun("doWork", fields, Self.forceStoppedReason, in: &run, at: now)
      return
    }
    wake(.work, in: &run, at: now)
    guard let app = androidApp else { return }
    call("doWork", fields, in: &run, at: now) { await app.doWork(work) }
  }
}
