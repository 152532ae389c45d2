import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// Which callbacks run in which app state, and region monitoring through the location manager.
@Suite struct AppLifecycleTests {
  static let home = CircularRegionSpec(identifier: "home", center: Coordinate(latitude: 55.6761, longitude: 12.5683), radius: 100)

  /// A fix every 30 s from 07:00 to 09:10: a walk from 556 m south of home
  /// to its centre by 07:10, a stay there, and the same walk back out from 09:00.
  static func walkHome(_ scenario: inout Scenario) {
    scenario.platform = .idealLocation
    scenario.regions = [MonitoredRegion(id: "home", shape: CircularRegion(center: home.center, radius: 100))]
    let start = Build.instant("2026-05-04T07:00:00Z")
    let samples = (0...260).map { step in
      let seconds = Int64(step) * 30
      let away = seconds < 600 ? Double(600 - seconds) / 600 : seconds < 7200 ? 0 : Double(seconds - 7200) / 600
      return TrackSample(instant: start.advanced(by: .seconds(seconds)), coordinate: Coordinate(latitude: 55.6761 - 0.005 * away, longitude: 12.5683))
    }
    scenario.track = InMemoryTrack(samples: samples)
  }

  static func monitorsHome() -> AppScript {
    var script = AppScript()
    script.launched = { app, reason in
      if reason == .initial { app.device.locationManager.startMonitoring(for: AppLifecycleTests.home) }
    }
    return script
  }

