import Foundation

/// A notification the device holds: silenced by a Focus, or kept for the
/// next Scheduled Summary. It is still in Notification Center; the patient
/// sees it when it is released, if it is still there.
struct HeldNotification {
  enum Source: Equatable {
    /// A local notification, by its identifier and delivery serial.
    case local(NotificationID, serial: Int)
    /// A remote push, by its index in the scenario.
    case push(Int)
  }

  var source: Source
  var subject: String
  var delivery: DeliveryAttributes
  /// Held for the summary at this instant; nil when a Focus holds it.
  var summaryAt: SimulationInstant?
}

/// The attention layer's state during a run: what stands between a
/// delivery and the patient (see `NotificationPresenter`).
struct AttentionState {
  var settings = AppNotificationSettings()
  /// Indices into `DeviceSchedule.focusIntervals` of the Focus occurrences
  /// in force, ascending: as the intervals are sorted by start, the last is
  /// the one that began last (see `focusInForce()`), and a start or an end
  /// finds its place by binary search however many are in force.
  var focusInForce: [Int] = []
  var phoneOn = true
  /// Switched on and not unlocked since.
  var lockedSinceStart = false
  var lowPower = false
  var online = true
  /// Airplane mode is on: no pushes, no region monitoring.
  var airplane = false
  /// When the phone was last switched on (what `powerOffCatchUp: recent` measures to).
  var switchedOnAt: SimulationInstant?
  /// Requests that came due while the phone was off (`whileOff`) or, held
  /// by `deliveryBeforeFirstUnlock`, after switch-on and before the first
  /// unlock, in the order they came due, with the first instant each came due.
  var catchUp: [(id: NotificationID, due: SimulationInstant, whileOff: Bool)] = []
  var held: [HeldNotification] = []
  /// Summary instants already queued.
  var summariesQueued: Set<SimulationInstant> = []
  var preferences = AppPreferences()
  /// Low-priority pushes whose fate the push service has decided (once per push).
  var lowPriorityDecided: Set<Int> = []
  /// Focus occurrences a later one replaced for good (`focusResumes: no`):
  /// their scheduled end changes nothing.
  var focusReplaced: Set<Int> = []
  /// When the app was handed background pushes (for throttling).
  var backgroundPushes: [SimulationInstant] = []
  /// Pushes shown in Notification Center, by collapse identifier (or their own identifier).
  var pushesShown: [String: Int] = [:]
  var badge = 0
  var perceptions: [PerceptionRecord] = []
  var badgeHistory: [(instant: SimulationInstant, value: Int)] = []
  var waitingDosesHistory: [(instant: SimulationInstant, count: Int)] = []

  /// The phone is plugged in (`charging-on` … `charging-off`).
  var charging = false

  /// The phone can receive pushes.
  var reachable: Bool { phoneOn && online && !airplane }

  /// Why the phone cannot receive pushes (nil when it can).
  var unreachableReason: String? {
    if !phoneOn { return "the phone is off" }
    if airplane { return "the phone is in airplane mode" }
    if !online { return "the phone is offline" }
    return nil
  }
}

extension PhoneCore {
  // MARK: - Scheduling

  func scheduleDeviceEvents(in run: inout SimulationRun) {
    for (index, change) in deviceSchedule.changes.enumerated() {
      run.queue.schedule(.phone(.deviceChange(index)), at: change.instant, phase: .device, rank: change.change.rank)
    }
    for (index, push) in remotePushes.enumerated() where push.instant <= run.end {
      run.queue.schedule(.phone(.pushSent(index)), at: push.instant, phase: .remotePush, rank: index)
    }
  }

  /// The device's state that decides presentation now.
  func attentionContext(in run: SimulationRun, at now: SimulationInstant) -> AttentionContext {
    var summaryAt: SimulationInstant?
    if let summary = run.scenario.device.summary, summary.includesApp { summaryAt = nextSummary(atOrAfter: now, summary, in: run) }
    return AttentionContext(
      authorization: installedApp.permission, settings: attention.settings, entitlements: run.scenario.device.entitlements,
      focus: focusInForce(in: run), nextSummary: summaryAt, channels: run.layers.phone.notificationChannels)
  }

  /// The Focus in force: of the occurrences on, the one that began last
  /// (the latest start; of equal starts, the one listed last).
  func focusInForce(in run: SimulationRun) -> ActiveFocus? {
    guard let index = attention.focusInForce.last else { return nil }
    let interval = deviceSchedule.focusIntervals[index]
    let period = run.scenario.device.focus[interval.period]
    return ActiveFocus(
      name: period.name, allowsApp: period.allowsApp,
      allowsTimeSensitive: period.allowsTimeSensitive(unstated: run.scenario.platform.attention.focusTimeSensitiveDefault),
      until: interval.to <= run.end ? interval.to : nil)
  }

  /// The first summary time at or after `instant`, in the device zone now.
  func nextSummary(atOrAfter instant: SimulationInstant, _ summary: ScheduledSummary, in run: SimulationRun) -> SimulationInstant? {
    summary.times.compactMap { run.nextLocal($0, atOrAfter: instant) }.min()
  }

  // MARK: - Device changes

