// Sharded trials: the merge's cost. The trials table's trials run whole and in
// four shards in this process, and the shards' partial reports merged in memory
// as `trigsim merge` does after reading the files (decode, check, add up,
// render); the merge must equal the unsharded report.

import Foundation
import TrigsimCore
import TrigsimMedicineApp
import TrigsimScenario

extension Benchmark {
  func measureShardedTrials() throws {
    let (trialsPath, _) = try writeTrialsScenario()
    let file = try ScenarioLoader().loadFile(path: trialsPath)
    let identity = PartialTrialReport.ScenarioIdentity(path: trialsPath, digest: try file.inputDigest())
    let shardCount = 4
    var wholeTimes: [Double] = []
    var mergeTimes: [Double] = []
    var partialBytes: [Int] = []
    for _ in 0..<max(1, runs) {
      var started = monotonicSeconds()
      let whole = try TrialRunner(file.scenario).run(TrialPlan(count: trialCount, seed: 1))
      wholeTimes.append(monotonicSeconds() - started)
      let texts = try (1...shardCount).map { index in
        let shard = Shard(index: index, count: shardCount)!
        let report = try TrialRunner(file.scenario).run(TrialPlan(count: trialCount, seed: 1, shard: shard))
        return PartialTrialReport(report, shard: shard, scenario: identity).canonicalJSON()
      }
      partialBytes = texts.map(\.utf8.count)
      // What 'trigsim merge' does after reading the files: decode, check, add up, render.
      started = monotonicSeconds()
      let parts = try texts.map { try JSONDecoder().decode(PartialTrialReport.self, from: Data($0.utf8)).report(largestTrialCount: 1_000_000) }
      let merged = TrialReport.merging(parts).text
      mergeTimes.append(monotonicSeconds() - started)
      guard merged == whole.text else { fatalError("the merged shards differ from the unsharded report") }
    }
    let whole = wholeTimes.sorted()[wholeTimes.count / 2]
    let merge = mergeTimes.sorted()[mergeTimes.count / 2]
    print("")
    print("shards: median of \(runs) runs in this process; \(trialCount) trials of the trials scenario in \(shardCount) shards, merged in memory (decode, check, add up, render)")
    print("| trials | shards | unsharded run s | merge s | merge / run | partial files bytes | bytes per trial |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    let total = partialBytes.reduce(0, +)
    print(
      String(format: "| %d | %d | %.3f | %.4f | %.4f× | %d", trialCount, shardCount, whole, merge, merge / whole, total)
        + " (\(partialBytes.map(String.init).joined(separator: ", ")))"
        + String(format: " | %.1f |", Double(total) / Double(trialCount)))
  }
}
