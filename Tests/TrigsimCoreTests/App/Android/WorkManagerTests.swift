import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// WorkManager on the simulated Android phone as an app's code uses it: a
/// test per rule (the manual, "Android work scheduling"). The scenario runs
/// 07:00–12:00 UTC with nobody looking at the phone: Doze from 08:00, its
/// first maintenance window at 09:00.
@Suite struct WorkManagerTests {
  static func run(_ scenario: Scenario, _ script: AndroidScript, log: AppLog) throws -> SimulationReport {
    try Simulation(scenario, app: ScriptedAndroidApp.hosted(script, log: log)).report()
  }

  /// No Doze and the active bucket: only the rule under test holds work back.
  static func unrestricted() -> Scenario {
    var scenario = AndroidScenario.make()
    scenario.platform.android?.doze.enabled = false
    scenario.platform.android?.alarms.standbyBucket = .active
    return scenario
  }

  /// An app that enqueues `works` (name, delay in minutes) with `policy` at launch.
  static func enqueuing(_ works: [(WorkName, Int)], policy: ExistingWorkPolicy = .keep) -> AndroidScript {
    var script = AndroidScript()
    script.created = { app in
      for (name, minutes) in works { app.device.workManager.enqueueUniqueWork(name, delay: TimeInterval(minutes * 60), policy: policy) }
    }
    return script
  }

  static func entries(_ report: SimulationReport, _ change: String) -> [TimelineEntry] {
    report.timeline.entries.filter { $0.kind == .work && $0[field: "change"] == change }
  }

  static func ranAt(_ report: SimulationReport) -> [SimulationInstant] { entries(report, "ran").map(\.instant) }

  static func at(_ time: String) -> SimulationInstant { Build.instant("2026-05-04T\(time):00Z") }

  @Test func delayHonoured() throws {
    let log = AppLog()
    let report = try Self.run(Self.unrestricted(), Self.enqueuing([("sync", 15)]), log: log)
    #expect(log.all == ["#1 onCreate", "#1 doWork sync"])
    let enqueued = try #require(Self.entries(report, "enqueued").first)
    #expect(enqueued[field: "delay"] == "15m")
    #expect(enqueued[field: "kind"] == "one-time")
    #expect(Self.ranAt(report) == [Self.at("07:15")])
    #expect(Self.entries(report, "ran").first?[field: "late"] == nil)
  }

  @Test func dozeDefersWorkToTheMaintenanceWindow() throws {
    let log = AppLog()
    let report = try Self.run(AndroidScenario.make(), Self.enqueuing([("sync", 90)]), log: log)
    #expect(Self.ranAt(report) == [Self.at("09:00")])
    let ran = try #require(Self.entries(report, "ran").first)
    #expect(ran[field: "late"] == "30m")
    #expect(ran[field: "reason"] == "deferred by Doze to the maintenance window at 2026-05-04T09:00:00.000+00:00")
    #expect(log.all.last == "#1 doWork sync")
  }

  @Test func minPeriodicIntervalIsRaisedWithAWarning() throws {
    let log = AppLog()
    var script = AndroidScript()
    script.created = { app in app.device.workManager.enqueueUniquePeriodicWork("refresh", every: 5 * 60, policy: .keep) }
    var scenario = Self.unrestricted()
    scenario.clock.end = Build.instant("2026-05-04T08:00:00Z")
    let report = try Self.run(scenario, script, log: log)
    let warning = try #require(report.timeline.entries.first { $0.kind == .warning && $0.subject == "refresh" })
    #expect(warning[field: "reason"]?.contains("raised to 15m") == true)
    #expect(Self.entries(report, "enqueued").first?[field: "every"] == "15m")
    #expect(Self.ranAt(report) == ["07:00", "07:15", "07:30", "07:45", "08:00"].map(Self.at))
  }

