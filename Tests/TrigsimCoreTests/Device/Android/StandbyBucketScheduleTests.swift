import Testing

@testable import TrigsimCore

/// The app's App Standby bucket over a run (`StandbyBucketSchedule`) and what
/// a bucket change does to an alarm the bucket quota holds back: one test per rule.
@Suite struct StandbyBucketScheduleTests {
  static let start = AlarmDispatcherTests.start
  static let end = start.advanced(by: .hours(24 * 10))
  static func at(hours: Int64) -> SimulationInstant { start.advanced(by: .hours(hours)) }

  static func followingUse(from bucket: StandbyBucket = .workingSet, version: Int = 14) -> AndroidAlarmRules {
    var rules = AndroidAlarmRules()
    rules.bucketsFollowUse = true
    rules.standbyBucket = bucket
    rules.androidVersion = version
    return rules
  }

  static func steps(_ changes: [StandbyBucketChange]) -> [String] {
    changes.map { "+\(start.duration(to: $0.at)) \($0.from.rawValue)->\($0.bucket.rawValue)" }
  }

  @Test func withoutFollowingUseTheBucketStaysFixedUnlessScripted() {
    let none = StandbyBucketSchedule.changes(rules: AndroidAlarmRules(), start: Self.start, end: Self.end, uses: [Self.at(hours: 1)], scripted: [])
    #expect(none.isEmpty)
    let scripted = StandbyBucketSchedule.changes(
      rules: AndroidAlarmRules(), start: Self.start, end: Self.end, uses: [], scripted: [(Self.at(hours: 5), .rare)])
    #expect(Self.steps(scripted) == ["+5h working-set->rare"])
    #expect(scripted[0].reason == "set by the scenario")
  }

