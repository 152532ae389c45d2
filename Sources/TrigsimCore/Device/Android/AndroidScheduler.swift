/// The Android phone's own scheduling of the app under test (`AlarmManager`,
/// `NotificationManager`, WorkManager, Doze, standby buckets, the maker's
/// killer): the device keeps the app's alarms, channels, work and exact-alarm
/// permission, decides when each alarm fires and each work runs (the alarm
/// model: Doze, while-idle limits, windows), and runs the app's code when it
/// does; the app posts its notification from there. It owns that state: the
/// run reaches it only through the phone (`AndroidPhone`, `SimulatedPhone.android`), and it acts on
/// the world (the timeline, the queue, the notification center, the app)
/// through the run it is handed.
final class AndroidScheduler {
  let settings: AndroidSettings
  var alarms: [AlarmTag: PendingAlarm] = [:]
  var nextAlarmToken = 0
  var nextAlarmOrdinal = 0
  var dispatcher: AlarmDispatcher
  /// `AlarmManager.canScheduleExactAlarms()`.
  var exactAlarmsAllowed: Bool
  /// The app's channels by identifier (`NotificationManager.createNotificationChannel`), as the patient left them.
  var channels: [String: AndroidChannel] = [:]
  /// The channels the patient changed: the app cannot raise their importance again.
  var channelsEditedByPatient: Set<String> = []
  /// Settings › Apps › Force stop: nothing of the app runs until the patient opens it.
  var forceStopped = false
  /// The boot receiver waits for the first unlock after a boot (`BOOT_COMPLETED`).
  var bootCompletedDue = false
  /// The alarm whose receiver is running now, and why it fired late (for the dose table's remarks).
  var firing: (alarm: PendingAlarm, late: SimulationDuration, reason: String?)?
  /// The alarms the device cleared, and why (the dose table's reasons for a missed dose).
  var alarmLosses: [AlarmLoss] = []
  /// Firebase Cloud Messaging's state for the app (stored messages, quotas).
  var fcm = FCMState()
  /// Counts the app's spans out of the foreground: an OEM kill queued for an earlier one is void.
  var backgroundSpan = 0
  /// In trials, the stream the system's choices are drawn from (where an
  /// inexact alarm fires in its window); nil in a single run.
  var random: TrialRandom?
  /// Mixed into the trial's seed so this stream is not the location service's or the push service's.
  static let alarmSalt: UInt64 = 0xA1A2_4D0E_5EED_0024
  /// Mixed into the trial's seed for the stream the maintenance windows' delays
  /// are drawn from, so the alarm stream's draws stay as they were.
  static let maintenanceSalt: UInt64 = 0x3A1E_D0CE_0B0C_0024
  /// The app's standby-bucket changes after the run's start (`StandbyBucketSchedule`), recorded as each takes effect.
  var bucketChanges: [StandbyBucketChange] = []
  /// The app's WorkManager work by unique name (`AndroidScheduler+Work.swift`).
  var work: [WorkName: PendingWork] = [:]
  var nextWorkToken = 0
  var nextWorkOrdinal = 0
  var workDispatcher: WorkDispatcher
  /// A force stop (or the maker's killer) cancelled the `JobScheduler` jobs
  /// under the work: none runs until WorkManager reschedules them when the app's process next starts.
  var workJobsCancelled = false
  /// The phone rebooted: WorkManager reschedules its work from its own `BOOT_COMPLETED` receiver (after the first unlock).
  var workAwaitsBoot = false

  // MARK: - Setting up

