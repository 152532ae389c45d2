import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// The phone makers' background killers (`OEMBackgroundKiller`): the presets
/// and Samsung's documented sleep stages, one test per rule.
@Suite struct OEMBackgroundKillerTests {
  static let start = Build.instant("2026-05-04T07:00:00Z")
  static let end = start.advanced(by: .hours(24 * 20))
  static func day(_ days: Double) -> SimulationInstant { start.advanced(by: SimulationDuration(milliseconds: Int64(days * 86_400_000))) }

  @Test func theSamsungPresetSleepsAfterThreeDaysAndDeepSleepsAfterSixteen() {
    let samsung = OEMBackgroundKiller.preset(.samsung)
    #expect(samsung.sleepAfter == .hours(72))
    #expect(samsung.after == .hours(16 * 24))
    #expect(samsung.summary == "oem-killer=samsung oem-kill-after=16d oem-exempt=no oem-sleep-after=3d")
    #expect(OEMBackgroundKiller.preset(.aggressive).sleepAfter == nil)
    #expect(OEMBackgroundKiller.preset(.aggressive).after == .minutes(10))
  }

  @Test func anAppSleepsFromThreeDaysAfterItLeftTheForegroundUntilThePatientOpensIt() {
    let samsung = OEMBackgroundKiller.preset(.samsung)
    // Open on day 1 for an hour, then on day 6.
    let foreground = [Self.day(1)..<Self.day(1).advanced(by: .hours(1)), Self.day(6)..<Self.day(6).advanced(by: .minutes(5))]
    let spans = samsung.sleepingSpans(start: Self.start, end: Self.end, foreground: foreground)
    #expect(spans == [Self.day(1).advanced(by: .hours(73))..<Self.day(6), Self.day(6).advanced(by: .minutes(5)).advanced(by: .hours(72))..<Self.end])
  }

  @Test func anAppNeverOpenedSleepsThreeDaysAfterTheStart() {
    let spans = OEMBackgroundKiller.preset(.samsung).sleepingSpans(start: Self.start, end: Self.end, foreground: [])
    #expect(spans == [Self.day(3)..<Self.end])
  }

  @Test func anExemptAppOrStockAndroidNeverSleeps() {
    var exempt = OEMBackgroundKiller.preset(.samsung)
    exempt.exempt = true
    #expect(exempt.sleepingSpans(start: Self.start, end: Self.end, foreground: []).isEmpty)
    #expect(OEMBackgroundKiller().sleepingSpans(start: Self.start, end: Self.end, foreground: []).isEmpty)
  }

  @Test func sleepHoldsTheAppInTheRestrictedBucketOverTheSchedulesBucket() {
    // The schedule says working set, then rare on day 4; sleep from day 3 until the patient opens the app on day 5.
    let schedule = [StandbyBucketChange(at: Self.day(4), bucket: .rare, from: .workingSet, reason: "set by the scenario")]
    let changes = StandbyBucketSchedule.withMakerSleep(
      schedule, base: .workingSet, start: Self.start, sleeping: [Self.day(3)..<Self.day(5)], sleepAfter: .hours(72))
    #expect(changes.map { "\($0.from.rawValue)->\($0.bucket.rawValue)@\(Self.start.duration(to: $0.at))" } == [
      "working-set->restricted@3d", "restricted->rare@5d",
    ])
    #expect(changes[0].reason.contains("Samsung Application Management"))
    #expect(changes[1].reason.hasPrefix("the patient opened the app: it no longer sleeps; set by the scenario"))
  }

  @Test func withoutSleepTheScheduleIsUnchanged() {
    let schedule = [StandbyBucketChange(at: Self.day(4), bucket: .rare, from: .workingSet, reason: "set by the scenario")]
    #expect(StandbyBucketSchedule.withMakerSleep(schedule, base: .workingSet, start: Self.start, sleeping: [], sleepAfter: .zero) == schedule)
  }

  @Test func onASamsungPhoneAnAppUnusedForSixteenDaysIsInDeepSleepAndItsAlarmsAreGone() throws {
    var scenario = AndroidScenario.make("2026-05-04T07:00:00Z", "2026-05-21T12:00:00Z")
    scenario.platform.android?.oemKiller = .preset(.samsung)
    var script = AndroidScript()
    script.created = { app in try? app.device.alarmManager.set(.alarmClock, at: Build.instant("2026-05-21T08:00:00Z").date, tag: "late") }
    let log = AppLog()
    let report = try Simulation(scenario, app: ScriptedAndroidApp.hosted(script, log: log)).report()
    let sleep = report.timeline.entries.first { $0.kind == .app && $0.subject == "standby-bucket" }
    #expect(sleep?.instant == Build.instant("2026-05-07T07:00:00Z"))
    #expect(sleep?.fields.contains(TimelineField("to", "restricted")) == true)
    let killed = report.timeline.entries.first { $0.kind == .app && $0.subject == "oem-kill" }
    #expect(killed?.instant == Build.instant("2026-05-20T07:00:00Z"))
    #expect(killed?.fields.first { $0.key == "reason" }?.value.contains("deep sleep") == true)
    #expect(log.all == ["#1 onCreate"])
  }
}
