import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// Cases measured with Foundation on Linux (ios-semantics.md §2.3), America/New_York 2026.
@Suite struct CalendarTriggerEvaluatorTests {
  let newYork = Build.zone("America/New_York")

  func next(_ components: CalendarComponents, after: String, gap: DSTGapPolicy = .nextTimePreservingSmallerComponents, repeated: RepeatedTimeChoice = .first, zone: TimeZone? = nil) -> String? {
    let evaluator = CalendarTriggerEvaluator(dstGapPolicy: gap, repeatedTimePolicy: repeated)
    var components = components
    components.timeZone = zone
    let trigger = CalendarTrigger(components: components, repeats: true)
    return evaluator.nextDelivery(of: trigger, after: Build.instant(after), deviceTimeZone: newYork)
      .map { InstantFormatter(timeZone: newYork).string(for: $0) }
  }

  @Test(arguments: [
    (DSTGapPolicy.nextTimePreservingSmallerComponents, "2026-03-08T03:30:00.000-04:00"),
    (.nextTime, "2026-03-08T03:00:00.000-04:00"),
    (.previousTimePreservingSmallerComponents, "2026-03-08T01:30:00.000-05:00"),
    (.strict, "2026-03-09T02:30:00.000-04:00"),
  ])
  func wallClockTimeInTheSpringForwardGapFollowsTheGapPolicy(policy: DSTGapPolicy, expected: String) {
    #expect(next(CalendarComponents(hour: 2, minute: 30), after: "2026-03-07T12:00:00-05:00", gap: policy) == expected)
  }

  @Test func repeatedWallClockTimeOnFallBackDayUsesTheFirstOccurrenceByDefault() {
    #expect(next(CalendarComponents(hour: 1, minute: 30), after: "2026-10-31T12:00:00-04:00") == "2026-11-01T01:30:00.000-04:00")
    #expect(next(CalendarComponents(hour: 1, minute: 30), after: "2026-10-31T12:00:00-04:00", repeated: .last) == "2026-11-01T01:30:00.000-05:00")
  }

  @Test func dailyReminderFiresOnceOnFallBackDay() {
    #expect(next(CalendarComponents(hour: 1, minute: 30), after: "2026-11-01T01:30:00-04:00") == "2026-11-02T01:30:00.000-05:00")
  }

  @Test func nextDeliveryIsStrictlyAfterTheGivenInstant() {
    #expect(next(CalendarComponents(hour: 8, minute: 0), after: "2026-03-10T08:00:00-04:00") == "2026-03-11T08:00:00.000-04:00")
    #expect(next(CalendarComponents(hour: 8, minute: 0), after: "2026-03-10T07:59:59.999-04:00") == "2026-03-10T08:00:00.000-04:00")
    #expect(next(CalendarComponents(hour: 8, minute: 0), after: "2026-03-10T08:00:00.001-04:00") == "2026-03-11T08:00:00.000-04:00")
  }

  @Test func explicitTimeZoneFixesTheInstantRegardlessOfDeviceZone() {
    #expect(next(CalendarComponents(hour: 8, minute: 0), after: "2026-03-10T00:00:00-04:00", zone: Build.zone("Europe/Paris")) == "2026-03-10T03:00:00.000-04:00")
  }

  @Test func oneShotDateInThePastHasNoNextDelivery() {
    #expect(next(CalendarComponents(year: 2026, month: 3, day: 1, hour: 8), after: "2026-03-10T00:00:00-05:00") == nil)
  }

  @Test func weekdayMatchesFoundationNumberingWithSundayAsOne() {
    // 2026-03-10 is a Tuesday; weekday 2 is Monday.
    #expect(next(CalendarComponents(weekday: 2, hour: 9), after: "2026-03-10T00:00:00-04:00") == "2026-03-16T09:00:00.000-04:00")
  }
}

@Suite struct CalendarImpossibleDateTests {
  let copenhagen = Build.zone("Europe/Copenhagen")

  func next(_ components: CalendarComponents, after: String, policy: ImpossibleDatePolicy = .rollOver) -> String? {
    let evaluator = CalendarTriggerEvaluator(dstGapPolicy: .nextTimePreservingSmallerComponents, repeatedTimePolicy: .first, impossibleDatePolicy: policy)
    return evaluator.nextDelivery(of: CalendarTrigger(components: components, repeats: false), after: Build.instant(after), deviceTimeZone: copenhagen)
      .map { InstantFormatter(timeZone: copenhagen).string(for: $0) }
  }

  @Test func aFullDateThatHasPassedNeverDeliversEvenThoughFoundationRollsItForward() {
    #expect(next(CalendarComponents(year: 2026, month: 10, day: 20, hour: 9), after: "2026-10-24T00:00:00+02:00") == nil)
  }

  @Test func aFullDateInTheSpringForwardGapStillMovesByTheGapPolicy() {
    #expect(next(CalendarComponents(year: 2026, month: 3, day: 29, hour: 2, minute: 30), after: "2026-03-20T12:00:00+01:00") == "2026-03-29T03:30:00.000+02:00")
  }

