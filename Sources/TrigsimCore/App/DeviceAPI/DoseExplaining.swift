import Foundation

/// An app that explains its own doses in the dose table and the timeline:
/// simulator-only, no platform equivalent. trigsim asks the app's current
/// instance (if it conforms; none while a terminated app has no process)
/// synchronously, outside the platform's callbacks; it answers from its own
/// memory and the `SimulationFacts` it is handed. Each method's nil keeps
/// trigsim's own account for any app.
///
/// The scenario's medicine app (`TrigsimMedicineApp`) gives its reasons
/// this way (its chain policy, its identifiers); a team's app need not conform.
public protocol DoseExplaining: AnyObject {
  /// Why no notification answered a prescribed daily dose.
  func missedReason(_ dose: MissedDose, facts: SimulationFacts) -> String?
  /// A remark for a dose the patient never completed or dismissed, at the end
  /// of the run (the medicine app: why it has no follow-ups). Asked only for those doses.
  func unansweredRemark(_ dose: DoseRecord, facts: SimulationFacts) -> String?
  /// Why the app is not set to notify a location dose of `medicine` at a
  /// crossing of `region` now, or nil when it is.
  func locationDoseObstacle(_ medicine: MedicineID, region: RegionID, facts: SimulationFacts) -> String?
  /// After the device's detection of `region`: why a location dose of `medicine` still not notified is missed.
  func locationDetectionLoss(_ medicine: MedicineID, region: RegionID, facts: SimulationFacts) -> String?
  /// The `action` entry's reason when the patient dismisses notification
  /// `id` and the category has no custom dismiss action (the app is not told).
  func dismissNotReportedReason(_ id: NotificationID, facts: SimulationFacts) -> String?
  /// A notification that serves `dose` was delivered while no app code runs
  /// for it (the app in the background, or terminated with its instance kept:
  /// `processModel: .persistent`; no will-present). The app may record,
  /// through `notes` only, what that costs it (a warning, a remark); any
  /// other device call here is an `AppCodeError`.
  func deliveredWithoutAppCode(_ notification: UserNotification, dose: DoseKey, state: AppState, notes: SimulationNotes)
  /// Fields the app's account adds to the patient's `action` entry on
  /// notification `id`, written before its handler runs in `state` (the
  /// scenario's medicine app: `handler=cut-short` when the system suspends
  /// its background handler before the handler's re-adds).
  func actionEntryFields(_ id: NotificationID, actionIdentifier: String, state: AppState) -> [TimelineField]
  /// Why place `place` of set `set` (`places:`) was not monitored when the
  /// patient crossed it: the app left it out of the places it watches ("not
  /// monitored: … not among the nearest 20 …"); nil when it was watched.
  func placeNotMonitoredReason(set: PlaceSetID, place: PlaceID, facts: SimulationFacts) -> String?
}

extension DoseExplaining {
  public func missedReason(_ dose: MissedDose, facts: SimulationFacts) -> String? { nil }
  public func unansweredRemark(_ dose: DoseRecord, facts: SimulationFacts) -> String? { nil }
  public func locationDoseObstacle(_ medicine: MedicineID, region: RegionID, facts: SimulationFacts) -> String? { nil }
  public func locationDetectionLoss(_ medicine: MedicineID, region: RegionID, facts: SimulationFacts) -> String? { nil }
  public func dismissNotReportedReason(_ id: NotificationID, facts: SimulationFacts) -> String? { nil }
  public func deliveredWithoutAppCode(_ notification: UserNotification, dose: DoseKey, state: AppState, notes: SimulationNotes) {}
  public func actionEntryFields(_ id: NotificationID, actionIdentifier: String, state: AppState) -> [TimelineField] { [] }
  public func placeNotMonitoredReason(set: PlaceSetID, place: PlaceID, facts: SimulationFacts) -> String? { nil }
}

/// A prescribed daily dose no notification answered.
public struct MissedDose: Sendable {
  public var medicine: MedicineID
  public var time: DailyTime
  /// The time's position in the medicine's `times`.
  public var timeIndex: Int
  public var due: SimulationInstant
  /// When the previous dose of this daily time was due (the clock's start for the first).
  public var previousDue: SimulationInstant
  /// The prescription of the medicine version the dose belongs to (its window).
  public var prescription: Prescription
}

/// What the run knows now, for an app's explanations (`DoseExplaining`):
/// read-only, and valid only during the call it is handed to (do not keep it:
/// it holds the run).
public struct SimulationFacts {
  let run: SimulationRun

  /// The scenario (clock and time-zone changes, platform rules).
  public var scenario: Scenario { run.scenario }

  /// The pending request `id`, and when it next fires (nil: never, a location trigger).
  public func pending(_ id: NotificationID) -> (request: NotificationRequest, nextDelivery: SimulationInstant?)? {
    run.layers.phone.core.center.pending[id].map { ($0.request, $0.nextDelivery) }
  }

  /// Why request `id` is not pending (dropped, removed, not kept), as the
  /// dose table says it, or nil when nothing took it away.
  public func lossReason(_ id: NotificationID) -> String? { run.layers.ledger.lossReason[id] }

  /// Why the daily or location request under `id` is gone though the app
  /// added nothing wrong: a request of another kind the app added under the
  /// same identifier replaced it ("replaced at … by the snoozed alert the app
  /// added under the same identifier"); nil when it was not replaced.
  public func replacement(of id: NotificationID) -> String? { run.layers.ledger.replacedMain[id] }

  /// `instant` as the timeline writes it, in the device's zone now.
  public func timestamp(_ instant: SimulationInstant) -> String { run.format(instant) }

  /// The dose table's record of `dose`, if it has one.
  public func record(of dose: DoseKey) -> DoseRecord? { run.layers.ledger.doses[dose] }
}
