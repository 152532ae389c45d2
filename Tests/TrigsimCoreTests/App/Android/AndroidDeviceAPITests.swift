import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// The Android device API as an app's code uses it: a test per rule.
/// The instant `text` as the app's code names dates.
private func at(_ text: String) -> Date { Build.instant(text).date }

@Suite struct AndroidDeviceAPITests {

  static func run(_ scenario: Scenario, _ script: AndroidScript, log: AppLog, broadcasts: Set<SystemBroadcast> = []) throws -> SimulationReport {
    try Simulation(scenario, app: ScriptedAndroidApp.hosted(script, log: log, broadcasts: broadcasts)).report()
  }

  /// An app that sets an exact while-idle alarm for 08:00 at launch and posts a dose notification when it fires.
  static func alarmAtEight(_ kind: AndroidAlarmKind = .exactWhileIdle) -> AndroidScript {
    var script = AndroidScript()
    script.created = { app in
      app.createDoseChannel()
      _ = await app.device.notificationManager.requestPermission()
      try? app.device.alarmManager.set(kind, at: at("2026-05-04T08:00:00Z"), tag: "dose")
    }
    script.alarm = { app, _ in app.notifyDose("dose_0800") }
    return script
  }

  /// `HH:MM doze=on|off reason` of each Doze entry.
  static func dozeEntries(_ report: SimulationReport) -> [String] {
    report.timeline.entries.filter { $0.kind == .power && $0[field: "doze"] != nil }.map {
      "\($0.localInstant.dropFirst(11).prefix(5)) \($0[field: "doze"] ?? "") \($0[field: "reason"] ?? "")"
    }
  }

