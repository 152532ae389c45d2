// The run table: replays the synthetic 1 Hz tracks of each --days count through
// four regions and a few calendar/interval triggers with the release `trigsim`
// binary, and reports fixes per second and peak memory beside the time `wc -l`
// needs to read the same CSV file (the baseline, measured in the same run).

import Foundation

extension Benchmark {
  func measureRun() throws {
    print("trigsim benchmark: median of \(runs) runs; baseline = `wc -l` on the same CSV in the same run")
    print("| track | fixes | CSV MB | wc -l s | trigsim s | fixes/s | trigsim / wc -l | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    var results: [(fixes: Double, seconds: Double)] = []
    for days in dayCounts {
      let trackPath = "\(workDirectory)/synthetic-\(days)d-1hz.csv"
      let track = try syntheticTrack(days: days, at: trackPath)
      let scenarioPath = "\(workDirectory)/benchmark-\(days)d.yaml"
      try scenarioText(days: days, track: trackPath).write(toFile: scenarioPath, atomically: true, encoding: .utf8)
      let outputPath = "\(workDirectory)/benchmark-\(days)d.timeline"
      let size = (try FileManager.default.attributesOfItem(atPath: trackPath)[.size] as? Int) ?? 0
      let baseline = median(runs, ["/usr/bin/wc", "-l", trackPath])
      let run = median(runs, [trigsim, "run", scenarioPath, "--output", outputPath])
      let fixes = Double(track.sampleCount)
      results.append((fixes, run.seconds))
      print(String(
        format: "| %d days | %.0f | %.1f | %.3f | %.3f | %.2f M | %.1f× | %.1f |", days, fixes, Double(size) / 1e6, baseline.seconds,
        run.seconds, fixes / run.seconds / 1e6, run.seconds / baseline.seconds, Double(run.peakResidentBytes) / 1_048_576))
    }
    // Steady state: the longest run less the shortest, which cancels process start-up
    // (loading the runtime, Foundation and time-zone data) and the scenario load.
    if let shortest = results.min(by: { $0.fixes < $1.fixes }), let longest = results.max(by: { $0.fixes < $1.fixes }),
      longest.fixes > shortest.fixes
    {
      print(String(
        format: "steady state (longest − shortest run): %.2f M fixes/s", (longest.fixes - shortest.fixes) / (longest.seconds - shortest.seconds) / 1e6))
    }
  }
}