  @Test func dayThirtyOneInAThirtyDayMonthRollsOverToTheFirstAtMidnightByDefault() {
    #expect(next(CalendarComponents(day: 31), after: "2026-06-10T12:00:00+02:00") == "2026-07-01T00:00:00.000+02:00")
  }

  @Test func dayThirtyOneSkipsToTheNextMonthThatHasItWhenAskedTo() {
    #expect(next(CalendarComponents(day: 31), after: "2026-06-10T12:00:00+02:00", policy: .skip) == "2026-07-31T00:00:00.000+02:00")
  }
}

/// The direct computation of daily times (`steadyDailyTime`) gives
/// Foundation's answer, and leaves to Foundation every instant near an
/// offset change.
@Suite struct SteadyDailyTimeTests {
  /// Zones with DST, half-hour and 45-minute offsets, a 30-minute DST shift
  /// (Lord Howe), a skipped day (Apia, 2011-12-30), changes of standard
  /// offset (Moscow 2011 and 2014, Caracas 2007 and 2016) and none (UTC).
  static let zones = [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia", "Europe/Moscow", "America/Caracas",
    "Asia/Kathmandu", "America/St_Johns", "UTC",
  ]

  @Test(arguments: zones)
  func everyDailyTimeIsFoundationsAnswerWhateverThePolicies(zoneName: String) {
    let zone = Build.zone(zoneName)
    var random = TrialRandom(seed: 27)
    var direct = 0
    for _ in 0..<400 {
      // 1890 to 2040, so that the span's own bounds are crossed too.
      let instant = SimulationInstant(millisecondsSinceEpoch: Int64.random(in: -2_524_521_600_000...2_208_988_800_000, using: &random))
      let hour = Int.random(in: 0...23, using: &random)
      let minute = Int.random(in: 0...59, using: &random)
      let second = Bool.random(using: &random) ? nil : Int.random(in: 0...59, using: &random)
      let components = CalendarComponents(hour: hour, minute: minute, second: second)
      let evaluator = CalendarTriggerEvaluator(
        dstGapPolicy: DSTGapPolicy.allCases.randomElement(using: &random)!,
        repeatedTimePolicy: RepeatedTimeChoice.allCases.randomElement(using: &random)!)
      let trigger = CalendarTrigger(components: components, repeats: true)
      // Also the instant just before and at the answer itself.
      let searched = evaluator.searchedDelivery(of: trigger, after: instant, deviceTimeZone: zone)
      for after in [instant, searched.map { $0.advanced(byMilliseconds: -1) }, searched].compactMap({ $0 }) {
        let expected = evaluator.searchedDelivery(of: trigger, after: after, deviceTimeZone: zone)
        if CalendarTriggerEvaluator.steadyDailyTime(components, after: after, in: zone) != nil { direct += 1 }
        #expect(
          evaluator.nextDelivery(of: trigger, after: after, deviceTimeZone: zone) == expected,
          "\(zoneName) \(components) after \(after.millisecondsSinceEpoch)")
      }
    }
    // Most instants (of 1200) are far from an offset change: the comparison covers the direct computation.
    #expect(direct > 600)
  }

  @Test func aDayWithAnOffsetChangeIsLeftToFoundation() {
    let berlin = Build.zone("Europe/Berlin")
    let components = CalendarComponents(hour: 2, minute: 30)
    // The night clocks go forward (2026-03-29) and the day before it.
    #expect(CalendarTriggerEvaluator.steadyDailyTime(components, after: Build.instant("2026-03-28T12:00:00+01:00"), in: berlin) == nil)
    #expect(CalendarTriggerEvaluator.steadyDailyTime(components, after: Build.instant("2026-03-29T12:00:00+02:00"), in: berlin) == nil)
    // A fortnight later the offset is steady: 02:30 the next night.
    #expect(
      CalendarTriggerEvaluator.steadyDailyTime(components, after: Build.instant("2026-04-12T12:00:00+02:00"), in: berlin)
        == Build.instant("2026-04-13T02:30:00+02:00"))
  }

  @Test func componentsOtherThanATimeOfDayAreLeftToFoundation() {
    let utc = Build.zone("UTC")
    let after = Build.instant("2026-06-01T12:00:00Z")
    #expect(CalendarTriggerEvaluator.steadyDailyTime(CalendarComponents(weekday: 2, hour: 9, minute: 0), after: after, in: utc) == nil)
    #expect(CalendarTriggerEvaluator.steadyDailyTime(CalendarComponents(day: 3, hour: 9, minute: 0), after: after, in: utc) == nil)
    #expect(CalendarTriggerEvaluator.steadyDailyTime(CalendarComponents(hour: 9), after: after, in: utc) == nil)
    #expect(CalendarTriggerEvaluator.steadyDailyTime(CalendarComponents(hour: 9, minute: 0), after: after, in: utc) == Build.instant("2026-06-02T09:00:00Z"))
  }
}
