import Foundation

/// What to do when work is enqueued under a unique name already in use
/// (`ExistingWorkPolicy`, `ExistingPeriodicWorkPolicy`).
public enum ExistingWorkPolicy: String, Sendable, CaseIterable {
  /// `KEEP`: the enqueued work stays and the new request is dropped.
  case keep
  /// `REPLACE` (`CANCEL_AND_REENQUEUE` for periodic work): the enqueued work
  /// is cancelled and the new request takes its place, with a new schedule.
  case replace
}

/// Whether work runs once or repeats.
public enum WorkKind: String, Sendable, CaseIterable {
  /// `OneTimeWorkRequest`.
  case oneTime = "one-time"
  /// `PeriodicWorkRequest`.
  case periodic
}

/// What `Worker.doWork()` gets: the request's name, its input data and when it runs.
public struct WorkRequestInfo: Sendable, Equatable {
  public var name: WorkName
  public var kind: WorkKind
  /// `getInputData()`.
  public var extras: [String: String]
  /// When its schedule asked it to run (the delay's end; the period's).
  public var scheduledFor: Date
  /// When it runs.
  public var ranAt: Date
  /// Periodic work: how many times it ran before (0 on the first run).
  public var runsBefore: Int
}

/// `WorkManager` (AndroidX): the app enqueues deferrable work by unique
/// name; the system runs it (`AndroidApp.doWork`) when the rules allow. Its
/// work is kept in WorkManager's own database: it survives a reboot and a
/// force stop (the manual, "Android work scheduling").
public final class WorkManager: @unchecked Sendable {
  private unowned let host: AndroidHostedAppLayer
  init(host: AndroidHostedAppLayer) { self.host = host }

  /// `enqueueUniqueWork(name, policy, OneTimeWorkRequest)` with `setInitialDelay(delay)`:
  /// runs once, no earlier than `delay` from now.
  public func enqueueUniqueWork(_ name: WorkName, delay: TimeInterval = 0, policy: ExistingWorkPolicy, extras: [String: String] = [:]) {
    host.withRun("WorkManager.enqueueUniqueWork", otherwise: ()) { run, now in
      let request = WorkRequest(kind: .oneTime, delay: Self.duration(delay), every: nil, flex: nil, extras: extras)
      let android = run.layers.phone.android
      android?.enqueueWork(name, request, policy: policy, in: &run, at: now)
    }
  }

  /// `enqueueUniquePeriodicWork(name, policy, PeriodicWorkRequest(every, flex))`:
  /// repeats every `every` (at least 15 minutes), in the last `flex` of each
  /// period when given (at least 5 minutes); the first run waits `delay`
  /// (`setInitialDelay`) more.
  public func enqueueUniquePeriodicWork(
    _ name: WorkName, every: TimeInterval, flex: TimeInterval? = nil, delay: TimeInterval = 0, policy: ExistingWorkPolicy,
    extras: [String: String] = [:]
  ) {
    host.withRun("WorkManager.enqueueUniquePeriodicWork", otherwise: ()) { run, now in
      let request = WorkRequest(
        kind: .periodic, delay: Self.duration(delay), every: Self.duration(every), flex: flex.map(Self.duration), extras: extras)
      let android = run.layers.phone.android
      android?.enqueueWork(name, request, policy: policy, in: &run, at: now)
    }
  }

  /// `cancelUniqueWork(name)`: a name with no work is ignored.
  public func cancelUniqueWork(_ name: WorkName) {
    host.withRun("WorkManager.cancelUniqueWork", otherwise: ()) { run, now in
      let android = run.layers.phone.android
      android?.cancelWork(name, reason: "cancelled by the app", in: &run, at: now)
    }
  }

  /// `cancelAllWork()`.
  public func cancelAllWork() {
    host.withRun("WorkManager.cancelAllWork", otherwise: ()) { run, now in
      guard let android = run.layers.phone.android else { return }
      for name in android.workInEnqueueOrder.map(\.name) { android.cancelWork(name, reason: "cancelAllWork by the app", in: &run, at: now) }
    }
  }

  /// The work enqueued now, in the order enqueued (a simulator view; the
  /// platform's is `getWorkInfosForUniqueWork`).
  public var pendingWork: [WorkName] {
    host.withRun("WorkManager.pendingWork", otherwise: []) { run, _ in run.layers.phone.android?.workInEnqueueOrder.map(\.name) ?? [] }
  }

  /// When the enqueued work `name` is next asked to run by its schedule (before the system's rules), or nil.
  public func nextScheduledRun(of name: WorkName) -> Date? {
    host.withRun("WorkManager.nextScheduledRun", otherwise: nil) { run, _ in run.layers.phone.android?.work[name]?.due.date }
  }

  private static func duration(_ seconds: TimeInterval) -> SimulationDuration {
    SimulationDuration(milliseconds: Int64((max(seconds, 0) * 1000).rounded()))
  }
}

/// A work request as the app built it.
struct WorkRequest {
  var kind: WorkKind
  var delay: SimulationDuration
  /// Periodic only: the repeat interval and flex as asked.
  var every: SimulationDuration?
  var flex: SimulationDuration?
  var extras: [String: String]
}