  @Test func byUseDecayInstantsFollowAOSPsElapsedTimeThresholds() {
    // Opened at +2h, never again: active then, working set 12 h later, frequent at 24 h, rare at 48 h, restricted at 8 days.
    let changes = StandbyBucketSchedule.changes(rules: Self.followingUse(), start: Self.start, end: Self.end, uses: [Self.at(hours: 2)], scripted: [])
    #expect(
      Self.steps(changes) == [
        "+2h working-set->active", "+14h active->working-set", "+1d2h working-set->frequent", "+2d2h frequent->rare",
        "+8d2h rare->restricted",
      ])
    #expect(changes[3].reason == "not opened for 2d: AppStandbyController's elapsed-time threshold for rare")
  }

  @Test func theStartingBucketIsTakenAsJustReached() {
    // Working set at the start: as if last used 12 h before, so frequent 12 h in and rare 36 h in.
    let changes = StandbyBucketSchedule.changes(rules: Self.followingUse(), start: Self.start, end: Self.at(hours: 40), uses: [], scripted: [])
    #expect(Self.steps(changes) == ["+12h working-set->frequent", "+1d12h frequent->rare"])
    #expect(
      changes[0].reason
        == "not opened for 1d (the run began in working-set, taken as 12h without use): AppStandbyController's elapsed-time threshold for frequent")
  }

  @Test func openingTheAppMakesItActive() {
    let uses = [Self.at(hours: 30), Self.at(hours: 31)]
    let changes = StandbyBucketSchedule.changes(rules: Self.followingUse(from: .rare), start: Self.start, end: Self.at(hours: 50), uses: uses, scripted: [])
    #expect(Self.steps(changes) == ["+1d6h rare->active", "+1d19h active->working-set"])
    #expect(changes[0].reason == "the patient opened the app")
  }

  @Test func theRestrictedBucketNeedsAndroid11() {
    let changes = StandbyBucketSchedule.changes(
      rules: Self.followingUse(from: .active, version: 10), start: Self.start, end: Self.end, uses: [], scripted: [])
    #expect(Self.steps(changes).last == "+2d frequent->rare")
  }

  @Test func aScriptedBucketHoldsUntilTheNextUse() {
    let changes = StandbyBucketSchedule.changes(
      rules: Self.followingUse(from: .active), start: Self.start, end: Self.at(hours: 60), uses: [Self.at(hours: 20)],
      scripted: [(Self.at(hours: 1), .restricted)])
    // Restricted from +1h; no decay while it holds; opened at +20h: active, then the decay resumes from there.
    #expect(Self.steps(changes) == ["+1h active->restricted", "+20h restricted->active", "+1d8h active->working-set", "+1d20h working-set->frequent"])
    #expect(changes[0].reason == "set by the scenario; it holds until the patient next opens the app")
  }

  // MARK: - The bucket quota as the bucket changes

  @Test func aScriptedBucketChangeDefersAnAlarmByTheNewQuota() {
    let power = AlarmDispatcherTests.power(buckets: [(Self.start, .workingSet), (AlarmDispatcherTests.at(minutes: 30), .rare)])
    var dispatcher = AlarmDispatcher(rules: AndroidAlarmRules(), power: power)
    let fires = AlarmDispatcherTests.fireAll(
      [AlarmDispatcherTests.alarm(.exactWhileIdle, minutes: 60), AlarmDispatcherTests.alarm(.exactWhileIdle, minutes: 66)], dispatcher: &dispatcher)
    // Rare allows one alarm per hour: the second waits until the first leaves the hour.
    #expect(fires == [AlarmDispatcherTests.at(minutes: 60), AlarmDispatcherTests.at(minutes: 120)])
    let plan = dispatcher.plan(AlarmDispatcherTests.alarm(.exactWhileIdle, minutes: 130), notBefore: AlarmDispatcherTests.at(minutes: 130))
    #expect(plan.instant == AlarmDispatcherTests.at(minutes: 180))
    #expect(plan.reason?.contains("standby bucket rare allows 1 alarm per 1h") == true)
  }

  @Test func aBucketChangeReplansADeferredAlarm() {
    // Rare until +90 min, then active (the patient opened the app): the alarm the rare quota held to +120 fires at +90.
    let power = AlarmDispatcherTests.power(buckets: [(Self.start, .rare), (AlarmDispatcherTests.at(minutes: 90), .active)])
    var dispatcher = AlarmDispatcher(rules: AndroidAlarmRules(), power: power)
    dispatcher.fired(AlarmDispatcherTests.alarm(.exactWhileIdle, minutes: 60), at: AlarmDispatcherTests.at(minutes: 60))
    let plan = dispatcher.plan(AlarmDispatcherTests.alarm(.exactWhileIdle, minutes: 66), notBefore: AlarmDispatcherTests.at(minutes: 66))
    #expect(plan.instant == AlarmDispatcherTests.at(minutes: 90))
    #expect(plan.reason?.contains("deferred until the bucket changes to active at") == true)
    // Re-asked at the change, as the engine does at the queued instant: it fires then.
    #expect(dispatcher.plan(AlarmDispatcherTests.alarm(.exactWhileIdle, minutes: 66), notBefore: plan.instant).instant == plan.instant)
    // A change to a stricter bucket while deferred: judged again under it.
    let stricter = AlarmDispatcherTests.power(
      buckets: [(Self.start, .frequent), (AlarmDispatcherTests.at(minutes: 70), .restricted)])
    var strict = AlarmDispatcher(rules: AndroidAlarmRules(), power: stricter)
    strict.fired(AlarmDispatcherTests.alarm(.exactWhileIdle, minutes: 60), at: AlarmDispatcherTests.at(minutes: 60))
    strict.fired(AlarmDispatcherTests.alarm(.exactWhileIdle, minutes: 61), at: AlarmDispatcherTests.at(minutes: 61))
    let held = strict.plan(AlarmDispatcherTests.alarm(.exactWhileIdle, minutes: 62), notBefore: AlarmDispatcherTests.at(minutes: 62))
    // Frequent (2/h) would free a place at +120; restricted from +70 allows 1 per day, counted from the first fire at +60.
    #expect(held.instant == AlarmDispatcherTests.at(minutes: 61 + 24 * 60))
  }

  @Test func theSummaryNamesFollowingUseOnlyWhenOn() {
    #expect(!AndroidAlarmRules().summary.contains("buckets-follow-use"))
    #expect(!AndroidAlarmRules().summary.contains("bucket-decay"))
    var rules = Self.followingUse()
    #expect(rules.summary.hasSuffix("bucket=working-set buckets-follow-use=true"))
    rules.bucketDecay.rare = .hours(36)
    #expect(rules.summary.hasSuffix("buckets-follow-use=true bucket-decay=12h,1d,1d12h,8d"))
  }
}
