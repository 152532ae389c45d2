/// When an alarm fires, and why later than asked.
public struct AlarmPlan: Sendable, Equatable {
  public var instant: SimulationInstant
  /// Why `instant` is later than the alarm's `triggerAt`, in plain English
  /// (each rule that moved it, in the order applied, joined by "; "); nil when
  /// it is on time, or when only `notBefore` made it late (the engine knows why).
  public var reason: String?
  /// The rule that moved it last (the one it now waits for); nil when none did.
  public var cause: AlarmDeferralCause?
  /// The registry settings whose reading could have changed this plan (the
  /// engine consults them: `AssumptionLog.consult(_:)`).
  public var consulted: Set<AssumptionID> = []

  public init(instant: SimulationInstant, reason: String?, cause: AlarmDeferralCause? = nil) {
    self.instant = instant
    self.reason = reason
    self.cause = cause
  }
}

/// Which rule holds an alarm back. The timeline says an alarm is deferred
/// once per cause: an alarm that the same rule holds again when it comes due
/// (a backlog behind a bucket quota that frees one place at a time) is queued
/// again without another entry, so entries grow with the alarms, not with the
/// square of the backlog.
public enum AlarmDeferralCause: String, Sendable, Equatable {
  case doze
  case batterySaver
  case bucketQuota
  case bucketChange
  case whileIdleQuota
}

/// Android's `AlarmManager` for one app: when each alarm fires under the
/// alarm rules and the device's power state, and the app's history of fired
/// alarms that the while-idle and bucket quotas count.
///
/// The rules, applied together until none moves the alarm (the most
/// restrictive applicable one takes effect: power-details table):
/// - an inexact alarm fires within `inexactWindow` after its time, a window
///   alarm within its window (at least `minWindow`), never early;
/// - in Doze, regular alarms wait for the next maintenance window or Doze's
///   end; exact while-idle alarms fire within `exactWhileIdleQuota` (one per
///   nine minutes up to Android 11, a reading from 12), inexact while-idle ones at most one per `whileIdleInexactSpacing`;
/// - on battery, the standby bucket's alarm quota (`AndroidAlarmRules.quota(for:)`),
///   judged again whenever the bucket changes (`AndroidPowerTimeline.buckets`);
/// - under Battery Saver (`batterySaverAlarms: deferred`), regular alarms wait
///   until it ends, while-idle alarms keep their while-idle quotas;
/// - alarm-clock alarms (`alarmClockExemption`) fire at their time whatever the state.
public struct AlarmDispatcher: Sendable {
  public let rules: AndroidAlarmRules
  public let power: AndroidPowerTimeline
  /// How a reason names an instant (the engine gives the device's local time, as the timeline prints it).
  public let describe: @Sendable (SimulationInstant) -> String
  /// Every fired exact while-idle alarm, in time order (the hourly quota).
  private(set) var exactWhileIdleFires: [SimulationInstant] = []
  /// The last fired inexact while-idle alarm (the spacing).
  private(set) var lastInexactWhileIdleFire: SimulationInstant?
  /// Every fired alarm that the bucket quota counts, in time order.
  private(set) var bucketCountedFires: [SimulationInstant] = []

  public init(rules: AndroidAlarmRules, power: AndroidPowerTimeline, describe: @escaping @Sendable (SimulationInstant) -> String = { $0.description }) {
    self.rules = rules
    self.power = power
    self.describe = describe
  }

  /// The most times one plan may move an alarm before giving up (each move is
  /// strictly later; a run has far fewer Doze, quota and Battery Saver edges).
  static let mostMoves = 100_000

  /// Whether `alarm` ignores Doze, the bucket and Battery Saver.
  func isExempt(_ alarm: AndroidAlarm) -> Bool { alarm.kind == .alarmClock && rules.alarmClockExemption }

  /// The earliest and latest instant the alarm's kind allows, before any power rule.
  public func allowedWindow(_ alarm: AndroidAlarm) -> ClosedRange<SimulationInstant> {
    switch alarm.kind {
    case .exact, .exactWhileIdle, .alarmClock:
      return alarm.triggerAt...alarm.triggerAt
    case .inexact, .inexactWhileIdle:
      return alarm.triggerAt...alarm.triggerAt.advanced(by: rules.inexactWindow)
    case .window:
      let asked = max(alarm.window ?? .zero, .zero)
      let length = rules.hasAPI31AlarmRules ? max(asked, rules.minWindow) : asked
      return alarm.triggerAt...alarm.triggerAt.advanced(by: length)
    }
  }

