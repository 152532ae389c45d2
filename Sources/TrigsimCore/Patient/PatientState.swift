/// The patient's side of a run: which response-rule steps they used, and
/// the scripted actions that could not be performed.
struct PatientState {
  /// Response-rule steps used, per rule and dose.
  var ruleSteps: [RuleStep: Int] = [:]
  /// Scripted actions on notifications not in Notification Center.
  var actionProblems: [Diagnostic] = []

  /// A response rule's use for one dose.
  struct RuleStep: Hashable {
    var rule: Int
    var dose: DoseKey
  }
}
