import Foundation

/// A medicine-reminder app as a team would write it: its logic talks to the
/// phone only through its own wrappers (`NotificationScheduling`,
/// `RegionMonitoring`, `AppClock`, `KeyValueStore`), and the platform's
/// callbacks (launch, notification responses, region entries) call in here.
///
/// What it does for each medication:
/// - a repeating daily reminder per time, and with it (upfront) the
///   next dose's follow-ups: 10 one-shot reminders 6 minutes apart;
/// - "Taken" (`complete`) marks the dose taken, cancels its remaining
///   follow-ups and clears its notifications, and adds the next dose's chain;
/// - "Snooze" (5, 15, 30 or 60 minutes) cancels the remaining follow-ups and
///   adds one alert after the snooze;
/// - a location reminder on arriving within 100 m of the medication's place.
///
/// `Configuration` holds the switches a team ships by mistake; `shipping` is
/// the mended app.
public final class ReminderApp {
  public struct Configuration: Sendable, Equatable {
    /// How daily reminders are scheduled.
    public enum Scheduling: Sendable, Equatable {
      /// One repeating request per time, plus the next dose's follow-ups.
      case repeatingDaily
      /// One-shot requests for every time of the next 7 days, each with its
      /// follow-ups, added afresh on every launch. Past the platform's 64
      /// pending requests the earliest-added are dropped: today's reminders.
      case weekOfOneShots
    }

    /// How location reminders are delivered.
    public enum LocationReminders: Sendable, Equatable {
      /// A location notification trigger: the system delivers it, whether or not the app runs.
      case notificationTrigger
      /// The app watches the place and posts a notification from its
      /// region-entry callback, which the system never runs for a force-quit app.
      case regionCallback
    }

    /// Whether "Taken" cancels the dose's remaining follow-ups.
    public var cancelsChainOnComplete: Bool
    public var scheduling: Scheduling
    public var location: LocationReminders

    public init(cancelsChainOnComplete: Bool = true, scheduling: Scheduling = .repeatingDaily, location: LocationReminders = .notificationTrigger) {
      self.cancelsChainOnComplete = cancelsChainOnComplete
      self.scheduling = scheduling
      self.location = location
    }

    /// The mended app: every switch at its correct value.
    public static let shipping = Configuration()
  }

  /// The notification actions, by identifier.
  public enum Action {
    public static let complete = "complete"
    /// Snooze buttons: identifier and minutes. The identifiers spell the
    /// duration as the platform's action identifiers are named (`snooze-1h`).
    public static let snoozes: [(id: String, minutes: Int)] = [("snooze-5m", 5), ("snooze-15m", 15), ("snooze-30m", 30), ("snooze-1h", 60)]
  }

  /// Follow-ups per dose, `followUpSpacingMinutes` apart.
  public static let followUpsPerDose = ReminderScheduler.followUpCount
  public static let followUpSpacingMinutes = ReminderScheduler.followUpSpacingMinutes
  /// The days `.weekOfOneShots` schedules ahead.
  public static let daysScheduledAhead = ReminderScheduler.oneShotDays

  /// The notification category every reminder uses: "Taken" and the snoozes.
  public static let doseCategory = ActionCategory(
    id: ReminderScheduler.categoryID,
    actions: [(Action.complete, "Taken")] + Action.snoozes.map { ($0.id, "Snooze \($0.minutes) min") })

  public let configuration: Configuration
  private let notifications: NotificationScheduling
  private let medications: MedicationStore
  private let scheduler: ReminderScheduler

  public init(
    configuration: Configuration = .shipping, notifications: NotificationScheduling, regions: RegionMonitoring, clock: AppClock,
    store: KeyValueStore
  ) {
    self.configuration = configuration
    self.notifications = notifications
    medications = MedicationStore(store)
    scheduler = ReminderScheduler(
      configuration: configuration, notifications: notifications, regions: regions, clock: clock, medications: medications)
  }

  /// What `add` refused since launch, in order (`id: error`).
  public var schedulingErrors: [String] { scheduler.errors }

  // MARK: - Lifecycle

  /// The process started: ask for permission, register the buttons, and
  /// bring every medication's requests up to date.
  public func didLaunch() async {
    _ = try? await notifications.requestPermission()
    notifications.setCategories([Self.doseCategory])
    await rescheduleAll()
  }

  /// The patient opened the app: top up the requests.
  public func didBecomeActive() async {
    await rescheduleAll()
  }

  private func rescheduleAll() async {
    for medication in medications.medications { await scheduler.schedule(medication) }
  }

  // MARK: - The patient's edits

  /// The patient created or edited a medication.
  public func save(_ medication: Medication) async {
    if let previous = medications.medication(medication.id) { await scheduler.unschedule(previous) }
    medications.save(medication)
    await scheduler.schedule(medication)
  }

  /// The patient deleted a medication.
  public func deleteMedication(_ id: String) async {
    guard let medication = medications.medication(id) else { return }
    await scheduler.unschedule(medication)
    medications.delete(id)
  }

  // MARK: - Notifications and places

  /// The patient chose `actionID` on the notification `requestID`, delivered at `deliveredAt`.
  public func handle(action actionID: String, on requestID: String, deliveredAt: Date) async {
    guard let id = ReminderID(rawValue: requestID), let medication = medications.medication(id.medication) else { return }
    guard let time = id.time else {
      // The location reminder: nothing follows it.
      if actionID == Action.complete { notifications.removeDelivered(ids: [requestID]) }
      return
    }
    let day: DoseDay
    switch id {
    case .oneDay(_, _, let dayOfRequest), .followUp(_, _, let dayOfRequest, _), .snoozed(_, _, let dayOfRequest): day = dayOfRequest
    case .daily, .place: day = DoseDay(deliveredAt, in: scheduler.clock.calendar)
    }
    let chain = ReminderScheduler.chainIDs(of: medication.id, time, on: day)
    if actionID == Action.complete {
      medications.markTaken(medication.id, time, on: day)
      if configuration.cancelsChainOnComplete { notifications.removePending(ids: chain) }
      notifications.removeDelivered(ids: [requestID] + chain)
      if configuration.scheduling == .repeatingDaily, let next = scheduler.chainDay(of: medication, time) {
        await scheduler.addChain(of: medication, time, on: next)
      }
    } else if let snooze = Action.snoozes.first(where: { $0.id == actionID }) {
      medications.markSnoozed(medication.id, time, on: day)
      notifications.removePending(ids: chain)
      await scheduler.add(ReminderRequest(
        id: ReminderID.snoozed(medication: medication.id, time: time, day: day).rawValue, title: medication.name,
        body: "Snoozed: take \(medication.dose)", trigger: .after(seconds: snooze.minutes * 60), categoryID: ReminderScheduler.categoryID))
    }
  }

  /// The phone arrived at the saved place `placeID` (the region-entry
  /// callback of `.regionCallback`): remind of every medication taken there, now.
  public func patientArrived(at placeID: String) async {
    for medication in medications.medications where medication.place?.id == placeID {
      await scheduler.add(scheduler.placeReminder(of: medication, trigger: .after(seconds: Self.arrivalAlertDelaySeconds)))
    }
  }

  /// A time-interval trigger needs a positive interval: the closest to "now" is one second.
  public static let arrivalAlertDelaySeconds = 1
}
