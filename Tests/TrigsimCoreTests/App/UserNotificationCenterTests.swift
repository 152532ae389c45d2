import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// The simulated notification center, one rule per test, as a team's app code sees it.
@Suite struct UserNotificationCenterTests {
  @Test func addReplacesAPendingRequestWithTheSameIdentifier() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      await app.add(HostedScenario.daily("pill", hour: 8))
      await app.add(HostedScenario.daily("pill", hour: 9))
      let pending = await app.device.notificationCenter.pendingNotificationRequests()
      app.log.add("pending \(pending.map { "\($0.id) \($0.trigger.summary)" })")
    }
    let report = try Simulation(HostedScenario.make(), app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all.contains(#"pending ["pill calendar hour=9 minute=0"]"#))
    let lines = HostedScenario.lines(report.timeline)
    #expect(lines.contains("2026-05-04T07:00:00 replaced pill previous=calendar hour=8 minute=0"))
    #expect(lines.filter { $0.contains("fired pill") }.count == 1)
    #expect(lines.contains { $0.hasPrefix("2026-05-04T09:00:00 fired pill") })
  }

  @Test func the65thRequestDropsOneUnderThePlatformsRetention() throws {
    // 70 one-shot requests, one a minute from 08:00: the platform keeps 64.
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      for minute in 0..<70 {
        let components = CalendarComponents(year: 2026, month: 5, day: 4, hour: 8 + minute / 60, minute: minute % 60)
        await app.add(NotificationRequest(id: NotificationID("r\(minute)"), title: "r", trigger: .calendar(CalendarTrigger(components: components, repeats: false))))
      }
      let pending = await app.device.notificationCenter.pendingNotificationRequests()
      app.log.add("pending \(pending.count) first \(pending.first!.id) last \(pending.last!.id)")
    }
    let report = try Simulation(HostedScenario.make(), app: ScriptedApp.hosted(script, log: log)).report()
    // Retention last-added (the default): each add past 64 drops the earliest-added request still pending.
    #expect(log.all.contains("pending 64 first r6 last r69"))
    let dropped = report.timeline.entries.filter { $0.kind == .dropped }.map(\.subject)
    #expect(dropped == ["r0", "r1", "r2", "r3", "r4", "r5"])
    #expect(report.summary.droppedByPendingLimit.count == 6)
  }

  @Test func aRepeatingIntervalUnder60SecondsIsRefusedAsThePlatformDoes() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      await app.add(HostedScenario.after("fast", seconds: 59, repeats: true))
      await app.add(HostedScenario.after("zero", seconds: 0))
      await app.add(HostedScenario.after("minute", seconds: 60, repeats: true))
      await app.add(HostedScenario.after("once", seconds: 30))
    }
    let report = try Simulation(HostedScenario.make("2026-05-04T07:00:00Z", "2026-05-04T07:02:00Z"), app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all.contains { $0.hasPrefix("#1 add refused: 'fast': a repeating time-interval trigger needs an interval of at least 60 seconds") })
    #expect(log.all.contains { $0.hasPrefix("#1 add refused: 'zero': a time-interval trigger needs an interval greater than 0") })
    let fired = report.timeline.entries.filter { $0.kind == .fired }.map { "\($0.subject)@\($0.localInstant.prefix(19))" }
    #expect(fired == ["once@2026-05-04T07:00:30", "minute@2026-05-04T07:01:00", "minute@2026-05-04T07:02:00"])
  }

  @Test func addWhilePermissionIsDeniedSucceedsButKeepsNothing() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      await app.add(HostedScenario.after("lost", seconds: 60))
      let pending = await app.device.notificationCenter.pendingNotificationRequests()
      app.log.add("pending \(pending.count)")
    }
    var scenario = HostedScenario.make()
    scenario.medicineApp.appChanges = [AppChange(instant: scenario.clock.start, permission: .denied)]
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all == ["#1 didFinishLaunching initial", "pending 0"])
    #expect(HostedScenario.lines(report.timeline).contains { $0.contains("dropped lost") && $0.contains("notification permission denied") })
  }

  @Test func requestAuthorizationAsksThePatientOnlyWhileNotDetermined() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      let first = (try? await app.device.notificationCenter.requestAuthorization(options: [.alert, .sound])) ?? false
      let second = (try? await app.device.notificationCenter.requestAuthorization(options: [.alert, .sound])) ?? false
      let settings = await app.device.notificationCenter.notificationSettings()
      app.log.add("answers \(first) \(second) status \(settings.authorizationStatus.rawValue)")
    }
    var scenario = HostedScenario.make()
    scenario.medicineApp.appChanges = [AppChange(instant: scenario.clock.start, permission: .notDetermined)]
    var hosted = ScriptedApp.hosted(script, log: log)
    hosted.permissionAnswer = .denied
    let report = try Simulation(scenario, app: hosted).report()
    #expect(log.all.contains("answers false false status denied"))
    let asked = report.timeline.entries.filter { $0.kind == .app && $0.subject == "permission" }
    #expect(asked.count == 2)  // the scenario's change, then the patient's one answer
    #expect(asked.last?.fields.first { $0.key == "reason" }?.value == "the patient answered the app's request")
  }

  @Test func removePendingAndDeliveredActOnTheCenterAtTheCallbacksInstant() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      await app.add(HostedScenario.after("a", seconds: 60))
      await app.add(HostedScenario.after("b", seconds: 120))
      await app.add(HostedScenario.after("c", seconds: 180))
      app.device.notificationCenter.removePendingNotificationRequests(withIdentifiers: ["b", "nothing"])
    }
    script.willPresent = { app, notification in
      if notification.request.id == "c" {
        let delivered = await app.device.notificationCenter.deliveredNotifications().map(\.request.id.rawValue)
        app.log.add("delivered before c: \(delivered)")
        app.device.notificationCenter.removeDeliveredNotifications(withIdentifiers: ["a"])
      }
      return [.banner, .list]
    }
    var scenario = HostedScenario.make("2026-05-04T07:00:00Z", "2026-05-04T07:05:00Z")
    scenario.medicineApp.appChanges = [HostedScenario.state(.foreground, at: "2026-05-04T07:00:00Z")]
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all.contains(#"delivered before c: ["a", "c"]"#))
    let lines = HostedScenario.lines(report.timeline)
    #expect(lines.contains("2026-05-04T07:00:00 removed b trigger=interval 2m reason=removed by the app"))
    #expect(!lines.contains { $0.contains("fired b") })
    #expect(lines.contains("2026-05-04T07:03:00 cleared a reason=removed by the app"))
  }

  // MARK: - Will-present

  @Test(arguments: [
    (options: PresentationOptions([.banner, .sound]), outcome: "alert"),
    (options: PresentationOptions([.list]), outcome: "quiet"),
    (options: PresentationOptions(), outcome: "none"),
  ])
  func willPresentOptionsDecideWhatTheForegroundPatientSees(options: PresentationOptions, outcome: String) throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in await app.add(HostedScenario.after("pill", seconds: 60)) }
    script.willPresent = { _, _ in options }
    var scenario = HostedScenario.make("2026-05-04T07:00:00Z", "2026-05-04T07:05:00Z")
    scenario.medicineApp.appChanges = [HostedScenario.state(.foreground, at: "2026-05-04T07:00:00Z")]
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all.contains("#1 willPresent pill"))
    let lines = HostedScenario.lines(report.timeline)
    switch outcome {
    case "alert":
      #expect(report.summary.perceptions.count == 1)
      #expect(!lines.contains { $0.contains("suppressed pill") })
    case "quiet":
      #expect(lines.contains { $0.contains("will-present returned options list: listed in Notification Center without a banner or sound") })
    default:
      #expect(lines.contains { $0.contains("suppressed pill") && $0.contains("will-present returned options none, so the platform presents nothing") })
      #expect(report.summary.perceptions.isEmpty)
    }
  }

  @Test func withoutADelegateTheForegroundAppPresentsNothingAndInTheBackgroundWillPresentDoesNotRun() throws {
    let log = AppLog()
    var script = AppScript()
    script.sets.notificationDelegate = false
    script.launched = { app, _ in
      await app.add(HostedScenario.after("fg", seconds: 60))
      await app.add(HostedScenario.after("bg", seconds: 180))
    }
    var scenario = HostedScenario.make("2026-05-04T07:00:00Z", "2026-05-04T07:05:00Z")
    scenario.medicineApp.appChanges = [
      HostedScenario.state(.foreground, at: "2026-05-04T07:00:00Z"), HostedScenario.state(.background, at: "2026-05-04T07:02:00Z"),
    ]
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    let lines = HostedScenario.lines(report.timeline)
    #expect(lines.contains("2026-05-04T07:01:00 app willPresent notification=fg ran=no reason=no notification center delegate is set"))
    #expect(lines.contains { $0.hasPrefix("2026-05-04T07:01:00 suppressed fg") && $0.contains("has no notification center delegate") })
    #expect(!lines.contains { $0.contains("willPresent notification=bg") })
    #expect(!lines.contains { $0.contains("suppressed bg") })
  }

  // MARK: - Responses

  @Test func anActionReachesDidReceiveWithItsIdentifierAndTheLedgerRecordsWhatThePatientDid() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      app.device.notificationCenter.setNotificationCategories([HostedScenario.doseCategory])
      await app.add(HostedScenario.daily("pill", hour: 8))
    }
    script.received = { app, response in
      if response.actionIdentifier == "snooze-15m" { await app.add(HostedScenario.after("pill-snoozed", seconds: 900)) }
    }
    var scenario = HostedScenario.make()
    let medicine = Medicine(id: "1", name: "Metformin", dosage: "500", unit: "mg", times: [DailyTime(hour: 8, minute: 0)])
    scenario.medicineApp.medicineChanges = [MedicineChange(instant: scenario.clock.start, kind: .create(medicine))]
    scenario.medicineApp.userActions = [
      HostedScenario.act(.snooze(.minutes(15)), on: "pill", at: "2026-05-04T08:01:00Z"),
      HostedScenario.act(.complete, on: "pill-snoozed", at: "2026-05-04T08:17:00Z"),
    ]
    let attribution: @Sendable (NotificationRequest) -> DoseAttribution? = { request in
      request.id == "pill" ? .reminder("1", time: DailyTime(hour: 8, minute: 0)) : .snoozedAlert("1", time: DailyTime(hour: 8, minute: 0))
    }
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log, attribution: attribution)).report()
    #expect(log.all.contains("#1 didReceive pill snooze-15m"))
    #expect(log.all.contains("#1 didReceive pill-snoozed complete"))
    let dose = try #require(report.summary.doses.first)
    #expect(dose.snoozes == 1)
    #expect(dose.snoozedAlertsDelivered == 1)
    #expect(dose.completed == Build.instant("2026-05-04T08:17:00Z"))
  }

  @Test func dismissReachesTheAppOnlyWithACustomDismissAction() throws {
    for custom in [false, true] {
      let log = AppLog()
      var script = AppScript()
      script.launched = { app, _ in
        app.device.notificationCenter.setNotificationCategories([
          NotificationCategory(identifier: "dose", actions: [], customDismissAction: custom)
        ])
        await app.add(HostedScenario.after("pill", seconds: 60))
      }
      var scenario = HostedScenario.make()
      scenario.medicineApp.userActions = [HostedScenario.act(.dismiss, on: "pill", at: "2026-05-04T07:02:00Z")]
      let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
      let heard = log.all.contains("#1 didReceive pill \(NotificationResponse.dismissActionIdentifier)")
      #expect(heard == custom)
      let action = try #require(report.timeline.entries.first { $0.kind == .action })
      #expect(action.fields.contains(TimelineField("reported", "no")) == !custom)
    }
  }

  @Test func anActionTheCategoryDoesNotOfferIsAWarningAndNothingHappens() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      app.device.notificationCenter.setNotificationCategories([HostedScenario.doseCategory])
      await app.add(HostedScenario.after("pill", seconds: 60))
    }
    var scenario = HostedScenario.make()
    scenario.medicineApp.userActions = [HostedScenario.act(.snooze(.minutes(30)), on: "pill", at: "2026-05-04T07:02:00Z")]
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(!log.all.contains { $0.contains("didReceive") })
    let warning = try #require(report.timeline.entries.first { $0.kind == .warning && $0.subject == "pill" })
    #expect(warning.fields.first?.value == "the patient cannot choose 'snooze 30m' (action 'snooze-30m'): its category 'dose' offers complete, snooze-15m")
    #expect(!report.timeline.entries.contains { $0.kind == .action })
  }
}
