import Testing

@testable import TrigsimCore

/// The alarm-timing model of Android's `AlarmManager`: one test per rule
/// (the manual, "Android alarms").
@Suite struct AlarmDispatcherTests {
  /// 2026-05-05T00:00:00Z, the run's start.
  static let start = SimulationInstant(millisecondsSinceEpoch: 1_777_939_200_000)
  static let end = start.advanced(by: .hours(48))

  static func at(minutes: Int64) -> SimulationInstant { start.advanced(by: .minutes(minutes)) }

  /// A device that never dozes (the screen comes on every 30 minutes) unless told otherwise.
  static func power(
    doze: DozeRules = DozeRules(), screenOn: [SimulationInstant]? = nil, charging: [Range<SimulationInstant>] = [],
    batterySaver: [Range<SimulationInstant>] = [], buckets: [(from: SimulationInstant, bucket: StandbyBucket)] = [(AlarmDispatcherTests.start, .active)],
    jitter: Double? = nil
  ) -> AndroidPowerTimeline {
    let looks = screenOn ?? stride(from: Int64(0), to: 48 * 60, by: 30).map { at(minutes: $0) }
    return AndroidPowerTimeline(
      rules: doze, start: start, end: end, screenOn: looks, charging: charging, batterySaver: batterySaver, buckets: buckets,
      dozeEntryJitter: jitter)
  }

  /// A device left alone from the start: Doze from 01:00, windows at 02:00, 04:00:30, 08:01 (30 s each), 14:01:30, …
  static let dozing = power(screenOn: [])

  static func alarm(_ kind: AndroidAlarmKind, minutes: Int64, window: SimulationDuration? = nil, position: Double? = nil) -> AndroidAlarm {
    AndroidAlarm(kind: kind, triggerAt: at(minutes: minutes), window: window, windowPosition: position)
  }

  /// Plans, fires at the plan and returns each instant, in order, re-asking at each planned instant as the engine does.
  static func fireAll(_ alarms: [AndroidAlarm], dispatcher: inout AlarmDispatcher) -> [SimulationInstant] {
    alarms.map { alarm in
      var plan = dispatcher.plan(alarm, notBefore: alarm.triggerAt)
      var again = dispatcher.plan(alarm, notBefore: plan.instant)
      while again.instant != plan.instant {
        plan = again
        again = dispatcher.plan(alarm, notBefore: plan.instant)
      }
      dispatcher.fired(alarm, at: plan.instant)
      return plan.instant
    }
  }

  // MARK: - Windows

  @Test func inexactNeverEarlyAndWithinItsWindow() {
    var rules = AndroidAlarmRules()
    let dispatcher = AlarmDispatcher(rules: rules, power: Self.power())
    let latest = dispatcher.plan(Self.alarm(.inexact, minutes: 60), notBefore: Self.start)
    #expect(latest.instant == Self.at(minutes: 120))
    #expect(latest.reason == "inexact alarm: fires at the end of its 1h window (inexactTiming latest)")
    rules.inexactTiming = .earliest
    let earliest = AlarmDispatcher(rules: rules, power: Self.power()).plan(Self.alarm(.inexact, minutes: 60), notBefore: Self.start)
    var expected = AlarmPlan(instant: Self.at(minutes: 60), reason: nil)
    expected.consulted = [.inexactTiming]
    #expect(earliest == expected)
    for position in [0.0, 0.25, 0.999_999] {
      let drawn = dispatcher.plan(Self.alarm(.inexactWhileIdle, minutes: 60, position: position), notBefore: Self.start).instant
      #expect(drawn >= Self.at(minutes: 60) && drawn < Self.at(minutes: 120))
    }
    #expect(dispatcher.plan(Self.alarm(.inexact, minutes: 60, position: 0.5), notBefore: Self.start).instant == Self.at(minutes: 90))
  }

