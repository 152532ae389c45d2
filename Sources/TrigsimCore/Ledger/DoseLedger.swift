import Foundation

/// A medicine's daily time as the prescription says: its prescribed doses,
/// computed once from the clock and its zones (never by the trigger
/// evaluator), and the position of the next one to check.
struct DoseClock {
  var medicine: MedicineID
  /// The position in `times`, which names the reminder request.
  var index: Int
  var time: DailyTime
  var prescription: Prescription
  var doses: [PrescribedDose]
  var position = 0
  var active = true

  var next: PrescribedDose? { position < doses.count ? doses[position] : nil }

  func key(_ dose: PrescribedDose) -> DoseKey {
    DoseKey(medicine: medicine, slot: .time(time), occurrence: dose.day, repeatOnDay: dose.repeatOnDay)
  }
}

extension DoseKey {
  /// `08:00`, or `location`.
  var slotLabel: String {
    switch slot {
    case .time(let time): time.description
    case .location: "location"
    }
  }
  /// Whether the prescription has this dose (the dose table counts only those).
  public var isPrescribed: Bool { repeatOnDay != Self.unprescribed }
}

/// The dose ledger: the world's truth about the prescription and what became
/// of each dose, for whichever app runs (the scenario's medicine app or a
/// team's). An observer: it is fed by the patient's medicine changes (the
/// prescription), by what the device delivers and shows (through the fates
/// below), and by what the patient does; the app tells it which dose a request
/// serves (`requestAttributed`). It changes nothing in the world but its own
/// records and the dose checks it schedules for itself (`LedgerEvent`).
///
/// It owns its state: others reach it as a `DoseLedgerLayer`, which lets them
/// read its records and change them only through the methods named for what
/// they observed; its own files (`DoseLedger+…`) write them.
final class DoseLedger: DoseLedgerLayer {
  /// The current version of every medicine that exists: the prescription.
  var medicines: [MedicineID: Medicine] = [:]
  /// Every medicine ever created, in creation order (for deterministic iteration).
  var creationOrder: [MedicineID] = []
  /// The dose each qualifying geometric crossing opened, so that the
  /// device's (later) detection of that visit notifies it.
  var locationDoseOfVisit: [LocationVisit: DoseKey] = [:]
  /// When each visit of a region (region index, visit number) began, and how long it lasted once it ended.
  var visitEntered: [RegionVisit: SimulationInstant] = [:]
  var visitStays: [RegionVisit: SimulationDuration] = [:]

  struct RegionVisit: Hashable {
    var region: Int
    var visit: Int
  }
  /// Which medicine, role and dose each request serves (the app's attribution).
  var requestInfo: [NotificationID: MedicineRequestInfo] = [:]
  /// The dose of each medicine notification shown in Notification Center.
  var shownDose: [NotificationID: DoseKey] = [:]
  /// Why and when each notification last left Notification Center, for messages.
  var leftNotificationCenter: [NotificationID: String] = [:]
  /// Every dose's record, by its key.
  var doses: [DoseKey: DoseRecord] = [:]
  /// Why a request is not pending or was not shown, for missed doses.
  var lossReason: [NotificationID: String] = [:]
  /// When each daily reminder request was delivered and shown, in order:
  /// a missed dose's reason reads whether the request planned for it fired,
  /// and when (`HostedAppLayer.missedReason`).
  var reminderFirings: [NotificationID: [SimulationInstant]] = [:]
  /// One clock per prescribed daily time, in creation order.
  var doseClocks: [DoseClock] = []
  /// Whether a location medicine can still open a dose: a one-shot location
  /// reminder is used up by its first occurrence.
  var locationArmed: [MedicineID: Bool] = [:]
  /// How many location doses each medicine has opened: in all, for a
  /// single region; per place, for a place set (`DoseKey.place`).
  var locationOccurrences: [LocationCount: Int64] = [:]
  /// The requests the pending limit dropped, in order.
  var droppedByPendingLimit: [(id: NotificationID, at: SimulationInstant)] = []
  /// What each request of `droppedByPendingLimit` was to the app when it was dropped (nil: no dose attribution).
  var droppedRequestRoles: [MedicineRequestInfo?] = []

