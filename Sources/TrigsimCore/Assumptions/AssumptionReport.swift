import Foundation

/// What the registry's assumptions decide in one scenario: the scenario is
/// run as given, then once per alternative reading of each assumption the
/// run consulted (one at a time, in registry order), and the report says,
/// per dose and per assertion, what changes and under which alternative
/// (the manual, "Assumptions").
///
/// A dose changes when its outcome, the instant and way it was first
/// perceivable, or the instant it was resolved differs (the reason a dose
/// was missed is in the timeline of a run with the setting stated). An
/// assertion changes when it holds under one reading and fails under the
/// other, or fails with another finding. A dose present in one run and not
/// the other (a location dose the alternative opens) is a change too.
///
/// The text depends only on the runs, never on how many threads ran them.
public struct AssumptionReport: Sendable {
  /// One rerun: an assumption read one of its alternative ways.
  public struct Variant: Sendable {
    public var assumption: AssumptionID
    /// The reading's YAML spelling.
    public var reading: String
    /// `powerOffCatchUp=all`.
    public var label: String { "\(assumption)=\(reading)" }
  }

  /// What one run found of a dose or an assertion, in words.
  public struct Change: Sendable, Equatable {
    /// `powerOffCatchUp=all`.
    public var variant: String
    /// `notified 09:00 (banner+lock-screen+sound), completed 09:05`.
    public var state: String
  }

  /// A dose whose state differs under some alternative.
  public struct DoseChange: Sendable {
    /// `dose levo 07:30 2026-05-04`.
    public var dose: String
    /// The state in the run as given (`not a dose` when it opens only under an alternative).
    public var byDefault: String
    public var changes: [Change]
  }

  /// An assertion whose result differs under some alternative.
  public struct AssertionChange: Sendable {
    /// 1-based, among the scenario's run assertions.
    public var position: Int
    public var assertion: String
    public var origin: InputLocation?
    public var byDefault: String
    public var changes: [Change]
  }

  /// An assertion failing, or the run failing, under an alternative: what `robust: true` reports.
  public struct RobustnessFailure: Sendable, CustomStringConvertible {
    /// `powerOffCatchUp=all`.
    public var variant: String
    /// The failed assertion; nil when the run itself failed (`error`).
    public var failure: AssertionFailure?
    public var error: String?

    /// `under powerOffCatchUp=all: assertion failed: …: finding`.
    public var description: String {
      if let failure { return "under \(variant): \(failure.origin.map { "\($0): " } ?? "")assertion failed: \(failure.assertion): \(failure.finding)" }
      return "under \(variant): the run fails: \(error ?? "")"
    }
  }

  /// The consulted assumptions, in registry order.
  public var consulted: [Assumption]
  /// Every rerun, in the order run.
  public var variants: [Variant]
  public var doseChanges: [DoseChange]
  public var assertionChanges: [AssertionChange]
  /// Each assertion that fails under an alternative (whether or not it holds
  /// by default), and each alternative whose run fails, in variant order.
  public var robustnessFailures: [RobustnessFailure]

  /// Runs the alternatives of the assumptions `baseline` consulted.
  ///
  /// - Parameters:
  ///   - scenario: the scenario as given (`baseline` is its run).
  ///   - baseline: its run; its summary names the consulted assumptions.
  ///   - assertions: the scenario's run assertions (`assert:`), checked in every run.
  ///   - jobs: how many reruns run at once (the report does not depend on it).
  ///   - simulation: the simulation of a scenario (`Simulation(scenario, app:)` with the app for that scenario).
  public init(
    scenario: Scenario, baseline: SimulationReport, assertions: [RunAssertion], jobs: Int = 1,
    simulation: @escaping @Sendable (Scenario) throws -> Simulation
  ) {
    consulted = baseline.summary.consultedAssumptions.compactMap(AssumptionRegistry.entry)
    var variants: [Variant] = []
    var scenarios: [Scenario] = []
    for assumption in consulted {
      for reading in assumption.alternatives {
        variants.append(Variant(assumption: assumption.id, reading: reading.yaml))
        scenarios.append(assumption.applying(reading, to: scenario))
      }
    }
    self.variants = variants
    let outcomes = Self.run(scenarios, assertions: assertions, jobs: jobs, simulation: simulation)

    // Doses, in the baseline's order, then those only an alternative has (in variant order).
    let baseDoses = baseline.summary.doses
    var order = baseDoses.map(\.key)
    var seen = Set(order)
    for case .success(let rerun) in outcomes {
      for dose in rerun.doses where seen.insert(dose.key).inserted { order.append(dose.key) }
    }
    func index(_ doses: [DoseRecord]) -> [DoseKey: DoseRecord] { Dictionary(doses.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a }) }
    let baseIndex = index(baseDoses)
    let variantIndices = outcomes.map { outcome -> [DoseKey: DoseRecord]? in
      if case .success(let rerun) = outcome { return index(rerun.doses) }
      return nil
    }
    let clock = baseline.summary.clock ?? scenario.clock
    var doseChanges: [DoseChange] = []
    for key in order {
      let base = baseIndex[key]
      let byDefault = base.map { Self.state(of: $0, clock: clock) } ?? "not a dose"
      var changes: [Change] = []
      for (position, variant) in variants.enumerated() {
        guard let doses = variantIndices[position] else { continue }  // the run failed: said under the assertions
        let state = doses[key].map { Self.state(of: $0, clock: clock) } ?? "not a dose"
        if state != byDefault { changes.append(Change(variant: variant.label, state: state)) }
      }
      guard !changes.isEmpty, let dose = base ?? variantIndices.lazy.compactMap({ $0?[key] }).first else { continue }
      doseChanges.append(DoseChange(dose: Self.label(of: dose), byDefault: byDefault, changes: changes))
    }
    self.doseChanges = doseChanges

