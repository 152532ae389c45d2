// Dose tables: what comparing and printing them costs (`--only doses`, not part
// of the full run).

// Not part of the full run. Nine medicines, three times a day, each dose
// completed 5 minutes after its alert, over each --days count: `verify`
// (timeline and dose table) against `run --expect` (the timeline alone) on
// the same recorded baselines, and `run --summary` against `run`, in paired
// rounds (alternating order; the ratio is taken per round).

import Foundation
import TrigsimCore

extension Benchmark {
  func measureDoseTables() throws {
    let rounds = max(3, runs)
    print("")
    print("dose tables: \(rounds) paired rounds; baselines = `run --expect FILE` (timeline only) and `run` (no summary), in the same round")
    print("| clock | doses | verify s | run --expect s | verify ÷ run --expect | run --summary s | run s | --summary ÷ run |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for days in dayCounts {
      let path = "\(workDirectory)/doses-\(days)d.yaml"
      let times = ["07:00", "13:00", "19:00"]
      var text = """
        trigsim: 1
        name: Nine medicines for \(days) days
        clock: { start: 2026-05-04T06:00:00+02:00, end: \(InstantFormatter.format(SimulationInstant(millisecondsSinceEpoch: 1_777_867_200_000 + Int64(days) * 86_400_000), offsetSeconds: 7200)), timezone: Europe/Copenhagen }
        medicines:

        """
      for medicine in 1...9 {
        let shifted = times.map { time in "\"\(time.prefix(3))\(String(format: "%02d", medicine * 5))\"" }
        text += "  - { id: \(medicine), name: Medicine \(medicine), dosage: 1, unit: tablet, times: [\(shifted.joined(separator: ", "))] }\n"
      }
      text += "respond:\n  - { to: \"medicine_*\", after: 5m, actions: [complete] }\nexpect: doses-\(days)d.timeline\n"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      _ = measure([trigsim, "record", path])
      let doseCount = (try String(contentsOfFile: "\(workDirectory)/doses-\(days)d.doses", encoding: .utf8)).split(separator: "\n").count - 3
      var verifyRuns: [Double] = [], expectRuns: [Double] = [], summaryRuns: [Double] = [], plainRuns: [Double] = []
      var verifyRatios: [Double] = [], summaryRatios: [Double] = []
      let verify = [trigsim, "verify", path]
      let expect = [trigsim, "run", path, "--expect", "\(workDirectory)/doses-\(days)d.timeline"]
      let summary = [trigsim, "run", path, "--summary"]
      let plain = [trigsim, "run", path]
      for round in 0..<rounds {
        let pairs = round % 2 == 0 ? [(verify, expect), (summary, plain)] : [(expect, verify), (plain, summary)]
        var seconds: [[String]: Double] = [:]
        for (first, second) in pairs {
          seconds[first] = measure(first).seconds
          seconds[second] = measure(second).seconds
        }
        verifyRuns.append(seconds[verify]!)
        expectRuns.append(seconds[expect]!)
        summaryRuns.append(seconds[summary]!)
        plainRuns.append(seconds[plain]!)
        verifyRatios.append(seconds[verify]! / seconds[expect]!)
        summaryRatios.append(seconds[summary]! / seconds[plain]!)
      }
      print(String(
        format: "| %d day%@ | %d | %.3f | %.3f | %.2f× | %.3f | %.3f | %.2f× |", days, days == 1 ? "" : "s", doseCount,
        middle(verifyRuns), middle(expectRuns), middle(verifyRatios), middle(summaryRuns), middle(plainRuns), middle(summaryRatios)))
    }
  }
}
