import ArgumentParser
import Foundation

/// The limits a batch (`test`, `record`) puts on each scenario's worker
/// process: wall time per scenario and resident memory per worker. A worker
/// past either is killed, its scenario reported `timedOut` or
/// `memoryExceeded` (exit 124) naming the limit, and a new worker goes on
/// with the rest of the batch (see `WorkerSupervisor`).
struct WorkerLimits: Equatable {
  /// Seconds one scenario may take, from the moment it is given to a worker; nil: no limit.
  var seconds: Int?
  /// Mebibytes of resident memory a worker may hold; nil: no limit.
  var mebibytes: Int?

  /// Five minutes (release build, 2 cores): the slowest bundled scenario
  /// (`pharmacy-quick-stop.yaml`, 1000 trials) takes 0.35 s, and the
  /// heaviest run the default `limits:` admit (988,000 entries, compared
  /// with its recorded timeline) 35 s, or 50 s when it differs; yet a
  /// runaway scenario holds a job of a CI runner for five minutes at most.
  static let defaultSeconds = 300
  /// 2 GiB (resident): the largest bundled scenario peaks at 33 MiB, and
  /// the heaviest run the default `limits:` admit (as above) at 1.37 GiB;
  /// with one job per core, a runner holds 2 GiB per core at most
  /// (4 GiB on 2 cores), far below what it has.
  static let defaultMebibytes = 2048

  static let standard = WorkerLimits(seconds: defaultSeconds, mebibytes: defaultMebibytes)

  /// How often the supervisor reads a busy worker's resident memory when
  /// there is a memory limit. A worker overshoots the limit by what it
  /// allocates in one period before it is killed: measured here, under
  /// 7 MiB (issue 27's runaway scenario grows by about 35 MB/s; the tests'
  /// `allocate` by about 120 MB/s on a loaded machine), and a worker could
  /// not fault in pages faster than a few GB/s.
  static let memorySamplingPeriod = Duration.milliseconds(50)

  /// A limit a scenario ran into, as its result names it.
  enum Limit: Equatable {
    case time(seconds: Int)
    case memory(mebibytes: Int)

    /// "the 300 s per-scenario time limit (--timeout)": the limit, not what
    /// was measured, so that a report is the same on every run.
    var description: String {
      switch self {
      case .time(let seconds): "the \(seconds) s per-scenario time limit (--timeout)"
      case .memory(let mebibytes): "the \(mebibytes) MiB per-worker memory limit (--memory-limit)"
      }
    }

    /// What to do about it.
    var advice: String {
      switch self {
      case .time: "a scenario meant to run this long needs a larger --timeout SECONDS (or --timeout none)"
      case .memory: "a scenario meant to use this much memory needs a larger --memory-limit MIB (or --memory-limit none)"
      }
    }
  }
}

/// `--timeout SECONDS` and `--memory-limit MIB`, for `test` and `record`:
/// each a positive whole number or `none`.
struct WorkerLimitFlags: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Stop a scenario that runs longer than this many seconds and report it as TIMEOUT (exit 124); 'none' for no limit (default: \(WorkerLimits.defaultSeconds)).",
      valueName: "seconds"))
  var timeout: String?

  @Option(
    name: .customLong("memory-limit"),
    help: ArgumentHelp(
      "Stop a worker process whose resident memory exceeds this many MiB and report its scenario as MEMORY (exit 124); 'none' for no limit (default: \(WorkerLimits.defaultMebibytes)).",
      valueName: "MiB"))
  var memoryLimit: String?

  /// The largest value either option takes: about eleven days, or 1 TiB.
  static let largest = 1_048_576

  func validate() throws { _ = try limits() }

  /// The limits, or a `ValidationError` (exit 64) naming the bad value.
  func limits() throws -> WorkerLimits {
    var limits = WorkerLimits.standard
    if let timeout { limits.seconds = try Self.value(timeout, option: "--timeout", unit: "seconds") }
    if let memoryLimit { limits.mebibytes = try Self.value(memoryLimit, option: "--memory-limit", unit: "MiB") }
    return limits
  }

  /// `none` as nil, else a whole number from 1 to `largest`.
  static func value(_ text: String, option: String, unit: String) throws -> Int? {
    if text == "none" { return nil }
    guard let value = Int(text), (1...largest).contains(value) else {
      throw ValidationError("\(option) takes a whole number of \(unit) from 1 to \(largest), or 'none' for no limit; not '\(text)'")
    }
    return value
  }
}
