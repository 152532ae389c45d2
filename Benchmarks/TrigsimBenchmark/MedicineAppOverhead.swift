// The medicine app table: runs the run table's scenario with the
// medicine-reminder app added (six medicines, four daily times each, upfront
// chains over the pending limit, a location reminder, response rules) against
// the same scenario without it (the baseline, measured in the same run). It
// reads the run table's scenarios, so it runs after it.

import Foundation

extension Benchmark {
  func measureMedicineAppOverhead() throws {
    print("")
    print("medicine app: median of \(runs) runs; baseline = the same scenario without the medicine app, in the same run")
    print("| track | without app s | with app s | with / without | timeline lines | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|")
    for days in dayCounts {
      let trackPath = "\(workDirectory)/synthetic-\(days)d-1hz.csv"
      let plainPath = "\(workDirectory)/benchmark-\(days)d.yaml"
      let appPath = "\(workDirectory)/benchmark-\(days)d-medicines.yaml"
      try (scenarioText(days: days, track: trackPath) + medicineAppText).write(toFile: appPath, atomically: true, encoding: .utf8)
      let outputPath = "\(workDirectory)/benchmark-\(days)d-medicines.timeline"
      let plain = median(runs, [trigsim, "run", plainPath, "--output", "\(workDirectory)/benchmark-\(days)d.timeline"])
      let withApp = median(runs, [trigsim, "run", appPath, "--output", outputPath])
      let lines = (try String(contentsOfFile: outputPath, encoding: .utf8)).split(separator: "\n").count
      print(String(
        format: "| %d days | %.3f | %.3f | %.2f× | %d | %.1f |", days, plain.seconds, withApp.seconds, withApp.seconds / plain.seconds, lines,
        Double(withApp.peakResidentBytes) / 1_048_576))
    }
  }
}
