/// What Battery Saver does to the app's jobs (WorkManager runs its work as `JobScheduler` jobs).
public enum BatterySaverJobs: String, Sendable, CaseIterable {
  /// Jobs wait until Battery Saver ends or the phone charges. Android 9's
  /// "Power management" page says Battery Saver applies the background
  /// execution limits to every app, and AOSP's `JobSchedulerService` stops
  /// background jobs of apps under those limits while it is on; the
  /// power-details table gives no Battery Saver row for jobs. The
  /// pessimistic reading, the default.
  case deferred
  /// Battery Saver does not touch jobs (only Doze and the bucket do).
  case unrestricted
}

/// A standby bucket's job limit while on battery: the app's jobs run in one
/// window of `window` every `every` (power-details table, footnote to
/// "Jobs": "the app gets a 10-minute window at the specified interval; after
/// the 10 minutes, all jobs are deferred to the next window").
public struct JobWindowLimit: Sendable, Equatable, CustomStringConvertible {
  public var window: SimulationDuration
  public var every: SimulationDuration

  public init(window: SimulationDuration, every: SimulationDuration) {
    self.window = window
    self.every = every
  }

  /// `10m/2h`.
  public var description: String { "\(window)/\(every)" }
}

/// When the system runs the app's WorkManager work (`JobScheduler` under
/// it): every field a named setting with its default and source (the
/// manual, "Android work scheduling").
///
/// The reading for a single run: work runs at the EARLIEST instant the
/// rules below allow (the system is free to run it later, and trials do not
/// draw that yet); so a run never shows work later than a phone must run it
/// and the lateness it shows is the documented minimum.
public struct AndroidWorkRules: Sendable, Equatable {
  /// The shortest repeat interval of periodic work; shorter ones are raised to
  /// it (`PeriodicWorkRequest.MIN_PERIODIC_INTERVAL_MILLIS`, 15 minutes;
  /// `PeriodicWorkRequest` reference: "Periodic work has a minimum interval of 15 minutes").
  public var minPeriodicInterval: SimulationDuration = .minutes(15)
  /// The shortest flex window of periodic work; shorter ones are raised to it
  /// (`PeriodicWorkRequest.MIN_PERIODIC_FLEX_MILLIS`, 5 minutes; `PeriodicWorkRequest.Builder` reference).
  public var minFlex: SimulationDuration = .minutes(5)
  /// Job limits per standby bucket on battery (power-details table, "App
  /// Standby Buckets", jobs: working set 10 minutes every 2 hours, frequent
  /// every 8 hours, rare every 24 hours, restricted once a day; active no
  /// limit). The table heads them "Prior to Android 13"; its newer text still
  /// gives the rare bucket "10 minutes in a rolling 24 hour period", so they
  /// apply on every version (the pessimistic reading).
  public var workingSetJobs = JobWindowLimit(window: .minutes(10), every: .hours(2))
  public var frequentJobs = JobWindowLimit(window: .minutes(10), every: .hours(8))
  public var rareJobs = JobWindowLimit(window: .minutes(10), every: .hours(24))
  /// "Once a day": one job, no window after it.
  public var restrictedJobs = JobWindowLimit(window: .zero, every: .hours(24))
  /// What Battery Saver does to jobs. Default `deferred`.
  public var batterySaverJobs = BatterySaverJobs.deferred

  public init() {}

  /// The job limit of `bucket`, or nil when it has none.
  public func limit(for bucket: StandbyBucket) -> JobWindowLimit? {
    switch bucket {
    case .active: nil
    case .workingSet: workingSetJobs
    case .frequent: frequentJobs
    case .rare: rareJobs
    case .restricted: restrictedJobs
    }
  }

  /// The repeat interval and flex WorkManager uses for what the app asked:
  /// each raised to its minimum, the flex at most the interval (the builder
  /// clamps it so); and what was raised, in plain English (the timeline's warning).
  public func periodicSchedule(every asked: SimulationDuration, flex askedFlex: SimulationDuration?) -> (
    every: SimulationDuration, flex: SimulationDuration?, raised: [String]
  ) {
    var raised: [String] = []
    let every = max(asked, minPeriodicInterval)
    if every != asked {
      raised.append("the repeat interval \(asked) is raised to \(minPeriodicInterval) (PeriodicWorkRequest.MIN_PERIODIC_INTERVAL_MILLIS)")
    }
    guard let askedFlex else { return (every, nil, raised) }
    var flex = max(askedFlex, minFlex)
    if flex != askedFlex {
      raised.append("the flex \(askedFlex) is raised to \(minFlex) (PeriodicWorkRequest.MIN_PERIODIC_FLEX_MILLIS)")
    }
    if flex > every {
      flex = every
      raised.append("the flex is lowered to the interval \(every)")
    }
    return (every, flex, raised)
  }

  /// Empty with every default, else `work:` and each setting that differs
  /// from its default (the header prints only those, so old headers stay).
  public var summary: String {
    let defaults = AndroidWorkRules()
    var words: [String] = []
    if minPeriodicInterval != defaults.minPeriodicInterval { words.append("work-min-interval=\(minPeriodicInterval)") }
    if minFlex != defaults.minFlex { words.append("work-min-flex=\(minFlex)") }
    if workingSetJobs != defaults.workingSetJobs { words.append("working-set-jobs=\(workingSetJobs)") }
    if frequentJobs != defaults.frequentJobs { words.append("frequent-jobs=\(frequentJobs)") }
    if rareJobs != defaults.rareJobs { words.append("rare-jobs=\(rareJobs)") }
    if restrictedJobs != defaults.restrictedJobs { words.append("restricted-jobs=\(restrictedJobs)") }
    if batterySaverJobs != defaults.batterySaverJobs { words.append("battery-saver-jobs=\(batterySaverJobs.rawValue)") }
    return words.joined(separator: " ")
  }
}