  /// An empty ledger: no medicine yet.
  init() {}

  /// A ledger that holds these dose records already (the fates' tests start from one).
  init(doses: [DoseKey: DoseRecord]) {
    self.doses = doses
  }

  /// What a location occurrence number counts: a medicine's crossings, or
  /// for a place set, its crossings of one place.
  struct LocationCount: Hashable {
    var medicine: MedicineID
    var place: PlaceID?
  }

  /// The next location dose of `medicine` (at `place`, for a place set):
  /// its occurrence number is handed out here.
  func nextLocationDose(_ medicine: MedicineID, place: PlaceID? = nil) -> DoseKey {
    let count = LocationCount(medicine: medicine, place: place)
    let occurrence = (locationOccurrences[count] ?? 0) + 1
    locationOccurrences[count] = occurrence
    return DoseKey(medicine: medicine, slot: .location, occurrence: occurrence, place: place)
  }
  /// Why a reminder or location request's identifier no longer names it:
  /// the app added something else under it. Kept until the reminder is added again.
  var replacedMain: [NotificationID: String] = [:]
  /// Remarks for doses, added to their rows at the end (a dose may not have a record yet).
  var doseNotes: [DoseKey: [String]] = [:]

  /// One visit of the track to a location medicine's region, in one direction.
  struct LocationVisit: Hashable {
    var medicine: MedicineID
    var region: Int
    var visit: Int
    var entering: Bool
  }

  /// In a trial, the dose a detection ahead of the true path opened (by
  /// medicine, region and direction): the true crossing that follows while
  /// the device still holds that side adopts it as its own; a detection of
  /// the other side, or the run's end, drops it as a false firing.
  var provisionalLocationDoses: [LocationSide: DoseKey] = [:]

  /// A location medicine's region in one direction.
  struct LocationSide: Hashable {
    var medicine: MedicineID
    var region: Int
    var entering: Bool
  }

  /// Drops a provisional dose (a false firing): its record goes, and its
  /// occurrence number is given back when it was the last one handed out.
  func dropProvisional(_ side: LocationSide) {
    guard let key = provisionalLocationDoses.removeValue(forKey: side) else { return }
    doses[key] = nil
    let count = LocationCount(medicine: key.medicine, place: key.place)
    if locationOccurrences[count] == key.occurrence { locationOccurrences[count] = key.occurrence - 1 }
  }
}

/// What the device tells the ledger about a request's fate, so that the dose
/// table can say why a dose was missed. The device calls these where the
/// platform decides; they change no timeline entry.
extension DoseLedger {
  /// The device did not keep, deliver or show `id`: `reason` explains a
  /// dose the request would have answered (until the request is pending again).
  func requestLost(_ id: NotificationID, _ reason: String) {
    lossReason[id] = reason
  }

  /// The device keeps `id` pending again: no earlier loss explains its doses.
  func requestPending(_ id: NotificationID) {
    lossReason[id] = nil
  }

  /// `id` was delivered to Notification Center and answers `dose`: the
  /// patient can act on it there (before the app's will-present runs).
  func notificationShown(_ id: NotificationID, dose: DoseKey) {
    shownDose[id] = dose
  }

  /// `id` is no longer shown in Notification Center, so no dose waits on it.
  func notificationGone(_ id: NotificationID) {
    shownDose[id] = nil
  }

  /// `id` was shown only as a banner and kept nothing in Notification
  /// Center: `why`, for a later action's refusal.
  func notificationLeft(_ id: NotificationID, _ why: String) {
    shownDose[id] = nil
    leftNotificationCenter[id] = why
  }

  /// A delivery that answered `dose` was not shown: the dose's reason is
  /// the request's loss.
  func deliveryNotShown(_ id: NotificationID, dose: DoseKey) {
    doses[dose]?.reason = lossReason[id]
  }

