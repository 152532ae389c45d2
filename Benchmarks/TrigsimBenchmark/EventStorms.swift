// Event storms: what an Android timeline entry costs against an iOS one
// (`--only storms`).

// Not part of the full run. The medicine scenario of `android` with a storm of
// app-state changes (the app opened and sent to the background every 30 s for
// the whole clock), on `android` against `ios` in paired rounds. The figure
// is entries per second on each phone and their ratio (the manual's cost
// model, "Android alarms": an Android entry costs about what an iOS one does).

import Foundation
import TrigsimCore

/// The storm table's two scenarios: `medicines` (what `medicineScenario`
/// gives for `days` days) with the app opened and sent to the background
/// every 30 s for the whole clock, on `ios` and on `android`.
func stormScenarios(days: Int, medicines medicinesOnly: String) -> (ios: String, android: String) {
  var storm = "app:\n  - { at: \(InstantFormatter.utc.string(for: start)), location: always }\n"
  for step in stride(from: Int64(30), to: Int64(days) * 86_400, by: 30) {
    storm += "  - { at: \(InstantFormatter.utc.string(for: start.advanced(by: .seconds(step)))), state: \(step % 60 == 30 ? "foreground" : "background") }\n"
  }
  let android = "platform: { device: android, android: { exactAlarms: granted } }\n"
  return (medicinesOnly + storm, medicinesOnly + android + storm)
}

extension Benchmark {
  func measureEventStorms() throws {
    let rounds = max(3, runs)
    print("")
    print("storms: \(rounds) paired rounds; baseline = the same storm on ios, in the same round")
    print("| track | ios s | android s | ios lines | android lines | ios entries/s | android entries/s | android ÷ ios entries/s | peak RSS MB (android) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for days in dayCounts {
      let medicinesOnly = try medicineScenario(days: days)
      let storms = stormScenarios(days: days, medicines: medicinesOnly)
      let pair = try pairedScenarios(rounds, days: days, baseline: ("storm-ios", storms.ios), candidate: ("storm-android", storms.android))
      let iosRate = pair.baseline.map { Double(pair.baselineLines.count) / $0 }
      let androidRate = pair.candidate.map { Double(pair.candidateLines.count) / $0 }
      // The storm must reach both phones' timelines.
      guard pair.baselineLines.count > days * 2_000, pair.candidateLines.count > days * 2_000 else { fatalError("the storm made too few entries") }
      print(String(
        format: "| %d day%@ | %.3f | %.3f | %d | %d | %.0f | %.0f | %.2f× | %.1f |", days, days == 1 ? "" : "s", middle(pair.baseline), middle(pair.candidate),
        pair.baselineLines.count, pair.candidateLines.count, middle(iosRate), middle(androidRate), middle(zip(androidRate, iosRate).map { $0 / $1 }),
        Double(pair.candidatePeak) / 1_048_576))
    }
  }
}
