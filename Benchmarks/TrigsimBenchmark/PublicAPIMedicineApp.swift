import Foundation
import TrigsimCore

/// The benchmark's medicine app written against the public device API
/// (`SimulatedDevice`), doing the built-in app's work on the medicine
/// benchmark scenario: a repeating daily reminder per time, an upfront chain
/// of the medicine's follow-ups for each time's next occurrence (re-added
/// when a reminder is delivered or acted on), a repeating location reminder,
/// and complete, snooze and open from the notification. Identifiers follow
/// the built-in app's default templates, so the scenario's response rules
/// and the ledger's template matching apply unchanged.
final class PublicAPIMedicineApp: SimulatedApp, UserNotificationCenterDelegate, @unchecked Sendable {
  let device: SimulatedDevice
  private var medicines: [MedicineID: Medicine] = [:]

  init(_ device: SimulatedDevice) { self.device = device }

  func didFinishLaunching(reason: LaunchReason) async {
    device.notificationCenter.delegate = self
    device.notificationCenter.setNotificationCategories([
      NotificationCategory(
        identifier: "medicine",
        actions: [NotificationAction(identifier: "complete", title: "Taken"), NotificationAction(identifier: "snooze-15m", title: "Snooze")])
    ])
  }

  func patientChangedMedicine(_ change: MedicineEdit) async {
    guard case .created(let medicine) = change else { return }
    medicines[medicine.id] = medicine
    let now = device.clock.now
    for (index, time) in medicine.times.enumerated() {
      await add(
        id: "medicine_\(medicine.id)_reminder_\(index)", medicine,
        .calendar(CalendarTrigger(components: CalendarComponents(hour: time.hour, minute: time.minute), repeats: true)))
      await addChain(medicine, index: index, after: now)
    }
    if let location = medicine.location {
      await add(
        id: "medicine_\(medicine.id)_location", medicine,
        .region(RegionTrigger(region: location.region, notifyOnEntry: location.onEntry, notifyOnExit: location.onExit, repeats: true)))
    }
  }

  func willPresent(_ notification: UserNotification) async -> PresentationOptions { [.banner, .sound, .list] }

  func didReceive(_ response: NotificationResponse) async {
    let id = response.notification.request.id.rawValue
    guard let (medicine, index) = reminder(of: id) else { return }
    switch response.actionIdentifier {
    case "complete", NotificationResponse.defaultActionIdentifier:
      removeChain(medicine, index: index)
      device.notificationCenter.removeDeliveredNotifications(withIdentifiers: [response.notification.request.id])
      await addChain(medicine, index: index, after: device.clock.now)
    case "snooze-15m":
      removeChain(medicine, index: index)
      await add(id: id + "_snoozed", medicine, .interval(IntervalTrigger(interval: .minutes(15), repeats: false)))
    default:
      break
    }
  }

  /// The medicine and daily-time position a request identifier names.
  private func reminder(of id: String) -> (Medicine, Int)? {
    let parts = id.split(separator: "_")
    guard parts.count >= 4, parts[0] == "medicine", let medicine = medicines[MedicineID(String(parts[1]))], let number = Int(parts[3]) else {
      return nil
    }
    if parts[2] == "reminder" { return (medicine, number) }
    let count = max(medicine.snooze?.count ?? 1, 1)
    return parts[2] == "snooze" ? (medicine, (number - 1) / count) : nil
  }

  /// The follow-ups of time `index`'s next occurrence after `instant`.
  private func addChain(_ medicine: Medicine, index: Int, after instant: Date) async {
    guard let chain = medicine.snooze, chain.count > 0 else { return }
    let calendar = device.clock.calendar
    let time = medicine.times[index]
    guard let due = calendar.nextDate(after: instant, matching: DateComponents(hour: time.hour, minute: time.minute), matchingPolicy: .nextTime)
    else { return }
    for number in 1...chain.count {
      let at = due.addingTimeInterval(Double(chain.every.milliseconds) / 1000 * Double(number))
      let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: at)
      let components = CalendarComponents(
        year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second)
      await add(
        id: "medicine_\(medicine.id)_snooze_\(index * chain.count + number)", medicine,
        .calendar(CalendarTrigger(components: components, repeats: false)))
    }
  }

  private func removeChain(_ medicine: Medicine, index: Int) {
    guard let chain = medicine.snooze, chain.count > 0 else { return }
    device.notificationCenter.removePendingNotificationRequests(
      withIdentifiers: (1...chain.count).map { NotificationID("medicine_\(medicine.id)_snooze_\(index * chain.count + $0)") })
  }

  private func add(id: String, _ medicine: Medicine, _ trigger: Trigger) async {
    var request = NotificationRequest(id: NotificationID(id), title: medicine.name, body: medicine.body, trigger: trigger)
    request.categoryIdentifier = "medicine"
    request.interruptionLevel = medicine.interruptionLevel
    try? await device.notificationCenter.add(request)
  }
}