  @Test func aSingleRunPlacingAnInexactAlarmInItsWindowConsultsInexactTimingAndATrialsDrawDoesNot() {
    let dispatcher = AlarmDispatcher(rules: AndroidAlarmRules(), power: Self.power())
    #expect(dispatcher.plan(Self.alarm(.inexact, minutes: 60), notBefore: Self.start).consulted == [.inexactTiming])
    #expect(dispatcher.plan(Self.alarm(.inexact, minutes: 60, position: 0.5), notBefore: Self.start).consulted.isEmpty)
    #expect(dispatcher.plan(Self.alarm(.exact, minutes: 60), notBefore: Self.start).consulted.isEmpty)
  }

  @Test func windowStretchedToTenMinutes() {
    let dispatcher = AlarmDispatcher(rules: AndroidAlarmRules(), power: Self.power())
    let short = Self.alarm(.window, minutes: 60, window: .minutes(2))
    #expect(dispatcher.allowedWindow(short) == Self.at(minutes: 60)...Self.at(minutes: 70))
    #expect(dispatcher.plan(short, notBefore: Self.start).instant == Self.at(minutes: 70))
    let long = Self.alarm(.window, minutes: 60, window: .minutes(25))
    #expect(dispatcher.plan(long, notBefore: Self.start).instant == Self.at(minutes: 85))
    var older = AndroidAlarmRules()
    older.androidVersion = 11
    #expect(AlarmDispatcher(rules: older, power: Self.power()).plan(short, notBefore: Self.start).instant == Self.at(minutes: 62))
  }

  // MARK: - Exact alarms and Doze

  @Test func exactAtItsTimeOutsideDoze() {
    let dispatcher = AlarmDispatcher(rules: AndroidAlarmRules(), power: Self.power())
    for kind in [AndroidAlarmKind.exact, .exactWhileIdle, .alarmClock] {
      #expect(dispatcher.plan(Self.alarm(kind, minutes: 95), notBefore: Self.start) == AlarmPlan(instant: Self.at(minutes: 95), reason: nil))
    }
  }

  @Test func exactDeferredInDozeToTheNextMaintenanceWindowOrDozeEnd() throws {
    let dispatcher = AlarmDispatcher(rules: AndroidAlarmRules(), power: Self.dozing)
    let period = try #require(Self.dozing.dozePeriods.first)
    #expect(period.start == Self.at(minutes: 60))
    let plan = dispatcher.plan(Self.alarm(.exact, minutes: 90), notBefore: Self.start)
    #expect(plan.instant == Self.at(minutes: 120))
    #expect(plan.reason == "deferred by Doze to the maintenance window at \(Self.at(minutes: 120))")
    // Inside the window: on time.
    #expect(dispatcher.plan(Self.alarm(.exact, minutes: 120), notBefore: Self.start).instant == Self.at(minutes: 120))
    // The screen comes on at 03:00, before the next window (04:00:30): Doze ends then.
    let woken = Self.power(screenOn: [Self.at(minutes: 180)])
    let ended = AlarmDispatcher(rules: AndroidAlarmRules(), power: woken).plan(Self.alarm(.exact, minutes: 150), notBefore: Self.start)
    #expect(ended == AlarmPlan(instant: Self.at(minutes: 180), reason: "deferred by Doze until it ends at \(Self.at(minutes: 180))", cause: .doze))
  }

  @Test func exactWhileIdleFiresInDozeWithin72PerHour() {
    var dispatcher = AlarmDispatcher(rules: AndroidAlarmRules(), power: Self.dozing)
    // 73 alarms 30 s apart from 03:00 (in Doze, no window until 04:00:30).
    let alarms = (0..<73).map { AndroidAlarm(kind: .exactWhileIdle, triggerAt: Self.at(minutes: 180).advanced(by: .seconds(Int64($0) * 30))) }
    let fired = Self.fireAll(Array(alarms.prefix(72)), dispatcher: &dispatcher)
    #expect(fired == alarms.prefix(72).map(\.triggerAt))
    // The 73rd waits until the first has left the rolling hour.
    let last = dispatcher.plan(alarms[72], notBefore: alarms[72].triggerAt)
    var expected = AlarmPlan(
      instant: Self.at(minutes: 240), reason: "exact while-idle alarms in Doze are limited to 72 per hour (exactWhileIdleQuota 72/h): deferred to \(Self.at(minutes: 240))",
      cause: .whileIdleQuota)
    expected.consulted = [.exactWhileIdleQuota]
    #expect(last == expected)
    #expect(dispatcher.plan(alarms[72], notBefore: last.instant).instant == last.instant)
  }

