/// The patient's side of a run: the notifications listed without an alert
/// and not yet seen, the responses planned at each look, which response-rule
/// steps they used, and the scripted actions that could not be performed.
struct PatientState {
  /// Response-rule steps used, per rule and dose.
  var ruleSteps: [RuleStep: Int] = [:]
  /// Scripted actions on notifications not in Notification Center.
  var actionProblems: [Diagnostic] = []
  /// Notifications listed without an alert, not yet seen, in the order listed.
  var unseen: [Listing] = []
  /// Every response planned, in the order planned (the queue's events index it).
  var responsePlans: [ResponsePlan] = []
  /// The plan made for a dose at a perception instant: one per dose per look.
  var planned: Set<PlanKey> = []
  /// The end of the waking span the routine's pickups fall in (nil while asleep).
  var awakeUntil: SimulationInstant?
  /// The mean time between pickups in the current waking span, in milliseconds.
  var pickupSpacing: Int64?
  /// In trials, the stream the routine's pickups are drawn from (nil: evenly spaced).
  var lookRandom: TrialRandom?

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
}

/// A notification the device listed without an alert: seen at the patient's
/// next look, if it is still there.
struct Listing {
  var source: HeldNotification.Source
  var subject: String
  var kind: PerceptionRecord.Kind
  /// Where it is listed: `lock-screen`, `summary`, `notification-center`.
  var how: String
  var listedAt: SimulationInstant
  /// Why it was listed without an alert, for the dose's note.
  var why: String
}

/// A response the patient plans on perceiving a dose: the rule that matched
/// the first of its notifications perceived at that instant.
struct ResponsePlan {
  var rule: Int
  var dose: DoseKey
  var perceivedAt: SimulationInstant
}
