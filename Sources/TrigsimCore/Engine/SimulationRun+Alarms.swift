/// The Android device's alarms and posted notifications (`AlarmManager`,
/// `NotificationManager`): the device keeps the alarms, decides when each
/// fires (the alarm model: Doze, while-idle limits, windows), and runs the
/// app's code when it does; the app posts its notification from there.
extension SimulationRun {
  // MARK: - Setting up

  /// The Android device's state at the run's start, or nil on an iPhone.
  /// Doze is decided from when the screen comes on (`screenOnInstants`).
  func makeAndroidState() -> AndroidDeviceState? {
    guard let settings = scenario.platform.android else { return nil }
    // In trials the system's choices are drawn from a stream of the device's own.
    var random = trialSeed.map { TrialRandom(seed: $0 ^ AndroidDeviceState.alarmSalt) }
    let jitter = random?.nextUnit()
    let scheduled = StandbyBucketSchedule.changes(
      rules: settings.alarms, start: scenario.clock.start, end: end, uses: appOpenedInstants(),
      scripted: scenario.medicineApp.appChanges.compactMap { change in change.standbyBucket.map { (change.instant, $0) } })
    // A maker that puts unused apps to sleep holds them in the restricted bucket meanwhile.
    let bucketChanges = StandbyBucketSchedule.withMakerSleep(
      scheduled, base: settings.alarms.standbyBucket, start: scenario.clock.start,
      sleeping: settings.oemKiller.sleepingSpans(start: scenario.clock.start, end: end, foreground: foregroundSpans()),
      sleepAfter: settings.oemKiller.sleepAfter ?? .zero)
    let power = AndroidPowerTimeline(
      rules: settings.doze, start: scenario.clock.start, end: end, screenOn: screenOnInstants(),
      charging: spans(from: .chargingOn, to: .chargingOff), batterySaver: spans(from: .lowPowerOn, to: .lowPowerOff),
      buckets: [(scenario.clock.start, settings.alarms.standbyBucket)] + bucketChanges.map { ($0.at, $0.bucket) },
      dozeEntryJitter: jitter,
      maintenanceRandom: trialSeed.map { TrialRandom(seed: $0 ^ AndroidDeviceState.maintenanceSalt) })
    // Reasons name instants in the device's local time, as the timeline does.
    let clock = scenario.clock
    var state = AndroidDeviceState(settings: settings, power: power) { instant in
      InstantFormatter.format(instant, offsetSeconds: clock.deviceZone(at: instant).secondsFromGMT(for: instant.date))
    }
    state.random = random
    state.fcm.random = trialSeed.map { TrialRandom(seed: $0 ^ FCMState.collapseSalt) }
    state.bucketChanges = bucketChanges
    return state
  }