  /// The Android phone as `run` starts. Doze is decided from when the screen
  /// comes on (`screenOnInstants(of:)`); in trials the system's choices are
  /// drawn from a stream of the device's own.
  init(settings: AndroidSettings, startingIn run: SimulationRun) {
    let scenario = run.scenario
    let start = scenario.clock.start
    var random = run.trialSeed.map { TrialRandom(seed: $0 ^ Self.alarmSalt) }
    let jitter = random?.nextUnit()
    let scheduled = StandbyBucketSchedule.changes(
      rules: settings.alarms, start: start, end: run.end, uses: Self.appOpenedInstants(of: run),
      scripted: scenario.medicineApp.appChanges.compactMap { change in change.standbyBucket.map { (change.instant, $0) } })
    // A maker that puts unused apps to sleep holds them in the restricted bucket meanwhile.
    let bucketChanges = StandbyBucketSchedule.withMakerSleep(
      scheduled, base: settings.alarms.standbyBucket, start: start,
      sleeping: settings.oemKiller.sleepingSpans(start: start, end: run.end, foreground: run.scenario.medicineApp.foregroundSpans(until: run.end)),
      sleepAfter: settings.oemKiller.sleepAfter ?? .zero)
    let power = AndroidPowerTimeline(
      rules: settings.doze, start: start, end: run.end, screenOn: Self.screenOnInstants(of: run),
      charging: Self.spans(from: .chargingOn, to: .chargingOff, of: run), batterySaver: Self.spans(from: .lowPowerOn, to: .lowPowerOff, of: run),
      buckets: [(start, settings.alarms.standbyBucket)] + bucketChanges.map { ($0.at, $0.bucket) },
      dozeEntryJitter: jitter,
      maintenanceRandom: run.trialSeed.map { TrialRandom(seed: $0 ^ Self.maintenanceSalt) })
    // Reasons name instants in the device's local time, as the timeline does.
    let clock = scenario.clock
    let describe: @Sendable (SimulationInstant) -> String = { instant in
      InstantFormatter.format(instant, offsetSeconds: clock.deviceZone(at: instant).secondsFromGMT(for: instant.date))
    }
    self.settings = settings
    dispatcher = AlarmDispatcher(rules: settings.alarms, power: power, describe: describe)
    workDispatcher = WorkDispatcher(rules: settings.work, power: power, describe: describe)
    exactAlarmsAllowed = settings.alarms.initialExactAlarmPermission
    self.random = random
    fcm.random = run.trialSeed.map { TrialRandom(seed: $0 ^ FCMState.collapseSalt) }
    self.bucketChanges = bucketChanges
  }

  /// When the patient opens the app, known before the run: the scenario's
  /// `app:` changes to the foreground (what `bucketsFollowUse` counts as use).
  static func appOpenedInstants(of run: SimulationRun) -> [SimulationInstant] {
    run.scenario.medicineApp.appChanges.filter { $0.state == .foreground }.map(\.instant)
  }

  /// The spans between the scenario's `on` and `off` power events (on
  /// Android, Low Power Mode's events are Battery Saver's); one still open
  /// runs to the clock's end.
  static func spans(from on: PowerEvent.Kind, to off: PowerEvent.Kind, of run: SimulationRun) -> [Range<SimulationInstant>] {
    var spans: [Range<SimulationInstant>] = []
    var since: SimulationInstant?
    for event in run.scenario.device.power {
      if event.kind == on, since == nil { since = event.instant }
      if event.kind == off, let start = since {
        if start < event.instant { spans.append(start..<event.instant) }
        since = nil
      }
    }
    if let start = since, start < run.end { spans.append(start..<run.end) }
    return spans
  }

  /// When the screen comes on, known before the run: scripted looks, unlocks,
  /// switch-ons (a reboot's end too), the app in the foreground (its opening and the moment it
  /// leaves, so the screen goes off only then), and with a daily routine
  /// the waking look and the day's pickups evenly spaced (in trials too: Doze
  /// is judged on the routine's mean rhythm, not on each trial's drawn pickups).
  static func screenOnInstants(of run: SimulationRun) -> [SimulationInstant] {
    let scenario = run.scenario
    let end = run.end
    var instants = scenario.patientAttention.looks.map(\.instant)
    instants += scenario.device.power.filter { $0.kind == .unlock }.map(\.instant)
    // Every switch-on, the end of a reboot's included: the phone boots to its lock screen.
    for change in run.layers.phone.core.deviceSchedule.changes {
      if case .power(.switchOn, _) = change.change { instants.append(change.instant) }
    }
    // The app in the foreground keeps the screen on: from its opening to the moment it leaves.
    for span in run.scenario.medicineApp.foregroundSpans(until: run.end) { instants += [span.lowerBound, span.upperBound] }
    if let day = scenario.patientAttention.day {
      var cursor = run.previousLocal(day.wake, before: scenario.clock.start) ?? scenario.clock.start
      while cursor <= end, let sleep = run.nextLocal(day.sleep, atOrAfter: cursor.advanced(byMilliseconds: 1)) {
        let spacing = max(1, cursor.duration(to: sleep).milliseconds / Int64(max(1, day.pickupsPerDay)))
        var look = cursor
        while look < sleep && look <= end {
          if look >= scenario.clock.start { instants.append(look) }
          look = look.advanced(byMilliseconds: spacing)
        }
        guard let wake = run.nextLocal(day.wake, atOrAfter: sleep) else { break }
        cursor = wake
      }
    }
    return instants.sorted()
  }

