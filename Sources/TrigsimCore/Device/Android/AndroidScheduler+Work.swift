/// A piece of WorkManager work the device keeps for the app, until it has
/// run (one-time), the app cancels it, or another request replaces it.
struct PendingWork {
  var name: WorkName
  var kind: WorkKind
  /// Periodic only: the interval and flex in force (raised to their minimums).
  var every: SimulationDuration?
  var flex: SimulationDuration?
  var extras: [String: String]
  /// When its schedule asks it to run: the delay's end, or the period's.
  var due: SimulationInstant
  /// How many times it ran (periodic).
  var runs = 0
  /// Identifies this schedule: a cancelled, replaced, stopped or re-planned work's queued event is skipped.
  var token: Int
  /// The order the work was enqueued in (the rank of simultaneous runs).
  var ordinal: Int
  /// Why the system last moved it later, kept for its `ran` entry.
  var heldBecause: String?
}

/// The Android device's WorkManager work (`WorkManager` over `JobScheduler`):
/// the device keeps the work, decides when each runs (`WorkDispatcher`:
/// Doze, the standby bucket's job windows, Battery Saver), and runs the
/// app's `doWork` when it does. WorkManager keeps its work in its own
/// database, so a reboot and a force stop do not lose it: after a reboot its
/// own `BOOT_COMPLETED` receiver reschedules it; after a force stop (or the
/// maker's killer), whose `JobScheduler` jobs are gone, it reschedules it
/// when the app's process next starts (the patient opens the app).
extension AndroidScheduler {
  /// Simultaneous runs: work after the app's alarms at the same instant, in enqueue order.
  static let workRankBase = 1 << 40

  /// The enqueued work in the order it was enqueued.
  var workInEnqueueOrder: [PendingWork] { work.values.sorted { $0.ordinal < $1.ordinal } }

  // MARK: - Enqueuing

  /// `enqueueUniqueWork` / `enqueueUniquePeriodicWork` under `policy`.
  func enqueueWork(_ name: WorkName, _ request: WorkRequest, policy: ExistingWorkPolicy, in run: inout SimulationRun, at now: SimulationInstant) {
    let replaced = work[name] != nil
    if replaced && policy == .keep {
      run.record(.work, name.rawValue, at: now, [
        TimelineField("change", "kept"),
        TimelineField("reason", "work named '\(name)' is already enqueued and the policy is KEEP: the new request is dropped"),
      ])
      return
    }
    var every: SimulationDuration?
    var flex: SimulationDuration?
    if request.kind == .periodic {
      let schedule = settings.work.periodicSchedule(every: request.every ?? .zero, flex: request.flex)
      (every, flex) = (schedule.every, schedule.flex)
      for raised in schedule.raised {
        run.record(.warning, name.rawValue, at: now, [TimelineField("reason", "WorkManager: \(raised)")])
      }
    }
    // Periodic work runs after its initial delay, or with a flex shorter than
    // the interval in the period's last `flex` (AndroidX WorkSpec.calculateNextRunTime:
    // the first run waits interval − flex more).
    var due = now.advanced(by: request.delay)
    if let every, let flex, flex < every { due = due.advanced(by: SimulationDuration(milliseconds: every.milliseconds - flex.milliseconds)) }
    let pending = PendingWork(
      name: name, kind: request.kind, every: every, flex: flex, extras: request.extras, due: due, token: nextWorkToken,
      ordinal: nextWorkOrdinal)
    nextWorkToken += 1
    nextWorkOrdinal += 1
    work[name] = pending
    var fields = [TimelineField("change", replaced ? "replaced" : "enqueued"), TimelineField("kind", request.kind.rawValue)]
    if request.kind == .oneTime {
      fields.append(TimelineField("delay", request.delay.description))
    } else {
      if let every { fields.append(TimelineField("every", every.description)) }
      if request.delay > .zero { fields.append(TimelineField("delay", request.delay.description)) }
      if let flex { fields.append(TimelineField("flex", flex.description)) }
    }
    planWork(name, recording: fields, in: &run, at: now)
  }

  /// `cancelUniqueWork`: work not enqueued is ignored, as on the platform.
  func cancelWork(_ name: WorkName, reason: String, in run: inout SimulationRun, at now: SimulationInstant) {
    guard work.removeValue(forKey: name) != nil else { return }
    run.record(.work, name.rawValue, at: now, [TimelineField("change", "cancelled"), TimelineField("reason", reason)])
  }

  /// Plans enqueued work from `now`, records `fields` with when it runs and why, and queues it
  /// (unless its jobs are cancelled or it waits for the boot: then it is only recorded).
  private func planWork(_ name: WorkName, recording fields: [TimelineField], in run: inout SimulationRun, at now: SimulationInstant) {
    guard var pending = work[name] else { return }
    var fields = fields
    if workJobsCancelled || workAwaitsBoot {
      fields.append(TimelineField("runs", workAwaitsBoot ? "after-boot" : "when-opened"))
      run.record(.work, name.rawValue, at: now, fields)
      return
    }
    let plan = workDispatcher.plan(due: pending.due, notBefore: now)
    pending.token = nextWorkToken
    nextWorkToken += 1
    if let reason = plan.reason { pending.heldBecause = reason }
    work[name] = pending
    fields.append(TimelineField("runs", run.format(plan.instant)))
    if let reason = plan.reason { fields.append(TimelineField("reason", reason)) }
    run.record(.work, name.rawValue, at: now, fields)
    queueWork(pending, at: plan.instant, in: &run)
  }

  private func queueWork(_ pending: PendingWork, at instant: SimulationInstant, in run: inout SimulationRun) {
    guard instant <= run.end else { return }
    run.queue.schedule(.android(.workDue(pending.name, token: pending.token)), at: instant, phase: .timeTrigger, rank: Self.workRankBase + pending.ordinal)
  }