  func applyDeviceChange(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    switch deviceSchedule.changes[index].change {
    case .focusStart(let interval):
      let rule = run.scenario.platform.attention.focusResumes
      // A Focus that starts while another is on replaces it: whether the other comes back is a reading.
      if !attention.focusInForce.isEmpty { run.layers.assumptionLog.consult(.focusResumes) }
      let started = rule.start(interval, inForce: attention.focusInForce)
      attention.focusInForce = started.inForce
      let period = run.scenario.device.focus[deviceSchedule.focusIntervals[interval].period]
      for replaced in started.replaced {
        attention.focusReplaced.insert(replaced)
        let name = run.scenario.device.focus[deviceSchedule.focusIntervals[replaced].period].name
        run.record(.focus, name, at: now, [
          TimelineField("state", "off"),
          TimelineField("reason", "replaced by Focus '\(period.name)'; it does not come back when that one ends (platform focusResumes: no)"),
        ])
      }
      let until = deviceSchedule.focusIntervals[interval].to
      let timeSensitive = period.allowsTimeSensitive(unstated: run.scenario.platform.attention.focusTimeSensitiveDefault)
      run.record(.focus, period.name, at: now, [
        TimelineField("state", "on"), TimelineField("until", run.format(until)),
        TimelineField("app", period.allowsApp ? "allowed" : "silenced"),
        TimelineField("time-sensitive", timeSensitive ? "allowed" : "silenced"),
      ])
      if let replaced = started.replaced.last {
        let name = run.scenario.device.focus[deviceSchedule.focusIntervals[replaced].period].name
        releaseHeld(in: &run, at: now, cause: "Focus '\(name)' was replaced by '\(period.name)'")
      }
    case .focusEnd(let interval):
      // A Focus replaced for good already ended when it was replaced.
      guard attention.focusReplaced.remove(interval) == nil else { return }
      let place = attention.focusInForce.partitioningIndex { $0 >= interval }
      if place < attention.focusInForce.count && attention.focusInForce[place] == interval { attention.focusInForce.remove(at: place) }
      let period = run.scenario.device.focus[deviceSchedule.focusIntervals[interval].period]
      run.record(.focus, period.name, at: now, [TimelineField("state", "off")])
      releaseHeld(in: &run, at: now, cause: "Focus '\(period.name)' ended")
    case .power(let kind, let afterReboot):
      changePower(kind, afterReboot: afterReboot, in: &run, at: now)
    case .network(let online):
      guard online != attention.online else { return }
      attention.online = online
      run.record(.network, "phone", at: now, [TimelineField("state", online ? "online" : "offline")])
      if attention.reachable { pushesReachable(in: &run, at: now) }
    case .settings(let position):
      let change = run.scenario.device.settingsChanges[position]
      let settings = change.applied(to: attention.settings)
      guard settings != attention.settings else { return }
      attention.settings = settings
      run.record(.settings, "notifications", at: now, [TimelineField("now", settings.summary)])
    case .preferences(let position):
      let change = run.scenario.pushes.preferenceChanges[position]
      let preferences = change.applied(to: attention.preferences)
      guard preferences != attention.preferences else { return }
      attention.preferences = preferences
      var fields = [TimelineField("types-off", preferences.typesOff.isEmpty ? "none" : preferences.typesOff.sorted().joined(separator: ","))]
      fields.append(TimelineField("quiet-hours", preferences.quietHours.map { "\($0.from)-\($0.to)" } ?? "off"))
      run.record(.preferences, "app", at: now, fields)
    }
  }

