import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// An entry at a UTC+02:00 local time on 2026-05-04 (or the next day with `day: 5`).
private func entry(_ time: String, _ kind: TimelineEntry.Kind, _ subject: String, day: Int = 4) -> TimelineEntry {
  TimelineEntry(instant: Build.instant("2026-05-0\(day)T\(time)+02:00"), utcOffsetSeconds: 7200, kind: kind, subject: subject)
}

private func dose(_ medicine: String, _ time: String, scheduled: String, notified: String?, completed: String? = nil, followUps: Int = 0, ranOut: Bool = false) -> DoseRecord {
  let parts = time.split(separator: ":").map { Int($0)! }
  var record = DoseRecord(
    key: DoseKey(medicine: MedicineID(medicine), slot: .time(DailyTime(hour: parts[0], minute: parts[1])), occurrence: 20577),
    medicineName: medicine, reminder: time, scheduled: Build.instant("2026-05-04T\(scheduled)+02:00"))
  record.notified = notified.map { Build.instant("2026-05-04T\($0)+02:00") }
  record.completed = completed.map { Build.instant("2026-05-04T\($0)+02:00") }
  record.followUpsDelivered = followUps
  record.chainRanOut = ranOut
  return record
}

private func report(_ entries: [TimelineEntry], doses: [DoseRecord] = [], configure: (inout RunSummary) -> Void = { _ in }) -> SimulationReport {
  var summary = RunSummary()
  summary.clock = Build.clock("2026-05-04T00:00:00+02:00", "2026-05-06T00:00:00+02:00", zone: "Europe/Copenhagen")
  summary.doses = doses
  configure(&summary)
  return SimulationReport(timeline: Timeline(entries: entries), summary: summary)
}

private let fired = EntrySelector(.kind(.fired))

@Suite struct RunAssertionTests {
  @Test func aNightWindowSpansMidnightWithAnInclusiveStartAndExclusiveEnd() {
    let night = RunAssertion(.nothingFired(fired, window: .daily(from: DailyTime(hour: 22, minute: 0), to: DailyTime(hour: 7, minute: 0))))
    #expect(night.check(report([entry("21:59:59.999", .fired, "a"), entry("07:00:00.000", .fired, "b", day: 5)])) == nil)
    let failure = night.check(report([entry("22:00:00.000", .fired, "late"), entry("06:59:59.999", .fired, "early", day: 5), entry("23:00:00.000", .enter, "home")]))
    #expect(failure?.finding == "2 notifications fired in the window")
    #expect(failure?.evidence.count == 2)
  }

  @Test func countsUseTheSelectorAndWindow() {
    let selector = EntrySelector(.kind(.fired), subject: IdentifierPattern("medicine_1_*"))
    let window = AssertionWindow.between(from: Build.instant("2026-05-04T08:00:00+02:00"), to: Build.instant("2026-05-04T09:00:00+02:00"), label: "from 08:00 to 09:00")
    let entries = [entry("08:00:00.000", .fired, "medicine_1_reminder_0"), entry("08:06:00.000", .fired, "medicine_1_snooze_1"),
                   entry("08:06:00.000", .fired, "medicine_2_snooze_1"), entry("09:00:00.000", .fired, "medicine_1_snooze_2")]
    #expect(RunAssertion(.count(selector, window: window, range: .exactly(2))).check(report(entries)) == nil)
    #expect(RunAssertion(.count(selector, window: nil, range: .exactly(3))).check(report(entries)) == nil)
    let failure = RunAssertion(.count(selector, window: window, range: CountRange(atLeast: 3))).check(report(entries))
    #expect(failure?.finding == "found 2 matching entries")
    #expect(failure?.assertion == "count of 'fired medicine_1_*' from 08:00 to 09:00 is at least 3")
  }

  @Test func insideARegionCountsFromTheFirstFixWhenTheDeviceStartsThere() {
    let assertion = RunAssertion(.nothingFiredInside(fired, region: "home"))
    let entries = [entry("08:00:00.000", .fired, "early"), entry("08:10:00.000", .exit, "home"), entry("09:00:00.000", .fired, "away"),
                   entry("10:00:00.000", .enter, "home"), entry("10:05:00.000", .fired, "back")]
    // Outside at the start: only 'back' fired inside.
    #expect(assertion.check(report(entries))?.finding == "1 notification fired while the device was inside 'home'")
    // Inside at the first fix: 'early' fired inside too.
    let startingInside = assertion.check(report(entries) { $0.regionsInsideAtFirstFix = ["home"] })
    #expect(startingInside?.finding == "2 notifications fired while the device was inside 'home'")
    #expect(startingInside?.evidence.first == "visit: inside from the first fix")
  }

