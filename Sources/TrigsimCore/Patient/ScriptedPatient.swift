import Foundation

/// The scenario's patient: looks at the phone as `patient:` says (and at
/// every unlock), scripted `actions:` at their instants, and `respond:` rules
/// timed from the moment a dose is perceived, once per dose per look, refused
/// while the phone is off or when nothing of the dose is in Notification
/// Center.
///
/// It owns the patient's side of one run (so a run gets a patient of its
/// own): the notifications listed without an alert and not yet seen, the
/// responses planned at each look, which response-rule steps they used, the
/// scripted actions that could not be performed, and where the daily
/// routine's looks stand.
final class ScriptedPatient: PatientLayer {
  /// Notifications listed without an alert, not yet seen, in the order listed.
  private var unseen: [Listing] = []
  /// Every response planned, in the order planned (the queue's `ruleResponse` events index it).
  private(set) var responsePlans: [ResponsePlan] = []
  /// The plan made for a dose at a perception instant: one per dose per look.
  private var planned: Set<PlanKey> = []
  /// Response-rule steps used, per rule and dose.
  private var ruleSteps: [RuleStep: Int] = [:]
  /// Scripted actions on notifications not in Notification Center, or made while the phone was off.
  private(set) var rejectedActions: [Diagnostic] = []
  /// The end of the waking span the routine's pickups fall in (nil while asleep).
  private var awakeUntil: SimulationInstant?
  /// The mean time between pickups in the current waking span, in milliseconds.
  private var pickupSpacing: Int64?
  /// In trials, the stream the routine's pickups are drawn from (nil: evenly spaced).
  private var lookRandom: TrialRandom?

  init(lookRandom: TrialRandom? = nil) { self.lookRandom = lookRandom }

  /// A response rule's use for one dose.
  struct RuleStep: Hashable {
    var rule: Int
    var dose: DoseKey
  }

  /// A dose perceived at an instant.
  struct PlanKey: Hashable {
    var dose: DoseKey
    var perceivedAt: SimulationInstant
  }

  // MARK: - The seam

  func scheduleEvents(in run: inout SimulationRun) {
    for (index, action) in run.scenario.medicineApp.userActions.enumerated() where action.instant <= run.end {
      run.queue.schedule(.patient(.userAction(index)), at: action.instant, phase: .userAction, rank: index)
    }
    for (index, look) in run.scenario.patientAttention.looks.enumerated() where look.instant <= run.end {
      run.queue.schedule(.patient(.look(.scripted(index))), at: look.instant, phase: .look, rank: index)
    }
    scheduleFirstRoutineLook(in: &run)
  }

  func perceived(_ id: NotificationID, serial: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    planRuleResponse(id, in: &run, at: now)
  }

  func listed(_ listing: Listing, in run: inout SimulationRun, at now: SimulationInstant) {
    unseen.append(listing)
  }

  func lookDue(_ cause: LookCause, in run: inout SimulationRun, at now: SimulationInstant) {
    look(cause, in: &run, at: now)
    if cause == .wake || cause == .pickup { scheduleNextRoutineLook(after: now, in: &run) }
  }

  func scriptedActionDue(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    performScriptedAction(run.scenario.medicineApp.userActions[index], in: &run, at: now)
  }

  func ruleResponseDue(plan: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    respond(plan: plan, in: &run, at: now)
  }

  func runEnded(in run: inout SimulationRun) {
    if !run.scenario.medicineApp.responseRules.isEmpty { warnUnusedRuleSteps(in: &run) }
  }

  func doseRemarks(_ dose: DoseRecord, in run: SimulationRun) -> [String] {
    unusedRuleStepRemarks(dose, in: run)
  }

  // MARK: - Looks

  /// The patient looks at the phone: every listing still shown is seen now
  /// (a `looked` entry each), in the order listed; a dose seen this way is
  /// notified now, and the run's patient layer (this patient, or one that
  /// wraps it) perceives it. A look at a phone that is off sees nothing.
  func look(_ cause: LookCause, in run: inout SimulationRun, at now: SimulationInstant) {
    let reminderServer = run.layers.server
    reminderServer.patientLooked(in: &run, at: now)
    guard run.layers.phone.core.attention.phoneOn, !unseen.isEmpty else { return }
    let listings = unseen
    unseen = []
    for listing in listings {
      guard run.layers.phone.core.stillShown(listing.source) else { continue }
      run.record(.looked, listing.subject, at: now, [
        TimelineField("how", listing.how), TimelineField("listed", run.format(listing.listedAt)), TimelineField("look", cause.description),
      ])
      run.layers.phone.core.recordPerception(
        listing.source, subject: listing.subject, kind: listing.kind, audible: false, byLook: true, pushType: run.layers.phone.core.pushType(of: listing.source),
        in: &run, at: now)
      if case .push(let index) = listing.source {
        reminderServer.pushPerceived(index, kind: listing.kind, how: listing.how + ", seen at a look", in: &run, at: now)
      }
      guard case .local(let id, let serial) = listing.source, let dose = run.layers.ledger.shownDose[id] else { continue }
      let seen = DosePerception(
        notification: id, role: run.layers.ledger.requestInfo[id]?.role.description, kind: listing.kind, how: listing.how + ", seen at a look")
      if run.layers.ledger.doses[dose]?.notified == nil {
        run.layers.ledger.note(dose, "seen at the patient's \(cause) look at \(run.format(now))")
      }
      run.layers.ledger.perceived(dose, by: seen, at: now)
      let patientLayer = run.layers.patient
      patientLayer.perceived(id, serial: serial, in: &run, at: now)
    }
  }