  func changePower(_ kind: PowerEvent.Kind, afterReboot: Bool, in run: inout SimulationRun, at now: SimulationInstant) {
    switch kind {
    case .switchOff, .batteryEmpty, .reboot:
      guard attention.phoneOn else {
        run.record(.warning, "phone", at: now, [TimelineField("reason", "'\(kind.rawValue)' while the phone is already off: nothing changes")])
        return
      }
      attention.phoneOn = false
      attention.lockedSinceStart = false
      run.record(.power, "phone", at: now, [TimelineField("event", kind.rawValue), TimelineField("state", "off")])
      let phone = run.layers.phone
      phone.switchedOff(in: &run, at: now)
      if !installedApp.state.isTerminated {
        run.record(.app, "state", at: now, [
          TimelineField("to", AppState.terminated.rawValue), TimelineField("from", installedApp.state.rawValue),
          TimelineField("reason", "the phone switched off"),
        ])
        let previous = installedApp.state
        installedApp.state = .terminated
        // The app's process ends with the phone.
        let layer = run.layers.app
        layer.appStateChanged(from: previous, to: .terminated, in: &run, at: now)
      }
    case .switchOn:
      guard !attention.phoneOn else {
        run.record(.warning, "phone", at: now, [TimelineField("reason", "'switch-on' while the phone is already on: nothing changes")])
        return
      }
      attention.phoneOn = true
      attention.lockedSinceStart = true
      attention.switchedOnAt = now
      var fields = [TimelineField("event", afterReboot ? "switch-on (end of reboot)" : kind.rawValue), TimelineField("state", "on")]
      fields.append(TimelineField("locked", "until the first unlock"))
      let holdsUntilUnlock = run.scenario.platform.attention.deliveryBeforeFirstUnlock == .held
      if !attention.catchUp.isEmpty { run.layers.assumptionLog.consult(.deliveryBeforeFirstUnlock) }
      if holdsUntilUnlock && !attention.catchUp.isEmpty {
        fields.append(TimelineField("reason", "what came due while the phone was off delivers at the first unlock (platform deliveryBeforeFirstUnlock: held)"))
      }
      run.record(.power, "phone", at: now, fields)
      let phone = run.layers.phone
      phone.switchedOn(in: &run, at: now)
      if !holdsUntilUnlock { deliverCatchUp(in: &run, at: now) }
      releaseHeld(in: &run, at: now, cause: "the phone was switched on")
      if attention.reachable { pushesReachable(in: &run, at: now) }
    case .unlock:
      guard attention.phoneOn else {
        run.record(.warning, "phone", at: now, [TimelineField("reason", "'unlock' while the phone is off: nothing changes")])
        return
      }
      var fields = [TimelineField("event", kind.rawValue)]
      let firstUnlock = attention.lockedSinceStart
      if firstUnlock {
        let held = run.scenario.platform.attention.deliveryBeforeFirstUnlock == .held && !attention.catchUp.isEmpty
        fields.append(TimelineField("reason", "first unlock since the phone started: region monitoring resumes" + (held ? "; held deliveries deliver now" : "")))
      }
      attention.lockedSinceStart = false
      run.record(.power, "phone", at: now, fields)
      if firstUnlock && run.scenario.platform.attention.deliveryBeforeFirstUnlock == .held { deliverCatchUp(in: &run, at: now) }
      if firstUnlock {
        let phone = run.layers.phone
        phone.firstUnlock(in: &run, at: now)
      }
      // Unlocking is looking: the patient sees what is listed.
      let patientLayer = run.layers.patient
      patientLayer.lookDue(.unlock, in: &run, at: now)
    case .lowPowerOn, .lowPowerOff:
      let on = kind == .lowPowerOn
      guard on != attention.lowPower else { return }
      // Low Power Mode pauses region monitoring or leaves it: a reading, where there are regions to monitor.
      if on && !run.scenario.regions.isEmpty { run.layers.assumptionLog.consult(.lowPowerRegionMonitoring) }
      attention.lowPower = on
      var fields = [TimelineField("event", kind.rawValue), TimelineField("low-power", on ? "on" : "off")]
      if run.scenario.platform.attention.lowPowerRegionMonitoring == .paused {
        fields.append(TimelineField("reason", on
          ? "Background App Refresh stops; region monitoring pauses (platform lowPowerRegionMonitoring: paused)"
          : "Background App Refresh and region monitoring run again"))
      } else if on {
        fields.append(TimelineField("reason", "Background App Refresh stops; region monitoring goes on (platform lowPowerRegionMonitoring: unaffected)"))
      }
      run.record(.power, "phone", at: now, fields)
    case .airplaneModeOn, .airplaneModeOff:
      let on = kind == .airplaneModeOn
      guard on != attention.airplane else { return }
      attention.airplane = on
      run.record(.power, "phone", at: now, [
        TimelineField("event", kind.rawValue), TimelineField("airplane", on ? "on" : "off"),
        TimelineField("reason", on
          ? "no network: pushes wait at the push service; region monitoring is unavailable (the device cannot power up its radios)"
          : "network and region monitoring are back"),
      ])
      if !on && attention.reachable { pushesReachable(in: &run, at: now) }
    case .chargingOn, .chargingOff:
      let on = kind == .chargingOn
      guard on != attention.charging else { return }
      attention.charging = on
      var fields = [TimelineField("event", kind.rawValue), TimelineField("charging", on ? "yes" : "no")]
      if let reason = run.layers.phone.chargingReason(pluggedIn: on) { fields.append(TimelineField("reason", reason)) }
      run.record(.power, "phone", at: now, fields)
    }
  }

  // MARK: - Power-off catch-up

  /// A calendar or interval request came due while the phone was off: it
  /// waits for the phone to come on (or is lost, per `powerOffCatchUp`); a
  /// repeating request waits once however often it comes due.
  func holdWhileOff(_ pending: PendingRequest, in run: inout SimulationRun, at now: SimulationInstant, next: SimulationInstant?) {
    let id = pending.request.id
    run.layers.assumptionLog.consult(.powerOffCatchUp)
    let rule = run.scenario.platform.attention.powerOffCatchUp
    if rule == .never {
      run.record(.suppressed, id.rawValue, at: now, [
        TimelineField("trigger", pending.request.trigger.summary), TimelineField("cause", SuppressionCause.phoneOff.rawValue),
        TimelineField("reason", "the phone is off; nothing due while off is delivered (platform powerOffCatchUp: none)"),
      ])
      run.layers.ledger.requestLost(id, "not delivered at \(run.format(now)): the phone was off")
      if next == nil { center.markDelivered(id, at: now, keepPending: false, shown: false) }
      return
    }
    let waiting = attention.catchUp.contains { $0.id == id }
    if !waiting { attention.catchUp.append((id, now, true)) }
    run.record(.held, id.rawValue, at: now, [
      TimelineField("trigger", pending.request.trigger.summary), TimelineField("until", "the phone is on"),
      TimelineField("reason", waiting ? "the phone is off; already waiting to deliver once when it is on" : "the phone is off; delivered when it is switched on (platform powerOffCatchUp: \(rule))"),
    ])
    run.layers.ledger.requestLost(id, "the phone was off at \(run.format(now))")
  }

  /// A calendar or interval request came due after switch-on and before the
  /// first unlock, with `deliveryBeforeFirstUnlock: held`: it waits for the
  /// first unlock (once, however often a repeating one comes due).
  func holdUntilFirstUnlock(_ pending: PendingRequest, in run: inout SimulationRun, at now: SimulationInstant) {
    let id = pending.request.id
    let waiting = attention.catchUp.contains { $0.id == id }
    if !waiting { attention.catchUp.append((id, now, false)) }
    run.record(.held, id.rawValue, at: now, [
      TimelineField("trigger", pending.request.trigger.summary), TimelineField("until", "the first unlock"),
      TimelineField("reason", waiting
        ? "the phone has not been unlocked since it was switched on; already waiting to deliver once at the first unlock"
        : "the phone has not been unlocked since it was switched on: delivered at the first unlock (platform deliveryBeforeFirstUnlock: held)"),
    ])
    run.layers.ledger.requestLost(id, "the phone had not been unlocked since it was switched on at \(run.format(now))")
  }

