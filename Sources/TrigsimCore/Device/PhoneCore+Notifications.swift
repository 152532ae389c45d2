import Foundation

extension PhoneCore {
  func perform(_ action: AppAction, in run: inout SimulationRun, at now: SimulationInstant) {
    switch action {
    case .add(let request):
      // A raw request counts for a medicine's doses when its identifier has
      // the form of one of the app's (its identifier templates).
      run.layers.ledger.requestAttributed(request.id, to: run.layers.ledger.rawRequestInfo(request.id, in: run))
      add(request, in: &run, at: now)
    case .removePending(let id):
      if let removed = center.removePending(id) {
        run.record(.removed, id.rawValue, at: now, [TimelineField("trigger", removed.request.trigger.summary)])
      } else {
        run.record(
          .warning, id.rawValue, at: now,
          [TimelineField("reason", "remove ignored: no pending request has this identifier (already delivered, dropped or never added)")])
      }
    }
  }

  /// `add(_:)` as the platform handles it; returns whether the request is pending afterwards.
  @discardableResult
  func add(_ request: NotificationRequest, in run: inout SimulationRun, at now: SimulationInstant, reason: String? = nil) -> Bool {
    if installedApp.permission == .denied {
      let why = "notification permission denied: add() succeeds but the platform keeps nothing"
      run.record(.dropped, request.id.rawValue, at: now, [TimelineField("trigger", request.trigger.summary), TimelineField("reason", why)])
      run.layers.ledger.requestLost(request.id, "not kept: \(why) (\(run.format(now)))")
      return false
    }
    var firstDelivery: SimulationInstant?
    switch request.trigger {
    case .calendar(let trigger):
      firstDelivery = run.calendarEvaluator.nextDelivery(of: trigger, after: now, deviceTimeZone: run.deviceTimeZone)
      if firstDelivery == nil {
        if let replaced = center.removePending(request.id) {
          run.record(.replaced, request.id.rawValue, at: now, [TimelineField("previous", replaced.request.trigger.summary)])
        }
        run.record(
          .warning, request.id.rawValue, at: now,
          [TimelineField("trigger", request.trigger.summary),
           TimelineField("reason", "never delivers: no date after this instant matches; the platform accepts the request silently and does not keep it pending")])
        run.layers.ledger.requestLost(request.id, "never delivers: no date after \(run.format(now)) matches")
        return false
      }
    case .interval(let trigger):
      firstDelivery = now.advanced(by: trigger.interval)
    case .posted:
      firstDelivery = now
    case .region:
      firstDelivery = nil
    }
    let outcome = center.add(request, firstDelivery: firstDelivery, at: now, appMonitored: run.layers.app.appMonitoredRegions)

    if let replaced = outcome.replaced {
      run.record(.replaced, request.id.rawValue, at: now, [TimelineField("previous", replaced.request.trigger.summary)])
    }
    if let reason = outcome.rejectedReason {
      run.record(.dropped, request.id.rawValue, at: now, [TimelineField("trigger", request.trigger.summary), TimelineField("reason", reason)])
      run.layers.ledger.requestLost(request.id, "dropped at \(run.format(now)): \(reason)")
      if reason == center.pendingLimitReason { run.layers.ledger.notePendingLimitDrop(request.id, at: now) }
      return false
    }
    var fields = [TimelineField("trigger", request.trigger.summary), TimelineField("title", request.title)]
    if let firstDelivery { fields.append(TimelineField("next", run.format(firstDelivery))) }
    if !request.trigger.repeats { fields.append(TimelineField("repeats", "no")) }
    if request.interruptionLevel != .active { fields.append(TimelineField("level", request.interruptionLevel.rawValue)) }
    if let badge = request.badge { fields.append(TimelineField("badge", String(badge))) }
    fields += request.userInfo
    if let reason { fields.append(TimelineField("reason", reason)) }
    run.record(.scheduled, request.id.rawValue, at: now, fields)
    run.layers.ledger.requestPending(request.id)
    if case .region = request.trigger, let blocked = installedApp.regionMonitoringBlockedReason {
      warnNeverFires(request, reason: blocked, in: &run, at: now)
    }
    if case .region = request.trigger { monitoringStartsInside(request, in: &run, at: now) }
    if let added = outcome.added, let firstDelivery { scheduleDelivery(of: added, in: &run, at: firstDelivery) }
    for dropped in outcome.dropped {
      run.record(.dropped, dropped.request.id.rawValue, at: now,
             [TimelineField("trigger", dropped.request.trigger.summary), TimelineField("reason", center.pendingLimitReason)])
      run.layers.ledger.requestLost(dropped.request.id, "dropped at \(run.format(now)): \(center.pendingLimitReason)")
      run.layers.ledger.notePendingLimitDrop(dropped.request.id, at: now)
    }
    if center.pending.count > pendingPeak {
      pendingPeak = center.pending.count
      pendingPeakAt = now
    }
    return true
  }

