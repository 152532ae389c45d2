// The app seam (`--only app-seam`, not part of the full run): the medicine
// scenario through this build's `trigsim run` and through a `trigsim` built
// from a commit before the medicine app moved onto the public device API
// (`--before PATH`), in paired rounds; both must write the same timeline and
// dose table.

import Foundation

extension Benchmark {
  func measureAppSeam() throws {
    // The medicine scenario through `trigsim run`: this build (the scenario's
    // medicine app on the public device API, `MedicineReminderApp`) against a
    // `trigsim` built from a commit before the app moved onto it (`--before`,
    // whose engine ran its own built-in medicine app), as child processes in
    // paired rounds (alternating order; the ratio is taken per round). Both
    // must write the same timeline and dose table, byte for byte.
    guard let before = beforeTrigsim, FileManager.default.isExecutableFile(atPath: before) else {
      fatalError("--only app-seam needs --before PATH: a trigsim built from the commit before the medicine app moved onto the device API (README, \"Benchmarks\")")
    }
    let rounds = max(3, runs)
    print("")
    print("app seam: \(rounds) paired rounds of `trigsim run`; baseline = \(before) (the engine before the change), in the same round")
    print("| track | before s | this build s | this ÷ before (median of rounds) | range | peak RSS MB before / now | outputs |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for days in dayCounts {
      let trackPath = "\(workDirectory)/synthetic-\(days)d-1hz.csv"
      _ = try syntheticTrack(days: days, at: trackPath)
      let path = "\(workDirectory)/app-seam-\(days)d.yaml"
      try (scenarioText(days: days, track: trackPath) + medicineAppText).write(toFile: path, atomically: true, encoding: .utf8)
      func command(_ binary: String, _ format: String, to output: String = "-") -> [String] {
        [binary, "run", path, "--format", format, "--output", output]
      }
      // Same output: the timeline as text and JSON (which carries the dose table).
      var same = true
      for format in ["text", "json"] {
        let beforeOutput = "\(workDirectory)/app-seam-\(days)d-before.\(format)"
        let nowOutput = "\(workDirectory)/app-seam-\(days)d-now.\(format)"
        _ = measure(command(before, format, to: beforeOutput))
        _ = measure(command(trigsim, format, to: nowOutput))
        same = same && FileManager.default.contentsEqual(atPath: beforeOutput, andPath: nowOutput)
      }
      var beforeRuns: [Measurement] = []
      var nowRuns: [Measurement] = []
      var ratios: [Double] = []
      for round in 0..<rounds {
        let b, n: Measurement
        if round % 2 == 0 {
          b = measure(command(before, "text"))
          n = measure(command(trigsim, "text"))
        } else {
          n = measure(command(trigsim, "text"))
          b = measure(command(before, "text"))
        }
        beforeRuns.append(b)
        nowRuns.append(n)
        ratios.append(n.seconds / b.seconds)
      }
      print(String(
        format: "| %d day%@ | %.3f | %.3f | %.2f× | %.2f–%.2f× | %.1f / %.1f | %@ |", days, days == 1 ? "" : "s",
        middle(beforeRuns.map(\.seconds)), middle(nowRuns.map(\.seconds)), middle(ratios), ratios.min()!, ratios.max()!,
        Double(beforeRuns.map(\.peakResidentBytes).max()!) / 1e6, Double(nowRuns.map(\.peakResidentBytes).max()!) / 1e6,
        same ? "identical" : "DIFFER"))
    }
  }
}