  /// Two exact while-idle alarms three minutes apart from 03:00, in Doze: when the second fires, and what its last plan consulted.
  static func secondExactWhileIdle(_ rules: AndroidAlarmRules) -> (fired: SimulationInstant, consulted: Set<AssumptionID>) {
    var dispatcher = AlarmDispatcher(rules: rules, power: dozing)
    let alarms = [alarm(.exactWhileIdle, minutes: 180), alarm(.exactWhileIdle, minutes: 183)]
    let fired = fireAll(alarms, dispatcher: &dispatcher)
    return (fired[1], dispatcher.plan(alarms[1], notBefore: alarms[1].triggerAt).consulted)
  }

  @Test func upToAndroid11ExactWhileIdleAlarmsFireOncePerNineMinutesAsDocumented() {
    var rules = AndroidAlarmRules()
    rules.androidVersion = 11
    #expect(rules.exactWhileIdleQuota == AlarmQuota(count: 1, per: .minutes(9)))
    let second = Self.secondExactWhileIdle(rules)
    #expect(second.fired == Self.at(minutes: 189))
    #expect(second.consulted.isEmpty)  // documented, not a reading
    #expect(rules.summary.contains("exact-while-idle=1/9m"))
  }

  @Test func fromAndroid12TheExactWhileIdleQuotaIsTheRegistrysReadingAndConsultsIt() {
    var rules = AndroidAlarmRules()
    rules.androidVersion = 12
    let byDefault = Self.secondExactWhileIdle(rules)
    #expect(byDefault.fired == Self.at(minutes: 183))
    #expect(byDefault.consulted == [.exactWhileIdleQuota])  // 1/9m or 1/15m would hold it
    rules.exactWhileIdleReading = .oneIn9Minutes
    #expect(Self.secondExactWhileIdle(rules).fired == Self.at(minutes: 189))
    rules.exactWhileIdleReading = .oneIn15Minutes
    #expect(Self.secondExactWhileIdle(rules).fired == Self.at(minutes: 195))
  }

  @Test func aStatedExactWhileIdleFigureIsNoReadingAndConsultsNothing() {
    var rules = AndroidAlarmRules()
    rules.whileIdleExactPerHour = 1
    let second = Self.secondExactWhileIdle(rules)
    #expect(second.fired == Self.at(minutes: 240))
    #expect(second.consulted.isEmpty)
  }

  @Test func inexactWhileIdleInDozeAtMostOnePerNineMinutes() {
    var rules = AndroidAlarmRules()
    rules.inexactTiming = .earliest
    var dispatcher = AlarmDispatcher(rules: rules, power: Self.dozing)
    // A 6-minute chain from 03:00: in Doze the while-idle spacing makes it 9 minutes.
    let alarms = (0..<4).map { Self.alarm(.inexactWhileIdle, minutes: 180 + 6 * Int64($0)) }
    let fired = Self.fireAll(alarms, dispatcher: &dispatcher)
    #expect(fired == [180, 189, 198, 207].map { Self.at(minutes: $0) })
    // Outside Doze the same chain keeps its 6 minutes.
    var awake = AlarmDispatcher(rules: rules, power: Self.power())
    #expect(Self.fireAll(alarms, dispatcher: &awake) == alarms.map(\.triggerAt))
  }

  @Test func regularInexactDeferredInDozeLikeExact() {
    let dispatcher = AlarmDispatcher(rules: AndroidAlarmRules(), power: Self.dozing)
    // 02:30 + 1 h window = 03:30, in Doze: the window at 04:00:30.
    let plan = dispatcher.plan(Self.alarm(.inexact, minutes: 150), notBefore: Self.start)
    #expect(plan.instant == Self.at(minutes: 240).advanced(by: .seconds(30)))
    #expect(plan.reason?.hasSuffix("deferred by Doze to the maintenance window at \(plan.instant)") == true)
  }