  /// The device listed a notification of `dose` without an alert: a
  /// remark, and the reason while the dose has not been seen.
  func listed(_ dose: DoseKey, note: String) {
    guard doses[dose]?.notified == nil else { return }
    if doses[dose]?.notes.contains(note) == false { doses[dose]?.notes.append(note) }
    doses[dose]?.reason = "never perceived: \(note), and the patient did not look at the phone after it"
  }

  /// A remark on `dose`, once.
  func note(_ dose: DoseKey, _ note: String) {
    if doses[dose]?.notes.contains(note) == false { doses[dose]?.notes.append(note) }
  }

  /// The patient perceives a notification of `dose` now (an alert, or a
  /// listing seen at a look): the dose is notified, once.
  func perceived(_ dose: DoseKey, by perception: DosePerception, at now: SimulationInstant) {
    guard doses[dose]?.notified == nil else { return }
    doses[dose]?.notified = now
    doses[dose]?.perception = perception
    if doses[dose]?.reason?.hasPrefix("never perceptible") == true || doses[dose]?.reason?.hasPrefix("never perceived") == true {
      doses[dose]?.reason = nil
    }
  }

  /// A notification of `dose`, not yet noticed, is held (by a Focus or a
  /// scheduled summary): a remark, and a reason that holds unless it is
  /// released (`perceived` clears it) before the run ends.
  func held(_ dose: DoseKey, note: String) {
    guard doses[dose]?.notified == nil else { return }
    doses[dose]?.notes.append(note)
    doses[dose]?.reason = "never perceptible: \(note), not released before the run ended"
  }
}

/// What the app, the engine and the server tell the ledger besides the
/// device's fates: which dose a request serves, the track's visits, and the
/// answers and remarks that reach a dose's row.
extension DoseLedger {
  /// The app attributes `id` to `info` (nil: no dose) as it adds it.
  func requestAttributed(_ id: NotificationID, to info: MedicineRequestInfo?) {
    requestInfo[id] = info
  }

  /// A daily reminder or location request is added again under its own
  /// identifier: nothing replaces it any more.
  func mainRequestAdded(_ id: NotificationID) {
    replacedMain[id] = nil
  }

  /// A location medicine can (`armed`) or cannot open doses from now on: it
  /// was created or edited.
  func locationReminderArmed(_ id: MedicineID, _ armed: Bool) {
    locationArmed[id] = armed
  }

  /// The true path entered or left region `index` on `visit`: an exit after
  /// a recorded entry gives the visit its stay.
  func regionCrossed(_ index: Int, visit: Int, entering: Bool, at now: SimulationInstant) {
    let key = RegionVisit(region: index, visit: visit)
    if entering {
      visitEntered[key] = now
    } else if let entered = visitEntered[key] {
      visitStays[key] = entered.duration(to: now)
    }
  }

  /// A remark on `dose` even when it has it already (each delivery or act it
  /// stands for is one).
  func remark(_ dose: DoseKey, _ note: String) {
    doses[dose]?.notes.append(note)
  }

  /// The app counts the patient's response as taking `dose`: it is completed
  /// now unless it was already. Returns whether it was (nil record: no).
  func countedAsTaken(_ dose: DoseKey, at now: SimulationInstant) -> Bool {
    guard doses[dose] != nil && doses[dose]?.completed == nil else { return false }
    doses[dose]?.completed = now
    return true
  }

  /// The server had a message of daily dose `key` perceived: the dose gets a
  /// row if it has none, due when its clock says (`otherwise` when no clock has it).
  func serverMessagePerceived(of key: DoseKey, otherwise: SimulationInstant) {
    guard doses[key] == nil, case .time(let time) = key.slot, let medicine = medicines[key.medicine] else { return }
    let due = doseClocks.lazy.filter { $0.medicine == key.medicine && $0.time == time }
      .compactMap { clock in clock.doses.first { clock.key($0) == key }?.due }.first
    doses[key] = newDose(key, medicine: medicine, reminder: time.description, scheduled: due ?? otherwise)
  }
}