  /// The phone is on (or, with `deliveryBeforeFirstUnlock: held`, unlocked
  /// for the first time since): every request that came due while off, or
  /// while locked since switch-on, delivers once, in the order they came due
  /// (those due while off within the catch-up span before switch-on, if limited).
  func deliverCatchUp(in run: inout SimulationRun, at now: SimulationInstant) {
    let waiting = attention.catchUp
    attention.catchUp = []
    for (id, due, whileOff) in waiting {
      guard let pending = center.pending[id] else { continue }  // removed meanwhile
      if whileOff, case .recent(let span) = run.scenario.platform.attention.powerOffCatchUp, due.duration(to: attention.switchedOnAt ?? now) > span {
        run.record(.suppressed, id.rawValue, at: now, [
          TimelineField("trigger", pending.request.trigger.summary), TimelineField("cause", SuppressionCause.phoneOff.rawValue),
          TimelineField("reason", "came due at \(run.format(due)) while the phone was off, more than \(span) before it came on (platform powerOffCatchUp: recent \(span))"),
        ])
        run.layers.ledger.requestLost(id, "not delivered: due at \(run.format(due)) while the phone was off")
        if !pending.request.trigger.repeats { center.markDelivered(id, at: now, keepPending: false, shown: false) }
        continue
      }
      catchUpDue = due
      catchUpWhileOff = whileOff
      run.layers.phone.core.deliver(pending, in: &run, at: now, next: pending.request.trigger.repeats ? pending.nextDelivery : nil)
      catchUpDue = nil
    }
  }

  // MARK: - Presentation

  /// Records how a delivery (already recorded as `fired` or `received`) is
  /// presented, and tells the patient: an alert is perceived now; anything
  /// else is listed for the patient's next look, or held.
  func present(
    _ source: HeldNotification.Source, subject: String, delivery: DeliveryAttributes, perception: Perception,
    pushType: String? = nil, in run: inout SimulationRun, at now: SimulationInstant
  ) {
    consultFocusTimeSensitiveSwitch(delivery, in: &run)
    switch perception {
    case .alert(let style, let note):
      if catchUpDue != nil { run.layers.assumptionLog.consult(.catchUpPresentation) }
      if catchUpDue != nil, run.scenario.platform.attention.catchUpPresentation == .listed {
        let why = "came due while the phone was off; listed without sound when it came on"
        run.record(.presented, subject, at: now, [
          TimelineField("how", "lock-screen"),
          TimelineField("reason", "\(why), seen at the patient's next look (platform catchUpPresentation: listed)"),
        ])
        listed(source, subject: subject, kind: .catchUp, how: "lock-screen", why: why, pushType: pushType, in: &run, at: now)
        return
      }
      if style != .full || note != nil || pushType != nil || isPush(source) {
        var fields = [TimelineField("how", style.description)]
        if let note { fields.append(TimelineField("reason", note)) }
        run.record(.presented, subject, at: now, fields)
      }
      perceived(source, subject: subject, kind: .alert, audible: style.sound, how: style.description, pushType: pushType, in: &run, at: now)
    case .heldByFocus(let focus, let reason):
      run.record(.held, subject, at: now, [TimelineField("until", focus.until.map(run.format) ?? "after the run"), TimelineField("reason", reason)])
      attention.held.append(HeldNotification(source: source, subject: subject, delivery: delivery, summaryAt: nil))
      noteHeld(source, "held by Focus '\(focus.name)' at \(run.format(now))", in: &run, at: now)
      run.layers.assumptionLog.consult(.focusSilencedOnLockScreen)
      if run.scenario.platform.attention.focusSilencedOnLockScreen == .shown {
        let why = "silenced by Focus '\(focus.name)', shown on the lock screen (platform focusSilencedOnLockScreen: shown)"
        listed(source, subject: subject, kind: .afterFocus, how: "lock-screen", why: why, pushType: pushType, in: &run, at: now)
      }
    case .heldForSummary(let at, let reason):
      run.record(.held, subject, at: now, [TimelineField("until", "summary at \(run.format(at))"), TimelineField("reason", reason)])
      attention.held.append(HeldNotification(source: source, subject: subject, delivery: delivery, summaryAt: at))
      if at <= run.end && attention.summariesQueued.insert(at).inserted { run.queue.schedule(.phone(.summaryDue), at: at, phase: .summary, rank: 0) }
      noteHeld(source, "held for the summary at \(run.format(at))", in: &run, at: now)
    case .quiet(let reason):
      run.record(.presented, subject, at: now, [TimelineField("how", "notification-center"), TimelineField("reason", reason)])
      listed(source, subject: subject, kind: .quiet, how: "notification-center", why: "delivered quietly to Notification Center, no alert", pushType: pushType, in: &run, at: now)
    case .notShown:
      preconditionFailure("a delivery that is not shown is recorded as suppressed before it is presented")
    }
  }

  /// A time-sensitive delivery meets a Focus that silences the app and does
  /// not state its "Time Sensitive" switch: the platform's default decides.
  func consultFocusTimeSensitiveSwitch(_ delivery: DeliveryAttributes, in run: inout SimulationRun) {
    guard delivery.interruptionLevel == .timeSensitive, let index = attention.focusInForce.last else { return }
    let period = run.scenario.device.focus[deviceSchedule.focusIntervals[index].period]
    if !period.allowsApp && !period.timeSensitiveStated { run.layers.assumptionLog.consult(.focusTimeSensitiveDefault) }
  }

