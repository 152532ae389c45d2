import Foundation

/// The app layer of the simulated world (style §3: World → Device → App →
/// Patient): the code the simulated phone runs for the app under test.
///
/// The engine calls it at the moments the platform runs app code and asks it
/// only what an app decides. `HostedAppLayer` runs an app (`SimulatedApp`)
/// through the simulated device API (`SimulatedDevice`): a team's own app,
/// or the scenario's medicine app (`MedicineReminderApp` in
/// `TrigsimMedicineApp`); on `android`, `AndroidHostedAppLayer` runs the
/// app's Android build (`AndroidApp`) through the Android device API
/// (`AndroidDevice`) instead. The engine keeps no app of its own.
///
/// Every method receives the run `inout`: the layer acts on the device through
/// it at the instant it is called, before time moves on. The engine holds the
/// layer as a class reference, so a call reads the reference first
/// (`let layer = appLayer`) and then hands the run over.
protocol AppLayer: AnyObject {
  /// Queues the inputs the app reacts to at the run's start: the scenario's
  /// app changes and medicine changes (the world's), and the app's launch.
  func scheduleEvents(in run: inout SimulationRun)
  /// The system launched the app (at the clock's start).
  func launch(in run: inout SimulationRun, at now: SimulationInstant)
  /// The device's time zone changed from `previous` (recorded already; the
  /// floating calendar requests re-evaluated): the app's time-change callback.
  func timeZoneChanged(from previous: TimeZone, in run: inout SimulationRun, at now: SimulationInstant)
  /// Midnight or a daylight-saving change came in the device's zone (queued by the layer itself).
  func timeChangeDue(_ cause: SignificantTimeChange.Cause, token: Int, in run: inout SimulationRun, at now: SimulationInstant)
  /// The app's state changed (`from` → `to`), recorded already.
  func appStateChanged(from: AppState, to: AppState, in run: inout SimulationRun, at now: SimulationInstant)
  /// Location authorization or accuracy changed (recorded already).
  func locationAuthorizationChanged(in run: inout SimulationRun, at now: SimulationInstant)
  /// The system offers the app background time (`BGAppRefreshTask`).
  func backgroundRefresh(in run: inout SimulationRun, at now: SimulationInstant)
  /// A medicine changed (scenario `medicines:`, index into `medicineChanges`).
  func medicineChanged(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant)
  /// Android: an alarm the app set fired (recorded already); its receiver runs.
  func alarmFired(_ alarm: PendingAlarm, in run: inout SimulationRun, at now: SimulationInstant)
  /// Android: WorkManager runs a piece of the app's work (recorded already); its `doWork` runs.
  func workRan(_ work: WorkRequestInfo, in run: inout SimulationRun, at now: SimulationInstant)
  /// Android: the device removed every geofence of the app (a reboot, location turned off).
  func geofencesRemoved(reason: String, in run: inout SimulationRun, at now: SimulationInstant)
  /// Android: a system broadcast for the app's manifest receivers (boot, permission, location providers).
  func systemBroadcast(_ broadcast: SystemBroadcast, in run: inout SimulationRun, at now: SimulationInstant)
  /// A notification was delivered to Notification Center. Returns how the
  /// device presents it: `perception`, with its badge, kept in Notification
  /// Center, unless the app's foreground will-present callback decides otherwise.
  func delivered(
    _ shown: DeliveredNotification, request: NotificationRequest, dose: DoseKey?, perception: Perception,
    in run: inout SimulationRun, at now: SimulationInstant) -> Presentation
  /// Whether the patient may act on delivered notification `id` (it is still shown).
  func canAct(on id: NotificationID, in run: SimulationRun) -> Bool
  /// The patient acts on a shown notification.
  func patientActed(_ action: UserAction, on id: NotificationID, by source: String, in run: inout SimulationRun, at now: SimulationInstant)
  /// A background (content-available) push reached the app.
  func silentPushReceived(_ push: RemotePush, in run: inout SimulationRun, at now: SimulationInstant)
  /// Android: an FCM message reached the app's `FirebaseMessagingService`
  /// (a data message, or any message while the app is in the foreground).
  func fcmMessageReceived(_ message: RemoteMessage, in run: inout SimulationRun, at now: SimulationInstant)
  /// Android: FCM discarded the messages it kept for the phone (`onDeletedMessages`).
  func fcmMessagesDeleted(in run: inout SimulationRun, at now: SimulationInstant)
  /// Android: the manifest's default notification channel for notification messages (nil: FCM's fallback channel).
  var fcmDefaultChannel: String? { get }
  /// Whether the app monitors region `id` itself (location manager), since at
  /// or before `instant` when given: the device then reports its detections.
  func monitorsRegion(_ id: RegionID, addedAtOrBefore instant: SimulationInstant?) -> Bool
  /// The regions the app monitors itself: they count against the region limit with location triggers.
  var appMonitoredRegions: Set<RegionID> { get }
  /// The run ended: a last chance to report app code that misbehaved.
  func runEnded(in run: inout SimulationRun)
  /// The device detected an entry or exit of a region (after the location
  /// requests it delivers).
  func regionDetected(
    _ region: Int, entering: Bool, transition: GeofenceTransition?, condition: SimulationInstant?, in run: inout SimulationRun, at now: SimulationInstant)
  /// A fix, while `run.layers.phone.core.observesFixes` (the app started the significant-change or the standard location service).
  func observe(_ fix: TrackSample, in run: inout SimulationRun)
  /// Why place `place` of set `set` was not monitored at a crossing, when the
  /// app's last choice of nearest places left it out (nil: it was chosen).
  func placeNotMonitoredReason(set: Int, place: Int, in run: SimulationRun) -> String?
  /// The significant-change service reports the device at `position`.
  func significantLocationChange(_ position: Coordinate, in run: inout SimulationRun, at now: SimulationInstant)
  /// The standard location service (started for the `service`th time)
  /// reports the device at `position` (the app was in the foreground when queued).
  func locationUpdate(_ position: Coordinate, service: Int, in run: inout SimulationRun, at now: SimulationInstant)
  /// Why an unanswered dose had no follow-ups, when the app can say (the
  /// app knows its own chain policy; trigsim does not).
  func noFollowUpsRemark(_ dose: DoseRecord, in run: SimulationRun) -> String?
  /// Why no notification answered a prescribed daily dose (the dose table's reason).
  func missedReason(_ clock: DoseClock, _ dose: PrescribedDose, in run: SimulationRun) -> String
  /// Why the app is not set to notify a location dose of `medicine` at a
  /// crossing of `region` now, or nil when it is (a pending location request,
  /// or the app's own monitoring of the region).
  func locationDoseObstacle(_ medicine: MedicineID, region: RegionID, in run: SimulationRun) -> String?
  /// After the device's detection of `region` was handled: why a location
  /// dose of `medicine` still not notified is missed, if the app can say.
  func locationDetectionLoss(_ medicine: MedicineID, region: RegionID, in run: SimulationRun) -> String?
}

/// How the device presents a delivered notification, as the app layer decides.
struct Presentation {
  var perception: Perception
  /// Whether the request's badge is applied (will-present's `badge` in the foreground).
  var appliesBadge = true
  /// Whether it stays in Notification Center after it is shown (will-present's `list`).
  var staysListed = true
}


extension AppLayer {
  /// Queues the scenario's app-state changes (the phone's) and the patient's
  /// medicine changes (the app's), which every app host hears of.
  func scheduleScenarioAppChanges(in run: inout SimulationRun) {
    let medicineApp = run.scenario.medicineApp
    for (index, change) in medicineApp.appChanges.enumerated() where change.instant <= run.end {
      run.queue.schedule(.phone(.appChange(index)), at: change.instant, phase: .appChange, rank: index)
    }
    let rawActions = run.scenario.actions.count
    for (index, change) in medicineApp.medicineChanges.enumerated() where change.instant <= run.end {
      run.queue.schedule(.medicineChange(index), at: change.instant, phase: .appAction, rank: rawActions + index)
    }
  }
}
