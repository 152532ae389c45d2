/// When a piece of work runs, and why later than its schedule asked.
public struct WorkPlan: Sendable, Equatable {
  public var instant: SimulationInstant
  /// Why `instant` is later than asked, in plain English (each rule that
  /// moved it, in the order applied, joined by "; "); nil when on time.
  public var reason: String?

  public init(instant: SimulationInstant, reason: String?) {
    self.instant = instant
    self.reason = reason
  }
}

/// `JobScheduler` for the app's WorkManager work: when each piece of work
/// runs under the work rules and the device's power state, and the app's
/// job window that the standby bucket's limit counts.
///
/// The rules, applied together until none moves the work (the most
/// restrictive applicable one takes effect: power-details table):
/// - never before its schedule (the delay; the period after the previous run);
/// - in Doze, jobs wait for the next maintenance window or Doze's end
///   ("Optimize for Doze and App Standby": the system does not run jobs in
///   Doze; they run in the maintenance windows);
/// - under Battery Saver (`batterySaverJobs: deferred`), jobs wait until it ends;
/// - on battery, the standby bucket's job limit: one window of `window` every
///   `every`, counted from the window the app last opened;
/// - charging lifts the bucket limit and Battery Saver (and Doze ends when plugged in).
///
/// Each rule moves the work to the earliest instant it allows: the single
/// run's reading (`AndroidWorkRules`).
public struct WorkDispatcher: Sendable {
  public let rules: AndroidWorkRules
  public let power: AndroidPowerTimeline
  /// How a reason names an instant (the engine gives the device's local time, as the timeline prints it).
  public let describe: @Sendable (SimulationInstant) -> String
  /// When the app's current (or last) bucket job window opened.
  private(set) var windowOpenedAt: SimulationInstant?

  public init(rules: AndroidWorkRules, power: AndroidPowerTimeline, describe: @escaping @Sendable (SimulationInstant) -> String = { $0.description }) {
    self.rules = rules
    self.power = power
    self.describe = describe
  }

  /// The most times one plan may move the work (each move is strictly later).
  static let mostMoves = 100_000

  /// When work scheduled for `due` runs, looking from `notBefore` (the
  /// enqueue time, or, re-asked when it is due, now).
  public func plan(due: SimulationInstant, notBefore: SimulationInstant) -> WorkPlan {
    var instant = max(due, notBefore)
    var reasons: [String] = []
    for _ in 0..<Self.mostMoves {
      guard let move = nextMove(at: instant) else { break }
      instant = move.to
      reasons.append(move.reason)
    }
    return WorkPlan(instant: instant, reason: instant > due && !reasons.isEmpty ? reasons.joined(separator: "; ") : nil)
  }

  /// The work ran at `instant`: on battery under a bucket limit, it opens the app's job window unless one is open.
  public mutating func ran(at instant: SimulationInstant) {
    guard !power.isCharging(at: instant), let limit = rules.limit(for: power.bucket(at: instant)) else { return }
    if let opened = windowOpenedAt, instant < opened.advanced(by: limit.window) { return }
    windowOpenedAt = instant
  }

  /// The first rule that holds work back at `instant`: where it moves it, and why.
  private func nextMove(at instant: SimulationInstant) -> (to: SimulationInstant, reason: String)? {
    if power.isDozing(at: instant), let release = power.nextRelease(after: instant), release.at > instant {
      let reason =
        release.maintenance
        ? "deferred by Doze to the maintenance window at \(describe(release.at))" : "deferred by Doze until it ends at \(describe(release.at))"
      return (release.at, reason)
    }
    guard !power.isCharging(at: instant) else { return nil }
    if rules.batterySaverJobs == .deferred && power.batterySaver(at: instant), let release = power.batterySaverRelease(after: instant),
      release > instant
    {
      return (release, "deferred by Battery Saver until \(describe(release))")
    }
    let bucket = power.bucket(at: instant)
    if let limit = rules.limit(for: bucket), let opened = windowOpenedAt {
      let windowEnd = opened.advanced(by: limit.window)
      let next = opened.advanced(by: limit.every)
      if instant >= windowEnd && instant < next {
        let window = limit.window == .zero ? "one job" : "jobs in one \(limit.window) window"
        return (next, "standby bucket \(bucket.rawValue) runs \(window) every \(limit.every): deferred to the next window at \(describe(next))")
      }
    }
    return nil
  }
}
