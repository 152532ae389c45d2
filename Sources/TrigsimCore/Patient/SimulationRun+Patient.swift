import Foundation

/// The patient at work: looks at the phone, scripted actions and response
/// rules (refused when the phone is off or the notification is not in
/// Notification Center), and the remarks and warnings for response-rule
/// steps never used.
extension SimulationRun {
  // MARK: - Looks

  /// The patient looks at the phone: every listing still shown is seen now
  /// (a `looked` entry each), in the order listed; a dose seen this way is
  /// notified now, and the patient's response rules plan an answer to it.
  /// A look at a phone that is off sees nothing.
  mutating func look(_ cause: LookCause, at now: SimulationInstant) {
    let reminderServer = serverLayer
    reminderServer.patientLooked(in: &self, at: now)
    guard phone.attention.phoneOn, !patient.unseen.isEmpty else { return }
    let listings = patient.unseen
    patient.unseen = []
    for listing in listings {
      guard phone.stillShown(listing.source) else { continue }
      record(.looked, listing.subject, at: now, [
        TimelineField("how", listing.how), TimelineField("listed", format(listing.listedAt)), TimelineField("look", cause.description),
      ])
      phone.recordPerception(
        listing.source, subject: listing.subject, kind: listing.kind, audible: false, byLook: true, pushType: phone.pushType(of: listing.source),
        in: &self, at: now)
      if case .push(let index) = listing.source {
        reminderServer.pushPerceived(index, kind: listing.kind, how: listing.how + ", seen at a look", in: &self, at: now)
      }
      guard case .local(let id, let serial) = listing.source, let dose = ledger.shownDose[id] else { continue }
      let seen = DosePerception(notification: id, role: ledger.requestInfo[id]?.role.description, kind: listing.kind, how: listing.how + ", seen at a look")
      if ledger.doses[dose]?.notified == nil {
        ledger.note(dose, "seen at the patient's \(cause) look at \(format(now))")
      }
      ledger.perceived(dose, by: seen, at: now)
      let patientLayer = patientLayer
      patientLayer.perceived(id, serial: serial, in: &self, at: now)
    }
  }

  /// The routine's first look: on waking, or a pickup when the clock starts
  /// while the patient is awake.
  mutating func scheduleFirstRoutineLook() {
    guard let day = scenario.patientAttention.day else { return }
    let start = scenario.clock.start
    guard let wake = nextLocal(day.wake, atOrAfter: start), let sleep = nextLocal(day.sleep, atOrAfter: start) else { return }
    if sleep < wake {
      // Awake at the start: pickups from the start until sleep.
      patient.awakeUntil = sleep
      schedulePickup(after: start, awakeSince: previousLocal(day.wake, before: start) ?? start)
    } else if wake <= end {
      queue.schedule(.look(.wake), at: wake, phase: .look, rank: scenario.patientAttention.looks.count)
    }
  }

  /// After a wake or pickup look: the next pickup while awake, else the next waking.
  mutating func scheduleNextRoutineLook(after now: SimulationInstant) {
    guard let day = scenario.patientAttention.day else { return }
    if let sleep = patient.awakeUntil, now < sleep {
      schedulePickup(after: now, awakeSince: nil)
    } else {
      // A wake look: awake until the next sleep.
      patient.awakeUntil = nextLocal(day.sleep, atOrAfter: now.advanced(byMilliseconds: 1))
      schedulePickup(after: now, awakeSince: now)
    }
  }

  /// The next pickup after `now` while awake: evenly spaced in a single run
  /// (the waking span, from `awakeSince` when a span begins, divided by the
  /// day's pickups), drawn from an exponential distribution with the same
  /// mean in trials (a Poisson process). Past sleep, the next waking instead.
  mutating func schedulePickup(after now: SimulationInstant, awakeSince: SimulationInstant?) {
    guard let day = scenario.patientAttention.day, let sleep = patient.awakeUntil else { return }
    if let awakeSince {
      patient.pickupSpacing = max(1, awakeSince.duration(to: sleep).milliseconds / Int64(max(1, day.pickupsPerDay)))
    }
    var gap = patient.pickupSpacing ?? 1
    if var random = patient.lookRandom {
      // Inverse transform of a uniform draw: -ln(1 - u) · mean, u in [0, 1).
      gap = max(1, Int64((-log(1 - random.nextUnit()) * Double(gap)).rounded()))
      patient.lookRandom = random
    }
    let next = now.advanced(byMilliseconds: gap)
    if next < sleep {
      if next <= end { queue.schedule(.look(.pickup), at: next, phase: .look, rank: scenario.patientAttention.looks.count) }
      return
    }
    patient.awakeUntil = nil
    if let wake = nextLocal(day.wake, atOrAfter: sleep), wake <= end {
      queue.schedule(.look(.wake), at: wake, phase: .look, rank: scenario.patientAttention.looks.count)
    }
  }

  /// The first instant at or after `instant` whose device-local wall-clock time is `time`.
  func nextLocal(_ time: DailyTime, atOrAfter instant: SimulationInstant) -> SimulationInstant? {
    calendarEvaluator.nextDelivery(
      of: CalendarTrigger(components: CalendarComponents(hour: time.hour, minute: time.minute), repeats: true),
      after: instant.advanced(byMilliseconds: -1), deviceTimeZone: deviceTimeZone)
  }

  /// The last instant before `instant` whose device-local wall-clock time is `time` (within the day before).
  func previousLocal(_ time: DailyTime, before instant: SimulationInstant) -> SimulationInstant? {
    guard let next = nextLocal(time, atOrAfter: instant.advanced(by: .seconds(-86_400 - 3_600))), next < instant else { return nil }
    var last = next
    while let following = nextLocal(time, atOrAfter: last.advanced(byMilliseconds: 1)), following < instant { last = following }
    return last
  }

