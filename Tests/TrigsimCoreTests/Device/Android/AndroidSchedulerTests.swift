import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// The Android phone's own scheduling on its own: the scheduler is handed a
/// run that has not started, and what it records and queues is read back
/// from that run (no app code runs).
@Suite struct AndroidSchedulerTests {
  /// A fresh Android 14 install from 07:00 to 12:00, plugged in throughout (no Doze, no bucket limits).
  static func pluggedInPhone() -> SimulationRun {
    var scenario = Scenario(name: "scheduler", clock: Build.clock("2026-05-04T07:00:00Z", "2026-05-04T12:00:00Z")).on(.android)
    scenario.device.power = [PowerEvent(instant: Build.instant("2026-05-04T07:00:00Z"), kind: .chargingOn)]
    return SimulationRun(scenario)
  }

  static func alarm(_ kind: AndroidAlarmKind, at text: String) -> AndroidAlarm {
    AndroidAlarm(kind: kind, triggerAt: Build.instant(text), window: nil, windowPosition: nil)
  }

  @Test func anInexactAlarmIsQueuedForTheEndOfItsHourAndTheTimelineSaysWhy() throws {
    var run = Self.pluggedInPhone()
    let scheduler = AndroidScheduler(settings: try #require(run.scenario.platform.android), startingIn: run)
    try scheduler.setAlarm("dose", Self.alarm(.inexact, at: "2026-05-04T08:00:00Z"), extras: [:], in: &run, at: Build.instant("2026-05-04T07:30:00Z"))

    let queued = run.queue.popNext(notAfter: run.end)
    let event = try #require(queued)
    #expect(event.instant == Build.instant("2026-05-04T09:00:00Z"))
    #expect(event.phase == .timeTrigger)
    guard case .layer(.android(.alarmDue(let tag, let token))) = event.kind else {
      Issue.record("queued \(event.kind), not the alarm")
      return
    }
    #expect(tag == "dose" && token == 0)
    #expect(run.queue.isEmpty)
    // The trace names the inner event, as it named the engine's own case before.
    #expect(event.traceText.hasPrefix("alarmDue(") && event.traceText.hasSuffix(", token: 0)"))
    let entry = try #require(run.timeline().entries.last)
    #expect(entry.kind == .alarm && entry.subject == "dose")
    #expect(entry[field: "change"] == "set")
    #expect(entry[field: "fires"] == "2026-05-04T09:00:00.000+00:00")
    #expect(scheduler.alarmsInSetOrder.map(\.tag) == ["dose"])
  }

  @Test func anExactAlarmWithoutThePermissionIsRefusedAndNothingIsQueued() throws {
    var run = Self.pluggedInPhone()
    let scheduler = AndroidScheduler(settings: try #require(run.scenario.platform.android), startingIn: run)
    // A fresh install on Android 14: SCHEDULE_EXACT_ALARM is not granted.
    #expect(!scheduler.exactAlarmsAllowed)
    #expect(throws: AlarmManagerError.exactAlarmNotPermitted("dose")) {
      try scheduler.setAlarm("dose", Self.alarm(.exactWhileIdle, at: "2026-05-04T08:00:00Z"), extras: [:], in: &run, at: Build.instant("2026-05-04T07:30:00Z"))
    }
    #expect(run.queue.isEmpty)
    #expect(scheduler.alarms.isEmpty)
    #expect(run.timeline().entries.last?[field: "change"] == "refused")
  }
}