  @Test func regionEventsWakeABackgroundOrTerminatedAppButNotAForceQuitOne() throws {
    for (state, expected) in [
      (AppState.background, ["#1 didFinishLaunching initial", "#1 didEnterRegion home", "#1 didExitRegion home"]),
      (.terminated, ["#1 didFinishLaunching initial", "#2 didFinishLaunching location", "#2 didEnterRegion home", "#2 didExitRegion home"]),
      (.forceQuit, ["#1 didFinishLaunching initial"]),
    ] {
      let log = AppLog()
      var scenario = HostedScenario.make()
      Self.walkHome(&scenario)
      scenario.medicineApp.appChanges = [HostedScenario.state(state, at: "2026-05-04T07:01:00Z")]
      let report = try Simulation(scenario, app: ScriptedApp.hosted(Self.monitorsHome(), log: log)).report()
      #expect(log.all == expected, "app \(state)")
      // The ideal profile detects at the true crossings (no separate `detected` entry).
      let crossings = report.timeline.entries.filter { $0.kind == .enter || $0.kind == .exit }.map(\.kind)
      #expect(crossings == [.enter, .exit], "app \(state)")
      if state == .forceQuit {
        #expect(report.timeline.entries.contains { entry in
          entry.kind == .app && entry.subject == "didEnterRegion"
            && entry.fields.contains(TimelineField("reason", "the patient force-quit the app: the system does not relaunch it for region events"))
        })
      }
    }
  }

  @Test func underTheEarlierIOSRuleAForceQuitAppIsLaunchedForItsRegionEvents() throws {
    let log = AppLog()
    var scenario = HostedScenario.make()
    Self.walkHome(&scenario)
    scenario.platform.forceQuitLocationLaunch = .launched
    scenario.medicineApp.appChanges = [HostedScenario.state(.forceQuit, at: "2026-05-04T07:01:00Z")]
    let report = try Simulation(scenario, app: ScriptedApp.hosted(Self.monitorsHome(), log: log)).report()
    #expect(log.all == ["#1 didFinishLaunching initial", "#2 didFinishLaunching location", "#2 didEnterRegion home", "#2 didExitRegion home"])
    #expect(report.timeline.header.first { $0.key == "platform" }?.value.contains(" force-quit-location=launched ") == true)
    // The default prints nothing new: headers made before the setting existed stay as they were.
    #expect(PlatformSettings().summary.contains("force-quit-location") == false)
  }

  @Test func aTerminatedAppIsANewInstanceThatKeepsOnlyWhatItStored() throws {
    let log = AppLog()
    var script = Self.monitorsHome()
    script.launched = { app, reason in
      if reason == .initial {
        app.device.locationManager.startMonitoring(for: AppLifecycleTests.home)
        app.device.storage.set(Data("pharmacy list".utf8), forKey: "places")
      }
      let stored = app.device.storage.data(forKey: "places").map { String(decoding: $0, as: UTF8.self) } ?? "nothing"
      let monitored = app.device.locationManager.monitoredRegions.map(\.identifier.rawValue)
      app.log.add("#\(app.instance) has \(stored), monitors \(monitored)")
    }
    var scenario = HostedScenario.make()
    Self.walkHome(&scenario)
    scenario.medicineApp.appChanges = [HostedScenario.state(.terminated, at: "2026-05-04T07:01:00Z")]
    _ = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all.prefix(4) == [
      "#1 didFinishLaunching initial", #"#1 has pharmacy list, monitors ["home"]"#,
      "#2 didFinishLaunching location", #"#2 has pharmacy list, monitors ["home"]"#,
    ])
  }

  @Test func theTwentyFirstRegionFailsThroughTheDelegate() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      for index in 0..<21 {
        app.device.locationManager.startMonitoring(for: HostedScenario.rowCircle(index))
      }
      app.log.add("monitoring \(app.device.locationManager.monitoredRegions.count)")
    }
    script.failed = { app, region, error in app.log.add("failed \(region.identifier): \(error)") }
    var scenario = HostedScenario.make()
    scenario.regions = HostedScenario.rowRegions(21)
    _ = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all == [
      "#1 didFinishLaunching initial", "monitoring 20", "#1 monitoringDidFail r20",
      "failed r20: region monitoring failed for 'r20': the app already monitors 20 regions (the platform's limit, shared with pending location triggers)",
    ])
  }

  @Test func pendingLocationTriggersShareTheRegionLimit() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      await app.add(NotificationRequest(id: "trigger", title: "t", trigger: .region(RegionTrigger(region: "home", repeats: true))))
      app.device.locationManager.startMonitoring(for: AppLifecycleTests.home)
    }
    script.failed = { app, region, _ in app.log.add("failed \(region.identifier)") }
    var scenario = HostedScenario.make()
    Self.walkHome(&scenario)
    scenario.platform.monitoredRegionLimit = 1
    scenario.regions.append(MonitoredRegion(id: "other", shape: CircularRegion(center: Coordinate(latitude: 50, longitude: 10), radius: 100)))
    _ = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    // The trigger's own region may also be monitored by the app: the same region counts once.
    #expect(log.all == ["#1 didFinishLaunching initial", "#1 didEnterRegion home", "#1 didExitRegion home"])
    let log2 = AppLog()
    var script2 = script
    script2.launched = { app, _ in
      await app.add(NotificationRequest(id: "trigger", title: "t", trigger: .region(RegionTrigger(region: "other", repeats: true))))
      app.device.locationManager.startMonitoring(for: AppLifecycleTests.home)
    }
    _ = try Simulation(scenario, app: ScriptedApp.hosted(script2, log: log2)).report()
    #expect(log2.all == ["#1 didFinishLaunching initial", "#1 monitoringDidFail home", "failed home"])
  }

  @Test func foregroundAndBackgroundCallbacksFollowTheStateChanges() throws {
    let log = AppLog()
    var scenario = HostedScenario.make()
    scenario.medicineApp.appChanges = [
      HostedScenario.state(.foreground, at: "2026-05-04T08:00:00Z"),
      HostedScenario.state(.background, at: "2026-05-04T08:10:00Z"),
      HostedScenario.state(.terminated, at: "2026-05-04T09:00:00Z"),
      HostedScenario.state(.foreground, at: "2026-05-04T10:00:00Z"),
      HostedScenario.state(.forceQuit, at: "2026-05-04T10:30:00Z"),
    ]
    _ = try Simulation(scenario, app: ScriptedApp.hosted(AppScript(), log: log)).report()
    #expect(log.all == [
      "#1 didFinishLaunching initial", "#1 didBecomeActive", "#1 didEnterBackground",
      "#2 didFinishLaunching patient", "#2 didBecomeActive",
    ])
  }

  @Test func backgroundRefreshRunsOnlyForARequestWhoseEarliestDateHasCome() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      try? app.device.application.submit(
        BackgroundRefreshRequest(identifier: "refill", earliestBeginDate: app.device.clock.now.addingTimeInterval(3600)))
    }
    var scenario = HostedScenario.make()
    scenario.medicineApp.appChanges = [
      { var change = AppChange(instant: Build.instant("2026-05-04T07:30:00Z")); change.backgroundRefresh = true; return change }(),
      { var change = AppChange(instant: Build.instant("2026-05-04T08:30:00Z")); change.backgroundRefresh = true; return change }(),
      { var change = AppChange(instant: Build.instant("2026-05-04T09:30:00Z")); change.backgroundRefresh = true; return change }(),
    ]
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all == ["#1 didFinishLaunching initial", "#1 performBackgroundRefresh refill"])
    let refreshes = report.timeline.entries.filter { $0.subject == "background-refresh" }.map { entry in
      "\(entry.localInstant.prefix(16)) ran=\(entry[field: "ran"] ?? "") " + (entry[field: "reason"] ?? "app=\(entry[field: "app"] ?? "")")
    }
    #expect(refreshes == [
      "2026-05-04T07:30 ran=no no request's earliest begin date has come (the first is 2026-05-04T08:00:00.000+00:00)",
      "2026-05-04T08:30 ran=yes app=background",
      "2026-05-04T09:30 ran=no the app has no background refresh request (Application.submit)",
    ])
  }

  @Test func significantChangeUpdatesCome500MetresAndFiveMinutesApartButNotToAForceQuitApp() throws {
    for forceQuit in [false, true] {
      let log = AppLog()
      var script = AppScript()
      let updates = AppLog()
      let holder = UncheckedBox<LocationUpdateLog?>(nil)
      script.launched = { app, reason in
        holder.value = LocationUpdateLog(app.device, updates) { now, _, coordinate in
          String(format: "%.0f %.4f", now.timeIntervalSince1970, coordinate.latitude)
        }
        app.device.locationManager.delegate = holder.value
        if reason == .initial { app.device.locationManager.startMonitoringSignificantLocationChanges() }
      }
      script.sets.locationDelegate = false
      var scenario = HostedScenario.make()
      Self.walkHome(&scenario)
      if forceQuit { scenario.medicineApp.appChanges = [HostedScenario.state(.forceQuit, at: "2026-05-04T08:00:00Z")] }
      let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
      // The launch comes after the first fix (07:00:00) is read: starting the service reports that
      // most recent fix at once. From 55.6711 (556 m south), 500 m on is 07:09:00; back out, 500 m
      // from there is 09:10:00.
      let first = Build.instant("2026-05-04T07:00:00Z").date.timeIntervalSince1970
      let second = Build.instant("2026-05-04T07:09:00Z").date.timeIntervalSince1970
      let third = Build.instant("2026-05-04T09:10:00Z").date.timeIntervalSince1970
      if forceQuit {
        #expect(updates.all == [String(format: "%.0f 55.6711", first), String(format: "%.0f 55.6756", second)])
        let refused = report.timeline.entries.filter { $0.subject == "didUpdateLocation" && $0.fields.contains(TimelineField("ran", "no")) }
        #expect(refused.count == 1)
        #expect(refused.first?.instant == Build.instant("2026-05-04T09:10:00Z"))
      } else {
        #expect(updates.all == [
          String(format: "%.0f 55.6711", first), String(format: "%.0f 55.6756", second), String(format: "%.0f 55.6711", third),
        ])
      }
    }
  }

  /// The standard service (`startUpdatingLocation`) reports the most recent
  /// fix when it starts, then each fix at least `distanceFilter` metres from
  /// the last report, only while the app is in the foreground; a background
  /// app hears nothing, and nothing launches it.
  @Test func standardUpdatesComeInTheForegroundOnlyAfterTheDistanceFilter() throws {
    let log = AppLog()
    let updates = AppLog()
    let holder = UncheckedBox<LocationUpdateLog?>(nil)
    var script = AppScript()
    script.launched = { app, _ in
      holder.value = LocationUpdateLog(app.device, updates) { now, service, coordinate in
        "\(ISO8601DateFormatter().string(from: now)) \(service.rawValue) \(String(format: "%.6f", coordinate.latitude))"
      }
      app.device.locationManager.delegate = holder.value
      app.device.locationManager.distanceFilter = 50
      app.device.locationManager.startUpdatingLocation()
    }
    script.sets.locationDelegate = false
    var scenario = HostedScenario.make()
    Self.walkHome(&scenario)  // 27.8 m between fixes, every 30 s, until 07:10
    scenario.medicineApp.appChanges = [
      HostedScenario.state(.foreground, at: "2026-05-04T07:00:00Z"), HostedScenario.state(.background, at: "2026-05-04T07:05:00Z"),
      HostedScenario.state(.foreground, at: "2026-05-04T09:00:00Z"), HostedScenario.state(.terminated, at: "2026-05-04T09:02:00Z"),
    ]
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    // 07:00:00 at the start (the most recent fix), then every other fix (55.6 m). The fix of 07:05:00 is read while
    // the app is still in the foreground, but the app is in the background when the report would come; that of
    // 09:00:00 is read while it is still in the background. Back in the foreground, 09:00:30 (306 m from the last
    // report) and 09:01:30; the fix of 09:02:00 comes to a terminated app.
    #expect(updates.all == [
      "2026-05-04T07:00:00Z standard 55.671100", "2026-05-04T07:01:00Z standard 55.671600", "2026-05-04T07:02:00Z standard 55.672100",
      "2026-05-04T07:03:00Z standard 55.672600", "2026-05-04T07:04:00Z standard 55.673100",
      "2026-05-04T09:00:30Z standard 55.675850", "2026-05-04T09:01:30Z standard 55.675350",
    ])
    let entries = report.timeline.entries.filter { $0.subject == "didUpdateLocation" }
    #expect(entries.count == 7)
    #expect(entries.allSatisfy { $0[field: "service"] == "standard" })
  }

  /// The standard service is the process's: it stops when the app is
  /// terminated, and a new instance hears nothing until it starts the service
  /// again (then at once). It needs location authorization; restarted twice
  /// at one instant, it reports once, not once per start.
  @Test func theStandardServiceEndsWithTheProcessAndNeedsLocationAuthorization() throws {
    func reports(startsOnEveryLaunch: Bool, restartsAt0702: Bool = false, changes: [AppChange]) throws -> [String] {
      let updates = AppLog()
      let holder = UncheckedBox<LocationUpdateLog?>(nil)
      let launches = UncheckedBox(0)
      var script = AppScript()
      script.launched = { app, _ in
        holder.value = LocationUpdateLog(app.device, updates) { now, _, _ in ISO8601DateFormatter().string(from: now) }
        app.device.locationManager.delegate = holder.value
        launches.value += 1
        if launches.value == 1 || startsOnEveryLaunch { app.device.locationManager.startUpdatingLocation() }
      }
      script.foreground = { app in
        guard restartsAt0702, app.device.clock.now == Build.instant("2026-05-04T07:02:00Z").date else { return }
        for _ in 0..<2 {
          app.device.locationManager.stopUpdatingLocation()
          app.device.locationManager.startUpdatingLocation()
        }
      }
      script.sets.locationDelegate = false
      var scenario = HostedScenario.make()
      Self.walkHome(&scenario)
      scenario.medicineApp.appChanges = [HostedScenario.state(.foreground, at: "2026-05-04T07:00:00Z")] + changes
      _ = try Simulation(scenario, app: ScriptedApp.hosted(script, log: AppLog())).report()
      return updates.all
    }
    let terminated = [
      HostedScenario.state(.terminated, at: "2026-05-04T07:01:00Z"), HostedScenario.state(.foreground, at: "2026-05-04T07:02:00Z"),
      HostedScenario.state(.background, at: "2026-05-04T07:03:00Z"),
    ]
    // Started at the initial launch only: nothing after the termination, though the new instance is in the foreground.
    #expect(try reports(startsOnEveryLaunch: false, changes: terminated) == ["2026-05-04T07:00:00Z", "2026-05-04T07:00:30Z"])
    // Started again by the new instance: at once, then each fix until the app goes to the background.
    #expect(try reports(startsOnEveryLaunch: true, changes: terminated) == [
      "2026-05-04T07:00:00Z", "2026-05-04T07:00:30Z", "2026-05-04T07:02:00Z", "2026-05-04T07:02:30Z",
    ])
    // Denied: no report until the patient allows location again at 07:01:00 (the service stays started).
    var denied = AppChange(instant: Build.instant("2026-05-04T07:00:00Z"))
    denied.location = .denied
    var allowed = AppChange(instant: Build.instant("2026-05-04T07:01:00Z"))
    allowed.location = .whenInUse
    #expect(try reports(startsOnEveryLaunch: false, changes: [denied, allowed, HostedScenario.state(.background, at: "2026-05-04T07:02:00Z")]) == [
      "2026-05-04T07:01:30Z"
    ])
    // Stopped and started twice at 07:02:00 (the app coming to the foreground again): one report of the fix of 07:02:00.
    let twice = [HostedScenario.state(.background, at: "2026-05-04T07:01:00Z"), HostedScenario.state(.foreground, at: "2026-05-04T07:02:00Z"),
                 HostedScenario.state(.background, at: "2026-05-04T07:02:10Z")]
    #expect(try reports(startsOnEveryLaunch: false, restartsAt0702: true, changes: twice) == [
      "2026-05-04T07:00:00Z", "2026-05-04T07:00:30Z", "2026-05-04T07:02:00Z",
    ])
  }
}

/// A location delegate that logs each update as `line` writes it (the device's time, the service, the position).
final class LocationUpdateLog: LocationManagerDelegate, @unchecked Sendable {
  let device: SimulatedDevice
  let log: AppLog
  let line: (Date, LocationUpdateService, Coordinate) -> String
  init(_ device: SimulatedDevice, _ log: AppLog, line: @escaping (Date, LocationUpdateService, Coordinate) -> String) {
    self.device = device
    self.log = log
    self.line = line
  }
  func didUpdateLocation(_ coordinate: Coordinate, from service: LocationUpdateService) async {
    log.add(line(device.clock.now, service, coordinate))
  }
}

/// A mutable value shared with a `@Sendable` test closure (the test runs one thread at a time).
final class UncheckedBox<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