  // MARK: - Running

  /// Work's queued instant: the rules are asked again (a job window used
  /// since it was planned may push it later); it runs when the answer is now,
  /// and the app's `doWork` runs. Periodic work's next period counts from this
  /// run: runs missed while it was held are not caught up (WorkManager runs
  /// periodic work at most once per interval).
  func workDue(_ name: WorkName, token: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    guard var pending = work[name], pending.token == token else { return }
    let plan = workDispatcher.plan(due: pending.due, notBefore: now)
    if plan.instant > now {
      if let reason = plan.reason { pending.heldBecause = reason }
      work[name] = pending
      run.record(.work, name.rawValue, at: now, [
        TimelineField("change", "deferred"), TimelineField("runs", run.format(plan.instant)),
        TimelineField("reason", plan.reason ?? "deferred by the system"),
      ])
      queueWork(pending, at: plan.instant, in: &run)
      return
    }
    workDispatcher.ran(at: now)
    let info = WorkRequestInfo(
      name: name, kind: pending.kind, extras: pending.extras, scheduledFor: pending.due.date, ranAt: now.date, runsBefore: pending.runs)
    var fields = [TimelineField("change", "ran"), TimelineField("kind", pending.kind.rawValue)]
    if now > pending.due {
      fields.append(TimelineField("late", pending.due.duration(to: now).description))
      if let reason = plan.reason ?? pending.heldBecause { fields.append(TimelineField("reason", reason)) }
    }
    if pending.kind == .periodic, let every = pending.every {
      pending.runs += 1
      pending.due = now.advanced(by: every)
      pending.heldBecause = nil
      pending.token = nextWorkToken
      nextWorkToken += 1
      work[name] = pending
      fields.append(TimelineField("next", run.format(pending.due)))
    } else {
      work[name] = nil
    }
    run.record(.work, name.rawValue, at: now, fields)
    let layer = run.layers.app
    layer.workRan(info, in: &run, at: now)
    // The next period, unless the app cancelled or replaced the work in `doWork`.
    if pending.kind == .periodic, let current = work[name], current.token == pending.token {
      let plan = workDispatcher.plan(due: current.due, notBefore: now)
      if let reason = plan.reason { work[name]?.heldBecause = reason }
      queueWork(current, at: plan.instant, in: &run)
    }
  }

  // MARK: - Reboot, force stop

  /// The phone switched off: WorkManager's work stays in its database ("Work
  /// is persistent": WorkManager guide) and waits for the boot.
  func holdWorkForReboot(in run: inout SimulationRun, at now: SimulationInstant) {
    workAwaitsBoot = true
    unqueueAllWork(
      change: "held", reason: "the phone switched off: WorkManager keeps its work across a reboot and reschedules it from its own BOOT_COMPLETED receiver",
      in: &run, at: now)
  }

  /// Every pending work's queued run is void (new tokens); each gets a `work` entry of `change` with `reason`.
  private func unqueueAllWork(change: String, reason: String, in run: inout SimulationRun, at now: SimulationInstant) {
    let enqueued = workInEnqueueOrder
    for pending in enqueued {
      work[pending.name]?.token = nextWorkToken
      nextWorkToken += 1
    }
    for pending in enqueued {
      run.record(.work, pending.name.rawValue, at: now, [TimelineField("change", change), TimelineField("reason", reason)])
    }
  }

  /// WorkManager reschedules every pending work now (`after`: what held it), each held `because`.
  private func rescheduleAllWork(after: String, because: String, in run: inout SimulationRun, at now: SimulationInstant) {
    for pending in workInEnqueueOrder {
      work[pending.name]?.heldBecause = because
      planWork(pending.name, recording: [TimelineField("change", "rescheduled"), TimelineField("after", after)], in: &run, at: now)
    }
  }

  /// The first unlock after a boot (`BOOT_COMPLETED`): WorkManager's own
  /// receiver reschedules its work, unless the app is force-stopped (a
  /// stopped app gets no broadcast; its work waits for the patient to open it).
  func rescheduleWorkAfterBoot(in run: inout SimulationRun, at now: SimulationInstant) {
    guard workAwaitsBoot else { return }
    workAwaitsBoot = false
    guard !workJobsCancelled else { return }
    rescheduleAllWork(
      after: "reboot", because: "held by the reboot until WorkManager rescheduled it after the first unlock at \(run.format(now))", in: &run, at: now)
  }

  /// A force stop or the maker's killer: the app's `JobScheduler` jobs are
  /// cancelled, so no work runs; WorkManager keeps the work and reschedules it
  /// when the app's process next starts (AndroidX WorkManager's
  /// `ForceStopRunnable`; cocoa-mhlw/cocoa #123, Evernote/android-job #275).
  func stopWorkJobs(reason: String, in run: inout SimulationRun, at now: SimulationInstant) {
    guard !workJobsCancelled else { return }
    workJobsCancelled = true
    unqueueAllWork(
      change: "stopped", reason: "\(reason): its JobScheduler jobs are cancelled; WorkManager reschedules the work when the app's process next starts",
      in: &run, at: now)
  }

  /// The patient opened the app after a force stop: its process starts and
  /// WorkManager reschedules the work whose jobs the force stop cancelled;
  /// work whose time passed runs as soon as the rules allow (once, not once
  /// per missed period).
  func rescheduleWorkAtProcessStart(in run: inout SimulationRun, at now: SimulationInstant) {
    guard workJobsCancelled else { return }
    workJobsCancelled = false
    guard !workAwaitsBoot else { return }
    rescheduleAllWork(
      after: "force-stop", because: "its job was cancelled by a force stop until the app's process started again at \(run.format(now))", in: &run,
      at: now)
  }
}
