import Foundation

/// The dose ledger as the run and the other layers reach it
/// (`SimulationLayers.ledger`): an observer of deliveries, perceptions, acts and
/// decisions that keeps the prescription and what became of each dose, and
/// changes nothing in the world but its own records, its warnings about
/// doses and the dose checks it schedules for itself (`LedgerEvent`).
///
/// Others read its records and tell it what they observed, each through the
/// method named for it; none writes its records. `DoseLedger` is the one
/// conformer.
protocol DoseLedgerLayer: AnyObject {
  // MARK: - What others read

  /// The current version of every medicine that exists: the prescription.
  var medicines: [MedicineID: Medicine] { get }
  /// Every medicine ever created, in creation order.
  var creationOrder: [MedicineID] { get }
  /// One clock per prescribed daily time, in creation order.
  var doseClocks: [DoseClock] { get }
  /// Every dose's record, by its key.
  var doses: [DoseKey: DoseRecord] { get }
  /// Which medicine, role and dose each request serves (the app's attribution).
  var requestInfo: [NotificationID: MedicineRequestInfo] { get }
  /// The dose of each medicine notification shown in Notification Center.
  var shownDose: [NotificationID: DoseKey] { get }
  /// Why and when each notification last left Notification Center.
  var leftNotificationCenter: [NotificationID: String] { get }
  /// Why a request is not pending or was not shown.
  var lossReason: [NotificationID: String] { get }
  /// Why a reminder or location request's identifier no longer names it.
  var replacedMain: [NotificationID: String] { get }
  /// When each daily reminder request was delivered and shown, in order.
  var reminderFirings: [NotificationID: [SimulationInstant]] { get }
  /// The dose each qualifying geometric crossing opened.
  var locationDoseOfVisit: [DoseLedger.LocationVisit: DoseKey] { get }
  /// In a trial, the doses detections ahead of the true path opened.
  var provisionalLocationDoses: [DoseLedger.LocationSide: DoseKey] { get }

  /// The dose a daily time's notification firing at `fire` belongs to.
  func doseKey(_ medicine: MedicineID, _ time: DailyTime, fire: SimulationInstant, in run: SimulationRun) -> DoseKey
  /// What the app's run knows of a raw request whose identifier has the form of one of the app's.
  func rawRequestInfo(_ id: NotificationID, in run: SimulationRun) -> MedicineRequestInfo?

  // MARK: - The prescription and the app's requests

  /// A medicine is created: its doses are due from now on.
  func prescriptionCreated(_ medicine: Medicine, in run: inout SimulationRun, at now: SimulationInstant)
  /// A medicine is edited: returns the old version's doses still to come.
  func prescriptionReplaced(
    _ medicine: Medicine, in run: inout SimulationRun, at now: SimulationInstant
  ) -> [(time: DailyTime, due: SimulationInstant, key: DoseKey)]
  /// A medicine is deleted: none of its doses is due any more.
  func prescriptionDeleted(_ id: MedicineID, in run: SimulationRun)
  /// The doses an edit removed from the edit's day, once the app has heard of it.
  func noteDosesRemovedByEdit(
    of medicine: Medicine, dueBeforeEdit: [(time: DailyTime, due: SimulationInstant, key: DoseKey)], in run: SimulationRun,
    at now: SimulationInstant)
  /// A location medicine can (`armed`) or cannot open doses from now on.
  func locationReminderArmed(_ id: MedicineID, _ armed: Bool)
  /// An app is about to add a request under `id` for `info`: what it replaces says so.
  func claim(_ id: NotificationID, for info: MedicineRequestInfo, in run: SimulationRun, at now: SimulationInstant)
  /// The app attributes `id` to `info` (nil: no dose) as it adds it.
  func requestAttributed(_ id: NotificationID, to info: MedicineRequestInfo?)
  /// A daily reminder or location request is added again under its own identifier.
  func mainRequestAdded(_ id: NotificationID)

  // MARK: - The device's fates

  func requestLost(_ id: NotificationID, _ reason: String)
  func requestPending(_ id: NotificationID)
  func notificationShown(_ id: NotificationID, dose: DoseKey)
  func notificationGone(_ id: NotificationID)
  func notificationLeft(_ id: NotificationID, _ why: String)
  func deliveryNotShown(_ id: NotificationID, dose: DoseKey)
  func listed(_ dose: DoseKey, note: String)
  func held(_ dose: DoseKey, note: String)
  func perceived(_ dose: DoseKey, by perception: DosePerception, at now: SimulationInstant)
  /// A request the pending limit dropped now.
  func notePendingLimitDrop(_ id: NotificationID, at now: SimulationInstant)

  // MARK: - Deliveries and the track

  /// The dose a medicine notification delivered now belongs to.
  func doseOfDelivery(_ id: NotificationID, in run: inout SimulationRun, at now: SimulationInstant) -> DoseKey?
  /// After a time-zone change: a warning for each prescribed dose a moved floating reminder no longer answers.
  func warnMovedReminders(in run: inout SimulationRun, at now: SimulationInstant)
  /// The true path entered or left region `index` on `visit`.
  func regionCrossed(_ index: Int, visit: Int, entering: Bool, at now: SimulationInstant)
  /// The location doses a true crossing of a single region opens.
  func openLocationDoses(region index: Int, entering: Bool, visit: Int, in run: SimulationRun, at now: SimulationInstant)
  /// The location doses a true crossing of a place of a place set opens.
  func openPlaceSetDoses(region index: Int, entering: Bool, visit: Int, in run: SimulationRun, at now: SimulationInstant)
  /// After a detection was delivered: a visit's dose still not notified gets the loss reason.
  func settleLocationDoses(region index: Int, entering: Bool, visit: Int, in run: SimulationRun, at now: SimulationInstant)
  /// The device did not detect a visit: its doses are missed for `reason`.
  func noteUndetectedLocationDoses(region index: Int, entering: Bool, visit: Int, reason: String)
  /// Drops a provisional dose: the device now holds the other side.
  func dropProvisional(_ side: DoseLedger.LocationSide)

  // MARK: - Remarks and answers

  /// A remark on `dose`, once.
  func note(_ dose: DoseKey, _ note: String)
  /// A remark on `dose`, even when it has it already.
  func remark(_ dose: DoseKey, _ note: String)
  /// The patient acted on a notification of `dose`.
  func recordPatientAct(_ action: UserAction, on dose: DoseKey, in run: inout SimulationRun, at now: SimulationInstant)
  /// The app counts the patient's response as taking `dose`; returns whether it was completed now.
  func countedAsTaken(_ dose: DoseKey, at now: SimulationInstant) -> Bool
  /// The server had a message of daily dose `key` perceived: the dose gets a row if it has none.
  func serverMessagePerceived(of key: DoseKey, otherwise: SimulationInstant)

  // MARK: - Events and the end of the run

  /// One of the ledger's own events is due.
  func eventDue(_ event: LedgerEvent, in run: inout SimulationRun, at now: SimulationInstant)
  /// The run's summary: the pending limit's account and the dose table.
  func summary(of run: SimulationRun) -> RunSummary
}

/// The ledger's own events.
enum LedgerEvent {
  /// A medicine's daily time is due (index into the dose clocks); `token`:
  /// the clock's position it was queued for. Phase `doseCheck`, rank the clock.
  case doseDue(clock: Int, token: Int)
}