  @Test func alarmClockAlwaysOnTime() {
    var saver = Self.power(screenOn: [], batterySaver: [Self.start..<Self.end], buckets: [(Self.start, .restricted)])
    var dispatcher = AlarmDispatcher(rules: AndroidAlarmRules(), power: saver)
    let alarms = (0..<5).map { Self.alarm(.alarmClock, minutes: 90 + 6 * Int64($0)) }
    #expect(Self.fireAll(alarms, dispatcher: &dispatcher) == alarms.map(\.triggerAt))
    // Without the exemption the same alarm waits for Battery Saver to end.
    var rules = AndroidAlarmRules()
    rules.alarmClockExemption = false
    saver = Self.power(batterySaver: [Self.start..<Self.at(minutes: 200)])
    #expect(AlarmDispatcher(rules: rules, power: saver).plan(alarms[0], notBefore: Self.start).instant == Self.at(minutes: 200))
  }

  // MARK: - Buckets and Battery Saver

  @Test func bucketLimits() {
    var rules = AndroidAlarmRules()
    rules.inexactTiming = .earliest
    let hourly = (0..<11).map { Self.alarm(.exact, minutes: 10 + 5 * Int64($0)) }  // 11 alarms in 50 minutes
    var workingSet = AlarmDispatcher(rules: rules, power: Self.power(buckets: [(Self.start, .workingSet)]))
    let fired = Self.fireAll(hourly, dispatcher: &workingSet)
    #expect(Array(fired.prefix(10)) == hourly.prefix(10).map(\.triggerAt))
    #expect(fired[10] == Self.at(minutes: 70))  // the first (00:10) leaves the hour at 01:10
    var rare = AlarmDispatcher(rules: rules, power: Self.power(buckets: [(Self.start, .rare)]))
    #expect(Self.fireAll(Array(hourly.prefix(3)), dispatcher: &rare) == [10, 70, 130].map { Self.at(minutes: $0) })
    var restricted = AlarmDispatcher(rules: rules, power: Self.power(buckets: [(Self.start, .restricted)]))
    #expect(Self.fireAll(Array(hourly.prefix(2)), dispatcher: &restricted) == [Self.at(minutes: 10), Self.at(minutes: 10 + 24 * 60)])
    var active = AlarmDispatcher(rules: rules, power: Self.power(buckets: [(Self.start, .active)]))
    #expect(Self.fireAll(hourly, dispatcher: &active) == hourly.map(\.triggerAt))
    // Not while charging (power-details table).
    var plugged = AlarmDispatcher(rules: rules, power: Self.power(charging: [Self.start..<Self.end], buckets: [(Self.start, .rare)]))
    #expect(Self.fireAll(Array(hourly.prefix(3)), dispatcher: &plugged) == hourly.prefix(3).map(\.triggerAt))
    // On Android 13 and later the rare bucket holding an alarm consults `bucketLimits`; on 12 the limit is documented.
    var held = AlarmDispatcher(rules: rules, power: Self.power(buckets: [(Self.start, .rare)]))
    _ = Self.fireAll([hourly[0]], dispatcher: &held)
    #expect(held.plan(hourly[1], notBefore: hourly[1].triggerAt).consulted == [.bucketLimits])
    var twelve = rules
    twelve.androidVersion = 12
    var documented = AlarmDispatcher(rules: twelve, power: Self.power(buckets: [(Self.start, .rare)]))
    _ = Self.fireAll([hourly[0]], dispatcher: &documented)
    #expect(documented.plan(hourly[1], notBefore: hourly[1].triggerAt).consulted.isEmpty)
    // Read literally, the table limits only Android 12 and earlier.
    rules.bucketLimitScope = .beforeAndroid13
    var literal = AlarmDispatcher(rules: rules, power: Self.power(buckets: [(Self.start, .rare)]))
    #expect(Self.fireAll(Array(hourly.prefix(3)), dispatcher: &literal) == hourly.prefix(3).map(\.triggerAt))
  }

  @Test func bucketChangesOverTime() {
    let power = Self.power(buckets: [(Self.start, .active), (Self.at(minutes: 60), .rare)])
    #expect(power.bucket(at: Self.at(minutes: 59)) == .active)
    #expect(power.bucket(at: Self.at(minutes: 60)) == .rare)
    #expect(Self.power(buckets: []).bucket(at: Self.start) == .workingSet)
  }

