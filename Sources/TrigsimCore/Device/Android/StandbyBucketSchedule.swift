/// How long after the patient last opened the app it drops to each lower
/// App Standby bucket, when the bucket follows use
/// (`AndroidAlarmRules.bucketsFollowUse`).
///
/// The defaults are AOSP's `AppStandbyController` elapsed-time thresholds
/// (`DEFAULT_ELAPSED_TIME_THRESHOLDS`: 12 h working set, 24 h frequent, 48 h
/// rare, 8 days restricted). AOSP also asks for screen-on time since the last
/// use (1 h for frequent, 2 h for rare, 6 h for restricted); trigsim does not
/// know it and leaves it out, so the app decays at the earliest instant the
/// elapsed time allows (the reading under which no alarm runs that a phone
/// could have held back).
public struct StandbyBucketDecay: Sendable, Equatable, CustomStringConvertible {
  public var workingSet: SimulationDuration = .hours(12)
  public var frequent: SimulationDuration = .hours(24)
  public var rare: SimulationDuration = .hours(48)
  /// Only on Android 11 and later (`STANDBY_BUCKET_RESTRICTED`, API 30).
  public var restricted: SimulationDuration = .hours(8 * 24)

  public init() {}

  /// The elapsed time since the last use at which the app enters `bucket` (active: zero).
  public func threshold(for bucket: StandbyBucket) -> SimulationDuration {
    switch bucket {
    case .active: .zero
    case .workingSet: workingSet
    case .frequent: frequent
    case .rare: rare
    case .restricted: restricted
    }
  }

  /// Whether each threshold is later than the one before (the reader asks it).
  public var isIncreasing: Bool { .zero < workingSet && workingSet < frequent && frequent < rare && rare < restricted }

  /// `12h,1d,2d,8d`.
  public var description: String { [workingSet, frequent, rare, restricted].map(\.description).joined(separator: ",") }
}

/// One change of the app's standby bucket, and why.
public struct StandbyBucketChange: Sendable, Equatable {
  public var at: SimulationInstant
  public var bucket: StandbyBucket
  public var from: StandbyBucket
  public var reason: String

  public init(at: SimulationInstant, bucket: StandbyBucket, from: StandbyBucket, reason: String) {
    self.at = at
    self.bucket = bucket
    self.from = from
    self.reason = reason
  }
}

/// The app's standby bucket over a run, known up front from the scenario.
///
/// The rules (developer.android.com, "App Standby Buckets"; AOSP
/// `AppStandbyController`):
/// - a bucket the scenario sets (`app: - standbyBucket:`, as `adb shell am
///   set-standby-bucket` or the system's own judgement would) holds from its
///   instant; with `bucketsFollowUse` it holds until the patient next opens
///   the app (AOSP leaves a forced bucket alone until a usage event);
/// - with `bucketsFollowUse`, opening the app (it comes to the foreground,
///   AOSP's `ACTIVITY_RESUMED`) makes it active, and the bucket then drops with
///   the time since that use at `StandbyBucketDecay`'s thresholds;
/// - at the run's start the app is in `AndroidAlarmRules.standbyBucket`, taken
///   (with `bucketsFollowUse`) to have just reached it: it drops to the next
///   bucket once the next threshold's difference has passed.
///
/// Only the instants the scenario states count as use: a tap on a
/// notification or a notification action in the run also counts on a phone
/// (AOSP's `USER_INTERACTION`), but is not known up front; leaving it out
/// lets the app decay sooner, the reading under which no alarm runs that a
/// phone could have held back.
public enum StandbyBucketSchedule {
  /// The buckets in the order the app decays through them.
  static let decayOrder: [StandbyBucket] = [.active, .workingSet, .frequent, .rare, .restricted]