  // MARK: - What the phone hands on (`AndroidPhone`)

  /// The scenario's own requests are `UNUserNotificationCenter` requests: Android has no notification triggers.
  static var scenarioRequestsRefusal: String {
    "the scenario's 'notifications:' are iOS notification requests (calendar, interval and location triggers); Android has no notification triggers, so on android they are not added: reminders come from the app's alarms"
  }

  /// Queues the standby-bucket changes and Doze, starts the maker's killer
  /// (the app starts out of the foreground), and sets the notification
  /// permission a fresh install has (Android 13 and later: not yet asked for `POST_NOTIFICATIONS`).
  func runStarts(in run: inout SimulationRun) {
    scheduleStandbyBucketChanges(in: &run)
    scheduleDozeChanges(in: &run)
    leftForeground(in: &run, at: run.scenario.clock.start)
    run.layers.phone.core.installedApp.permission = initialNotificationPermission(
      androidVersion: settings.alarms.androidVersion, freshInstall: settings.alarms.install == .fresh)
  }

  func eventDue(_ event: AndroidEvent, in run: inout SimulationRun, at now: SimulationInstant) {
    switch event {
    case .oemKill(let token): oemKill(token: token, in: &run, at: now)
    case .alarmDue(let tag, let token): alarmDue(tag, token: token, in: &run, at: now)
    case .workDue(let name, let token): workDue(name, token: token, in: &run, at: now)
    case .standbyBucketChange(let index): standbyBucketChanged(index, in: &run, at: now)
    case .dozeChange(let index, let on): dozeChanged(index, on: on, in: &run, at: now)
    }
  }

  static func chargingReason(pluggedIn: Bool) -> String {
    pluggedIn ? "plugged in: no Doze and no App Standby limits while charging" : "unplugged: Doze can begin once the screen has been off long enough"
  }

  /// The patient changes the exact-alarm permission or a channel in Settings.
  func appChanged(_ change: AppChange, in run: inout SimulationRun, at now: SimulationInstant) {
    if let granted = change.exactAlarms { changeExactAlarmPermission(granted: granted, in: &run, at: now) }
    if let channel = change.channel { changeChannel(channel.id, to: channel.importance, in: &run, at: now) }
  }

  // MARK: - Doze and standby buckets

  /// Queues the app's standby-bucket changes (`bucketChanges`).
  func scheduleStandbyBucketChanges(in run: inout SimulationRun) {
    for (index, change) in bucketChanges.enumerated() where change.at <= run.end {
      run.queue.schedule(.android(.standbyBucketChange(index)), at: change.at, phase: .device, rank: Int.max - 1)
    }
  }

  /// Queues the power timeline's Doze periods: the timeline says when the
  /// phone enters and leaves Doze (the alarm, work and FCM rules knew it up front).
  func scheduleDozeChanges(in run: inout SimulationRun) {
    for (index, period) in dispatcher.power.dozePeriods.enumerated() {
      if period.start <= run.end { run.queue.schedule(.android(.dozeChange(index, on: true)), at: period.start, phase: .device, rank: Int.max - 2) }
      if period.end < run.end { run.queue.schedule(.android(.dozeChange(index, on: false)), at: period.end, phase: .device, rank: Int.max - 2) }
    }
  }

