import Testing

@testable import TrigsimCore

/// When `JobScheduler` runs WorkManager's work: one test per rule (the
/// manual, "Android work scheduling"). The power timelines are
/// `AlarmDispatcherTests`' (the run starts 2026-05-05T00:00Z).
@Suite struct WorkDispatcherTests {
  typealias A = AlarmDispatcherTests

  static func at(minutes: Int64) -> SimulationInstant { A.at(minutes: minutes) }

  /// Plans work due at `due`, re-asking at each planned instant as the engine does, then runs it.
  static func run(due: SimulationInstant, _ dispatcher: inout WorkDispatcher) -> SimulationInstant {
    var plan = dispatcher.plan(due: due, notBefore: due)
    var again = dispatcher.plan(due: due, notBefore: plan.instant)
    while again.instant != plan.instant {
      plan = again
      again = dispatcher.plan(due: due, notBefore: plan.instant)
    }
    dispatcher.ran(at: plan.instant)
    return plan.instant
  }

  @Test func delayHonouredNeverEarly() {
    let dispatcher = WorkDispatcher(rules: AndroidWorkRules(), power: A.power(buckets: [(A.start, .active)]))
    #expect(dispatcher.plan(due: Self.at(minutes: 15), notBefore: A.start) == WorkPlan(instant: Self.at(minutes: 15), reason: nil))
  }

  @Test func dozeDefersWorkToTheMaintenanceWindow() {
    let dispatcher = WorkDispatcher(rules: AndroidWorkRules(), power: A.dozing)
    // Due 01:30 in Doze (from 01:00): the first maintenance window opens at 02:00.
    let plan = dispatcher.plan(due: Self.at(minutes: 90), notBefore: A.start)
    #expect(plan.instant == Self.at(minutes: 120))
    #expect(plan.reason == "deferred by Doze to the maintenance window at 2026-05-05T02:00:00.000Z")
  }

  @Test func dozeEndingReleasesWork() {
    // Screen off from the start, on at 03:00: Doze 01:00–03:00 with its window at 02:00; work due 02:10 waits for the screen.
    let dispatcher = WorkDispatcher(rules: AndroidWorkRules(), power: A.power(screenOn: [Self.at(minutes: 180)], buckets: [(A.start, .active)]))
    let plan = dispatcher.plan(due: Self.at(minutes: 130), notBefore: A.start)
    #expect(plan.instant == Self.at(minutes: 180))
    #expect(plan.reason == "deferred by Doze until it ends at 2026-05-05T03:00:00.000Z")
  }

  @Test func bucketLimitsOneJobWindowPerPeriod() {
    for (bucket, hours) in [(StandbyBucket.workingSet, Int64(2)), (.frequent, 8), (.rare, 24)] {
      var dispatcher = WorkDispatcher(rules: AndroidWorkRules(), power: A.power(buckets: [(A.start, bucket)]))
      // The first job opens a 10-minute window; a job inside it runs; one after it waits for the next window.
      #expect(Self.run(due: Self.at(minutes: 10), &dispatcher) == Self.at(minutes: 10))
      #expect(Self.run(due: Self.at(minutes: 19), &dispatcher) == Self.at(minutes: 19))
      let plan = dispatcher.plan(due: Self.at(minutes: 30), notBefore: Self.at(minutes: 30))
      #expect(plan.instant == Self.at(minutes: 10 + hours * 60), "\(bucket)")
      #expect(plan.reason?.hasPrefix("standby bucket \(bucket.rawValue) runs jobs in one 10m window every \(SimulationDuration.hours(hours))") == true)
    }
  }

  @Test func restrictedBucketRunsOneJobADay() {
    var dispatcher = WorkDispatcher(rules: AndroidWorkRules(), power: A.power(buckets: [(A.start, .restricted)]))
    #expect(Self.run(due: Self.at(minutes: 10), &dispatcher) == Self.at(minutes: 10))
    #expect(Self.run(due: Self.at(minutes: 10), &dispatcher) == Self.at(minutes: 10 + 24 * 60))
  }

