import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// A minimal app: a daily reminder per medicine time, a category with "complete".
final class DailyReminderApp: SimulatedApp, UserNotificationCenterDelegate {
  let device: SimulatedDevice
  init(_ device: SimulatedDevice) { self.device = device }

  func didFinishLaunching(reason: LaunchReason) async {
    device.notificationCenter.delegate = self
    device.notificationCenter.setNotificationCategories([
      NotificationCategory(identifier: "dose", actions: [NotificationAction(identifier: "complete", title: "Taken")])
    ])
  }

  func patientChangedMedicine(_ change: MedicineEdit) async {
    guard case .created(let medicine) = change else { return }
    for (index, time) in medicine.times.enumerated() {
      var request = NotificationRequest(
        id: NotificationID("dose-\(medicine.id)-\(index)"), title: medicine.name,
        trigger: .calendar(CalendarTrigger(components: CalendarComponents(hour: time.hour, minute: time.minute), repeats: true)))
      request.categoryIdentifier = "dose"
      try? await device.notificationCenter.add(request)
    }
  }

  func willPresent(_ notification: UserNotification) async -> PresentationOptions { [.banner, .sound] }
}

@Suite struct HostedAppSmokeTests {
  @Test func aDailyReminderFromAppCode() throws {
    var scenario = Scenario(name: "smoke", clock: Build.clock("2026-05-04T07:00:00Z", "2026-05-05T09:00:00Z"))
    scenario.appUnderTest = .swift
    let medicine = Medicine(id: "1", name: "Metformin", dosage: "500", unit: "mg", times: [DailyTime(hour: 8, minute: 0)])
    scenario.medicineApp.medicineChanges = [MedicineChange(instant: Build.instant("2026-05-04T07:00:00Z"), kind: .create(medicine))]
    scenario.medicineApp.userActions = [
      ScheduledUserAction(instant: Build.instant("2026-05-04T08:01:00Z"), notification: "dose-1-0", action: .complete)
    ]
    let app = HostedApp(attribution: { request in
      request.id.rawValue.hasPrefix("dose-1") ? .reminder("1", time: DailyTime(hour: 8, minute: 0)) : nil
    }) { DailyReminderApp($0) }
    let report = try Simulation(scenario, app: app).report()
    print(report.timeline.canonicalText)
    print(report.summary.doses.map { "\($0)" })
  }
}