  /// The phone enters or leaves deep Doze: a `power` entry with why.
  func dozeChanged(_ index: Int, on: Bool, in run: inout SimulationRun, at now: SimulationInstant) {
    let power = dispatcher.power
    let period = power.dozePeriods[index]
    let reason: String
    if on {
      let windows = period.maintenanceWindows
      reason = "screen off and unplugged for \(power.rules.enterAfter) or more: regular alarms, jobs and normal-priority messages wait for a maintenance window"
        + (windows.isEmpty ? "" : " (\(windows.count) maintenance window\(windows.count == 1 ? "" : "s") before it ends, the first at \(run.format(windows[0].lowerBound)))")
    } else {
      reason = power.isCharging(at: now) ? "the phone was plugged in" : "the screen came on"
    }
    run.record(.power, "phone", at: now, [TimelineField("doze", on ? "on" : "off"), TimelineField("reason", reason)])
  }

  /// A standby-bucket change takes effect: the alarm model already knew it
  /// (the power timeline), the timeline says it now.
  func standbyBucketChanged(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    let change = bucketChanges[index]
    run.record(.app, "standby-bucket", at: now, [
      TimelineField("to", change.bucket.rawValue), TimelineField("from", change.from.rawValue), TimelineField("reason", change.reason),
    ])
  }

  // MARK: - Alarms

  /// The pending alarms in the order they were set.
  var alarmsInSetOrder: [PendingAlarm] { alarms.values.sorted { $0.ordinal < $1.ordinal } }

  /// `AlarmManager.set*`: keeps the alarm (replacing one with its tag) and
  /// queues it at the instant the alarm model gives. Exact and alarm-clock
  /// alarms need the exact-alarm permission (`SecurityException` otherwise).
  func setAlarm(
    _ tag: AlarmTag, _ alarm: AndroidAlarm, extras: [String: String], attribution: DoseAttribution? = nil, in run: inout SimulationRun,
    at now: SimulationInstant
  ) throws {
    if alarm.kind.needsExactPermission && !exactAlarmsAllowed {
      let error = AlarmManagerError.exactAlarmNotPermitted(tag)
      run.record(.alarm, tag.rawValue, at: now, [
        TimelineField("change", "refused"), TimelineField("kind", alarm.kind.rawValue), TimelineField("at", run.format(alarm.triggerAt)),
        TimelineField("reason", error.description),
      ])
      throw error
    }
    let previous = alarms[tag]
    let replaced = previous != nil
    // A held alarm the app replaces (its time has passed) never fires: the dose table may need to say so.
    if let previous, previous.alarm.triggerAt < now {
      alarmLosses.append(
        AlarmLoss(
          tag: tag, triggerAt: previous.alarm.triggerAt, at: now, what: "replaced by the app before it fired",
          reason: "the device held it: \(previous.heldReason ?? "deferred by the system")", attribution: previous.attribution))
    }
    var alarm = alarm
    if alarm.windowPosition == nil, !alarm.kind.needsExactPermission, var random {
      // Trials: where in its window the system fires an inexact alarm.
      alarm.windowPosition = random.nextUnit()
      self.random = random
    }
    var pending = PendingAlarm(
      tag: tag, alarm: alarm, extras: extras, attribution: attribution, token: nextAlarmToken, ordinal: nextAlarmOrdinal, setAt: now)
    let plan = dispatcher.plan(alarm, notBefore: now)
    pending.heldReason = plan.reason
    pending.deferredBy = plan.cause
    nextAlarmToken += 1
    nextAlarmOrdinal += 1
    alarms[tag] = pending
    var fields = [
      TimelineField("change", replaced ? "replaced" : "set"), TimelineField("kind", alarm.kind.rawValue), TimelineField("at", run.format(alarm.triggerAt)),
    ]
    if let window = alarm.window { fields.append(TimelineField("window", window.description)) }
    if plan.instant != alarm.triggerAt { fields.append(TimelineField("fires", run.format(plan.instant))) }
    if let reason = plan.reason { fields.append(TimelineField("reason", reason)) }
    run.record(.alarm, tag.rawValue, at: now, fields)
    queueAlarm(pending, at: plan.instant, in: &run)
  }

