// One scenario, two phones (`--only android`).

// Not part of the full run. The medicine benchmark scenario (its four
// regions, the six medicines of `medicineAppText` with their chains,
// responses and the home location reminder; without the scenario's raw
// `notifications:`, which are iOS requests) on `android` against `ios`, in
// paired rounds (alternating order; the ratio is taken per round). The
// Android device runs the medicine app's Android build: an alarm per daily
// time and per chain step, app code at each, geofences for the location reminder.

import Foundation
import TrigsimCore

/// The two-phone table's Android scenario: `medicines` (what `medicineScenario`
/// gives, the iOS side as it is) on `android` with exact alarms granted and
/// location allowed always.
func androidScenario(medicines medicinesOnly: String) -> String {
  medicinesOnly
    + "platform: { device: android, android: { exactAlarms: granted } }\napp:\n  - { at: \(InstantFormatter.utc.string(for: start)), location: always }\n"
}

extension Benchmark {
  func measureTwoPhones() throws {
    let rounds = max(3, runs)
    print("")
    print("android: \(rounds) paired rounds; baseline = the same scenario on ios, in the same round")
    print("| track | ios s | android s | android ÷ ios | ios lines | android lines | alarms fired | posted | peak RSS MB (android) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for days in dayCounts {
      let medicinesOnly = try medicineScenario(days: days)
      let androidText = androidScenario(medicines: medicinesOnly)
      let pair = try pairedScenarios(rounds, days: days, baseline: ("ios", medicinesOnly), candidate: ("android", androidText))
      let (iosRuns, androidRuns, ratios, peak) = (pair.baseline, pair.candidate, pair.ratios, pair.candidatePeak)
      let (iosLines, androidLines) = (pair.baselineLines, pair.candidateLines)
      let fired = androidLines.count { $0.dropFirst(30).hasPrefix("alarm ") && $0.contains(" change=fired ") }
      let posted = androidLines.count { $0.dropFirst(30).hasPrefix("fired ") && $0.contains(" trigger=notify ") }
      // The benchmark must measure the Android device at work.
      guard fired > 0, posted > 0 else { fatalError("the android scenario fires no alarm or posts nothing") }
      print(String(
        format: "| %d day%@ | %.3f | %.3f | %.2f× | %d | %d | %d | %d | %.1f |", days, days == 1 ? "" : "s", middle(iosRuns), middle(androidRuns),
        middle(ratios), iosLines.count, androidLines.count, fired, posted, Double(peak) / 1_048_576))
    }
  }
}