  @Test func activeBucketHasNoJobLimit() {
    var dispatcher = WorkDispatcher(rules: AndroidWorkRules(), power: A.power(buckets: [(A.start, .active)]))
    #expect(Self.run(due: Self.at(minutes: 10), &dispatcher) == Self.at(minutes: 10))
    #expect(Self.run(due: Self.at(minutes: 40), &dispatcher) == Self.at(minutes: 40))
  }

  @Test func chargingLiftsDozeAndBucketLimits() {
    let plugged = Self.at(minutes: 80)..<Self.at(minutes: 300)
    // Left alone: Doze would hold work due 01:30 until 02:00; plugged in at 01:20, Doze ends and it runs on time.
    let dozing = WorkDispatcher(rules: AndroidWorkRules(), power: A.power(screenOn: [], charging: [plugged]))
    #expect(dozing.plan(due: Self.at(minutes: 90), notBefore: A.start) == WorkPlan(instant: Self.at(minutes: 90), reason: nil))
    // Rare bucket: after a job at 00:10 the next window is a day later, but on the charger a job runs at once.
    var rare = WorkDispatcher(rules: AndroidWorkRules(), power: A.power(charging: [plugged], buckets: [(A.start, .rare)]))
    #expect(Self.run(due: Self.at(minutes: 10), &rare) == Self.at(minutes: 10))
    #expect(Self.run(due: Self.at(minutes: 100), &rare) == Self.at(minutes: 100))
    // Unplugged again at 05:00: the window opened at 00:10 still counts.
    #expect(Self.run(due: Self.at(minutes: 301), &rare) == Self.at(minutes: 10 + 24 * 60))
  }

  @Test func batterySaverDefersJobsUntilItEndsUnlessUnrestricted() {
    let saver = [Self.at(minutes: 30)..<Self.at(minutes: 150)]
    let deferred = WorkDispatcher(rules: AndroidWorkRules(), power: A.power(batterySaver: saver, buckets: [(A.start, .active)]))
    let plan = deferred.plan(due: Self.at(minutes: 60), notBefore: A.start)
    #expect(plan.instant == Self.at(minutes: 150))
    #expect(plan.reason == "deferred by Battery Saver until 2026-05-05T02:30:00.000Z")
    var rules = AndroidWorkRules()
    rules.batterySaverJobs = .unrestricted
    let unrestricted = WorkDispatcher(rules: rules, power: A.power(batterySaver: saver, buckets: [(A.start, .active)]))
    #expect(unrestricted.plan(due: Self.at(minutes: 60), notBefore: A.start).instant == Self.at(minutes: 60))
  }

  @Test func minPeriodicIntervalAndFlexAreRaised() {
    let rules = AndroidWorkRules()
    let short = rules.periodicSchedule(every: .minutes(5), flex: .minutes(1))
    #expect(short.every == .minutes(15))
    #expect(short.flex == .minutes(5))
    #expect(short.raised.count == 2)
    let long = rules.periodicSchedule(every: .hours(24), flex: .hours(30))
    #expect(long.every == .hours(24))
    #expect(long.flex == .hours(24))
    let fine = rules.periodicSchedule(every: .hours(1), flex: nil)
    #expect(fine.every == .hours(1) && fine.flex == nil && fine.raised.isEmpty)
  }

  @Test func summaryPrintsOnlySettingsThatDifferFromTheDefault() {
    var rules = AndroidWorkRules()
    #expect(rules.summary == "")
    rules.batterySaverJobs = .unrestricted
    rules.rareJobs = JobWindowLimit(window: .minutes(10), every: .hours(12))
    #expect(rules.summary == "rare-jobs=10m/12h battery-saver-jobs=unrestricted")
  }
}