  @Test func periodicWorkWithFlexFirstRunsAtTheStartOfItsFlexWindow() throws {
    let log = AppLog()
    var script = AndroidScript()
    script.created = { app in app.device.workManager.enqueueUniquePeriodicWork("refresh", every: 3600, flex: 15 * 60, policy: .keep) }
    let report = try Self.run(Self.unrestricted(), script, log: log)
    #expect(Self.ranAt(report).first == Self.at("07:45"))
    #expect(Self.entries(report, "ran").first?[field: "next"] == "2026-05-04T08:45:00.000+00:00")
  }

  @Test func bucketLimitsHoldJobsToTheNextWindow() throws {
    var scenario = Self.unrestricted()
    scenario.platform.android?.alarms.standbyBucket = .workingSet
    let report = try Self.run(scenario, Self.enqueuing([("first", 5), ("second", 30)]), log: AppLog())
    #expect(Self.ranAt(report) == [Self.at("07:05"), Self.at("09:05")])
    let second = try #require(Self.entries(report, "ran").last)
    #expect(second[field: "reason"]?.hasPrefix("standby bucket working-set runs jobs in one 10m window every 2h") == true)
  }

  @Test func chargingLiftsTheBucketLimits() throws {
    var scenario = Self.unrestricted()
    scenario.platform.android?.alarms.standbyBucket = .workingSet
    scenario.device.power = [
      PowerEvent(instant: Self.at("07:20"), kind: .chargingOn), PowerEvent(instant: Self.at("08:00"), kind: .chargingOff),
    ]
    let report = try Self.run(scenario, Self.enqueuing([("first", 5), ("second", 30)]), log: AppLog())
    #expect(Self.ranAt(report) == [Self.at("07:05"), Self.at("07:30")])
  }

  @Test func rebootPersistsWorkAndWorkManagerReschedulesItAfterTheFirstUnlock() throws {
    let log = AppLog()
    var scenario = Self.unrestricted()
    scenario.device.power = [
      PowerEvent(instant: Self.at("07:30"), kind: .switchOff), PowerEvent(instant: Self.at("07:40"), kind: .switchOn),
      PowerEvent(instant: Self.at("08:10"), kind: .unlock),
    ]
    // No boot receiver of the app's own: WorkManager's does the rescheduling.
    let report = try Self.run(scenario, Self.enqueuing([("sync", 60)]), log: log)
    #expect(Self.entries(report, "held").map(\.instant) == [Self.at("07:30")])
    #expect(Self.entries(report, "rescheduled").map(\.instant) == [Self.at("08:10")])
    // At 08:10 the work starts a new process, whose onCreate enqueues the work again (done, so not kept): it runs an hour later.
    #expect(Self.ranAt(report) == [Self.at("08:10"), Self.at("09:10")])
    #expect(Self.entries(report, "ran").first?[field: "late"] == "10m")
    #expect(log.all == ["#1 onCreate", "#2 onCreate", "#2 doWork sync", "#2 doWork sync"])
  }

  @Test func forceStopCancelsWorkUntilThePatientOpensTheApp() throws {
    let log = AppLog()
    var scenario = Self.unrestricted()
    scenario.medicineApp.appChanges += [
      HostedScenario.state(.forceQuit, at: "2026-05-04T07:30:00Z"), HostedScenario.state(.foreground, at: "2026-05-04T09:00:00Z"),
    ]
    let report = try Self.run(scenario, Self.enqueuing([("sync", 60)]), log: log)
    #expect(Self.entries(report, "stopped").map(\.instant) == [Self.at("07:30")])
    #expect(Self.entries(report, "rescheduled").first?[field: "after"] == "force-stop")
    #expect(Self.ranAt(report) == [Self.at("09:00")])
    let ran = try #require(Self.entries(report, "ran").first)
    #expect(ran[field: "late"] == "1h")
    #expect(ran[field: "reason"]?.contains("force stop") == true)
  }