  @Test func batterySaverDefersRegularAlarmsAndKeepsWhileIdleQuotas() {
    let saverSpan = Self.at(minutes: 60)..<Self.at(minutes: 180)
    var rules = AndroidAlarmRules()
    rules.inexactTiming = .earliest
    let power = Self.power(batterySaver: [saverSpan])
    let dispatcher = AlarmDispatcher(rules: rules, power: power)
    let regular = dispatcher.plan(Self.alarm(.exact, minutes: 90), notBefore: Self.start)
    #expect(regular == AlarmPlan(instant: Self.at(minutes: 180), reason: "deferred by Battery Saver until \(Self.at(minutes: 180))", cause: .batterySaver))
    var whileIdle = AlarmDispatcher(rules: rules, power: power)
    let chain = (0..<3).map { Self.alarm(.inexactWhileIdle, minutes: 90 + 6 * Int64($0)) }
    #expect(Self.fireAll(chain, dispatcher: &whileIdle) == [90, 99, 108].map { Self.at(minutes: $0) })
    // Charging lifts it at the plug-in.
    let plugged = Self.power(charging: [Self.at(minutes: 120)..<Self.end], batterySaver: [saverSpan])
    #expect(AlarmDispatcher(rules: rules, power: plugged).plan(Self.alarm(.exact, minutes: 90), notBefore: Self.start).instant == Self.at(minutes: 120))
    rules.batterySaverAlarms = .unrestricted
    #expect(AlarmDispatcher(rules: rules, power: power).plan(Self.alarm(.exact, minutes: 90), notBefore: Self.start).instant == Self.at(minutes: 90))
  }

  // MARK: - Doze schedule

  @Test func dozeEntersOnlyAfterEnterAfterOfScreenOffAndNotCharging() throws {
    // Screen on at 00:50: the hour restarts; charging 01:30–02:00 restarts it again.
    let power = Self.power(screenOn: [Self.at(minutes: 50)], charging: [Self.at(minutes: 90)..<Self.at(minutes: 120)])
    #expect(!power.isDozing(at: Self.at(minutes: 60)))
    #expect(!power.isDozing(at: Self.at(minutes: 110)))
    #expect(!power.isDozing(at: Self.at(minutes: 179)))
    let first = try #require(power.dozePeriods.first)
    #expect(first.start == Self.at(minutes: 180))
    #expect(power.isDozing(at: Self.at(minutes: 180)))
  }

  @Test func dozeEndsAtScreenOnOrCharging() {
    let power = Self.power(screenOn: [Self.at(minutes: 100)], charging: [Self.at(minutes: 300)..<Self.at(minutes: 320)])
    #expect(power.dozePeriods.map(\.start) == [Self.at(minutes: 60), Self.at(minutes: 160), Self.at(minutes: 380)])
    #expect(power.dozePeriods.map(\.end) == [Self.at(minutes: 100), Self.at(minutes: 300), Self.end])
    #expect(!power.isDozing(at: Self.at(minutes: 100)))
    #expect(!power.isDozing(at: Self.at(minutes: 310)))
    var off = DozeRules()
    off.enabled = false
    #expect(Self.power(doze: off, screenOn: []).dozePeriods.isEmpty)
  }

  @Test func maintenanceWindowsAt1h2h4hThenEvery6h() throws {
    var doze = DozeRules()
    doze.maintenanceLength = .minutes(5)
    let power = Self.power(doze: doze, screenOn: [])
    let period = try #require(power.dozePeriods.first)
    // Entry 01:00; each idle span counts from the previous window's end.
    let opens: [Int64] = [120, 125 + 120, 250 + 240, 495 + 360, 860 + 360]
    #expect(Array(period.maintenanceWindows.prefix(5)) == opens.map { Self.at(minutes: $0)..<Self.at(minutes: $0 + 5) })
    #expect(!power.isDozing(at: Self.at(minutes: 122)))
    #expect(power.isDozing(at: Self.at(minutes: 125)))
  }

