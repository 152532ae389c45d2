// The trials table: firing-probability trials in this process: 1000 trials (or
// --trials N) of the 1-day 1 Hz track through four circles with the ios
// profile, the app in the foreground (86.4 M fix-evaluations), as
// fix-evaluations per second and as the ratio to one deterministic run of the
// same scenario measured in the same process (the baseline), and peak memory at
// 100 and 1000 trials (each in a `--trial-child` process).

import Foundation
import TrigsimCore
import TrigsimMedicineApp
import TrigsimScenario

extension Benchmark {
  func measureTrials() throws {
    let (trialsPath, fixCount) = try writeTrialsScenario()
    let scenario = try ScenarioLoader().load(path: trialsPath)
    let fixes = Double(fixCount)
    var singles: [Double] = []
    var batches: [Double] = []
    // Paired: each batch of trials is bracketed by baseline runs just before and after it,
    // and the ratio is taken pair by pair. The machine's speed drifts (the baseline alone
    // ranged 11–24 ms within one process here), so a ratio of medians taken far apart in
    // time mixes states; the median of the paired ratios does not.
    var ratios: [Double] = []
    func baselineRuns(_ count: Int) throws -> [Double] {
      try (0..<count).map { _ in
        let started = monotonicSeconds()
        _ = try Simulation(scenario).report()
        return monotonicSeconds() - started
      }
    }
    for _ in 0..<max(1, runs) {
      // The baseline: one deterministic run, track read from the file as `trigsim run` does.
      var bracket = try baselineRuns(5)
      let started = monotonicSeconds()
      _ = try TrialRunner(scenario).run(TrialPlan(count: trialCount, seed: 1))
      let batch = monotonicSeconds() - started
      bracket += try baselineRuns(5)
      batches.append(batch)
      singles += bracket
      ratios.append(batch / Double(trialCount) / bracket.sorted()[bracket.count / 2])
    }
    let single = singles.sorted()[singles.count / 2]
    let batch = batches.sorted()[batches.count / 2]
    let cores = ProcessInfo.processInfo.activeProcessorCount
    print("")
    print("trials: median of \(runs) runs in this process; baseline = one deterministic run of the same scenario, in the same run")
    print(String(
      format: "(one run: median of %d, %.4f–%.4f s; trials: %.3f–%.3f s; per trial / one run, paired: %.3f–%.3f)", singles.count,
      singles.min()!, singles.max()!, batches.min()!, batches.max()!, ratios.min()!, ratios.max()!))
    print("| trials | fix-evaluations | one run s | trials s | fix-evaluations/s | trials / one run | per trial / one run | cores |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(String(
      format: "| %d | %.1f M | %.3f | %.3f | %.1f M | %.0f× | %.3f× | %d |", trialCount, fixes * Double(trialCount) / 1e6, single, batch,
      fixes * Double(trialCount) / batch / 1e6, batch / single, ratios.sorted()[ratios.count / 2], cores))
    let self_ = CommandLine.arguments[0]
    let small = median(1, [self_, "--trial-child", trialsPath, "100"])
    let large = median(1, [self_, "--trial-child", trialsPath, String(trialCount)])
    print(String(
      format: "peak RSS: %.1f MB at 100 trials, %.1f MB at %d trials (%.2f×)", Double(small.peakResidentBytes) / 1_048_576,
      Double(large.peakResidentBytes) / 1_048_576, trialCount, Double(large.peakResidentBytes) / Double(small.peakResidentBytes)))
  }
}