  func queueAlarm(_ pending: PendingAlarm, at instant: SimulationInstant, in run: inout SimulationRun) {
    guard instant <= run.end else { return }
    run.queue.schedule(.android(.alarmDue(pending.tag, token: pending.token)), at: instant, phase: .timeTrigger, rank: pending.ordinal)
  }

  /// `AlarmManager.cancel`: a tag with no pending alarm is ignored, as on the platform.
  func cancelAlarm(_ tag: AlarmTag, reason: String, in run: inout SimulationRun, at now: SimulationInstant) {
    guard alarms.removeValue(forKey: tag) != nil else { return }
    run.record(.alarm, tag.rawValue, at: now, [TimelineField("change", "cancelled"), TimelineField("reason", reason)])
  }

  /// The device forgets every alarm of the app (a reboot, a force stop, a revoked permission for exact ones).
  func clearAlarms(
    where matches: (PendingAlarm) -> Bool = { _ in true }, reason: String, in run: inout SimulationRun, at now: SimulationInstant
  ) {
    for pending in alarmsInSetOrder where matches(pending) {
      alarms[pending.tag] = nil
      alarmLosses.append(
        AlarmLoss(tag: pending.tag, triggerAt: pending.alarm.triggerAt, at: now, what: "cleared", reason: reason, attribution: pending.attribution))
      run.record(.alarm, pending.tag.rawValue, at: now, [
        TimelineField("change", "cleared"), TimelineField("kind", pending.alarm.kind.rawValue), TimelineField("at", run.format(pending.alarm.triggerAt)),
        TimelineField("reason", reason),
      ])
    }
  }

  /// An alarm's queued instant: the model is asked again (a while-idle
  /// quota used since it was set may push it later); it fires when the
  /// answer is now, and the app's receiver runs.
  func alarmDue(_ tag: AlarmTag, token: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    guard let pending = alarms[tag], pending.token == token else { return }
    let plan = dispatcher.plan(pending.alarm, notBefore: now)
    for id in AssumptionRegistry.inRegistryOrder(plan.consulted) { run.layers.assumptionLog.consult(id) }
    if plan.instant > now {
      // Once per cause (`AlarmDeferralCause`): held again by the rule the timeline already named, it waits on without an entry.
      if plan.cause == nil || plan.cause != pending.deferredBy {
        run.record(.alarm, tag.rawValue, at: now, [
          TimelineField("change", "deferred"), TimelineField("fires", run.format(plan.instant)),
          TimelineField("reason", plan.reason ?? "deferred by the system"),
        ])
      }
      alarms[tag]?.deferredBy = plan.cause
      if let reason = plan.reason { alarms[tag]?.heldReason = reason }
      queueAlarm(pending, at: plan.instant, in: &run)
      return
    }
    // Fired now: if the system held it past its time, the last reason it gave says why.
    let why = plan.reason ?? pending.heldReason
    alarms[tag] = nil
    dispatcher.fired(pending.alarm, at: now)
    guard run.layers.phone.core.attention.phoneOn else { return }  // cleared at switch-off already; kept for safety
    var fields = [
      TimelineField("change", "fired"), TimelineField("kind", pending.alarm.kind.rawValue), TimelineField("at", run.format(pending.alarm.triggerAt)),
    ]
    if now != pending.alarm.triggerAt {
      fields.append(TimelineField("late", pending.alarm.triggerAt.duration(to: now).description))
      if let why { fields.append(TimelineField("reason", why)) }
    }
    run.record(.alarm, tag.rawValue, at: now, fields)
    firing = (pending, pending.alarm.triggerAt.duration(to: now), why)
    let layer = run.layers.app
    layer.alarmFired(pending, in: &run, at: now)
    firing = nil
  }

  // MARK: - Boot