  @Test func oemKillerCancelsWorkUntilThePatientOpensTheApp() throws {
    let log = AppLog()
    var scenario = Self.unrestricted()
    scenario.platform.android?.oemKiller.preset = .aggressive
    scenario.medicineApp.appChanges += [HostedScenario.state(.foreground, at: "2026-05-04T10:00:00Z")]
    let report = try Self.run(scenario, Self.enqueuing([("sync", 30)]), log: log)
    let stopped = try #require(Self.entries(report, "stopped").first)
    #expect(stopped.instant == Self.at("07:10"))
    #expect(stopped[field: "reason"]?.hasPrefix("the phone maker's background killer") == true)
    #expect(Self.ranAt(report) == [Self.at("10:00")])
  }

  @Test func cancelUniqueWorkRemovesOnlyThatWork() throws {
    let log = AppLog()
    var script = Self.enqueuing([("a", 10), ("b", 20)])
    let enqueue = script.created
    script.created = { app in
      await enqueue(app)
      app.device.workManager.cancelUniqueWork("a")
      #expect(app.device.workManager.pendingWork == ["b"])
    }
    let report = try Self.run(Self.unrestricted(), script, log: log)
    #expect(log.all == ["#1 onCreate", "#1 doWork b"])
    #expect(Self.entries(report, "cancelled").map(\.subject) == ["a"])
  }

  @Test func cancelAllWorkRemovesEveryWork() throws {
    let log = AppLog()
    var script = Self.enqueuing([("a", 10), ("b", 20)])
    let enqueue = script.created
    script.created = { app in
      await enqueue(app)
      app.device.workManager.cancelAllWork()
    }
    let report = try Self.run(Self.unrestricted(), script, log: log)
    #expect(log.all == ["#1 onCreate"])
    #expect(Self.entries(report, "cancelled").map(\.subject) == ["a", "b"])
  }

  @Test func keepPolicyKeepsTheEnqueuedWorkAndReplacePolicyReplacesIt() throws {
    for policy in ExistingWorkPolicy.allCases {
      var script = AndroidScript()
      script.created = { app in
        app.device.workManager.enqueueUniqueWork("sync", delay: 30 * 60, policy: policy)
        app.device.workManager.enqueueUniqueWork("sync", delay: 60 * 60, policy: policy)
      }
      let report = try Self.run(Self.unrestricted(), script, log: AppLog())
      switch policy {
      case .keep:
        #expect(Self.entries(report, "kept").count == 1)
        #expect(Self.ranAt(report) == [Self.at("07:30")])
      case .replace:
        #expect(Self.entries(report, "replaced").count == 1)
        #expect(Self.ranAt(report) == [Self.at("08:00")])
      }
    }
  }

  @Test func missedPeriodicRunsAreNotCaughtUp() throws {
    let log = AppLog()
    var script = AndroidScript()
    script.created = { app in app.device.workManager.enqueueUniquePeriodicWork("refresh", every: 3600, policy: .keep) }
    var scenario = Self.unrestricted()
    scenario.medicineApp.appChanges += [
      HostedScenario.state(.forceQuit, at: "2026-05-04T07:30:00Z"), HostedScenario.state(.foreground, at: "2026-05-04T10:45:00Z"),
    ]
    let report = try Self.run(scenario, script, log: log)
    // 08:00, 09:00 and 10:00 are missed; one run when opened, the next period from it.
    #expect(Self.ranAt(report) == [Self.at("07:00"), Self.at("10:45"), Self.at("11:45")])
    #expect(Self.entries(report, "ran")[1][field: "next"] == "2026-05-04T11:45:00.000+00:00")
  }

  @Test func workRunsTheAppsCodeWhichCanPostANotification() throws {
    let log = AppLog()
    var script = Self.enqueuing([("sync", 15)])
    let enqueue = script.created
    script.created = { app in
      app.createDoseChannel()
      _ = await app.device.notificationManager.requestPermission()
      await enqueue(app)
    }
    script.work = { app, work in
      #expect(work.scheduledFor == Self.at("07:15").date)
      app.notifyDose("from_work")
    }
    let report = try Self.run(Self.unrestricted(), script, log: log)
    #expect(report.timeline.entries.first { $0.kind == .fired }?.instant == Self.at("07:15"))
  }
}
