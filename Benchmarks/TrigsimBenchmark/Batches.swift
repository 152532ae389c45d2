// The batches table: `trigsim test` over the repository's scenarios/ folder with
// --jobs 1 (the baseline), --jobs 2 and --jobs N for N cores, when the folder is
// there (two levels above the products folder).

import Foundation

extension Benchmark {
  func measureBatches() throws {
    let repositoryScenarios = productsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scenarios").path
    if FileManager.default.fileExists(atPath: repositoryScenarios) {
      print("")
      print("test: median of \(runs) runs over \(repositoryScenarios); baseline = --jobs 1, in the same run")
      print("| jobs | seconds | speed-up over --jobs 1 |")
      print("|---:|---:|---:|")
      let single = median(runs, [trigsim, "test", repositoryScenarios, "--jobs", "1"])
      print(String(format: "| 1 | %.3f | 1.00× |", single.seconds))
      let cores = ProcessInfo.processInfo.activeProcessorCount
      for jobs in [2, cores].filter({ $0 > 1 }).reduce(into: [Int](), { if !$0.contains($1) { $0.append($1) } }) {
        let parallel = median(runs, [trigsim, "test", repositoryScenarios, "--jobs", String(jobs)])
        print(String(format: "| %d | %.3f | %.2f× |", jobs, parallel.seconds, single.seconds / parallel.seconds))
      }
    }
  }
}
