import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// App code runs in virtual time: callbacks complete at their instant, and waiting on real time is an error naming the callback.
@Suite struct VirtualTimeTests {
  actor Counter {
    var value = 0
    func next() -> Int {
      value += 1
      return value
    }
  }

  @Test func anAsyncCallbackThatHopsThroughAnActorCompletesAtItsInstant() throws {
    let log = AppLog()
    var script = AppScript()
    let counter = Counter()
    script.launched = { app, _ in
      let first = await counter.next()
      let second = await counter.next()
      app.log.add("now \(app.device.clock.now.timeIntervalSince1970) counted \(first + second)")
      await app.add(HostedScenario.after("later", seconds: 60))
    }
    let report = try Simulation(HostedScenario.make(), app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all.last == "now \(Build.instant("2026-05-04T07:00:00Z").date.timeIntervalSince1970) counted 3")
    #expect(report.timeline.entries.contains { $0.kind == .fired && $0.subject == "later" })
  }

  @Test func theDeviceClockReadsVirtualTimeAndTheDeviceZone() throws {
    let log = AppLog()
    var script = AppScript()
    script.received = { app, _ in
      let clock = app.device.clock
      let hour = clock.calendar.component(.hour, from: clock.now)
      app.log.add("\(clock.timeZone.identifier) \(hour)")
    }
    script.launched = { app, _ in await app.add(HostedScenario.after("pill", seconds: 3600, category: nil)) }
    var scenario = HostedScenario.make()
    scenario.clock.timeZoneChanges = [TimeZoneChange(instant: Build.instant("2026-05-04T07:30:00Z"), timeZone: Build.zone("Asia/Tokyo"))]
    scenario.medicineApp.userActions = [HostedScenario.act(.open, on: "pill", at: "2026-05-04T08:05:00Z")]
    _ = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all.last == "Asia/Tokyo 17")  // 08:05 UTC is 17:05 in Tokyo
  }

  @Test(.timeLimit(.minutes(1))) func aCallbackThatSleepsOnRealTimeStopsTheRunNamingIt() throws {
    var script = AppScript()
    // An hour: a sleep short enough to end before the task suspends on it (a
    // millisecond on a loaded machine) resumes in place and cannot be seen.
    script.medicine = { _, _ in try? await Task.sleep(nanoseconds: 3_600_000_000_000) }
    var scenario = HostedScenario.make()
    let medicine = Medicine(id: "1", name: "Metformin", dosage: "500", unit: "mg", times: [DailyTime(hour: 8, minute: 0)])
    scenario.medicineApp.medicineChanges = [MedicineChange(instant: Build.instant("2026-05-04T07:10:00Z"), kind: .create(medicine))]
    let error = #expect(throws: AppCodeError.self) { try Simulation(scenario, app: ScriptedApp.hosted(script, log: AppLog())).report() }
    #expect(error?.callback == "patientChangedMedicine")
    #expect(error?.instant == "2026-05-04T07:10:00.000+00:00")
    #expect(error?.problem.hasPrefix("it did not return at its instant: it waits on something trigsim does not drive (real time") == true)
  }

  @Test func aCallbackWaitingOnTheMainActorIsAnError() throws {
    var script = AppScript()
    script.launched = { _, _ in await MainActor.run {} }
    let error = #expect(throws: AppCodeError.self) { try Simulation(HostedScenario.make(), app: ScriptedApp.hosted(script, log: AppLog())).report() }
    #expect(error?.callback == "didFinishLaunching")
  }

  @Test func deviceCallsFromATaskLeftRunningAreAnError() throws {
    var script = AppScript()
    script.launched = { app, _ in
      let device = app.device
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        // Another thread, as an unstructured task on the global executor would be.
        device.notificationCenter.removeAllPendingNotificationRequests()
        done.signal()
      }
      done.wait()
    }
    let error = #expect(throws: AppCodeError.self) { try Simulation(HostedScenario.make(), app: ScriptedApp.hosted(script, log: AppLog())).report() }
    #expect(error?.callback == "didFinishLaunching")
    #expect(error?.problem.hasPrefix("UserNotificationCenter.removeAllPendingNotificationRequests was called outside the app's callbacks") == true)
  }

  @Test func trialsWithAHostedAppAreIdenticalWhateverTheWorkerCount() throws {
    var script = AppScript()
    script.launched = { app, reason in
      guard reason == .initial else { return }
      app.device.locationManager.startMonitoring(for: AppLifecycleTests.home)
      await app.add(NotificationRequest(id: "arrive", title: "home", trigger: .region(RegionTrigger(region: "home", notifyOnExit: false, repeats: true))))
    }
    script.region = { app, _, entering in
      if entering { await app.add(HostedScenario.after("arrived", seconds: 1, category: nil)) }
    }
    var scenario = HostedScenario.make()
    AppLifecycleTests.walkHome(&scenario)
    scenario.platform.location = .ios(RegionMonitoringRules())
    let app = ScriptedApp.hosted(script, log: AppLog())
    let one = try TrialRunner(scenario, app: app).run(TrialPlan(count: 12, seed: 7, jobs: 1))
    let two = try TrialRunner(scenario, app: app).run(TrialPlan(count: 12, seed: 7, jobs: 2))
    #expect(one.text == two.text)
    #expect(one.text.contains("visit 1: arrive\n    fired 1.000 (12 of 12 trials"))
  }

  @Test func theScenariosMedicineAppRefusesAScenarioWrittenForASwiftApp() throws {
    var scenario = HostedScenario.make()
    scenario.appUnderTestOrigin = InputLocation(file: "team.yaml", line: 3, column: 15)
    let error = #expect(throws: InputError.self) { try Simulation(scenario).report() }
    #expect(error?.diagnostics.first?.description.hasPrefix("team.yaml:3:15: error: this scenario is written for a team's Swift app") == true)
  }
}