  /// The bucket changes after the run's start, in time order, each a real change.
  /// - Parameters:
  ///   - rules: the starting bucket, whether buckets follow use, the thresholds.
  ///   - start: the run's start (the app is in `rules.standbyBucket` then).
  ///   - end: the run's end (no change after it).
  ///   - uses: when the patient opens the app (sorted or not).
  ///   - scripted: the scenario's bucket changes, in time order.
  public static func changes(
    rules: AndroidAlarmRules, start: SimulationInstant, end: SimulationInstant, uses: [SimulationInstant],
    scripted: [(at: SimulationInstant, bucket: StandbyBucket)]
  ) -> [StandbyBucketChange] {
    let followsUse = rules.bucketsFollowUse
    // Events in time order: a use before a scripted change at the same instant (the scenario's bucket wins).
    var events: [(at: SimulationInstant, scripted: StandbyBucket?)] = []
    if followsUse { events += uses.filter { $0 >= start && $0 <= end }.map { ($0, nil) } }
    events += scripted.filter { $0.at >= start && $0.at <= end }.map { ($0.at, $0.bucket) }
    events = events.enumerated().sorted {
      ($0.element.at, $0.element.scripted == nil ? 0 : 1, $0.offset) < ($1.element.at, $1.element.scripted == nil ? 0 : 1, $1.offset)
    }.map(\.element)

    var changes: [StandbyBucketChange] = []
    var bucket = rules.standbyBucket
    // The instant the decay counts from, nil while a scripted bucket holds (or when buckets do not follow use).
    var lastUse: SimulationInstant? = followsUse ? start.advanced(by: SimulationDuration(milliseconds: -rules.bucketDecay.threshold(for: bucket).milliseconds)) : nil
    var lastUseIsStart = true

    func change(to new: StandbyBucket, at instant: SimulationInstant, _ reason: String) {
      guard new != bucket else { return }
      changes.append(StandbyBucketChange(at: instant, bucket: new, from: bucket, reason: reason))
      bucket = new
    }
    /// The decay steps from `lastUse` in `after..<before`.
    func decay(after: SimulationInstant, before: SimulationInstant?) {
      guard let used = lastUse else { return }
      for next in decayOrder where decayOrder.firstIndex(of: next)! > decayOrder.firstIndex(of: bucket)! {
        if next == .restricted && rules.androidVersion < 11 { break }
        let threshold = rules.bucketDecay.threshold(for: next)
        let instant = used.advanced(by: threshold)
        guard instant <= end, before.map({ instant < $0 }) ?? true else { break }
        if instant < after { continue }
        let started =
          lastUseIsStart
          ? " (the run began in \(rules.standbyBucket.rawValue), taken as \(rules.bucketDecay.threshold(for: rules.standbyBucket)) without use)" : ""
        change(to: next, at: instant, "not opened for \(threshold)\(started): AppStandbyController's elapsed-time threshold for \(next.rawValue)")
      }
    }

    var cursor = start
    for event in events {
      decay(after: cursor, before: event.at)
      if let scripted = event.scripted {
        change(
          to: scripted, at: event.at,
          followsUse ? "set by the scenario; it holds until the patient next opens the app" : "set by the scenario")
        lastUse = nil
      } else {
        change(to: .active, at: event.at, "the patient opened the app")
        lastUse = event.at
        lastUseIsStart = false
      }
      cursor = event.at
    }
    decay(after: cursor, before: nil)
    return changes
  }

  /// `changes` (from `start` in `base`) with the phone maker's sleeping
  /// spans laid over them: inside a span the app is in the restricted
  /// bucket whatever the schedule says; a span's end (the patient opened the
  /// app) returns it to the schedule's bucket. Every real change, in time order.
  /// - Parameters:
  ///   - changes: the schedule's changes, in time order.
  ///   - base: the bucket before the first change.
  ///   - start: the run's start.
  ///   - sleeping: the spans the maker keeps the app asleep, in time order.
  ///   - sleepAfter: how long unused before the maker puts the app to sleep (for the reason).
  public static func withMakerSleep(
    _ changes: [StandbyBucketChange], base: StandbyBucket, start: SimulationInstant, sleeping: [Range<SimulationInstant>], sleepAfter: SimulationDuration
  ) -> [StandbyBucketChange] {
    guard !sleeping.isEmpty else { return changes }
    func scheduled(at instant: SimulationInstant) -> (bucket: StandbyBucket, reason: String?) {
      guard let last = changes.last(where: { $0.at <= instant }) else { return (base, nil) }
      return (last.bucket, last.reason)
    }
    func asleep(_ instant: SimulationInstant) -> Bool { sleeping.contains { $0.contains(instant) } }
    var instants = changes.map(\.at) + sleeping.flatMap { [$0.lowerBound, $0.upperBound] }
    instants = Array(Set(instants)).filter { $0 > start }.sorted()
    var result: [StandbyBucketChange] = []
    var current = base
    for instant in instants {
      let schedule = scheduled(at: instant)
      let sleepingNow = asleep(instant)
      let new = sleepingNow ? StandbyBucket.restricted : schedule.bucket
      guard new != current else { continue }
      let reason: String
      if sleepingNow {
        reason = "not opened for \(sleepAfter): the phone maker puts the app to sleep, in the restricted bucket (developer.samsung.com, \"Samsung Application Management\")"
      } else if sleeping.contains(where: { $0.upperBound == instant }) {
        reason = "the patient opened the app: it no longer sleeps" + (schedule.reason.map { "; \($0)" } ?? "")
      } else {
        reason = schedule.reason ?? "the schedule's bucket"
      }
      result.append(StandbyBucketChange(at: instant, bucket: new, from: current, reason: reason))
      current = new
    }
    return result
  }
}