  /// The app's spans in the foreground, known before the run: from each
  /// `app:` change to the foreground to the next change out of it.
  func foregroundSpans() -> [Range<SimulationInstant>] {
    var spans: [Range<SimulationInstant>] = []
    var since: SimulationInstant?
    // In time order (of equal instants, as listed), as the queue applies them.
    let ordered = scenario.medicineApp.appChanges.enumerated().sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }
    for change in ordered.map(\.element) {
      guard let state = change.state else { continue }
      if state == .foreground, since == nil { since = change.instant }
      if state != .foreground, let start = since {
        spans.append(start..<max(start, change.instant))
        since = nil
      }
    }
    if let start = since { spans.append(start..<max(start, end)) }
    return spans
  }

  /// When the patient opens the app, known before the run: the scenario's
  /// `app:` changes to the foreground (what `bucketsFollowUse` counts as use).
  func appOpenedInstants() -> [SimulationInstant] {
    scenario.medicineApp.appChanges.filter { $0.state == .foreground }.map(\.instant)
  }

  /// Queues the app's standby-bucket changes (`AndroidDeviceState.bucketChanges`).
  mutating func scheduleStandbyBucketChanges() {
    guard let changes = android?.bucketChanges else { return }
    for (index, change) in changes.enumerated() where change.at <= end {
      queue.schedule(.standbyBucketChange(index), at: change.at, phase: .device, rank: Int.max - 1)
    }
  }

  /// Queues the power timeline's Doze periods: the timeline says when the
  /// phone enters and leaves Doze (the alarm, work and FCM rules knew it up front).
  mutating func scheduleDozeChanges() {
    guard let periods = android?.dispatcher.power.dozePeriods else { return }
    for (index, period) in periods.enumerated() {
      if period.start <= end { queue.schedule(.dozeChange(index, on: true), at: period.start, phase: .device, rank: Int.max - 2) }
      if period.end < end { queue.schedule(.dozeChange(index, on: false), at: period.end, phase: .device, rank: Int.max - 2) }
    }
  }

  /// The phone enters or leaves deep Doze: a `power` entry with why.
  mutating func dozeChanged(_ index: Int, on: Bool, at now: SimulationInstant) {
    guard let power = android?.dispatcher.power else { return }
    let period = power.dozePeriods[index]
    let reason: String
    if on {
      let windows = period.maintenanceWindows
      reason = "screen off and unplugged for \(power.rules.enterAfter) or more: regular alarms, jobs and normal-priority messages wait for a maintenance window"
        + (windows.isEmpty ? "" : " (\(windows.count) maintenance window\(windows.count == 1 ? "" : "s") before it ends, the first at \(format(windows[0].lowerBound)))")
    } else {
      reason = power.isCharging(at: now) ? "the phone was plugged in" : "the screen came on"
    }
    record(.power, "phone", at: now, [TimelineField("doze", on ? "on" : "off"), TimelineField("reason", reason)])
  }

  /// A standby-bucket change takes effect: the alarm model already knew it
  /// (the power timeline), the timeline says it now.
  mutating func standbyBucketChanged(_ index: Int, at now: SimulationInstant) {
    guard let change = android?.bucketChanges[index] else { return }
    record(.app, "standby-bucket", at: now, [
      TimelineField("to", change.bucket.rawValue), TimelineField("from", change.from.rawValue), TimelineField("reason", change.reason),
    ])
  }

  /// The spans between the scenario's `on` and `off` power events (on
  /// Android, Low Power Mode's events are Battery Saver's); one still open
  /// runs to the clock's end.
  func spans(from on: PowerEvent.Kind, to off: PowerEvent.Kind) -> [Range<SimulationInstant>] {
    var spans: [Range<SimulationInstant>] = []
    var since: SimulationInstant?
    for event in scenario.device.power {
      if event.kind == on, since == nil { since = event.instant }
      if event.kind == off, let start = since {
        if start < event.instant { spans.append(start..<event.instant) }
        since = nil
      }
    }
    if let start = since, start < end { spans.append(start..<end) }
    return spans
  }

  /// When the screen comes on, known before the run: scripted looks, unlocks,
  /// switch-ons (a reboot's end too), the app in the foreground (its opening and the moment it
  /// leaves, so the screen goes off only then), and with a daily routine
  /// the waking look and the day's pickups evenly spaced (in trials too: Doze
  /// is judged on the routine's mean rhythm, not on each trial's drawn pickups).
  func screenOnInstants() -> [SimulationInstant] {
    var instants = scenario.patientAttention.looks.map(\.instant)
    instants += scenario.device.power.filter { $0.kind == .unlock }.map(\.instant)
    // Every switch-on, the end of a reboot's included: the phone boots to its lock screen.
    for change in phone.deviceSchedule.changes {
      if case .power(.switchOn, _) = change.change { instants.append(change.instant) }
    }
    // The app in the foreground keeps the screen on: from its opening to the moment it leaves.
    for span in foregroundSpans() { instants += [span.lowerBound, span.upperBound] }
    if let day = scenario.patientAttention.day {
      var cursor = previousLocal(day.wake, before: scenario.clock.start) ?? scenario.clock.start
      while cursor <= end, let sleep = nextLocal(day.sleep, atOrAfter: cursor.advanced(byMilliseconds: 1)) {
        let spacing = max(1, cursor.duration(to: sleep).milliseconds / Int64(max(1, day.pickupsPerDay)))
        var look = cursor
        while look < sleep && look <= end {
          if look >= scenario.clock.start { instants.append(look) }
          look = look.advanced(byMilliseconds: spacing)
        }
        guard let wake = nextLocal(day.wake, atOrAfter: sleep) else { break }
        cursor = wake
      }
    }
    return instants.sorted()
  }

  // MARK: - Alarms

  /// `AlarmManager.set*`: keeps the alarm (replacing one with its tag) and
  /// queues it at the instant the alarm model gives. Exact and alarm-clock
  /// alarms need the exact-alarm permission (`SecurityException` otherwise).
  mutating func setAlarm(
    _ tag: AlarmTag, _ alarm: AndroidAlarm, extras: [String: String], attribution: DoseAttribution? = nil, at now: SimulationInstant
  ) throws {
    guard var device = android else { return }
    if alarm.kind.needsExactPermission && !device.exactAlarmsAllowed {
      let error = AlarmManagerError.exactAlarmNotPermitted(tag)
      record(.alarm, tag.rawValue, at: now, [
        TimelineField("change", "refused"), TimelineField("kind", alarm.kind.rawValue), TimelineField("at", format(alarm.triggerAt)),
        TimelineField("reason", error.description),
      ])
      throw error
    }
    let previous = device.alarms[tag]
    let replaced = previous != nil
    // A held alarm the app replaces (its time has passed) never fires: the dose table may need to say so.
    if let previous, previous.alarm.triggerAt < now {
      device.alarmLosses.append(
        AlarmLoss(
          tag: tag, triggerAt: previous.alarm.triggerAt, at: now, what: "replaced by the app before it fired",
          reason: "the device held it: \(previous.heldReason ?? "deferred by the system")", attribution: previous.attribution))
    }
    var alarm = alarm
    if alarm.windowPosition == nil, !alarm.kind.needsExactPermission, var random = device.random {
      // Trials: where in its window the system fires an inexact alarm.
      alarm.windowPosition = random.nextUnit()
      device.random = random
    }
    var pending = PendingAlarm(
      tag: tag, alarm: alarm, extras: extras, attribution: attribution, token: device.nextAlarmToken, ordinal: device.nextAlarmOrdinal, setAt: now)
    let plan = device.dispatcher.plan(alarm, notBefore: now)
    pending.heldReason = plan.reason
    pending.deferredBy = plan.cause
    device.nextAlarmToken += 1
    device.nextAlarmOrdinal += 1
    device.alarms[tag] = pending
    android = device
    var fields = [TimelineField("change", replaced ? "replaced" : "set"), TimelineField("kind", alarm.kind.rawValue), TimelineField("at", format(alarm.triggerAt))]
    if let window = alarm.window { fields.append(TimelineField("window", window.description)) }
    if plan.instant != alarm.triggerAt { fields.append(TimelineField("fires", format(plan.instant))) }
    if let reason = plan.reason { fields.append(TimelineField("reason", reason)) }
    record(.alarm, tag.rawValue, at: now, fields)
    queueAlarm(pending, at: plan.instant)
  }

  mutating func queueAlarm(_ pending: PendingAlarm, at instant: SimulationInstant) {
    guard instant <= end else { return }
    queue.schedule(.alarmDue(pending.tag, token: pending.token), at: instant, phase: .timeTrigger, rank: pending.ordinal)
  }

  /// `AlarmManager.cancel`: a tag with no pending alarm is ignored, as on the platform.
  mutating func cancelAlarm(_ tag: AlarmTag, reason: String, at now: SimulationInstant) {
    guard android?.alarms.removeValue(forKey: tag) != nil else { return }
    record(.alarm, tag.rawValue, at: now, [TimelineField("change", "cancelled"), TimelineField("reason", reason)])
  }

  /// The device forgets every alarm of the app (a reboot, a force stop, a revoked permission for exact ones).
  mutating func clearAlarms(where matches: (PendingAlarm) -> Bool = { _ in true }, reason: String, at now: SimulationInstant) {
    guard let device = android else { return }
    for pending in device.alarmsInSetOrder where matches(pending) {
      android?.alarms[pending.tag] = nil
      android?.alarmLosses.append(
        AlarmLoss(tag: pending.tag, triggerAt: pending.alarm.triggerAt, at: now, what: "cleared", reason: reason, attribution: pending.attribution))
      record(.alarm, pending.tag.rawValue, at: now, [
        TimelineField("change", "cleared"), TimelineField("kind", pending.alarm.kind.rawValue), TimelineField("at", format(pending.alarm.triggerAt)),
        TimelineField("reason", reason),
      ])
    }
  }

  /// An alarm's queued instant: the model is asked again (a while-idle
  /// quota used since it was set may push it later); it fires when the
  /// answer is now, and the app's receiver runs.
  mutating func alarmDue(_ tag: AlarmTag, token: Int, at now: SimulationInstant) {
    guard var device = android, let pending = device.alarms[tag], pending.token == token else { return }
    let plan = device.dispatcher.plan(pending.alarm, notBefore: now)
    for id in AssumptionRegistry.inRegistryOrder(plan.consulted) { assumptionLog.consult(id) }
    if plan.instant > now {
      // Once per cause (`AlarmDeferralCause`): held again by the rule the timeline already named, it waits on without an entry.
      if plan.cause == nil || plan.cause != pending.deferredBy {
        record(.alarm, tag.rawValue, at: now, [
          TimelineField("change", "deferred"), TimelineField("fires", format(plan.instant)), TimelineField("reason", plan.reason ?? "deferred by the system"),
        ])
      }
      android?.alarms[tag]?.deferredBy = plan.cause
      if let reason = plan.reason { android?.alarms[tag]?.heldReason = reason }
      queueAlarm(pending, at: plan.instant)
      return
    }
    // Fired now: if the system held it past its time, the last reason it gave says why.
    let why = plan.reason ?? pending.heldReason
    device.alarms[tag] = nil
    device.dispatcher.fired(pending.alarm, at: now)
    android = device
    guard phone.attention.phoneOn else { return }  // cleared at switch-off already; kept for safety
    var fields = [TimelineField("change", "fired"), TimelineField("kind", pending.alarm.kind.rawValue), TimelineField("at", format(pending.alarm.triggerAt))]
    if now != pending.alarm.triggerAt {
      fields.append(TimelineField("late", pending.alarm.triggerAt.duration(to: now).description))
      if let why { fields.append(TimelineField("reason", why)) }
    }
    record(.alarm, tag.rawValue, at: now, fields)
    android?.firing = (pending, pending.alarm.triggerAt.duration(to: now), why)
    let layer = appLayer
    layer.alarmFired(pending, in: &self, at: now)
    android?.firing = nil
  }

  // MARK: - Boot

  /// Android at switch-off (a reboot, an empty battery): registered alarms
  /// are cleared ("Registered alarms are retained while the device is
  /// asleep … but will be cleared if it is turned off and rebooted",
  /// `AlarmManager` reference) and so are geofences (geofencing guide,
  /// "Re-register geofences only when required"); the app must add both
  /// again from its boot receiver.
  mutating func androidSwitchedOff(at now: SimulationInstant) {
    guard android != nil else { return }
    clearAlarms(reason: "the phone switched off: Android clears registered alarms at a reboot (AlarmManager)", at: now)
    let layer = appLayer
    layer.geofencesRemoved(reason: "the phone switched off: Android removes every geofence at a reboot", in: &self, at: now)
    holdWorkForReboot(at: now)
    android?.bootCompletedDue = true
  }

  /// Android at switch-on: direct-boot-aware receivers get `LOCKED_BOOT_COMPLETED` before the first unlock.
  mutating func androidBooted(at now: SimulationInstant) {
    guard android != nil else { return }
    let layer = appLayer
    layer.systemBroadcast(.lockedBootCompleted, in: &self, at: now)
  }

  /// Android at the first unlock after a boot: `BOOT_COMPLETED` (Direct Boot guide: it is sent once the user unlocks).
  mutating func androidFirstUnlock(at now: SimulationInstant) {
    guard android?.bootCompletedDue == true else { return }
    android?.bootCompletedDue = false
    rescheduleWorkAfterBoot(at: now)
    let layer = appLayer
    layer.systemBroadcast(.bootCompleted, in: &self, at: now)
  }

  // MARK: - Exact-alarm permission

  /// The patient grants or revokes "Alarms & reminders" (Settings ›
  /// Special app access): a revocation cancels the app's pending exact and
  /// alarm-clock alarms; a grant sends
  /// `ACTION_SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED` (Android 14
  /// behaviour changes, "Schedule exact alarms are denied by default").
  mutating func changeExactAlarmPermission(granted: Bool, at now: SimulationInstant) {
    guard let device = android, device.exactAlarmsAllowed != granted else { return }
    android?.exactAlarmsAllowed = granted
    record(.app, "exact-alarms", at: now, [TimelineField("to", granted ? "granted" : "revoked")])
    if granted {
      let layer = appLayer
      layer.systemBroadcast(.exactAlarmPermissionGranted, in: &self, at: now)
    } else {
      clearAlarms(where: { $0.alarm.kind.needsExactPermission }, reason: "the exact-alarm permission was revoked: Android cancels the app's exact alarms", at: now)
    }
  }

  // MARK: - The phone maker's killer

  /// The app left the foreground (or starts out of it): the maker's killer
  /// stops it `after` later unless it comes back first.
  mutating func leftForeground(at now: SimulationInstant) {
    guard let device = android, device.settings.oemKiller.kills else { return }
    android?.backgroundSpan += 1
    let at = now.advanced(by: device.settings.oemKiller.after)
    guard at <= end else { return }
    queue.schedule(.oemKill(token: device.backgroundSpan + 1), at: at, phase: .device, rank: Int.max)
  }

  /// The app came to the foreground: a pending kill is void.
  mutating func cameToForeground() {
    guard android != nil else { return }
    android?.backgroundSpan += 1
  }

  mutating func oemKill(token: Int, at now: SimulationInstant) {
    guard let device = android, device.backgroundSpan == token, !device.forceStopped, phone.installedApp.state != .foreground else { return }
    android?.forceStopped = true
    record(.app, "oem-kill", at: now, [
      TimelineField("preset", device.settings.oemKiller.preset.rawValue),
      TimelineField("reason", device.settings.oemKiller.killReason),
    ])
    clearAlarms(reason: "the phone maker's background killer stopped the app", at: now)
    stopWorkJobs(reason: "the phone maker's background killer stopped the app", at: now)
  }

  // MARK: - Channels

  /// The patient changes a channel's importance (Settings › Apps › the app ›
  /// Notifications): it holds for every later notification, and the app
  /// cannot raise it again (`NotificationChannel.setImportance`: "the user
  /// can change it at any time; the app cannot change it after creation").
  mutating func changeChannel(_ id: String, to importance: ChannelImportance, at now: SimulationInstant) {
    guard android != nil else { return }
    guard var channel = android?.channels[id] else {
      record(.warning, "channel", at: now, [
        TimelineField("id", id), TimelineField("reason", "the patient cannot change channel '\(id)': the app has not created it (yet)"),
      ])
      return
    }
    guard channel.importance != importance else { return }
    let from = channel.importance
    channel.importance = importance
    android?.channels[id] = channel
    android?.channelsEditedByPatient.insert(id)
    record(.app, "channel", at: now, [
      TimelineField("id", id), TimelineField("importance", importance.rawValue), TimelineField("from", from.rawValue),
      TimelineField("reason", "the patient changed the channel in Settings; the app cannot raise it again"),
    ])
  }

  // MARK: - Posting

  /// `NotificationManager.notify`: the notification is shown at once (by its
  /// channel's rules), replacing one shown under its identifier.
  mutating func post(_ request: NotificationRequest, at now: SimulationInstant) {
    var request = request
    request.trigger = .posted
    let outcome = phone.center.add(request, firstDelivery: now, at: now, appMonitored: [])
    guard let added = outcome.added else {
      record(.dropped, request.id.rawValue, at: now, [TimelineField("trigger", request.trigger.summary), TimelineField("reason", outcome.rejectedReason ?? "not kept")])
      return
    }
    ledger.requestPending(request.id)
    // Inside onMessageReceived: FCM counts the message as one that showed a notification.
    if let posts = android?.fcm.postsDuringMessage { android?.fcm.postsDuringMessage = posts + 1 }
    phone.deliver(added, in: &self, at: now, next: nil)
    // A reminder posted from an alarm that fired late: the dose table says why (once, for the dose's reminder).
    if let firing = android?.firing, firing.late > .zero, ledger.requestInfo[request.id]?.role.isMain == true, let dose = ledger.shownDose[request.id] {
      let why = firing.reason.map { ": \($0)" } ?? ""
      ledger.note(dose, "posted at \(format(now)) from the app's alarm '\(firing.alarm.tag)' for \(format(firing.alarm.alarm.triggerAt)), \(firing.late) late\(why)")
    }
  }
}
