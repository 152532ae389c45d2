// `--write-inputs DIR`: the representative scenarios of the tables written to
// a folder, with their tracks and places, for measuring them by other means
// (Benchmarks/instructions.sh counts their instructions under callgrind).

import Foundation

extension Benchmark {
  /// Writes, for each --days count, the scenarios the tables run (the same
  /// text, from the same functions) into `folder`, and prints one line per
  /// scenario: its name, a space and its path. The names: `medicine` (the
  /// medicine app table's), `attention` (Focus and pushes), `phone-ios` and
  /// `phone-android` (the two-phone table's pair), `storm-ios` and
  /// `storm-android` (the event storm on each phone), `server` (the
  /// three-channel escalation) and `places` (5 000 places over 30 km ×
  /// 30 km), each followed by `-Nd` for a track of N days.
  func writeInputs(to folder: String) throws {
    var inputs = self
    inputs.workDirectory = folder
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for days in dayCounts {
      let trackPath = "\(folder)/synthetic-\(days)d-1hz.csv"
      _ = try syntheticTrack(days: days, at: trackPath)
      let medicinesOnly = try inputs.medicineScenario(days: days)
      let storms = stormScenarios(days: days, medicines: medicinesOnly)
      let placesCSV = "\(folder)/places-5000-0.csv"
      try benchmarkPlaces.csv.write(toFile: placesCSV, atomically: true, encoding: .utf8)
      let scenarios: [(name: String, file: String, text: String)] = [
        ("medicine", "medicines", scenarioText(days: days, track: trackPath) + medicineAppText),
        ("attention", "attention", attentionScenarios(days: days, track: trackPath).attention),
        ("phone-ios", "ios", medicinesOnly),
        ("phone-android", "android", androidScenario(medicines: medicinesOnly)),
        ("storm-ios", "storm-ios", storms.ios),
        ("storm-android", "storm-android", storms.android),
        ("server", "escalation", serverScenarios(days: days, medicines: medicinesOnly).escalation),
        ("places", "places-0", placesScenarioText(days: days, track: trackPath, places: placesCSV)),
      ]
      for scenario in scenarios {
        let path = "\(folder)/benchmark-\(days)d-\(scenario.file).yaml"
        try scenario.text.write(toFile: path, atomically: true, encoding: .utf8)
        print("\(scenario.name)-\(days)d \(path)")
      }
    }
  }
}