  // MARK: - Responses

  /// The patient perceived notification `id` now: the first response rule
  /// whose pattern matches it plans an answer `after` its delay, once per
  /// dose per perception instant (a burst of a dose's notifications seen at
  /// one look is answered once).
  mutating func planRuleResponse(_ id: NotificationID, at now: SimulationInstant) {
    guard let dose = ledger.shownDose[id] else { return }
    let key = PatientState.PlanKey(dose: dose, perceivedAt: now)
    guard !patient.planned.contains(key) else { return }
    for (index, rule) in medicineApp.responseRules.enumerated() where rule.pattern.matches(id.rawValue) {
      let at = now.advanced(by: rule.after)
      if at <= end {
        patient.planned.insert(key)
        patient.responsePlans.append(ResponsePlan(rule: index, dose: dose, perceivedAt: now))
        queue.schedule(.ruleResponse(plan: patient.responsePlans.count - 1), at: at, phase: .userAction, rank: medicineApp.userActions.count)
      }
      break
    }
  }

  mutating func performScriptedAction(_ action: ScheduledUserAction, at now: SimulationInstant) {
    guard phone.attention.phoneOn else {
      reject(action, "while the phone is off", note: "move the action after the phone's next 'switch-on' under 'device: power:'", at: now)
      return
    }
    guard phone.center.delivered[action.notification] != nil, appLayer.canAct(on: action.notification, in: self) else {
      let why = ledger.leftNotificationCenter[action.notification].map { "it left Notification Center: \($0)" }
        ?? ledger.lossReason[action.notification].map { "it was never delivered: \($0)" }
        ?? "it was never delivered before this instant"
      reject(
        action, ", which is not in Notification Center: \(why)",
        note: "an action needs a delivered notification still shown to the user; run the scenario without this action and read the timeline for when it fires",
        at: now)
      return
    }
    let layer = appLayer
    layer.patientActed(action.action, on: action.notification, by: "script", in: &self, at: now)
  }

  /// A scripted action that cannot be carried out: invalid input, reported at its line once the run ends.
  mutating func reject(_ action: ScheduledUserAction, _ problem: String, note: String, at now: SimulationInstant) {
    let location = action.origin ?? InputLocation(file: scenario.name, line: 1, column: 1)
    let separator = problem.hasPrefix(",") ? "" : " "
    patient.actionProblems.append(
      Diagnostic(at: location, "'\(action.action)' at \(format(now)) acts on '\(action.notification)'\(separator)\(problem)", notes: [note]))
  }

  /// A planned response is due: the rule's next step for the dose, applied
  /// to the dose's most recent notification still in Notification Center
  /// that the rule's pattern matches (nothing when none is).
  mutating func respond(plan index: Int, at now: SimulationInstant) {
    let plan = patient.responsePlans[index]
    let rule = medicineApp.responseRules[plan.rule]
    let shown = ledger.shownDose.compactMap { id, dose in
      dose == plan.dose && rule.pattern.matches(id.rawValue) ? phone.center.delivered[id] : nil
    }
    guard let target = shown.max(by: { $0.serial < $1.serial }) else { return }
    guard phone.attention.phoneOn else {
      record(.warning, target.id.rawValue, at: now, [TimelineField("reason", "the planned response was not made: the phone is off")])
      return
    }
    let stepKey = PatientState.RuleStep(rule: plan.rule, dose: plan.dose)
    let step = patient.ruleSteps[stepKey, default: 0]
    guard step < rule.actions.count else { return }
    patient.ruleSteps[stepKey] = step + 1
    let layer = appLayer
    layer.patientActed(rule.actions[step], on: target.id, by: "rule \(rule.pattern) step \(step + 1)/\(rule.actions.count)", in: &self, at: now)
  }

  /// For each response rule that answered this dose but not to its last
  /// step: which step went unused, and why.
  func unusedRuleStepRemarks(_ dose: DoseRecord) -> [String] {
    guard dose.resolved == nil else { return [] }
    var remarks: [String] = []
    for (index, rule) in medicineApp.responseRules.enumerated() {
      let used = patient.ruleSteps[PatientState.RuleStep(rule: index, dose: dose.key), default: 0]
      guard used > 0, used < rule.actions.count else { continue }
      remarks.append(
        "rule step unused: '\(rule.actions[used])' (step \(used + 1)/\(rule.actions.count) of rule \(rule.pattern)) never applied: no matching notification was delivered after step \(used)")
    }
    return remarks
  }

  /// At the end of the run: a warning for every response-rule step that no dose used.
  mutating func warnUnusedRuleSteps() {
    guard !ledger.creationOrder.isEmpty else { return }
    for (index, rule) in medicineApp.responseRules.enumerated() {
      let used = patient.ruleSteps.filter { $0.key.rule == index }.map(\.value).max() ?? 0
      guard used < rule.actions.count else { continue }
      let unused = MessageList.joined(rule.actions[used...].lazy.map { "'\($0)'" })
      let why = used == 0
        ? "no notification matching '\(rule.pattern)' was perceived while in Notification Center"
        : "no dose had a matching notification delivered after step \(used)"
      let steps = rule.actions.count - used == 1 ? "step \(used + 1)/\(rule.actions.count)" : "steps \(used + 1)...\(rule.actions.count) of \(rule.actions.count)"
      record(.warning, rule.pattern.text, at: end, [
        TimelineField("rule", "respond[\(index + 1)]"),
        TimelineField("reason", "response rule \(steps) (\(unused)) never used: \(why)"),
      ])
    }
  }
}