  func isPush(_ source: HeldNotification.Source) -> Bool {
    if case .push = source { return true }
    return false
  }

  /// What the patient could perceive or was shown, for the assertions and the report.
  func recordPerception(
    _ source: HeldNotification.Source, subject: String, kind: PerceptionRecord.Kind, audible: Bool, byLook: Bool = false, pushType: String?,
    in run: inout SimulationRun, at now: SimulationInstant
  ) {
    guard now >= run.scenario.clock.start else { return }
    attention.perceptions.append(
      PerceptionRecord(
        subject: subject, instant: now, utcOffsetSeconds: run.deviceTimeZone.secondsFromGMT(for: now.date), kind: kind, audible: audible,
        pushType: pushType, pushTypeOff: pushType.map { attention.preferences.typesOff.contains($0) } ?? false, byLook: byLook))
  }

  /// The patient perceives an alert now: for a medicine notification, the
  /// dose is notified and the patient's response rules plan an answer.
  func perceived(
    _ source: HeldNotification.Source, subject: String, kind: PerceptionRecord.Kind, audible: Bool, how: String, pushType: String?,
    in run: inout SimulationRun, at now: SimulationInstant
  ) {
    recordPerception(source, subject: subject, kind: kind, audible: audible, pushType: pushType, in: &run, at: now)
    if case .push(let index) = source {
      let reminderServer = run.layers.server
      reminderServer.pushPerceived(index, kind: kind, how: how, in: &run, at: now)
    }
    guard case .local(let id, let serial) = source, let dose = run.layers.ledger.shownDose[id] else { return }
    run.layers.ledger.perceived(dose, by: DosePerception(notification: id, role: run.layers.ledger.requestInfo[id]?.role.description, kind: kind, how: how), at: now)
    let patientLayer = run.layers.patient
    patientLayer.perceived(id, serial: serial, in: &run, at: now)
  }

  /// The device lists a notification without an alert (after a Focus, in a
  /// summary, quietly in Notification Center, a silent catch-up): nothing
  /// draws the patient's eye; they see it at their next look.
  func listed(
    _ source: HeldNotification.Source, subject: String, kind: PerceptionRecord.Kind, how: String, why: String, pushType: String?,
    in run: inout SimulationRun, at now: SimulationInstant
  ) {
    recordPerception(source, subject: subject, kind: kind, audible: false, pushType: pushType, in: &run, at: now)
    if case .local(let id, _) = source, let dose = run.layers.ledger.shownDose[id] {
      run.layers.ledger.listed(dose, note: "listed at \(run.format(now)) (\(why))")
    }
    let patientLayer = run.layers.patient
    patientLayer.listed(Listing(source: source, subject: subject, kind: kind, how: how, listedAt: now, why: why), in: &run, at: now)
  }

  func noteHeld(_ source: HeldNotification.Source, _ note: String, in run: inout SimulationRun, at now: SimulationInstant) {
    guard case .local(let id, _) = source, let dose = run.layers.ledger.shownDose[id] else { return }
    run.layers.ledger.held(dose, note: note)
  }

  /// Whether a held notification is still in Notification Center.
  func stillShown(_ held: HeldNotification) -> Bool { stillShown(held.source) }

  /// Whether this delivery (of a local notification or a push) is still in Notification Center.
  func stillShown(_ source: HeldNotification.Source) -> Bool {
    switch source {
    case .local(let id, let serial): center.delivered[id]?.serial == serial
    case .push(let index): attention.pushesShown[pushKey(remotePushes[index])] == index
    }
  }

  /// A Focus ended or the phone came on: what a Focus held and no Focus
  /// holds now is listed on the lock screen, silently (only in Notification
  /// Center when lock-screen alerts are off), for the patient's next look;
  /// summaries already due are shown.
  func releaseHeld(in run: inout SimulationRun, at now: SimulationInstant, cause: String) {
    let reminderServer = run.layers.server
    reminderServer.focusReleased(in: &run, at: now)
    guard attention.phoneOn, !attention.held.isEmpty else { return }
    let focus = focusInForce(in: run)
    let alreadyListed = run.scenario.platform.attention.focusSilencedOnLockScreen == .shown
    var kept: [HeldNotification] = []
    for held in attention.held {
      guard stillShown(held) else { continue }
      if let summaryAt = held.summaryAt {
        if summaryAt <= now { showInSummary(held, in: &run, at: now) } else { kept.append(held) }
        continue
      }
      if let focus, !focus.allowsApp {
        kept.append(held)
        continue
      }
      if alreadyListed { continue }
      let pushType = pushType(of: held.source)
      if attention.settings.lockScreen {
        run.record(.presented, held.subject, at: now, [
          TimelineField("how", "lock-screen"), TimelineField("reason", "\(cause): listed on the lock screen without sound, seen at the patient's next look"),
        ])
        listed(held.source, subject: held.subject, kind: .afterFocus, how: "lock-screen", why: cause, pushType: pushType, in: &run, at: now)
      } else {
        run.record(.presented, held.subject, at: now, [
          TimelineField("how", "notification-center"),
          TimelineField("reason", "\(cause); lock screen alerts are off, so it is only listed in Notification Center, seen at the patient's next look"),
        ])
        listed(held.source, subject: held.subject, kind: .afterFocus, how: "notification-center", why: cause, pushType: pushType, in: &run, at: now)
      }
    }
    attention.held = kept
  }

  /// Scheduled Summary time: everything held for it is shown together.
  func deliverSummary(in run: inout SimulationRun, at now: SimulationInstant) {
    guard attention.phoneOn else { return }  // shown when the phone comes on
    var kept: [HeldNotification] = []
    for held in attention.held {
      guard stillShown(held) else { continue }
      if let summaryAt = held.summaryAt, summaryAt <= now { showInSummary(held, in: &run, at: now) } else { kept.append(held) }
    }
    attention.held = kept
  }