  /// The routine's first look: on waking, or a pickup when the clock starts
  /// while the patient is awake.
  func scheduleFirstRoutineLook(in run: inout SimulationRun) {
    guard let day = run.scenario.patientAttention.day else { return }
    let start = run.scenario.clock.start
    guard let wake = run.nextLocal(day.wake, atOrAfter: start), let sleep = run.nextLocal(day.sleep, atOrAfter: start) else { return }
    if sleep < wake {
      // Awake at the start: pickups from the start until sleep.
      awakeUntil = sleep
      schedulePickup(after: start, awakeSince: run.previousLocal(day.wake, before: start) ?? start, in: &run)
    } else if wake <= run.end {
      run.queue.schedule(.patient(.look(.wake)), at: wake, phase: .look, rank: run.scenario.patientAttention.looks.count)
    }
  }

  /// After a wake or pickup look: the next pickup while awake, else the next waking.
  func scheduleNextRoutineLook(after now: SimulationInstant, in run: inout SimulationRun) {
    guard let day = run.scenario.patientAttention.day else { return }
    if let sleep = awakeUntil, now < sleep {
      schedulePickup(after: now, awakeSince: nil, in: &run)
    } else {
      // A wake look: awake until the next sleep.
      awakeUntil = run.nextLocal(day.sleep, atOrAfter: now.advanced(byMilliseconds: 1))
      schedulePickup(after: now, awakeSince: now, in: &run)
    }
  }

  /// The next pickup after `now` while awake: evenly spaced in a single run
  /// (the waking span, from `awakeSince` when a span begins, divided by the
  /// day's pickups), drawn from an exponential distribution with the same
  /// mean in trials (a Poisson process). Past sleep, the next waking instead.
  func schedulePickup(after now: SimulationInstant, awakeSince: SimulationInstant?, in run: inout SimulationRun) {
    guard let day = run.scenario.patientAttention.day, let sleep = awakeUntil else { return }
    if let awakeSince {
      pickupSpacing = max(1, awakeSince.duration(to: sleep).milliseconds / Int64(max(1, day.pickupsPerDay)))
    }
    var gap = pickupSpacing ?? 1
    if var random = lookRandom {
      // Inverse transform of a uniform draw: -ln(1 - u) · mean, u in [0, 1).
      gap = max(1, Int64((-log(1 - random.nextUnit()) * Double(gap)).rounded()))
      lookRandom = random
    }
    let next = now.advanced(byMilliseconds: gap)
    let rank = run.scenario.patientAttention.looks.count
    if next < sleep {
      if next <= run.end { run.queue.schedule(.patient(.look(.pickup)), at: next, phase: .look, rank: rank) }
      return
    }
    awakeUntil = nil
    if let wake = run.nextLocal(day.wake, atOrAfter: sleep), wake <= run.end {
      run.queue.schedule(.patient(.look(.wake)), at: wake, phase: .look, rank: rank)
    }
  }

  // MARK: - Responses

  /// The patient perceived notification `id` now: the first response rule
  /// whose pattern matches it plans an answer `after` its delay, once per
  /// dose per perception instant (a burst of a dose's notifications seen at
  /// one look is answered once).
  func planRuleResponse(_ id: NotificationID, in run: inout SimulationRun, at now: SimulationInstant) {
    guard let dose = run.layers.ledger.shownDose[id] else { return }
    let key = PlanKey(dose: dose, perceivedAt: now)
    guard !planned.contains(key) else { return }
    let app = run.scenario.medicineApp
    for (index, rule) in app.responseRules.enumerated() where rule.pattern.matches(id.rawValue) {
      let at = now.advanced(by: rule.after)
      if at <= run.end {
        planned.insert(key)
        responsePlans.append(ResponsePlan(rule: index, dose: dose, perceivedAt: now))
        run.queue.schedule(.patient(.ruleResponse(plan: responsePlans.count - 1)), at: at, phase: .userAction, rank: app.userActions.count)
      }
      break
    }
  }