  /// When `alarm` fires if nothing else happens, looking from `notBefore`
  /// (the set time, or, re-asked when it is due, now). The engine queues it
  /// at `plan.instant` and asks again then; it fires when the answer is that instant.
  public func plan(_ alarm: AndroidAlarm, notBefore: SimulationInstant) -> AlarmPlan {
    let allowed = allowedWindow(alarm)
    var reasons: [String] = []
    var consulted: Set<AssumptionID> = []
    var desired = allowed.lowerBound
    if alarm.kind.isInexact && allowed.upperBound > allowed.lowerBound {
      let span = allowed.lowerBound.duration(to: allowed.upperBound)
      let what = alarm.kind == .window ? "window alarm" : "inexact alarm"
      if let position = alarm.windowPosition {
        let offset = Int64((min(max(position, 0), 1) * Double(span.milliseconds)).rounded(.down))
        desired = allowed.lowerBound.advanced(byMilliseconds: min(offset, span.milliseconds))
        if offset > 0 { reasons.append("\(what): fires \(SimulationDuration(milliseconds: offset)) into its \(span) window (drawn)") }
      } else {
        // A single run: where in its window is a reading (the documentation gives only the bound).
        consulted.insert(.inexactTiming)
        if rules.inexactTiming == .latest {
          desired = allowed.upperBound
          reasons.append("\(what): fires at the end of its \(span) window (inexactTiming latest)")
        }
      }
    }
    var instant = max(desired, notBefore)
    var cause: AlarmDeferralCause?
    if !isExempt(alarm) {
      for _ in 0..<Self.mostMoves {
        guard let move = nextMove(alarm, at: instant, consulted: &consulted) else { break }
        instant = move.to
        reasons.append(move.reason)
        cause = move.cause
      }
    }
    var plan = AlarmPlan(instant: instant, reason: instant > alarm.triggerAt && !reasons.isEmpty ? reasons.joined(separator: "; ") : nil, cause: cause)
    plan.consulted = consulted
    return plan
  }

  /// The alarm fired at `at` (counts against the while-idle and bucket quotas).
  public mutating func fired(_ alarm: AndroidAlarm, at instant: SimulationInstant) {
    switch alarm.kind {
    case .exactWhileIdle: Self.insert(instant, into: &exactWhileIdleFires)
    case .inexactWhileIdle: lastInexactWhileIdleFire = max(lastInexactWhileIdleFire ?? instant, instant)
    default: break
    }
    if !isExempt(alarm) { Self.insert(instant, into: &bucketCountedFires) }
  }

  private static func insert(_ instant: SimulationInstant, into fires: inout [SimulationInstant]) {
    fires.insert(instant, at: fires.partitioningIndex { $0 > instant })
  }

  // MARK: - The rules