  func showInSummary(_ held: HeldNotification, in run: inout SimulationRun, at now: SimulationInstant) {
    run.record(.presented, held.subject, at: now, [
      TimelineField("how", "summary"), TimelineField("reason", "shown in the Scheduled Summary, without sound; seen at the patient's next look"),
    ])
    listed(held.source, subject: held.subject, kind: .summary, how: "summary", why: "in the Scheduled Summary", pushType: pushType(of: held.source), in: &run, at: now)
  }

  func pushType(of source: HeldNotification.Source) -> String? {
    if case .push(let index) = source { return remotePushes[index].type }
    return nil
  }

  /// A delivery's notification left Notification Center: nothing of it is held any more.
  func forgetHeld(_ id: NotificationID) {
    attention.held.removeAll { if case .local(id, _) = $0.source { true } else { false } }
  }

  // MARK: - Badge

  /// The app's badge is set to `value` (when badges are allowed).
  func setBadge(_ value: Int, by cause: String, in run: inout SimulationRun, at now: SimulationInstant) {
    guard attention.settings.badges, installedApp.permission == .granted || installedApp.permission == .ephemeral else { return }
    guard value != attention.badge else { return }
    run.record(.badge, "app", at: now, [TimelineField("to", String(value)), TimelineField("from", String(attention.badge)), TimelineField("by", cause)])
    attention.badge = value
    if let last = attention.badgeHistory.last, last.instant == now {
      attention.badgeHistory[attention.badgeHistory.count - 1].value = value
    } else {
      attention.badgeHistory.append((now, value))
    }
  }

  /// The doses with a notification in Notification Center (`badgeCountsDoses`).
  func waitingDoseCount(in run: SimulationRun) -> Int { Set(run.layers.ledger.shownDose.values).count }

  /// After each event: the doses waiting, for `badgeCountsDoses`.
  func trackWaitingDoses(in run: SimulationRun, at now: SimulationInstant) {
    let count = waitingDoseCount(in: run)
    guard count != (attention.waitingDosesHistory.last?.count ?? 0) else { return }
    if let last = attention.waitingDosesHistory.last, last.instant == now {
      attention.waitingDosesHistory[attention.waitingDosesHistory.count - 1].count = count
    } else {
      attention.waitingDosesHistory.append((now, count))
    }
  }

  // MARK: - Remote pushes

  func pushKey(_ push: RemotePush) -> String { push.collapseID.map { "collapse:" + $0 } ?? "id:" + push.id.rawValue }

  func pushFields(_ push: RemotePush, in run: SimulationRun) -> [TimelineField] {
    var fields: [TimelineField] = []
    if let type = push.type { fields.append(TimelineField("type", type)) }
    if let title = push.title { fields.append(TimelineField("title", title)) }
    if let body = push.body { fields.append(TimelineField("body", body)) }
    if let badge = push.badge { fields.append(TimelineField("badge", String(badge))) }
    if push.contentAvailable { fields.append(TimelineField("content-available", "1")) }
    if let category = push.category { fields.append(TimelineField("category", category)) }
    if let thread = push.thread { fields.append(TimelineField("thread", thread)) }
    if push.interruptionLevel != .active { fields.append(TimelineField("level", push.interruptionLevel.rawValue)) }
    fields.append(TimelineField("priority", String(push.priority)))
    if let collapse = push.collapseID { fields.append(TimelineField("collapse-id", collapse)) }
    if let expiration = push.expiration { fields.append(TimelineField("expires", expiration <= push.instant ? "at once" : run.format(expiration))) }
    return fields
  }

  /// The app's server sends a push.
  func sendPush(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    let push = remotePushes[index]
    if run.scenario.pushes.filter == .server, let why = appPreferenceBlock(push, in: run, at: now) {
      run.record(.filtered, push.id.rawValue, at: now, pushFields(push, in: run) + [TimelineField("where", "server"), TimelineField("reason", "not sent: \(why)")])
      return
    }
    run.record(.sent, push.id.rawValue, at: now, pushFields(push, in: run))
    let transport = pushTransport
    transport.sent(index, in: &run, at: now)
  }

  /// The phone can receive pushes again: the transport hands over what it kept.
  func pushesReachable(in run: inout SimulationRun, at now: SimulationInstant) {
    let transport = pushTransport
    transport.reachableAgain(in: &run, at: now)
    let reminderServer = run.layers.server
    reminderServer.phoneReachable(in: &run, at: now)
  }

  /// The push service tries to deliver push `index` now: it stores it while
  /// the device is unreachable, and hands it over otherwise.
  func routePush(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    let push = remotePushes[index]
    if let unreachable = attention.unreachableReason {
      if let expiration = push.expiration, expiration <= push.instant {
        run.record(.discarded, push.id.rawValue, at: now, [TimelineField("reason", "\(unreachable) and the push expires at once (apns-expiration 0): the push service does not store it")])
        return
      }
      storePush(index, unreachable: unreachable, in: &run, at: now)
      return
    }
    handOver(index, in: &run, at: now, late: now > push.instant, uncertain: nil)
  }

  /// The `uncertain` field of a push the push service chose among several.
  static let storedPushUncertainty = TimelineField(
    "uncertain", "APNs keeps one push per app while the device is unreachable and chooses which non-deterministically (Apple DTS, forum thread 775455)")