  /// Android at switch-off (a reboot, an empty battery): registered alarms
  /// are cleared ("Registered alarms are retained while the device is
  /// asleep … but will be cleared if it is turned off and rebooted",
  /// `AlarmManager` reference) and so are geofences (geofencing guide,
  /// "Re-register geofences only when required"); the app must add both
  /// again from its boot receiver.
  func switchedOff(in run: inout SimulationRun, at now: SimulationInstant) {
    clearAlarms(reason: "the phone switched off: Android clears registered alarms at a reboot (AlarmManager)", in: &run, at: now)
    let layer = run.layers.app
    layer.geofencesRemoved(reason: "the phone switched off: Android removes every geofence at a reboot", in: &run, at: now)
    holdWorkForReboot(in: &run, at: now)
    bootCompletedDue = true
  }

  /// Android at switch-on: direct-boot-aware receivers get `LOCKED_BOOT_COMPLETED` before the first unlock.
  func switchedOn(in run: inout SimulationRun, at now: SimulationInstant) {
    let layer = run.layers.app
    layer.systemBroadcast(.lockedBootCompleted, in: &run, at: now)
  }

  /// Android at the first unlock after a boot: `BOOT_COMPLETED` (Direct Boot guide: it is sent once the user unlocks).
  func firstUnlock(in run: inout SimulationRun, at now: SimulationInstant) {
    guard bootCompletedDue else { return }
    bootCompletedDue = false
    rescheduleWorkAfterBoot(in: &run, at: now)
    let layer = run.layers.app
    layer.systemBroadcast(.bootCompleted, in: &run, at: now)
  }

  // MARK: - Exact-alarm permission

  /// The patient grants or revokes "Alarms & reminders" (Settings ›
  /// Special app access): a revocation cancels the app's pending exact and
  /// alarm-clock alarms; a grant sends
  /// `ACTION_SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED` (Android 14
  /// behaviour changes, "Schedule exact alarms are denied by default").
  func changeExactAlarmPermission(granted: Bool, in run: inout SimulationRun, at now: SimulationInstant) {
    guard exactAlarmsAllowed != granted else { return }
    exactAlarmsAllowed = granted
    run.record(.app, "exact-alarms", at: now, [TimelineField("to", granted ? "granted" : "revoked")])
    if granted {
      let layer = run.layers.app
      layer.systemBroadcast(.exactAlarmPermissionGranted, in: &run, at: now)
    } else {
      clearAlarms(
        where: { $0.alarm.kind.needsExactPermission }, reason: "the exact-alarm permission was revoked: Android cancels the app's exact alarms",
        in: &run, at: now)
    }
  }

  // MARK: - The phone maker's killer

  /// The app left the foreground (or starts out of it): the maker's killer
  /// stops it `after` later unless it comes back first.
  func leftForeground(in run: inout SimulationRun, at now: SimulationInstant) {
    guard settings.oemKiller.kills else { return }
    backgroundSpan += 1
    let at = now.advanced(by: settings.oemKiller.after)
    guard at <= run.end else { return }
    run.queue.schedule(.android(.oemKill(token: backgroundSpan)), at: at, phase: .device, rank: Int.max)
  }

  /// The app came to the foreground: a pending kill is void.
  func cameToForeground() {
    backgroundSpan += 1
  }

  func oemKill(token: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    guard backgroundSpan == token, !forceStopped, run.layers.phone.core.installedApp.state != .foreground else { return }
    forceStopped = true
    run.record(.app, "oem-kill", at: now, [
      TimelineField("preset", settings.oemKiller.preset.rawValue),
      TimelineField("reason", settings.oemKiller.killReason),
    ])
    clearAlarms(reason: "the phone maker's background killer stopped the app", in: &run, at: now)
    stopWorkJobs(reason: "the phone maker's background killer stopped the app", in: &run, at: now)
  }

  // MARK: - Channels

