import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// The rest of the manual's table of device-API rules: what wakes a terminated app, authorization
/// callbacks and requests, and the region limit in both directions.
@Suite struct AppWakeTests {
  static func pushScenario(appState: AppState) -> Scenario {
    var scenario = HostedScenario.make()
    scenario.medicineApp.appChanges = [HostedScenario.state(appState, at: "2026-05-04T07:30:00Z")]
    scenario.pushes.pushes = [RemotePush(id: "sync", instant: Build.instant("2026-05-04T08:00:00Z"), contentAvailable: true)]
    return scenario
  }

  @Test func aBackgroundPushLaunchesATerminatedAppButNotAForceQuitOne() throws {
    let terminated = AppLog()
    _ = try Simulation(Self.pushScenario(appState: .terminated), app: ScriptedApp.hosted(AppScript(), log: terminated)).report()
    #expect(terminated.all == ["#1 didFinishLaunching initial", "#2 didFinishLaunching remote-notification", "#2 didReceiveRemoteNotification sync"])
    let forceQuit = AppLog()
    let report = try Simulation(Self.pushScenario(appState: .forceQuit), app: ScriptedApp.hosted(AppScript(), log: forceQuit)).report()
    #expect(forceQuit.all == ["#1 didFinishLaunching initial"])
    #expect(report.timeline.entries.contains { $0.kind == .suppressed && $0.subject == "sync" })
  }

  @Test func anActionLaunchesATerminatedAppToHandleIt() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, reason in
      app.device.notificationCenter.setNotificationCategories([HostedScenario.doseCategory])
      if reason == .initial { await app.add(HostedScenario.after("pill", seconds: 3600)) }
    }
    var scenario = HostedScenario.make()
    scenario.medicineApp.appChanges = [HostedScenario.state(.terminated, at: "2026-05-04T07:30:00Z")]
    scenario.medicineApp.userActions = [HostedScenario.act(.complete, on: "pill", at: "2026-05-04T08:05:00Z")]
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all == ["#1 didFinishLaunching initial", "#2 didFinishLaunching notification-response", "#2 didReceive pill complete"])
    let relaunch = try #require(report.timeline.entries.first { $0.kind == .app && $0.subject == "state" && $0.instant == Build.instant("2026-05-04T08:05:00Z") })
    #expect(relaunch.fields.contains(TimelineField("reason", "the system launched the app (notification-response)")))
  }

  @Test func theLocationDelegateHearsOfLocationAuthorizationChangesOnly() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in app.device.locationManager.delegate = LocationLog(app) }
    var scenario = HostedScenario.make()
    scenario.medicineApp.appChanges = [
      AppChange(instant: Build.instant("2026-05-04T08:00:00Z"), permission: .denied),
      AppChange(instant: Build.instant("2026-05-04T09:00:00Z"), location: .always),
      AppChange(instant: Build.instant("2026-05-04T10:00:00Z"), locationAccuracy: .approximate),
    ]
    _ = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all == ["#1 didFinishLaunching initial", "authorization always", "authorization always"])
  }

  /// Logs `didChangeAuthorization`; kept alive by the app's storage of it.
  final class LocationLog: LocationManagerDelegate, @unchecked Sendable {
    let app: ScriptedApp
    init(_ app: ScriptedApp) {
      self.app = app
      LocationLog.kept.value.append(self)
    }
    static let kept = UncheckedBox<[LocationLog]>([])
    func didChangeAuthorization() async { app.log.add("authorization \(app.device.locationManager.authorizationStatus.rawValue)") }
  }

  @Test func aProvisionalAppAsksThePatientWhenItRequestsFullAuthorization() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      let provisional = (try? await app.device.notificationCenter.requestAuthorization(options: [.alert, .provisional])) ?? false
      let afterProvisional = await app.device.notificationCenter.notificationSettings().authorizationStatus
      let full = (try? await app.device.notificationCenter.requestAuthorization(options: [.alert, .sound])) ?? false
      let afterFull = await app.device.notificationCenter.notificationSettings().authorizationStatus
      app.log.add("\(provisional) \(afterProvisional.rawValue) \(full) \(afterFull.rawValue)")
    }
    var scenario = HostedScenario.make()
    scenario.medicineApp.appChanges = [AppChange(instant: scenario.clock.start, permission: .notDetermined)]
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all.last == "true provisional true granted")
    let reasons = report.timeline.entries.filter { $0.kind == .app && $0.subject == "permission" }.compactMap { $0.fields.first { $0.key == "reason" }?.value }
    #expect(reasons == ["the app asked for provisional authorization: granted without asking", "the patient answered the app's request"])
  }

  @Test func monitoringWhileLocationIsDeniedFailsThroughTheDelegate() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in app.device.locationManager.startMonitoring(for: AppLifecycleTests.home) }
    script.failed = { app, _, error in app.log.add("\(error)") }
    var scenario = HostedScenario.make()
    AppLifecycleTests.walkHome(&scenario)
    scenario.medicineApp.appChanges = [AppChange(instant: scenario.clock.start, location: .denied)]
    _ = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all.count == 3)
    #expect(log.all[1] == "#1 monitoringDidFail home")
    #expect(log.all[2].hasPrefix("region monitoring denied for 'home': location authorization is denied"))
  }

  @Test func aLocationTriggerPastTheRegionsTheAppMonitorsIsDropped() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      for index in 0..<20 {
        app.device.locationManager.startMonitoring(for: HostedScenario.rowCircle(index))
      }
      await app.add(NotificationRequest(id: "same", title: "t", trigger: .region(RegionTrigger(region: "r3", repeats: true))))
      await app.add(NotificationRequest(id: "another", title: "t", trigger: .region(RegionTrigger(region: "r20", repeats: true))))
    }
    var scenario = HostedScenario.make()
    scenario.regions = HostedScenario.rowRegions(21)
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(report.timeline.entries.contains { $0.kind == .scheduled && $0.subject == "same" })
    let dropped = try #require(report.timeline.entries.first { $0.kind == .dropped && $0.subject == "another" })
    #expect(dropped.fields.contains(TimelineField(
      "reason", "region monitoring limit of 20 reached: the app's location manager and pending location requests already monitor 20 regions")))
  }

  @Test(arguments: [
    (options: PresentationOptions([.banner]), perceived: 1, listed: false, badge: false),
    (options: PresentationOptions([.banner, .list, .badge]), perceived: 1, listed: true, badge: true),
    (options: PresentationOptions([.sound, .list]), perceived: 1, listed: true, badge: false),
    (options: PresentationOptions([.badge]), perceived: 0, listed: false, badge: true),
  ])
  func eachWillPresentOptionDoesItsOwnPart(options: PresentationOptions, perceived: Int, listed: Bool, badge: Bool) throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      var request = HostedScenario.after("pill", seconds: 60)
      request.badge = 3
      await app.add(request)
      await app.add(HostedScenario.after("later", seconds: 120))
    }
    script.willPresent = { app, notification in
      if notification.request.id == "later" {
        let shown = await app.device.notificationCenter.deliveredNotifications().map(\.request.id.rawValue)
        app.log.add("listed \(shown)")
        return []
      }
      return options
    }
    var scenario = HostedScenario.make("2026-05-04T07:00:00Z", "2026-05-04T07:05:00Z")
    scenario.medicineApp.appChanges = [HostedScenario.state(.foreground, at: "2026-05-04T07:00:00Z")]
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(report.summary.perceptions.count == perceived)
    #expect(log.all.contains(listed ? #"listed ["pill", "later"]"# : #"listed ["later"]"#))
    #expect(report.timeline.entries.contains { $0.kind == .badge } == badge)
  }
}