  /// The first rule that holds the alarm back at `instant`: where it moves it, and why.
  private func nextMove(_ alarm: AndroidAlarm, at instant: SimulationInstant, consulted: inout Set<AssumptionID>)
    -> (to: SimulationInstant, reason: String, cause: AlarmDeferralCause)?
  {
    if power.isDozing(at: instant) {
      if alarm.kind.allowedWhileIdle {
        if let move = whileIdleMove(alarm, at: instant, state: "Doze", consulted: &consulted) { return move }
      } else if let release = power.nextRelease(after: instant) {
        let reason =
          release.maintenance
          ? "deferred by Doze to the maintenance window at \(describe(release.at))" : "deferred by Doze until it ends at \(describe(release.at))"
        return (release.at, reason, .doze)
      }
    }
    let charging = power.isCharging(at: instant)
    if !charging && rules.batterySaverAlarms == .deferred && power.batterySaver(at: instant) {
      if alarm.kind.allowedWhileIdle {
        if let move = whileIdleMove(alarm, at: instant, state: "Battery Saver", consulted: &consulted) { return move }
      } else if let release = power.batterySaverRelease(after: instant), release > instant {
        return (release, "deferred by Battery Saver until \(describe(release))", .batterySaver)
      }
    }
    if !charging {
      let bucket = power.bucket(at: instant)
      // From Android 13 the power-details table states no bucket alarm limits (the registry's `bucketLimits`).
      if rules.androidVersion >= 13 {
        var everywhere = rules
        everywhere.bucketLimitScope = .allVersions
        if let quota = everywhere.quota(for: bucket), Self.quotaRelease(bucketCountedFires, quota: quota, at: instant) != nil {
          consulted.insert(.bucketLimits)
        }
      }
      if let quota = rules.quota(for: bucket), let until = Self.quotaRelease(bucketCountedFires, quota: quota, at: instant) {
        let limit = "standby bucket \(bucket.rawValue) allows \(quota.count) alarm\(quota.count == 1 ? "" : "s") per \(quota.period)"
        // The bucket changes before the quota frees a place: the alarm is judged again under the new bucket then
        // (AOSP's AlarmManagerService re-evaluates an app's alarms when its bucket changes).
        if let change = power.nextBucketChange(after: instant), change.at < until {
          return (change.at, "\(limit): deferred until the bucket changes to \(change.bucket.rawValue) at \(describe(change.at))", .bucketChange)
        }
        return (until, "\(limit): deferred to \(describe(until))", .bucketQuota)
      }
    }
    return nil
  }

  /// The while-idle quota of `alarm`'s kind at `instant`, in Doze or Battery
  /// Saver. An exact while-idle alarm whose fate differs between the readings
  /// of `exactWhileIdleQuota` (Android 12 and later, no figure stated)
  /// consults it.
  private func whileIdleMove(_ alarm: AndroidAlarm, at instant: SimulationInstant, state: String, consulted: inout Set<AssumptionID>)
    -> (to: SimulationInstant, reason: String, cause: AlarmDeferralCause)?
  {
    switch alarm.kind {
    case .exactWhileIdle:
      let quota = rules.exactWhileIdleQuota
      let until = Self.quotaRelease(exactWhileIdleFires, quota: quota, at: instant)
      if rules.exactWhileIdleQuotaIsAReading,
        ExactWhileIdleQuota.allCases.contains(where: { Self.quotaRelease(exactWhileIdleFires, quota: $0.quota, at: instant) != until })
      {
        consulted.insert(.exactWhileIdleQuota)
      }
      guard let until else { return nil }
      let limit = quota.period == .hours(1) ? "\(quota.count) per hour" : "\(quota.count == 1 ? "one" : "\(quota.count)") per \(quota.period)"
      let which = rules.exactWhileIdleQuotaIsAReading ? " (exactWhileIdleQuota \(rules.exactWhileIdleReading.rawValue))" : ""
      return (until, "exact while-idle alarms in \(state) are limited to \(limit)\(which): deferred to \(describe(until))", .whileIdleQuota)
    case .inexactWhileIdle:
      guard let last = lastInexactWhileIdleFire else { return nil }
      let until = last.advanced(by: rules.whileIdleInexactSpacing)
      guard instant < until else { return nil }
      return (until, "inexact while-idle alarms in \(state) are limited to one per \(rules.whileIdleInexactSpacing): deferred to \(describe(until))", .whileIdleQuota)
    default:
      return nil
    }
  }

  /// When a fire in `fires` (sorted) next leaves the rolling window so that
  /// one more fits `quota` at or after `instant`; nil when one fits at `instant`.
  static func quotaRelease(_ fires: [SimulationInstant], quota: AlarmQuota, at instant: SimulationInstant) -> SimulationInstant? {
    let windowStart = instant.advanced(by: SimulationDuration(milliseconds: -quota.period.milliseconds))
    // `fires` is sorted: the fires in (windowStart, instant] by two binary searches.
    let first = fires.partitioningIndex { $0 > windowStart }
    let afterLast = fires.partitioningIndex { $0 > instant }
    let count = afterLast - first
    guard quota.count > 0, count >= quota.count else { return nil }  // a quota of none would hold the alarm for ever; the reader refuses it
    return fires[afterLast - quota.count].advanced(by: quota.period)
  }
}
