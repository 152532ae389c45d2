import Foundation

/// A property of a trial run (`TrialReport`): how often something happened
/// over the trials, for each dose or location-request chance it concerns.
///
/// Probabilities are compared as estimated, `successes / trials` (the report
/// prints the 95 % interval beside each): with 1000 trials an estimate is
/// within about ±0.014 of the truth near 0.95, so a bound closer than that to
/// the estimate may pass with one seed and fail with another. Pick the
/// trial count for the precision the bound needs.
public struct ProbabilityAssertion: Sendable {
  public enum Property: Sendable {
    /// Every dose (of one medicine, or all) is notified no later than
    /// `within` after it was due, with a probability in the bound.
    case dosesNotified(within: SimulationDuration, medicine: MedicineID?, bound: ProbabilityBound)
    /// Every chance of a location request matching the pattern (all when nil)
    /// fires, within `within` of its true crossing when given, with a
    /// probability in the bound.
    case locationFired(request: IdentifierPattern?, within: SimulationDuration?, bound: ProbabilityBound)
    /// Each dose of the visits the expectation picks (`index` in
    /// `Scenario.visitExpectations`) stays silent, never notified, with a probability in the bound.
    case silentVisit(VisitExpectation, index: Int, bound: ProbabilityBound)
  }

  public var property: Property
  public var origin: InputLocation?

  public init(_ property: Property, origin: InputLocation? = nil) {
    self.property = property
    self.origin = origin
  }

  public var description: String {
    switch property {
    case .dosesNotified(let within, let medicine, let bound):
      return "every dose\(medicine.map { " of medicine '\($0)'" } ?? "") notified within \(within) of its time \(bound)"
    case .locationFired(let request, let within, let bound):
      return "every location request\(request.map { " matching '\($0)'" } ?? "") fired at each true crossing"
        + (within.map { " within \($0)" } ?? "") + " \(bound)"
    case .silentVisit(let expectation, _, let bound):
      return "\(expectation.description) \(bound)"
    }
  }

  /// Checks the property against a trial report; nil when it holds.
  public func check(_ report: TrialReport) -> AssertionFailure? {
    var evidence: [String] = []
    var checked = 0
    switch property {
    case .dosesNotified(let within, let medicine, let bound):
      // A visit the scenario expects to be silent is not a dose to notify.
      for dose in report.doses where (medicine == nil || dose.key.medicine == medicine) && dose.expectedSilent.isEmpty {
        checked += 1
        let successes = dose.latencies.count(atMost: within.milliseconds)
        if !bound.contains(successes: successes, of: dose.due) {
          evidence.append(
            "\(report.local(dose.scheduled)) \(dose.key.medicine) (\(dose.reminder)) \(dose.key.occurrenceLabel): "
              + "\(TrialReport.fraction(successes, dose.due)) (\(successes) of \(dose.due) trials)")
        }
      }
      if checked == 0 {
        return failure("no dose\(medicine.map { " of medicine '\($0)'" } ?? "") was due in any trial", [])
      }
    case .locationFired(let pattern, let within, let bound):
      for chance in report.locationChances where pattern?.matches(chance.request.rawValue) ?? true {
        checked += 1
        let successes = within.map { chance.latencies.count(atMost: $0.milliseconds) } ?? chance.fired
        if !bound.contains(successes: successes, of: chance.pending) {
          evidence.append(
            "\(report.local(chance.crossing)) \(chance.entering ? "enter" : "exit") \(chance.region) visit \(chance.visit): "
              + "\(chance.request) \(TrialReport.fraction(successes, chance.pending)) (\(successes) of \(chance.pending) trials)")
        }
      }
      if checked == 0 {
        return failure("no location request\(pattern.map { " matching '\($0)'" } ?? "") was pending at a crossing of its region in any trial", [])
      }
    case .silentVisit(_, let index, let bound):
      for dose in report.doses where dose.expectedSilent.contains(index) {
        checked += 1
        let silent = dose.due - dose.notified
        if !bound.contains(successes: silent, of: dose.due) {
          evidence.append(
            "\(report.local(dose.scheduled)) \(dose.key.medicine) (\(dose.reminder)) \(dose.key.occurrenceLabel): "
              + "silent \(TrialReport.fraction(silent, dose.due)) (\(silent) of \(dose.due) trials)")
        }
      }
      if checked == 0 { return failure("no visit of any trial is one of them", []) }
    }
    guard !evidence.isEmpty else { return nil }
    return failure("\(evidence.count) of \(checked) \(checked == 1 ? "chance is" : "chances are") outside the bound", evidence)
  }

  private func failure(_ finding: String, _ evidence: [String]) -> AssertionFailure {
    AssertionFailure(assertion: description, origin: origin, finding: finding, evidence: evidence)
  }
}

/// `probability: 0.95` (at least), or `{ atLeast: 0.9, atMost: 1 }`.
public struct ProbabilityBound: Sendable, Equatable, CustomStringConvertible {
  public var atLeast: Double?
  public var atMost: Double?

  public init(atLeast: Double? = nil, atMost: Double? = nil) {
    self.atLeast = atLeast
    self.atMost = atMost
  }

  /// Whether `successes / total` is in the bound (a chance that never existed, total 0, is not).
  public func contains(successes: Int, of total: Int) -> Bool {
    guard total > 0 else { return false }
    let p = Double(successes) / Double(total)
    return (atLeast.map { p >= $0 } ?? true) && (atMost.map { p <= $0 } ?? true)
  }

  public var description: String {
    switch (atLeast, atMost) {
    case (let low?, let high?): "with probability between \(low) and \(high)"
    case (let low?, nil): "with probability at least \(low)"
    case (nil, let high?): "with probability at most \(high)"
    case (nil, nil): "with any probability"
    }
  }
}
