import Foundation

/// Turns the medications into requests: per daily time a reminder and a
/// chain of follow-ups for the next dose not yet taken, and per place a
/// location reminder (or a watched place, see `ReminderApp.Configuration`).
final class ReminderScheduler {
  let configuration: ReminderApp.Configuration
  let notifications: NotificationScheduling
  let regions: RegionMonitoring
  let clock: AppClock
  let medications: MedicationStore
  /// What `add` refused, in the order it happened (the app keeps going).
  private(set) var errors: [String] = []

  /// Follow-ups per dose, and the minutes between them: one hour in all.
  static let followUpCount = 10
  static let followUpSpacingMinutes = 6
  /// The days the one-shot scheduling covers ahead.
  static let oneShotDays = 7
  static let categoryID = "dose"

  init(
    configuration: ReminderApp.Configuration, notifications: NotificationScheduling, regions: RegionMonitoring, clock: AppClock,
    medications: MedicationStore
  ) {
    self.configuration = configuration
    self.notifications = notifications
    self.regions = regions
    self.clock = clock
    self.medications = medications
  }

  // MARK: - Scheduling a medication

  /// Adds everything `medication` needs from now on. Adding a pending
  /// identifier again replaces it, so this may run as often as the app likes.
  func schedule(_ medication: Medication) async {
    switch configuration.scheduling {
    case .repeatingDaily:
      for time in medication.times.sorted() {
        await add(ReminderRequest(
          id: ReminderID.daily(medication: medication.id, time: time).rawValue, title: medication.name, body: "Take \(medication.dose)",
          trigger: .daily(time), categoryID: Self.categoryID))
        if let day = chainDay(of: medication, time) { await addChain(of: medication, time, on: day) }
      }
    case .weekOfOneShots:
      // Start again from a clean slate, then add the week ahead day by day.
      await removePendingDailyRequests(of: medication.id)
      let calendar = clock.calendar
      let today = DoseDay(clock.now, in: calendar)
      for offset in 0..<Self.oneShotDays {
        let day = today.adding(days: offset, in: calendar)
        for time in medication.times.sorted() where !medications.isTaken(medication.id, time, on: day) {
          guard let due = day.date(at: time, in: calendar) else { continue }
          if due > clock.now {
            await add(ReminderRequest(
              id: ReminderID.oneDay(medication: medication.id, time: time, day: day).rawValue, title: medication.name,
              body: "Take \(medication.dose)", trigger: .once(Self.localDateTime(due, in: calendar)), categoryID: Self.categoryID))
          }
          await addChain(of: medication, time, on: day)
        }
      }
    }
    if let place = medication.place {
      switch configuration.location {
      case .notificationTrigger:
        await add(placeReminder(of: medication, trigger: .arriving(at: place, repeats: true)))
      case .regionCallback:
        regions.startMonitoring(place)
      }
    }
  }

  /// Cancels every pending request of the medication and stops watching its place.
  func unschedule(_ medication: Medication) async {
    await removePendingDailyRequests(of: medication.id)
    notifications.removePending(ids: [ReminderID.place(medication: medication.id).rawValue])
    if let place = medication.place, medications.medications.allSatisfy({ $0.id == medication.id || $0.place?.id != place.id }) {
      regions.stopMonitoring(place)
    }
  }

  /// The day whose dose at `time` the follow-up chain covers: the earliest
  /// dose neither taken nor snoozed whose chain has not yet run out (yesterday's late
  /// evening dose, today's, or tomorrow's).
  func chainDay(of medication: Medication, _ time: ReminderTime) -> DoseDay? {
    let calendar = clock.calendar
    let today = DoseDay(clock.now, in: calendar)
    for offset in -1...2 {
      let day = today.adding(days: offset, in: calendar)
      guard let due = day.date(at: time, in: calendar), !medications.isTaken(medication.id, time, on: day),
        !medications.isSnoozed(medication.id, time, on: day)
      else { continue }
      if Self.followUpDate(after: due, number: Self.followUpCount) > clock.now { return day }
    }
    return nil
  }

  /// Adds the follow-ups of the dose at `time` on `day` that are still ahead.
  func addChain(of medication: Medication, _ time: ReminderTime, on day: DoseDay) async {
    let calendar = clock.calendar
    guard let due = day.date(at: time, in: calendar) else { return }
    for number in 1...Self.followUpCount {
      let date = Self.followUpDate(after: due, number: number)
      guard date > clock.now else { continue }
      await add(ReminderRequest(
        id: ReminderID.followUp(medication: medication.id, time: time, day: day, number: number).rawValue, title: medication.name,
        body: "Still to take: \(medication.dose)", trigger: .once(Self.localDateTime(date, in: calendar)), categoryID: Self.categoryID))
    }
  }

  /// The identifiers of the follow-ups and the snoozed alert of one dose.
  static func chainIDs(of medication: String, _ time: ReminderTime, on day: DoseDay) -> [String] {
    (1...followUpCount).map { ReminderID.followUp(medication: medication, time: time, day: day, number: $0).rawValue }
      + [ReminderID.snoozed(medication: medication, time: time, day: day).rawValue]
  }

  func placeReminder(of medication: Medication, trigger: ReminderTrigger) -> ReminderRequest {
    ReminderRequest(
      id: ReminderID.place(medication: medication.id).rawValue, title: medication.name, body: "You are there: take \(medication.dose)",
      trigger: trigger, categoryID: Self.categoryID)
  }

  func add(_ request: ReminderRequest) async {
    do {
      try await notifications.add(request)
    } catch {
      errors.append("\(request.id): \(error)")
    }
  }

  private func removePendingDailyRequests(of medication: String) async {
    let ids = await notifications.pendingIDs().filter { id in
      guard let parsed = ReminderID(rawValue: id) else { return false }
      return parsed.medication == medication && parsed.time != nil
    }
    notifications.removePending(ids: ids)
  }

  static func followUpDate(after due: Date, number: Int) -> Date {
    due.addingTimeInterval(TimeInterval(number * followUpSpacingMinutes * 60))
  }

  static func localDateTime(_ date: Date, in calendar: Calendar) -> LocalDateTime {
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    return LocalDateTime(year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!)
  }
}
