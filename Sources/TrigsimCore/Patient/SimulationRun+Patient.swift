/// The patient at work: scripted actions and response rules, refused when
/// the phone is off or the notification is not in Notification Center, and
/// the remarks and warnings for response-rule steps never used.
extension SimulationRun {
  /// The patient could perceive notification `id` now: the first response
  /// rule whose pattern matches it answers `after` its delay, if the
  /// notification is still the one shown then (`serial`).
  mutating func planRuleResponse(_ id: NotificationID, serial: Int, at now: SimulationInstant) {
    for (index, rule) in medicineApp.responseRules.enumerated() where rule.pattern.matches(id.rawValue) {
      let at = now.advanced(by: rule.after)
      if at <= end {
        queue.schedule(.ruleResponse(rule: index, id, serial: serial), at: at, phase: .userAction, rank: medicineApp.userActions.count)
      }
      break
    }
  }

  mutating func performScriptedAction(_ action: ScheduledUserAction, at now: SimulationInstant) {
    guard attention.phoneOn else {
      reject(action, "while the phone is off", note: "move the action after the phone's next 'switch-on' under 'device: power:'", at: now)
      return
    }
    guard center.delivered[action.notification] != nil, appLayer.canAct(on: action.notification, in: self) else {
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

  mutating func respond(rule index: Int, to id: NotificationID, serial: Int, at now: SimulationInstant) {
    guard center.delivered[id]?.serial == serial, let dose = ledger.shownDose[id] else { return }
    guard attention.phoneOn else {
      record(.warning, id.rawValue, at: now, [TimelineField("reason", "the planned response was not made: the phone is off")])
      return
    }
    let rule = medicineApp.responseRules[index]
    let step = patient.ruleSteps[PatientState.RuleStep(rule: index, dose: dose), default: 0]
    guard step < rule.actions.count else { return }
    patient.ruleSteps[PatientState.RuleStep(rule: index, dose: dose)] = step + 1
    let layer = appLayer
    layer.patientActed(rule.actions[step], on: id, by: "rule \(rule.pattern) step \(step + 1)/\(rule.actions.count)", in: &self, at: now)
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
      let unused = rule.actions[used...].map { "'\($0)'" }.joined(separator: ", ")
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
