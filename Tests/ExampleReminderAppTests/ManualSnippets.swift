import Foundation
import Testing
import TrigsimCore
import TrigsimScenario  // RecordMode: `record: .missing` (needed under the MemberImportVisibility feature)
import TrigsimTesting
import TrigsimTestSupport

/// The Swift the device API articles show ("Your app in the loop", "The
/// simulated device API"), compiled and run: each article block is marked
/// `<!-- snippet: Tests/ExampleReminderAppTests/ManualSnippets.swift -->`
/// and its lines appear here, consecutive.
@Suite struct ManualSnippets {
  @Test func aRequestWithItsTriggerCategoryAndDoseAttribution() {
    var request = NotificationRequest(
      id: "metformin-0800", title: "Metformin", body: "Take 500 mg",
      trigger: .calendar(CalendarTrigger(components: CalendarComponents(hour: 8, minute: 0), repeats: true)))
    request.categoryIdentifier = "dose"
    request.doseAttribution = .reminder("metformin", time: DailyTime(hour: 8, minute: 0))

    let category = NotificationCategory(
      identifier: "dose",
      actions: [
        NotificationAction(identifier: "complete", title: "Taken"),
        NotificationAction(identifier: "snooze-15m", title: "In 15 minutes"),
      ],
      customDismissAction: true)

    #expect(request.trigger.summary == "calendar hour=8 minute=0")
    #expect(request.categoryIdentifier == category.identifier)
    #expect(request.doseAttribution == .reminder("metformin", time: DailyTime(hour: 8, minute: 0)))
  }

  @Test func theOtherTriggers() {
    let inTwoHours = Trigger.interval(IntervalTrigger(interval: .hours(2), repeats: false))
    let atThePharmacy = Trigger.region(RegionTrigger(region: "pharmacy", notifyOnEntry: true, notifyOnExit: false, repeats: true))
    let onTheFirstOfJune = Trigger.calendar(CalendarTrigger(components: CalendarComponents(month: 6, day: 1, hour: 9, minute: 0), repeats: false))

    #expect(inTwoHours.summary == "interval 2h")
    #expect(atThePharmacy.summary == "region pharmacy on=enter")
    #expect(onTheFirstOfJune.summary == "calendar month=6 day=1 hour=9 minute=0")
  }

  @Test func aCalendarTriggerPinnedToAZone() {
    // DateComponents.timeZone on the platform: 08:00 in Copenhagen, wherever the phone travels.
    let copenhagen = TimeZone(identifier: "Europe/Copenhagen")!
    let pinned = CalendarTrigger(components: CalendarComponents(hour: 8, minute: 0, timeZone: copenhagen), repeats: true)
    // Without a zone the trigger floats: 08:00 in whatever zone the phone is in.
    let floating = CalendarTrigger(components: CalendarComponents(hour: 8, minute: 0), repeats: true)

    #expect(pinned.summary == "calendar hour=8 minute=0 tz=Europe/Copenhagen")
    #expect(floating.timeZone == nil)
  }

  @Test func readingARun() throws {
    let path = ExampleScenario.path("taken-on-first-alert.yaml")
    let report = try #require(runScenario(at: path, app: ExampleScenario.app(for: path)))

    let timelineText = report.timeline.canonicalText  // the text of a .timeline file
    let summaryText = report.summary.text  // what `trigsim run --summary` prints
    let fired = try #require(report.timeline.entries.first { $0.kind == .fired })
    #expect(fired.localInstant == "2026-05-04T08:00:00.000+02:00")  // in the device's zone at that instant

    #expect(timelineText.hasPrefix("# trigsim timeline 1\n# scenario: Metformin taken on the first alert\n"))
    #expect(summaryText.hasPrefix("# summary\n"))
  }

  @Test func recordingTheExpectedFilesOnce() throws {
    let path = ExampleScenario.path("taken-on-first-alert.yaml")
    let app = try ExampleScenario.app(for: path)
    assertScenario(at: path, app: app, record: .missing)  // writes only the expected files that do not exist yet
  }

  /// An app whose `didReceive` tells the simulator why it does what it does
  /// (`device.simulation`), as "Your app in the loop" shows.
  final class ExplainingApp: SimulatedApp, UserNotificationCenterDelegate, @unchecked Sendable {
    let device: SimulatedDevice
    init(device: SimulatedDevice) { self.device = device }

    func didFinishLaunching(reason: LaunchReason) async {
      device.notificationCenter.delegate = self
      device.notificationCenter.setNotificationCategories([
        NotificationCategory(identifier: "dose", actions: [NotificationAction(identifier: "complete", title: "Taken")])
      ])
    }

    func patientChangedMedicine(_ change: MedicineEdit) async {
      var reminder = NotificationRequest(
        id: "metformin-0800", title: "Metformin",
        trigger: .calendar(CalendarTrigger(components: CalendarComponents(hour: 8, minute: 0), repeats: true)))
      reminder.categoryIdentifier = "dose"
      reminder.doseAttribution = .reminder("metformin", time: DailyTime(hour: 8, minute: 0))
      var followUp = NotificationRequest(id: "metformin-0800-f1", title: "Metformin", trigger: .interval(IntervalTrigger(interval: .hours(2), repeats: false)))
      followUp.doseAttribution = .followUp("metformin", time: DailyTime(hour: 8, minute: 0), number: 1)
      try? await device.notificationCenter.add(reminder)
      try? await device.notificationCenter.add(followUp)
    }

    func didReceive(_ response: NotificationResponse) async {
      device.simulation.because("dose completed") {
        device.notificationCenter.removePendingNotificationRequests(withIdentifiers: ["metformin-0800-f1"])
      }
      device.simulation.warn("metformin-0800", "follow-ups not added: the patient turned them off")
      device.simulation.remark("taken from the lock screen", onDoseOf: response.notification.request.id)
    }
  }

  @Test func theAppsOwnAccountReachesTheTimelineAndTheDoseTable() throws {
    let path = ExampleScenario.path("taken-on-first-alert.yaml")
    let report = try #require(runScenario(at: path, app: HostedApp { ExplainingApp(device: $0) }))
    let removed = try #require(report.timeline.entries.first { $0.kind == .removed && $0.subject == "metformin-0800-f1" })
    #expect(removed[field: "reason"] == "dose completed")
    let warning = try #require(report.timeline.entries.first { $0.kind == .warning && $0.subject == "metformin-0800" })
    #expect(warning[field: "reason"] == "follow-ups not added: the patient turned them off")
    #expect(report.summary.doses.first?.notes.contains("taken from the lock screen") == true)
  }
}