  /// The patient changes a channel's importance (Settings › Apps › the app ›
  /// Notifications): it holds for every later notification, and the app
  /// cannot raise it again (`NotificationChannel.setImportance`: "the user
  /// can change it at any time; the app cannot change it after creation").
  func changeChannel(_ id: String, to importance: ChannelImportance, in run: inout SimulationRun, at now: SimulationInstant) {
    guard var channel = channels[id] else {
      run.record(.warning, "channel", at: now, [
        TimelineField("id", id), TimelineField("reason", "the patient cannot change channel '\(id)': the app has not created it (yet)"),
      ])
      return
    }
    guard channel.importance != importance else { return }
    let from = channel.importance
    channel.importance = importance
    channels[id] = channel
    channelsEditedByPatient.insert(id)
    run.record(.app, "channel", at: now, [
      TimelineField("id", id), TimelineField("importance", importance.rawValue), TimelineField("from", from.rawValue),
      TimelineField("reason", "the patient changed the channel in Settings; the app cannot raise it again"),
    ])
  }

  // MARK: - Posting

  /// `NotificationManager.notify`: the notification is shown at once (by its
  /// channel's rules), replacing one shown under its identifier.
  func post(_ request: NotificationRequest, in run: inout SimulationRun, at now: SimulationInstant) {
    var request = request
    request.trigger = .posted
    let outcome = run.layers.phone.core.center.add(request, firstDelivery: now, at: now, appMonitored: [])
    guard let added = outcome.added else {
      run.record(.dropped, request.id.rawValue, at: now, [
        TimelineField("trigger", request.trigger.summary), TimelineField("reason", outcome.rejectedReason ?? "not kept"),
      ])
      return
    }
    run.layers.ledger.requestPending(request.id)
    // Inside onMessageReceived: FCM counts the message as one that showed a notification.
    if let posts = fcm.postsDuringMessage { fcm.postsDuringMessage = posts + 1 }
    let phone = run.layers.phone.core
    phone.deliver(added, in: &run, at: now, next: nil)
    // A reminder posted from an alarm that fired late: the dose table says why (once, for the dose's reminder).
    if let firing, firing.late > .zero, run.layers.ledger.requestInfo[request.id]?.role.isMain == true, let dose = run.layers.ledger.shownDose[request.id] {
      let why = firing.reason.map { ": \($0)" } ?? ""
      run.layers.ledger.note(dose, "posted at \(run.format(now)) from the app's alarm '\(firing.alarm.tag)' for \(run.format(firing.alarm.alarm.triggerAt)), \(firing.late) late\(why)")
    }
  }
}

/// The Android phone's own events (`AndroidScheduler` queues them; the
/// engine hands each back to it). Their phases and ranks are the
/// scheduler's: alarms and work in phase `timeTrigger` (work ranked after
/// the alarms at the same instant, `AndroidScheduler.workRankBase`); Doze,
/// the standby bucket and the maker's killer in phase `device`, after the
/// scenario's own device changes at that instant.
enum AndroidEvent {
  /// The phone maker's killer stops the app (`token`: the app's background
  /// span it was queued for; coming to the foreground voids it). Rank `Int.max`.
  case oemKill(token: Int)
  /// An alarm's instant (`token`: the setting it was queued for; a replaced or cancelled alarm's is skipped).
  case alarmDue(AlarmTag, token: Int)
  /// A piece of WorkManager work's planned instant (`token`: the
  /// schedule it was queued for; cancelled, replaced, stopped or re-planned
  /// work's is skipped). Phase `timeTrigger`, ranked after the alarms at the
  /// same instant (`AndroidScheduler.workRankBase` + the enqueue order).
  case workDue(WorkName, token: Int)
  /// The app's standby bucket changes (index into `AndroidScheduler.bucketChanges`).
  /// Phase `.device`, rank `Int.max - 1`: after the scenario's own device changes and the app's
  /// state change at that instant (so an `app standby-bucket to=active` line follows the opening
  /// it answers), before the OEM killer (`Int.max`) and every alarm due then (`.timeTrigger`).
  case standbyBucketChange(Int)
  /// The phone enters (`on`) or leaves deep Doze (index into the
  /// power timeline's `dozePeriods`). Phase `.device`, rank `Int.max - 2`:
  /// after the scenario's own device changes at that instant (the unlock
  /// that ends it is written first), before the standby bucket, the OEM
  /// killer and every alarm due then.
  case dozeChange(Int, on: Bool)
}