  func scheduleDelivery(of pending: PendingRequest, in run: inout SimulationRun, at instant: SimulationInstant) {
    guard instant <= run.end else { return }
    run.queue.schedule(.phone(.timeTriggerDue(pending.request.id, token: pending.token)), at: instant, phase: .timeTrigger, rank: pending.addOrdinal)
  }

  func deliverTimeTrigger(_ id: NotificationID, token: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    guard let pending = center.pending[id], pending.token == token else { return }  // replaced or removed since
    var next: SimulationInstant?
    defer {
      if let next, let updated = center.reschedule(id, nextDelivery: next) { scheduleDelivery(of: updated, in: &run, at: next) }
    }
    if pending.request.trigger.repeats {
      switch pending.request.trigger {
      case .calendar(let trigger):
        next = run.calendarEvaluator.nextDelivery(of: trigger, after: now, deviceTimeZone: run.deviceTimeZone)
      case .interval(let trigger):
        next = now.advanced(by: trigger.interval)
      case .region, .posted:
        next = nil
      }
    }
    guard attention.phoneOn else {
      holdWhileOff(pending, in: &run, at: now, next: next)
      return
    }
    if attention.lockedSinceStart { run.layers.assumptionLog.consult(.deliveryBeforeFirstUnlock) }
    if attention.lockedSinceStart && run.scenario.platform.attention.deliveryBeforeFirstUnlock == .held {
      holdUntilFirstUnlock(pending, in: &run, at: now)
      return
    }
    deliver(pending, in: &run, at: now, next: next)
  }