  @Test func trialJitterOnlyMovesWithinDocumentedBounds() throws {
    let doze = DozeRules()
    var random = TrialRandom(seed: 24)
    var laterThanTheHour = 0
    for _ in 0..<500 {
      let power = Self.power(screenOn: [], jitter: random.nextUnit())
      let entry = try #require(power.dozePeriods.first).start
      #expect(entry >= Self.start.advanced(by: doze.enterAfter))
      #expect(entry < Self.start.advanced(by: doze.enterAfter + doze.enterSpread))
      if entry > Self.start.advanced(by: doze.enterAfter) { laterThanTheHour += 1 }
    }
    #expect(laterThanTheHour > 0)
    let dispatcher = AlarmDispatcher(rules: AndroidAlarmRules(), power: Self.power())
    for _ in 0..<500 {
      let alarm = Self.alarm(.window, minutes: 60, window: .minutes(20), position: random.nextUnit())
      let instant = dispatcher.plan(alarm, notBefore: Self.start).instant
      #expect(instant >= Self.at(minutes: 60) && instant < Self.at(minutes: 80))
    }
  }

  // MARK: - Permission and header

  @Test func exactAlarmPermissionByVersionAndInstall() {
    var rules = AndroidAlarmRules()
    #expect(!rules.initialExactAlarmPermission)  // Android 14, fresh
    rules.install = .upgrade
    #expect(rules.initialExactAlarmPermission)
    rules.install = .fresh
    rules.androidVersion = 13
    #expect(rules.initialExactAlarmPermission)
    rules.androidVersion = 15
    rules.useExactAlarm = true
    #expect(rules.initialExactAlarmPermission)
    rules.exactAlarmPermission = .denied
    #expect(!rules.initialExactAlarmPermission)
    #expect(AndroidAlarmKind.allCases.filter(\.needsExactPermission) == [.exact, .exactWhileIdle, .alarmClock])
  }

  @Test func headersPrintTheDefaultsAndOnlyChangedExtras() {
    #expect(
      AndroidAlarmRules().summary
        == "android-version=14 install=fresh exact-alarms=denied inexact-window=1h min-window=10m inexact-timing=latest while-idle-spacing=9m exact-while-idle=72/h bucket=working-set"
    )
    var rules = AndroidAlarmRules()
    rules.batterySaverAlarms = .unrestricted
    #expect(rules.summary.hasSuffix("bucket=working-set battery-saver-alarms=unrestricted"))
    #expect(DozeRules().summary == "doze=on enter-after=1h maintenance-after=1h,2h,4h maintenance-every=6h maintenance-length=30s")
    var off = DozeRules()
    off.enabled = false
    #expect(off.summary == "doze=off")
  }

  // MARK: - Properties

  /// With Doze off, no killers and exact alarms, every alarm fires at its
  /// trigger; with the permission-free kinds, never before it.
  @Test func withoutDozeExactAlarmsFireOnTimeAndInexactNeverEarly() {
    var random = TrialRandom(seed: 2024)
    var off = DozeRules()
    off.enabled = false
    for _ in 0..<50 {
      let power = Self.power(doze: off, screenOn: [], buckets: [(Self.start, .active)])
      var exact = AlarmDispatcher(rules: AndroidAlarmRules(), power: power)
      var inexact = AlarmDispatcher(rules: AndroidAlarmRules(), power: power)
      let times = (0..<30).map { _ in random.next(below: 47 * 60) }.sorted()
      let exactKinds: [AndroidAlarmKind] = [.exact, .exactWhileIdle, .alarmClock]
      let exactAlarms = times.map { Self.alarm(exactKinds[Int(random.next(below: 3))], minutes: $0) }
      #expect(Self.fireAll(exactAlarms, dispatcher: &exact) == exactAlarms.map(\.triggerAt))
      let freeKinds = AndroidAlarmKind.allCases.filter { !$0.needsExactPermission }
      let freeAlarms = times.map {
        Self.alarm(freeKinds[Int(random.next(below: 3))], minutes: $0, window: .minutes(random.next(below: 30)), position: random.nextUnit())
      }
      let fired = Self.fireAll(freeAlarms, dispatcher: &inexact)
      #expect(zip(fired, freeAlarms).allSatisfy { $0 >= $1.triggerAt })
    }
  }
}