  /// The last instant the push service keeps push `index`.
  func pushExpiry(_ index: Int, in run: SimulationRun) -> SimulationInstant {
    let push = remotePushes[index]
    return push.expiration ?? push.instant.advanced(by: run.scenario.platform.attention.pushStorageLimit)
  }

  /// Push `index` reaches the push service while the device is unreachable:
  /// it keeps one push per app (`PushService`).
  func storePush(_ index: Int, unreachable: String, in run: inout SimulationRun, at now: SimulationInstant) {
    let push = remotePushes[index]
    let outcome = pushService.store(index, at: now, expires: { pushExpiry($0, in: run) })
    let rule = "platform storedPush: \(run.scenario.platform.attention.storedPush.rawValue)"
    if let expired = outcome.expired {
      run.record(.discarded, remotePushes[expired].id.rawValue, at: now, [TimelineField("reason", "expired at \(run.format(pushExpiry(expired, in: run))) while the phone was unreachable")])
    }
    if let replaced = outcome.replacing {
      run.layers.assumptionLog.consult(.storedPush)
      run.record(.discarded, remotePushes[replaced].id.rawValue, at: now, [
        TimelineField("reason", "replaced at the push service by '\(push.id)': it keeps one notification per app while the device is unreachable, here the latest (\(rule))")
      ])
    }
    if let instead = outcome.keptInstead {
      run.layers.assumptionLog.consult(.storedPush)
      run.record(.discarded, push.id.rawValue, at: now, [
        TimelineField("reason", "\(unreachable): the push service keeps one notification per app, here the earliest, '\(remotePushes[instead].id)' (\(rule))"),
        Self.storedPushUncertainty,
      ])
      return
    }
    var reason = "\(unreachable): the push service keeps it until the phone is reachable" + (push.expiration.map { " or it expires at \(run.format($0))" } ?? "")
    if case .drawn = pushService.keeping { reason += "; of the pushes it holds, the one delivered is drawn when the phone is reachable (trial)" }
    var fields = [TimelineField("reason", reason)]
    if outcome.choiceAmongSeveral {
      fields.append(Self.storedPushUncertainty)
      run.layers.assumptionLog.consult(.storedPush)
    }
    run.record(.stored, push.id.rawValue, at: now, fields)
  }

  /// The phone is reachable again: the push the service kept is delivered, unless it expired.
  func deliverStoredPushes(in run: inout SimulationRun, at now: SimulationInstant) {
    let release = pushService.release(at: now, expires: { pushExpiry($0, in: run) })
    for index in release.expired {
      let push = remotePushes[index]
      let expiration = pushExpiry(index, in: run)
      let why = push.expiration == nil ? "the push service's storage limit of \(run.scenario.platform.attention.pushStorageLimit) ran out at \(run.format(expiration))" : "expired at \(run.format(expiration))"
      run.record(.discarded, push.id.rawValue, at: now, [TimelineField("reason", "\(why) while the phone was unreachable")])
    }
    guard let index = release.delivered else { return }
    for other in release.notChosen {
      run.record(.discarded, remotePushes[other].id.rawValue, at: now, [
        TimelineField("reason", "the push service kept '\(remotePushes[index].id)' of the \(release.notChosen.count + 1) pushes it held (drawn uniformly in this trial)"),
        Self.storedPushUncertainty,
      ])
    }
    handOver(index, in: &run, at: now, late: true, uncertain: release.choiceAmongSeveral ? Self.storedPushUncertainty : nil)
  }

  /// The push service hands push `index` to the device, unless it is of low
  /// priority and the service's power rule (decided once per push) drops or
  /// delays it. `late`: it arrives after it was sent.
  func handOver(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant, late: Bool, uncertain: TimelineField?) {
    let push = remotePushes[index]
    if PushService.isLowPriorityVisible(push), attention.lowPriorityDecided.insert(index).inserted {
      run.layers.assumptionLog.consult(.priority5Alerts)
      let setting = "platform priority5Alerts: \(run.scenario.platform.attention.priority5Alerts.scenarioSpelling)"
      let source = "apns-priority \(push.priority) is sent when the device's power allows and is in some cases not delivered (Apple, \"Sending notification requests to APNs\")"
      let inTrial = pushService.lowPrioritySeed != nil
      let rule = inTrial
        ? "drawn in this trial: delivered with probability \(run.scenario.platform.attention.priority5DeliveryProbability), after up to \(run.scenario.platform.attention.priority5MaxDelay)"
        : setting
      switch pushService.lowPriorityFate(of: index) {
      case .atOnce:
        break
      case .dropped:
        var fields = [TimelineField("reason", "\(source); trigsim assumes it is not delivered (\(rule))")]
        if !inTrial { fields.append(TimelineField("other-readings", "priority5Alerts: delayed <span> or at-once")) }
        run.record(.discarded, push.id.rawValue, at: now, fields)
        return
      case .delayed(let span):
        let at = now.advanced(by: span)
        run.record(.stored, push.id.rawValue, at: now, [
          TimelineField("until", at <= run.end ? run.format(at) : "after the run"),
          TimelineField("reason", "\(source); trigsim delays it \(span) (\(rule))"),
        ])
        if at <= run.end { run.queue.schedule(.phone(.pushDelayed(index)), at: at, phase: .remotePush, rank: index) }
        return
      }
    }
    receivePush(index, in: &run, at: now, stored: late, uncertain: uncertain)
  }