  /// A scripted action is due: the app acts on it, unless the phone is off
  /// or its notification is not in Notification Center (then it is rejected).
  func performScriptedAction(_ action: ScheduledUserAction, in run: inout SimulationRun, at now: SimulationInstant) {
    guard run.layers.phone.core.attention.phoneOn else {
      reject(action, "while the phone is off", note: "move the action after the phone's next 'switch-on' under 'device: power:'", in: run, at: now)
      return
    }
    guard run.layers.phone.core.center.delivered[action.notification] != nil, run.layers.app.canAct(on: action.notification, in: run) else {
      let why = run.layers.ledger.leftNotificationCenter[action.notification].map { "it left Notification Center: \($0)" }
        ?? run.layers.ledger.lossReason[action.notification].map { "it was never delivered: \($0)" }
        ?? "it was never delivered before this instant"
      reject(
        action, ", which is not in Notification Center: \(why)",
        note: "an action needs a delivered notification still shown to the user; run the scenario without this action and read the timeline for when it fires",
        in: run, at: now)
      return
    }
    let layer = run.layers.app
    layer.patientActed(action.action, on: action.notification, by: "script", in: &run, at: now)
  }

  /// A scripted action that cannot be carried out: invalid input, reported at its line once the run ends.
  func reject(_ action: ScheduledUserAction, _ problem: String, note: String, in run: SimulationRun, at now: SimulationInstant) {
    let location = action.origin ?? InputLocation(file: run.scenario.name, line: 1, column: 1)
    let separator = problem.hasPrefix(",") ? "" : " "
    rejectedActions.append(
      Diagnostic(at: location, "'\(action.action)' at \(run.format(now)) acts on '\(action.notification)'\(separator)\(problem)", notes: [note]))
  }

  /// A planned response is due: the rule's next step for the dose, applied
  /// to the dose's most recent notification still in Notification Center
  /// that the rule's pattern matches (nothing when none is).
  func respond(plan index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    let plan = responsePlans[index]
    let rule = run.scenario.medicineApp.responseRules[plan.rule]
    let shown = run.layers.ledger.shownDose.compactMap { id, dose in
      dose == plan.dose && rule.pattern.matches(id.rawValue) ? run.layers.phone.core.center.delivered[id] : nil
    }
    guard let target = shown.max(by: { $0.serial < $1.serial }) else { return }
    guard run.layers.phone.core.attention.phoneOn else {
      run.record(.warning, target.id.rawValue, at: now, [TimelineField("reason", "the planned response was not made: the phone is off")])
      return
    }
    let stepKey = RuleStep(rule: plan.rule, dose: plan.dose)
    let step = ruleSteps[stepKey, default: 0]
    guard step < rule.actions.count else { return }
    ruleSteps[stepKey] = step + 1
    let layer = run.layers.app
    layer.patientActed(rule.actions[step], on: target.id, by: "rule \(rule.pattern) step \(step + 1)/\(rule.actions.count)", in: &run, at: now)
  }

  /// For each response rule that answered this dose but not to its last
  /// step: which step went unused, and why.
  func unusedRuleStepRemarks(_ dose: DoseRecord, in run: SimulationRun) -> [String] {
    guard dose.resolved == nil else { return [] }
    var remarks: [String] = []
    for (index, rule) in run.scenario.medicineApp.responseRules.enumerated() {
      let used = ruleSteps[RuleStep(rule: index, dose: dose.key), default: 0]
      guard used > 0, used < rule.actions.count else { continue }
      remarks.append(
        "rule step unused: '\(rule.actions[used])' (step \(used + 1)/\(rule.actions.count) of rule \(rule.pattern)) never applied: no matching notification was delivered after step \(used)")
    }
    return remarks
  }

  /// At the end of the run: a warning for every response-rule step that no dose used.
  func warnUnusedRuleSteps(in run: inout SimulationRun) {
    guard !run.layers.ledger.creationOrder.isEmpty else { return }
    for (index, rule) in run.scenario.medicineApp.responseRules.enumerated() {
      let used = ruleSteps.filter { $0.key.rule == index }.map(\.value).max() ?? 0
      guard used < rule.actions.count else { continue }
      let unused = MessageList.joined(rule.actions[used...].lazy.map { "'\($0)'" })
      let why = used == 0
        ? "no notification matching '\(rule.pattern)' was perceived while in Notification Center"
        : "no dose had a matching notification delivered after step \(used)"
      let steps = rule.actions.count - used == 1 ? "step \(used + 1)/\(rule.actions.count)" : "steps \(used + 1)...\(rule.actions.count) of \(rule.actions.count)"
      run.record(.warning, rule.pattern.text, at: run.end, [
        TimelineField("rule", "respond[\(index + 1)]"),
        TimelineField("reason", "response rule \(steps) (\(unused)) never used: \(why)"),
      ])
    }
  }
}

/// A response the patient plans on perceiving a dose: the rule that matched
/// the first of its notifications perceived at that instant.
struct ResponsePlan {
  var rule: Int
  var dose: DoseKey
  var perceivedAt: SimulationInstant
}
