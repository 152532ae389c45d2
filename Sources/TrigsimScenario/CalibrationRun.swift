import Foundation
import TrigsimCore

/// Measures the calibration corpus (`CalibrationCorpus`): runs each probe
/// scenario's trials once, however many entries read it, and evaluates every
/// entry's statistic (the manual, "Calibration").
public struct CalibrationRun {
  /// The folder holding the probe scenarios (`scenarios/calibration`).
  public var probes: String
  /// Trials per probe, and their seed.
  public var plan: TrialPlan
  public var loader: ScenarioLoader

  public init(probes: String, plan: TrialPlan, loader: ScenarioLoader = ScenarioLoader()) {
    self.probes = probes
    self.plan = plan
    self.loader = loader
  }

  /// The results of `entries`, in their order.
  ///
  /// - Parameter entries: the entries to measure (the whole corpus by default).
  /// - Returns: one result per entry.
  /// - Throws: the loader's error for a probe that cannot be read or is
  ///   invalid, and `CalibrationProbeError` for a probe with no dose.
  public func measure(_ entries: [CalibrationEntry] = CalibrationCorpus.entries) throws -> [CalibrationResult] {
    var reports: [String: TrialReport] = [:]
    let verifier = ScenarioVerifier(trialJobs: plan.jobs)
    return try entries.map { entry in
      switch entry.measure {
      case .constant(_, let value):
        let measured = value()
        return CalibrationResult(entry: entry, value: measured, interval: (measured, measured), trials: 0)
      case .probe(let file, let statistic):
        let path = (probes as NSString).appendingPathComponent(file)
        let report: TrialReport
        if let known = reports[file] {
          report = known
        } else {
          let scenario = try loader.load(path: path)
          report = try TrialRunner(scenario, app: verifier.app(for: scenario)).run(plan)
          reports[file] = report
        }
        guard let dose = report.doses.first else { throw CalibrationProbeError(path: path) }
        let (value, interval, trials) = CalibrationResult.measure(statistic, of: dose)
        return CalibrationResult(entry: entry, value: value, interval: interval, trials: trials)
      }
    }
  }
}

/// A probe scenario whose trials have no dose to measure.
public struct CalibrationProbeError: Error, CustomStringConvertible {
  public var path: String
  public var description: String {
    "\(path):1:1: error: the probe has no dose in its trials; give it a medicine whose first dose the calibration measures (see the probes in scenarios/calibration)"
  }
}