  /// A low-priority push the push service delayed is due: it tries to deliver it now, unless it expired meanwhile.
  func deliverDelayedPush(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    let push = remotePushes[index]
    if let expiration = push.expiration, expiration < now {
      let when = expiration <= push.instant ? "at once (apns-expiration 0)" : "at \(run.format(expiration))"
      run.record(.discarded, push.id.rawValue, at: now, [TimelineField("reason", "expired \(when), before the push service delivered it")])
      return
    }
    routePush(index, in: &run, at: now)
  }

  /// Why the app's own settings do not want this push now, if they do not.
  func appPreferenceBlock(_ push: RemotePush, in run: SimulationRun, at now: SimulationInstant) -> String? {
    attention.preferences.blockReason(type: push.type, at: now, in: run.deviceTimeZone)
  }

  /// The device receives a push: a background push wakes the app (when the
  /// system lets it); an alert push goes through the app's filter and the
  /// same presentation as a local notification.
  func receivePush(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant, stored: Bool, uncertain: TimelineField? = nil) {
    let push = remotePushes[index]
    let id = push.id.rawValue
    if push.contentAvailable && !push.hasAlert {
      receiveBackgroundPush(push, in: &run, at: now, stored: stored, uncertain: uncertain)
      return
    }
    var fields: [TimelineField] = []
    if stored { fields.append(TimelineField("sent", run.format(push.instant))) }
    if let type = push.type { fields.append(TimelineField("type", type)) }
    if let category = push.category {
      fields.append(TimelineField("actions", (run.scenario.pushes.categories[category] ?? []).joined(separator: ",")))
    }
    fields.append(TimelineField("app", installedApp.state.rawValue))
    let key = pushKey(push)
    if let previous = attention.pushesShown[key], push.hasAlert {
      fields.append(TimelineField("replaces", remotePushes[previous].id.rawValue))
    }
    if let uncertain { fields.append(uncertain) }
    run.record(.received, id, at: now, fields)
    let server = run.layers.server
    server.pushReceived(index, in: &run, at: now)
    if run.scenario.pushes.filter == .app, let why = appPreferenceBlock(push, in: run, at: now) {
      run.record(.filtered, id, at: now, [TimelineField("where", "app"), TimelineField("reason", "received, not shown: \(why) (the app's notification service extension drops it, which needs Apple's notification-filtering entitlement)")])
      return
    }
    if let badge = push.badge { setBadge(badge, by: "push \(id)", in: &run, at: now) }
    guard push.hasAlert else { return }
    let delivery = DeliveryAttributes(interruptionLevel: push.interruptionLevel, sound: push.sound)
    let perception = presenter.perception(of: delivery, in: attentionContext(in: run, at: now))
    if case .notShown(let why, let cause) = perception {
      run.record(.suppressed, id, at: now, [TimelineField("cause", cause.rawValue), TimelineField("reason", why)])
      return
    }
    attention.pushesShown[key] = index
    present(.push(index), subject: id, delivery: delivery, perception: perception, pushType: push.type, in: &run, at: now)
  }

  func receiveBackgroundPush(_ push: RemotePush, in run: inout SimulationRun, at now: SimulationInstant, stored: Bool, uncertain: TimelineField?) {
    let id = push.id.rawValue
    let why: String?
    let recent = attention.backgroundPushes.filter { $0.duration(to: now) < .seconds(3600) }
    if installedApp.state == .forceQuit {
      why = "the patient force-quit the app: the system does not launch it for background pushes"
    } else if attention.lowPower {
      why = "Low Power Mode: the system does not hand background pushes to the app"
    } else if recent.count >= run.scenario.platform.attention.backgroundPushesPerHour {
      why = "throttled: the app already had \(recent.count) background push\(recent.count == 1 ? "" : "es") in the last hour (platform backgroundPushesPerHour: \(run.scenario.platform.attention.backgroundPushesPerHour))"
    } else {
      why = nil
    }
    if let why {
      run.record(.suppressed, id, at: now, [TimelineField("cause", SuppressionCause.backgroundPush.rawValue), TimelineField("reason", "background push not delivered: \(why)")])
      return
    }
    attention.backgroundPushes = recent + [now]
    var fields = [TimelineField("background", "yes")]
    if stored { fields.append(TimelineField("sent", run.format(push.instant))) }
    fields.append(TimelineField("app", installedApp.state.rawValue))
    if let uncertain { fields.append(uncertain) }
    run.record(.received, id, at: now, fields)
    if let badge = push.badge { setBadge(badge, by: "push \(id)", in: &run, at: now) }
    let layer = run.layers.app
    layer.silentPushReceived(push, in: &run, at: now)
  }

  // MARK: - Header

  /// The `device` header line, for scenarios that use the attention model.
  func deviceHeader(in run: SimulationRun) -> TimelineField? {
    let device = run.scenario.device
    guard !device.isDefault || !run.scenario.pushes.pushes.isEmpty || run.scenario.platform.attention != AttentionRules() else { return nil }
    // Android: of these rules only the boot time applies (its push rules are FCM's, on the platform line;
    // it has no power-off catch-up, background-push budget, entitlements or Scheduled Summary).
    if run.scenario.platform.android != nil { return TimelineField("device", "boot=\(run.scenario.platform.attention.bootDuration)") }
    var words = [run.scenario.platform.attention.summary]
    let entitlements = [("time-sensitive", device.entitlements.timeSensitive), ("critical-alerts", device.entitlements.criticalAlerts)]
      .filter(\.1).map(\.0)
    words.append("entitlements=" + (entitlements.isEmpty ? "none" : entitlements.joined(separator: ",")))
    if let summary = device.summary {
      words.append("summary=\(summary.times.map(\.description).joined(separator: ","))\(summary.includesApp ? "" : "(app not included)")")
    }
    return TimelineField("device", words.joined(separator: " "))
  }
}