    var assertionChanges: [AssertionChange] = []
    var robustness: [RobustnessFailure] = []
    let baseResults = assertions.map { $0.check(baseline) }
    var variantResults: [[AssertionFailure?]?] = []
    for (position, outcome) in outcomes.enumerated() {
      switch outcome {
      case .success(let rerun):
        let results = rerun.assertionResults
        variantResults.append(results)
        for failure in results.compactMap({ $0 }) { robustness.append(RobustnessFailure(variant: variants[position].label, failure: failure)) }
      case .failure(let message):
        variantResults.append(nil)
        robustness.append(RobustnessFailure(variant: variants[position].label, error: message))
      }
    }
    for (number, assertion) in assertions.enumerated() {
      let byDefault = Self.state(of: baseResults[number])
      var changes: [Change] = []
      for (position, variant) in variants.enumerated() {
        guard let results = variantResults[position] else { continue }
        let state = Self.state(of: results[number])
        if state != byDefault { changes.append(Change(variant: variant.label, state: state)) }
      }
      guard !changes.isEmpty else { continue }
      assertionChanges.append(
        AssertionChange(position: number + 1, assertion: assertion.description, origin: assertion.origin, byDefault: byDefault, changes: changes))
    }
    self.assertionChanges = assertionChanges
    self.robustnessFailures = robustness
  }

  /// What the report needs of a rerun, and all that is kept of it: its
  /// doses and each assertion's result. Without assertions a rerun keeps
  /// no timeline at all (its entries are only counted); with them, its
  /// `SimulationReport` (the whole timeline) is reduced to this as soon as
  /// the rerun ends. So the memory of `--assumptions` is the baseline's
  /// report and at most one timeline per job running, never one per rerun.
  struct Rerun: Sendable {
    var doses: [DoseRecord]
    /// The scenario's run assertions' results, in order (nil: it holds).
    var assertionResults: [AssertionFailure?]
  }

  /// A rerun's findings, or why it could not run (its first diagnostic).
  enum Outcome: Sendable {
    case success(Rerun)
    case failure(String)
  }

  /// Runs the scenarios on up to `jobs` threads, each reduced to a `Rerun`
  /// (its doses and `assertions`' results) as it ends: with no assertion to
  /// check, its entries are counted, never kept. The outcomes come back in
  /// scenario order.
  static func run(
    _ scenarios: [Scenario], assertions: [RunAssertion], jobs: Int, simulation: @escaping @Sendable (Scenario) throws -> Simulation
  ) -> [Outcome] {
    let outcome: @Sendable (Scenario) -> Outcome = { scenario in
      do {
        let rerun = try simulation(scenario)
        guard !assertions.isEmpty else {
          var counter = TimelineEntryCounter()
          return .success(Rerun(doses: try rerun.run(into: &counter).summary.doses, assertionResults: []))
        }
        let report = try rerun.report()
        return .success(Rerun(doses: report.summary.doses, assertionResults: assertions.map { $0.check(report) }))
      } catch let error as InputError {
        return .failure(error.diagnostics.first.map(\.message) ?? "\(error)")
      } catch {
        return .failure("\(error)")
      }
    }
    let workers = max(1, min(jobs, scenarios.count))
    guard workers > 1 else { return scenarios.map(outcome) }
    let frozen = UncheckedSendable(scenarios)
    let items = IndexedResults<Outcome>(count: scenarios.count)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      while let index = items.claimNext() {
        var scenario = frozen.value[index]
        // Region shapes that hold per-thread state are copied (as for trials).
        if worker > 0 {
          for region in scenario.regions.indices { scenario.regions[region].shape = scenario.regions[region].shape.copyForAnotherThread() }
        }
        items.store(outcome(scenario), at: index)
      }
    }
    return items.all().map { $0! }
  }

  // MARK: - Words

  /// `dose levo 07:30 2026-05-04`.
  static func label(of dose: DoseRecord) -> String {
    "dose \(dose.key.medicine) \(dose.reminder) \(dose.key.occurrenceLabel)"
  }

  /// `missed`, `notified 09:00 (daily reminder, banner+lock-screen+sound), completed 09:05`,
  /// `notified 2026-05-05 07:45 (follow-up 2, lock-screen), unanswered`: instants in the
  /// device zone, with the date when it is not the dose's own day, and the UTC
  /// offset when it is not that of the zone the dose is labelled in
  /// (`notified 18:45+02:00` for a dose labelled `13:00` in New York; see
  /// `DoseRecord.labelOffset(in:)`).
  static func state(of dose: DoseRecord, clock: ClockSettings) -> String {
    let labelOffset = dose.labelOffset(in: clock)
    let day = String(clock.local(dose.scheduled).prefix(10))
    func time(_ instant: SimulationInstant) -> String {
      // Whole seconds, as the report has always written them.
      let second = SimulationInstant(millisecondsSinceEpoch: floorDivide(instant.millisecondsSinceEpoch, 1000).quotient * 1000)
      return ZonedInstant(second, utcOffsetSeconds: clock.utcOffset(at: instant)).doseTime(day: day, labelOffset: labelOffset)
    }
    guard let notified = dose.notified else { return dose.outcome.rawValue }
    var text = "notified \(time(notified))" + (dose.perception.map { " (\($0.role.map { "\($0), " } ?? "")\($0.how))" } ?? "")
    switch dose.outcome {
    case .completed: text += ", completed \(time(dose.completed!))"
    case .dismissed: text += ", dismissed \(time(dose.dismissed!))"
    case .unanswered: text += ", unanswered"
    case .missed, .silent: break
    }
    return text
  }

  /// `holds`, or `fails (2 notifications fired in the window)`.
  static func state(of failure: AssertionFailure?) -> String {
    failure.map { "fails (\($0.finding))" } ?? "holds"
  }

  /// `robust: true` (stated at `origin`) as a failed assertion, naming each
  /// alternative under which an assertion fails (or the run does); nil when
  /// every assertion holds under every alternative.
  public func robustnessFailure(origin: InputLocation?) -> AssertionFailure? {
    guard let first = robustnessFailures.first else { return nil }
    let names = consulted.map(\.id.rawValue).joined(separator: ", ")
    let count = robustnessFailures.count
    return AssertionFailure(
      assertion: "robust: every assertion holds under every alternative of the assumptions consulted (\(names))",
      origin: origin,
      finding: "\(first)" + (count > 1 ? " (and \(count - 1) more)" : ""),
      evidence: robustnessFailures.map(\.description))
  }

  /// The report as comment lines after a text timeline (`run --assumptions`):
  /// `# assumptions`, then each line after `# `.
  public static func commentedText(_ text: String) -> String {
    "# assumptions\n" + text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { "# \($0)\n" }.joined()
  }

  /// Whether the report found any change.
  public var isEmpty: Bool { doseChanges.isEmpty && assertionChanges.isEmpty && robustnessFailures.allSatisfy { $0.failure != nil } }

  /// The report, one item a line:
  ///
  /// ```
  /// assumptions consulted: 1, reruns: 2
  ///   powerOffCatchUp: default none; alternatives all, recent 15m
  /// dose levo 07:30 2026-05-04: missed by default (powerOffCatchUp=none); notified 09:00 (…), completed 09:05 under powerOffCatchUp=all
  /// assert[1] every dose perceptible within 12h of its time, none missed (scenario.yaml:27:5): fails by default (…); holds under powerOffCatchUp=all
  /// ```
  ///
  /// With no assumption consulted, a single line says so; with nothing
  /// changing, a line says that after the header.
  public var text: String {
    guard !consulted.isEmpty else {
      return "assumptions consulted: none (no registry setting the scenario leaves unstated decided anything in this run)\n"
    }
    var lines = ["assumptions consulted: \(consulted.count), reruns: \(variants.count)"]
    for assumption in consulted {
      lines.append("  \(assumption.id): default \(assumption.defaultReading.yaml); alternatives \(assumption.alternatives.map(\.yaml).joined(separator: ", "))")
    }
    let defaults = consulted.map { $0.label($0.defaultReading) }.joined(separator: ", ")
    for change in doseChanges {
      lines.append(
        "\(change.dose): \(change.byDefault) by default (\(defaults)); "
          + change.changes.map { "\($0.state) under \($0.variant)" }.joined(separator: "; "))
    }
    for change in assertionChanges {
      lines.append(
        "assert[\(change.position)] \(change.assertion)\(change.origin.map { " (\($0))" } ?? ""): \(change.byDefault) by default; "
          + change.changes.map { "\($0.state) under \($0.variant)" }.joined(separator: "; "))
    }
    for failure in robustnessFailures where failure.failure == nil {
      lines.append("the run fails under \(failure.variant): \(failure.error ?? "")")
    }
    if doseChanges.isEmpty && assertionChanges.isEmpty && robustnessFailures.allSatisfy({ $0.failure != nil }) {
      lines.append("no dose or assertion changes under any alternative")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
