// The assumption report: its cost as a multiple of one run (`--only
// assumptions`, not part of the full run). The medicine scenario with the phone
// off for an hour every morning and the power-off catch-up unstated (so the run
// consults powerOffCatchUp, and the location reminder added at home consults
// locationAlreadyInside) with `trigsim run --assumptions` against `trigsim run`
// of it (the baseline), in paired rounds, with the median of the per-round
// ratios beside the number of reruns (the report runs them on every core).

import Foundation
import TrigsimCore

extension Benchmark {
  func measureAssumptionReport() throws {
    let rounds = max(3, runs)
    print("")
    print("assumption report: \(rounds) paired rounds; baseline = `run` of the same scenario, in the same round")
    print("| track | reruns | run --assumptions s | run s | --assumptions ÷ run |")
    print("|---|---:|---:|---:|---:|")
    for days in dayCounts {
      let trackPath = "\(workDirectory)/synthetic-\(days)d-1hz.csv"
      _ = try syntheticTrack(days: days, at: trackPath)
      var text = scenarioText(days: days, track: trackPath) + medicineAppText + "device:\n  power:\n"
      for day in 0..<days {
        let morning = start.advanced(by: .hours(Int64(day) * 24 + 5))  // 06:00 or 07:00 in Copenhagen
        text += "    - { at: \(InstantFormatter.utc.string(for: morning.advanced(by: .minutes(15)))), event: switch-off }\n"
        text += "    - { at: \(InstantFormatter.utc.string(for: morning.advanced(by: .minutes(75)))), event: switch-on }\n"
      }
      text += "expect: none\nassert:\n  - pendingPeak: { atMost: 63 }\n"
      let path = "\(workDirectory)/assumptions-\(days)d.yaml"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let report = [trigsim, "run", path, "--assumptions", "--output", "\(workDirectory)/assumptions-\(days)d.timeline"]
      let plain = [trigsim, "run", path, "--output", "\(workDirectory)/assumptions-\(days)d-plain.timeline"]
      var reportRuns: [Double] = [], plainRuns: [Double] = [], ratios: [Double] = []
      for round in 0..<rounds {
        let order = round % 2 == 0 ? [report, plain] : [plain, report]
        var seconds: [[String]: Double] = [:]
        for command in order { seconds[command] = measure(command).seconds }
        reportRuns.append(seconds[report]!)
        plainRuns.append(seconds[plain]!)
        ratios.append(seconds[report]! / seconds[plain]!)
      }
      let written = try String(contentsOfFile: "\(workDirectory)/assumptions-\(days)d.timeline", encoding: .utf8)
      let reruns = written.split(separator: "\n").first { $0.hasPrefix("# assumptions consulted:") }
        .flatMap { $0.split(separator: " ").last.flatMap { Int($0) } } ?? 0
      print(String(
        format: "| %d day%@ | %d | %.3f | %.3f | %.2f× |", days, days == 1 ? "" : "s", reruns, middle(reportRuns), middle(plainRuns), middle(ratios)))
    }
  }
}