  @Test func theTimelineSaysWhenThePhoneEntersAndLeavesDozeAndWhy() throws {
    var scenario = AndroidScenario.make()
    scenario.device.power = [
      PowerEvent(instant: Build.instant("2026-05-04T10:00:00Z"), kind: .unlock),
      PowerEvent(instant: Build.instant("2026-05-04T11:30:00Z"), kind: .chargingOn),
    ]
    let entries = Self.dozeEntries(try Self.run(scenario, AndroidScript(), log: AppLog()))
    #expect(entries == [
      "08:00 on screen off and unplugged for 1h or more: regular alarms, jobs and normal-priority messages wait for a maintenance window (1 maintenance window before it ends, the first at 2026-05-04T09:00:00.000+00:00)",
      "10:00 off the screen came on",
      "11:00 on screen off and unplugged for 1h or more: regular alarms, jobs and normal-priority messages wait for a maintenance window",
      "11:30 off the phone was plugged in",
    ])
  }

  @Test func aRebootEndsDozeTheBootedPhoneDozesAnHourLater() throws {
    var scenario = AndroidScenario.make()
    scenario.device.power = [PowerEvent(instant: Build.instant("2026-05-04T09:00:00Z"), kind: .reboot)]
    let entries = Self.dozeEntries(try Self.run(scenario, AndroidScript(), log: AppLog()))
    // The reboot takes the platform's boot time (1 min): the phone comes on at 09:01 and is untouched after.
    #expect(entries.map { String($0.prefix(9)) } == ["08:00 on ", "09:01 off", "10:01 on "])
  }

  @Test func theAppInTheForegroundKeepsTheScreenOnUntilItLeaves() throws {
    var scenario = AndroidScenario.make()
    scenario.medicineApp.appChanges += [
      HostedScenario.state(.foreground, at: "2026-05-04T07:05:00Z"), HostedScenario.state(.background, at: "2026-05-04T07:40:00Z"),
    ]
    let entries = Self.dozeEntries(try Self.run(scenario, AndroidScript(), log: AppLog()))
    #expect(entries.map { String($0.prefix(8)) } == ["08:40 on"])
  }

  @Test func anAlarmRunsTheAppsCodeWhichPostsTheNotification() throws {
    let log = AppLog()
    let report = try Self.run(AndroidScenario.make(), Self.alarmAtEight(), log: log)
    #expect(log.all == ["#1 onCreate", "#1 onAlarm dose"])
    let fired = try #require(report.timeline.entries.first { $0.kind == .fired })
    #expect(fired.subject == "dose_0800")
    #expect(fired.instant == Build.instant("2026-05-04T08:00:00Z"))
    #expect(fired.fields.contains(TimelineField("trigger", "notify")))
    #expect(fired.fields.contains(TimelineField("channel", "doses")))
    // A high-importance channel alerts in full (banner, lock screen, sound): no `presented` note, nothing suppressed or held.
    #expect(!report.timeline.entries.contains { [.presented, .suppressed, .held].contains($0.kind) })
  }

  @Test func anExactAlarmWithoutThePermissionIsRefusedWithASecurityException() throws {
    let log = AppLog()
    var script = AndroidScript()
    let refused = AppLog()
    script.created = { app in
      #expect(!app.device.alarmManager.canScheduleExactAlarms())
      do {
        try app.device.alarmManager.set(.exactWhileIdle, at: at("2026-05-04T08:00:00Z"), tag: "dose")
      } catch let error as AlarmManagerError {
        refused.add(error.description)
      } catch {}
    }
    let report = try Self.run(AndroidScenario.make(exactAlarms: false), script, log: log)
    #expect(refused.all.count == 1)
    #expect(refused.all.first?.hasPrefix("SecurityException") == true)
    #expect(report.timeline.entries.contains { $0.kind == .alarm && $0.fields.contains(TimelineField("change", "refused")) })
    #expect(!report.timeline.entries.contains { $0.kind == .alarm && $0.fields.contains(TimelineField("change", "fired")) })
  }

  @Test func revokingTheExactAlarmPermissionCancelsPendingExactAlarmsOnly() throws {
    let log = AppLog()
    var scenario = AndroidScenario.make()
    var revoke = AppChange(instant: Build.instant("2026-05-04T07:30:00Z"))
    revoke.exactAlarms = false
    scenario.medicineApp.appChanges.append(revoke)
    var script = AndroidScript()
    script.created = { app in
      try? app.device.alarmManager.set(.exactWhileIdle, at: at("2026-05-04T08:00:00Z"), tag: "exact")
      try? app.device.alarmManager.set(.inexactWhileIdle, at: at("2026-05-04T08:00:00Z"), tag: "inexact")
    }
    let report = try Self.run(scenario, script, log: log)
    let cleared = report.timeline.entries.filter { $0.kind == .alarm && $0.fields.contains(TimelineField("change", "cleared")) }.map(\.subject)
    #expect(cleared == ["exact"])
    #expect(log.all == ["#1 onCreate", "#1 onAlarm inexact"])
  }

  @Test func aRebootClearsAlarmsAndOnlyABootReceiverAfterTheFirstUnlockSetsThemAgain() throws {
    for receives in [false, true] {
      let log = AppLog()
      var scenario = AndroidScenario.make()
      scenario.device.power = [
        PowerEvent(instant: Build.instant("2026-05-04T07:30:00Z"), kind: .switchOff),
        PowerEvent(instant: Build.instant("2026-05-04T07:40:00Z"), kind: .switchOn),
        PowerEvent(instant: Build.instant("2026-05-04T07:50:00Z"), kind: .unlock),
      ]
      var script = Self.alarmAtEight()
      script.broadcast = { app, _ in try? app.device.alarmManager.set(.exactWhileIdle, at: at("2026-05-04T08:00:00Z"), tag: "dose") }
      let report = try Self.run(scenario, script, log: log, broadcasts: receives ? [.bootCompleted] : [])
      let cleared = report.timeline.entries.contains { $0.kind == .alarm && $0.fields.contains(TimelineField("change", "cleared")) }
      #expect(cleared, "receives boot: \(receives)")
      if receives {
        #expect(log.all == ["#1 onCreate", "#2 onCreate", "#2 onBroadcast BOOT_COMPLETED", "#2 onAlarm dose"])
        let broadcasts = report.timeline.entries.filter { $0.kind == .app && $0.subject == "onBroadcast" }
        // Before the unlock, LOCKED_BOOT_COMPLETED finds no direct-boot-aware receiver; BOOT_COMPLETED comes at the unlock.
        #expect(broadcasts.map(\.instant) == [Build.instant("2026-05-04T07:40:00Z"), Build.instant("2026-05-04T07:50:00Z")])
        #expect(broadcasts.first?.fields.contains(TimelineField("ran", "no")) == true)
        #expect(broadcasts.last?.fields.contains(TimelineField("broadcast", "BOOT_COMPLETED")) == true)
      } else {
        #expect(log.all == ["#1 onCreate"])
        #expect(!report.timeline.entries.contains { $0.kind == .fired })
      }
    }
  }

  @Test func aDirectBootAwareReceiverRunsBeforeTheFirstUnlock() throws {
    let log = AppLog()
    var scenario = AndroidScenario.make()
    scenario.device.power = [
      PowerEvent(instant: Build.instant("2026-05-04T07:30:00Z"), kind: .switchOff),
      PowerEvent(instant: Build.instant("2026-05-04T07:40:00Z"), kind: .switchOn),
    ]
    var script = AndroidScript()
    script.created = { _ in }
    _ = try Self.run(scenario, script, log: log, broadcasts: [.lockedBootCompleted, .bootCompleted])
    #expect(log.all == ["#1 onCreate", "#2 onCreate", "#2 onBroadcast LOCKED_BOOT_COMPLETED"])
  }

  @Test func aForceStopCancelsAlarmsAndNotificationsAndNothingRunsUntilThePatientOpensTheApp() throws {
    let log = AppLog()
    var scenario = AndroidScenario.make()
    scenario.medicineApp.appChanges += [
      HostedScenario.state(.forceQuit, at: "2026-05-04T07:30:00Z"),
      HostedScenario.state(.foreground, at: "2026-05-04T09:00:00Z"),
    ]
    var script = Self.alarmAtEight()
    script.resumed = { app in try? app.device.alarmManager.set(.exactWhileIdle, at: at("2026-05-04T10:00:00Z"), tag: "dose") }
    let report = try Self.run(scenario, script, log: log)
    #expect(log.all == ["#1 onCreate", "#2 onCreate", "#2 onActivityResumed", "#2 onAlarm dose"])
    let fired = report.timeline.entries.filter { $0.kind == .fired }.map(\.instant)
    #expect(fired == [Build.instant("2026-05-04T10:00:00Z")])
    #expect(report.timeline.entries.contains { $0.kind == .app && $0.subject == "force-stop" && $0.fields.contains(TimelineField("state", "ended")) })
  }

  @Test func withoutThePostNotificationsPermissionANotificationIsPostedButNotShown() throws {
    let log = AppLog()
    var script = Self.alarmAtEight()
    script.created = { app in
      app.createDoseChannel()
      try? app.device.alarmManager.set(.exactWhileIdle, at: at("2026-05-04T08:00:00Z"), tag: "dose")
    }
    let report = try Self.run(AndroidScenario.make(), script, log: log)
    let suppressed = try #require(report.timeline.entries.first { $0.kind == .suppressed })
    #expect(suppressed.fields.contains { $0.key == "reason" && $0.value.contains("POST_NOTIFICATIONS") })
  }

  @Test func aChannelTheAppCreatesAgainKeepsTheImportanceItHad() throws {
    let log = AppLog()
    let seen = AppLog()
    var script = AndroidScript()
    script.created = { app in
      app.createDoseChannel(.low)
      app.createDoseChannel(.high)
      seen.add(app.device.notificationManager.notificationChannel("doses")?.importance.rawValue ?? "none")
    }
    _ = try Self.run(AndroidScenario.make(), script, log: log)
    #expect(seen.all == ["low"])
  }

  @Test func anActionButtonReachesTheAppAndASwipeOnlyWithADeleteIntent() throws {
    let log = AppLog()
    var scenario = AndroidScenario.make()
    scenario.medicineApp.userActions = [HostedScenario.act(.complete, on: "dose_0800", at: "2026-05-04T08:05:00Z")]
    let report = try Self.run(scenario, Self.alarmAtEight(), log: log)
    #expect(log.all == ["#1 onCreate", "#1 onAlarm dose", "#1 onNotificationAction dose_0800 complete"])
    #expect(report.timeline.entries.contains { $0.kind == .action && $0.subject == "dose_0800" })
  }

  @Test func aScenarioOnAndroidStopsWhenTheAppHasNoAndroidBuild() throws {
    let app = HostedApp { _ in fatalError("never made") }
    #expect(throws: AppCodeError.self) { try Simulation(AndroidScenario.make(), app: app).report() }
  }

  @Test func aChannelThePatientLowersSilencesLaterNotifications() throws {
    let log = AppLog()
    var scenario = AndroidScenario.make()
    var lower = AppChange(instant: Build.instant("2026-05-04T07:30:00Z"))
    lower.channel = ("doses", .low)
    scenario.medicineApp.appChanges.append(lower)
    let report = try Self.run(scenario, Self.alarmAtEight(), log: log)
    let change = try #require(report.timeline.entries.last { $0.kind == .app && $0.subject == "channel" })
    #expect(change.fields.contains(TimelineField("importance", "low")) && change.fields.contains(TimelineField("from", "high")))
    let presented = try #require(report.timeline.entries.first { $0.kind == .presented && $0.subject == "dose_0800" })
    #expect(presented.fields.contains { $0.key == "reason" && $0.value.contains("importance low") })
  }

  @Test func anAggressiveMakersKillerStopsTheAppOutOfTheForegroundUnlessItIsExempt() throws {
    for exempt in [false, true] {
      let log = AppLog()
      var scenario = AndroidScenario.make()
      scenario.platform.android?.oemKiller.preset = .aggressive
      scenario.platform.android?.oemKiller.exempt = exempt
      let report = try Self.run(scenario, Self.alarmAtEight(), log: log)
      let killed = report.timeline.entries.first { $0.kind == .app && $0.subject == "oem-kill" }
      if exempt {
        #expect(killed == nil)
        #expect(log.all == ["#1 onCreate", "#1 onAlarm dose"])
      } else {
        // Ten minutes out of the foreground (from the start): the 08:00 alarm is gone.
        #expect(killed?.instant == Build.instant("2026-05-04T07:10:00Z"))
        #expect(log.all == ["#1 onCreate"])
        #expect(report.timeline.entries.contains { $0.kind == .alarm && $0.fields.contains(TimelineField("change", "cleared")) })
      }
    }
  }

  @Test func theKillerCountsFromTheLastTimeTheAppLeftTheForeground() throws {
    let log = AppLog()
    var scenario = AndroidScenario.make()
    scenario.platform.android?.oemKiller.preset = .aggressive
    scenario.medicineApp.appChanges += [
      HostedScenario.state(.foreground, at: "2026-05-04T07:05:00Z"), HostedScenario.state(.background, at: "2026-05-04T07:55:00Z"),
    ]
    let report = try Self.run(scenario, Self.alarmAtEight(), log: log)
    // In the foreground until 07:55, so the 08:00 alarm fires; the kill comes at 08:05.
    #expect(log.all.contains("#1 onAlarm dose"))
    #expect(report.timeline.entries.first { $0.kind == .app && $0.subject == "oem-kill" }?.instant == Build.instant("2026-05-04T08:05:00Z"))
  }

  @Test func turningLocationOffRemovesEveryGeofenceAndTurningItOnTellsTheApp() throws {
    let log = AppLog()
    var scenario = AndroidScenario.make()
    AppLifecycleTests.walkHome(&scenario)
    scenario.platform.android = AndroidSettings()
    var off = AppChange(instant: Build.instant("2026-05-04T07:30:00Z"))
    off.location = .denied
    var on = AppChange(instant: Build.instant("2026-05-04T07:40:00Z"))
    on.location = .always
    var always = AppChange(instant: Build.instant("2026-05-04T07:00:00Z"))
    always.location = .always
    scenario.medicineApp.appChanges = [always, off, on]
    var script = AndroidScript()
    script.created = { app in
      try? app.device.geofencingClient.addGeofences([Geofence(id: "home", center: AppLifecycleTests.home.center, radius: 100)])
    }
    let report = try Self.run(scenario, script, log: log, broadcasts: [.locationProvidersChanged])
    let removed = try #require(report.timeline.entries.first { $0.kind == .app && $0.subject == "geofence" && $0.fields.contains(TimelineField("change", "removed")) })
    #expect(removed.instant == Build.instant("2026-05-04T07:30:00Z"))
    #expect(log.all.contains("#1 onBroadcast PROVIDERS_CHANGED"))
  }

  @Test func aGeofenceReportsOnlyTheTransitionsTheAppAskedFor() throws {
    let log = AppLog()
    var scenario = AndroidScenario.make()
    AppLifecycleTests.walkHome(&scenario)
    scenario.platform.android = AndroidSettings()
    var always = AppChange(instant: Build.instant("2026-05-04T07:00:00Z"))
    always.location = .always
    scenario.medicineApp.appChanges = [always]
    var script = AndroidScript()
    script.created = { app in
      try? app.device.geofencingClient.addGeofences([
        Geofence(id: "home", center: AppLifecycleTests.home.center, radius: 100, options: GeofenceOptions(transitions: [.dwell], loiteringDelay: .minutes(5)))
      ])
    }
    _ = try Self.run(scenario, script, log: log)
    #expect(log.all == ["#1 onCreate", "#1 onGeofenceTransition home dwell"])
  }

  @Test func aGeofenceTransitionInTheBackgroundNeedsBackgroundLocation() throws {
    let log = AppLog()
    var scenario = AndroidScenario.make()
    AppLifecycleTests.walkHome(&scenario)
    scenario.platform.android = AndroidSettings()
    scenario.medicineApp.appChanges = []
    var script = AndroidScript()
    script.created = { app in
      try? app.device.geofencingClient.addGeofences([Geofence(id: "home", center: AppLifecycleTests.home.center, radius: 100)])
    }
    let report = try Self.run(scenario, script, log: log)
    #expect(log.all == ["#1 onCreate"])
    #expect(report.timeline.entries.contains { $0.kind == .app && $0.subject == "onGeofenceTransition" && $0.fields.contains(TimelineField("ran", "no")) })
  }
}