  /// Delivers a pending request. Returns whether it was shown (not suppressed).
  @discardableResult
  func deliver(_ pending: PendingRequest, in run: inout SimulationRun, at now: SimulationInstant, next: SimulationInstant?) -> Bool {
    let request = pending.request
    var fields = [TimelineField("trigger", request.trigger.summary), TimelineField("title", request.title)]
    if let body = request.body { fields.append(TimelineField("body", body)) }
    // A repeating time request stays pending while it has a next date; a
    // repeating location request stays pending with no date.
    let staysPending: Bool
    if case .region = request.trigger { staysPending = request.trigger.repeats } else { staysPending = next != nil }
    if let next {
      fields.append(TimelineField("next", run.format(next)))
    } else if request.trigger.repeats && !staysPending {
      fields.append(TimelineField("next", "none"))  // e.g. a repeating trigger pinned to a year that has ended
    }
    if !request.trigger.repeats && !request.trigger.isPosted { fields.append(TimelineField("repeats", "no")) }
    if let channel = request.channel { fields.append(TimelineField("channel", channel)) }
    let delivery = DeliveryAttributes(
      interruptionLevel: request.interruptionLevel, sound: request.sound, channel: request.channel, category: request.androidCategory)
    let perception = presenter.perception(of: delivery, in: attentionContext(in: run, at: now))
    if case .notShown(let why, let cause) = perception {
      recordNotShown(request, why, cause: cause, in: &run, at: now)
      center.markDelivered(request.id, at: now, keepPending: staysPending, shown: false)
      return false
    }
    if request.interruptionLevel != .active { fields.append(TimelineField("level", request.interruptionLevel.rawValue)) }
    if let catchUpDue = catchUpDue {
      let cause = catchUpWhileOff ? "came due while the phone was off" : "came due after switch-on, before the first unlock"
      fields += [TimelineField("due", run.format(catchUpDue)), TimelineField("cause", cause)]
    }
    fields += request.userInfo
    let ledger = run.layers.ledger
    let dose = ledger.doseOfDelivery(request.id, in: &run, at: now)
    if let dose, run.layers.ledger.requestInfo[request.id]?.role.isMain == true {
      fields.append(TimelineField("dose", dose.occurrenceLabel))
    }
    if run.layers.ledger.requestInfo[request.id] != nil { fields.append(TimelineField("app", installedApp.state.rawValue)) }
    run.record(.fired, request.id.rawValue, at: now, fields)
    forgetHeld(request.id)  // a new delivery replaces the one shown
    guard let shown = center.markDelivered(request.id, at: now, keepPending: staysPending) else { return false }
    if let dose { run.layers.ledger.notificationShown(request.id, dose: dose) }
    let layer = run.layers.app
    let presentation = layer.delivered(shown, request: request, dose: dose, perception: perception, in: &run, at: now)
    // The app's code may have removed or replaced this notification meanwhile.
    guard center.delivered[request.id]?.serial == shown.serial else { return false }
    if presentation.appliesBadge, let badge = request.badge { setBadge(badge, by: "delivery of \(request.id)", in: &run, at: now) }
    if case .notShown(let why, let cause) = presentation.perception {
      // The app's foreground will-present asked for no presentation: the platform shows nothing.
      center.removeDelivered(request.id)
      run.layers.ledger.notificationGone(request.id)
      recordNotShown(request, why, cause: cause, in: &run, at: now)
      if let dose { run.layers.ledger.deliveryNotShown(request.id, dose: dose) }
      return false
    }
    present(
      .local(request.id, serial: shown.serial), subject: request.id.rawValue, delivery: delivery, perception: presentation.perception, in: &run, at: now)
    if !presentation.staysListed {
      // A banner without `list`: once shown, nothing of it stays in Notification Center.
      center.removeDelivered(request.id)
      forgetHeld(request.id)
      run.layers.ledger.notificationLeft(request.id, "shown as a banner only at \(run.format(now)) (will-present options without list)")
    }
    return true
  }

  /// A delivery the device does not show: the `suppressed` entry and the request's loss reason.
  func recordNotShown(_ request: NotificationRequest, _ why: String, cause: SuppressionCause, in run: inout SimulationRun, at now: SimulationInstant) {
    run.record(
      .suppressed, request.id.rawValue, at: now,
      [TimelineField("trigger", request.trigger.summary), TimelineField("cause", cause.rawValue), TimelineField("reason", why)])
    run.layers.ledger.requestLost(request.id, "not shown at \(run.format(now)): \(why)")
  }

  /// The device's zone changed: each floating calendar request (one without
  /// a fixed time zone) comes due at its local time in the new zone; one
  /// whose local time no longer comes is dropped, as the platform does.
  func rescheduleFloatingRequests(for zone: TimeZone, in run: inout SimulationRun, at now: SimulationInstant) {
    let justBefore = now.advanced(byMilliseconds: -1)
    for pending in center.floatingCalendarRequests() {
      guard case .calendar(let trigger) = pending.request.trigger else { continue }
      let next = run.calendarEvaluator.nextDelivery(of: trigger, after: justBefore, deviceTimeZone: zone)
      guard next != pending.nextDelivery else { continue }
      guard let next else {
        // In the new zone no date matches any more (a one-shot whose local time has passed).
        _ = center.removePending(pending.request.id)
        run.record(.warning, pending.request.id.rawValue, at: now,
               [TimelineField("trigger", pending.request.trigger.summary),
                TimelineField("reason", "never delivers: after the time-zone change no date matches; the platform drops it silently")])
        continue
      }
      if let updated = center.reschedule(pending.request.id, nextDelivery: next) {
        run.record(.rescheduled, pending.request.id.rawValue, at: now,
               [TimelineField("next", run.format(next)), TimelineField("previous", pending.nextDelivery.map(run.format) ?? "none")])
        scheduleDelivery(of: updated, in: &run, at: next)
      }
    }
  }

}