  @Test func everyDoseMustBeNotifiedWithinTheToleranceAndNoneMissed() {
    let onTime = dose("1", "08:00", scheduled: "08:00:00", notified: "08:00:00")
    let late = dose("1", "14:00", scheduled: "14:00:00", notified: "14:06:00")
    var missed = dose("2", "08:00", scheduled: "08:00:00", notified: nil)
    missed.reason = "dropped by the pending limit"
    #expect(RunAssertion(.dosesNotified(within: .minutes(6), medicine: nil)).check(report([], doses: [onTime, late])) == nil)
    let justLate = RunAssertion(.dosesNotified(within: SimulationDuration(milliseconds: 359_999), medicine: nil)).check(report([], doses: [onTime, late]))
    #expect(justLate?.evidence == ["1 14:00 2026-05-04: due 2026-05-04T14:00:00.000+02:00, notified 2026-05-04T14:06:00.000+02:00, 6m late"])
    let withMissed = RunAssertion(.dosesNotified(within: .hours(1), medicine: nil)).check(report([], doses: [onTime, missed]))
    #expect(withMissed?.evidence == ["2 08:00 2026-05-04: missed (dropped by the pending limit)"])
    // Restricted to medicine 1, the missed dose of medicine 2 does not count.
    #expect(RunAssertion(.dosesNotified(within: .hours(1), medicine: "1")).check(report([], doses: [onTime, missed])) == nil)
  }

  @Test func chainsMustEndAndStayWithinTheirFollowUpLimit() {
    let completed = dose("1", "08:00", scheduled: "08:00:00", notified: "08:00:00", completed: "08:13:00", followUps: 2)
    let exhausted = dose("1", "14:00", scheduled: "14:00:00", notified: "14:00:00", followUps: 10, ranOut: true)
    let running = dose("1", "20:00", scheduled: "20:00:00", notified: "20:00:00", followUps: 3)
    let neverNotified = dose("1", "21:00", scheduled: "21:00:00", notified: nil)
    #expect(RunAssertion(.chainsEnd(medicine: nil, maxFollowUps: 10)).check(report([], doses: [completed, exhausted, neverNotified])) == nil)
    let tooMany = RunAssertion(.chainsEnd(medicine: nil, maxFollowUps: 9)).check(report([], doses: [completed, exhausted]))
    #expect(tooMany?.evidence == ["1 14:00 2026-05-04: 10 follow-ups delivered"])
    let unended = RunAssertion(.chainsEnd(medicine: nil, maxFollowUps: nil)).check(report([], doses: [running]))
    #expect(unended?.evidence == ["1 20:00 2026-05-04: unanswered at the end of the run after 3 follow-ups"])
  }

  @Test func pendingLimitDropsAndPeakAreChecked() {
    let drop = entry("07:00:00.000", .dropped, "dose-00")
    let dropped = report([drop]) {
      $0.droppedByPendingLimit = [(id: "dose-00", at: drop.instant)]
      $0.pendingPeak = 64
    }
    #expect(RunAssertion(.noPendingLimitDrops).check(report([])) == nil)
    #expect(RunAssertion(.noPendingLimitDrops).check(dropped)?.evidence == [drop.canonicalLine])
    #expect(RunAssertion(.pendingPeak(atMost: 64)).check(dropped) == nil)
    #expect(RunAssertion(.pendingPeak(atMost: 63)).check(dropped)?.finding == "64 requests were pending at once")
  }

  @Test func orderComparesFirstOccurrencesAndRequiresBoth() {
    let enter = EntrySelector(.kind(.enter), subject: IdentifierPattern("pharmacy"))
    let pickup = EntrySelector(.kind(.fired), subject: IdentifierPattern("pickup"))
    let assertion = RunAssertion(.order(first: enter, then: pickup))
    // Same instant: timeline order decides.
    #expect(assertion.check(report([entry("08:00:00.000", .enter, "pharmacy"), entry("08:00:00.000", .fired, "pickup")])) == nil)
    #expect(assertion.check(report([entry("08:00:00.000", .fired, "pickup"), entry("08:00:00.000", .enter, "pharmacy")]))?.finding == "'fired pickup' came first")
    #expect(assertion.check(report([entry("08:00:00.000", .enter, "pharmacy")]))?.finding == "'fired pickup' never occurred")
  }
}
