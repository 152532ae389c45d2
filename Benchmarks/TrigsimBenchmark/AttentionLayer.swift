// The attention table: the medicine scenario with the attention layer added
// (Focus, a time-sensitive medicine, 20 pushes a day, an hour offline a day)
// against the medicine scenario alone (the baseline), and the same with the
// Focus periods and the time-sensitive medicine only, and with a patient who
// looks, in turn, with the medians of the per-round ratios.

import Foundation
import TrigsimCore

/// The attention layer added to the medicine scenario, as the issue asks: a
/// nightly Sleep Focus that silences the app (time-sensitive allowed), a
/// weekday Work Focus that allows it, one time-sensitive medicine, an app
/// preference change (one push type off, quiet hours), one hour offline every
/// day, and 20 pushes a day: alert pushes of three types with categories,
/// collapse identifiers, badges, and background pushes. No Scheduled Summary:
/// it would hold most daytime alerts for hours, so the patient would answer
/// later and the chains would deliver several times more notifications, a
/// different workload rather than the layer's cost.
func attentionText(days: Int) -> String {
  var text = """
    device:
      focus:
        - { name: Sleep, daily: { from: "22:30", to: "07:00" }, timeSensitive: true }
        - { name: Work, daily: { from: "09:00", to: "17:00" }, days: [mon, tue, wed, thu, fri], allowApp: true }
      network:

    """
  for day in 0..<days {
    let offline = start.advanced(by: .hours(Int64(day) * 24 + 11))
    text += "    - { at: \(InstantFormatter.utc.string(for: offline)), online: false }\n"
    text += "    - { at: \(InstantFormatter.utc.string(for: offline.advanced(by: .hours(1)))), online: true }\n"
  }
  text += """
    pushes:
      categories: { COMMENT: [reply, like], ACHIEVEMENT: [share] }
      preferences:
        - { at: \(InstantFormatter.utc.string(for: start)), types: { promo: off }, quietHours: { from: "22:00", to: "07:00", enabled: true } }
      send:

    """
  let types = ["new_comment", "achievement_unlocked", "promo"]
  for day in 0..<days {
    for index in 0..<20 {
      let at = InstantFormatter.utc.string(for: start.advanced(by: .minutes(Int64(day) * 1440 + 30 + Int64(index) * 71)))
      if index % 5 == 4 {
        text += "    - { at: \(at), id: p\(day)_\(index), contentAvailable: true, priority: 5 }\n"
      } else {
        let type = types[index % 3]
        let category = type == "new_comment" ? "COMMENT" : "ACHIEVEMENT"
        text += "    - { at: \(at), id: p\(day)_\(index), type: \(type), title: Update \(index), category: \(category), collapseId: thread-\(index % 4), badge: \(index % 7), sound: true }\n"
      }
    }
  }
  return text
}

/// The attention table's scenarios on the `days`-day track at `track`: the
/// medicine scenario with one medicine time-sensitive and `attentionText`
/// up to its pushes (`focus`: the Focus periods and the hours offline), with
/// all of it (`attention`), and with a patient who looks as well (`patient`).
func attentionScenarios(days: Int, track: String) -> (focus: String, attention: String, patient: String) {
  let withLevel = (scenarioText(days: days, track: track) + medicineAppText).replacingOccurrences(
    of: "times: [\"07:30\", \"12:30\", \"17:30\", \"22:30\"] }", with: "times: [\"07:30\", \"12:30\", \"17:30\", \"22:30\"], interruptionLevel: timeSensitive }")
  let attention = attentionText(days: days)
  return (
    withLevel + attention[..<attention.range(of: "pushes:")!.lowerBound], withLevel + attention,
    withLevel + attention + "patient: { day: { wake: \"07:00\", sleep: \"23:00\" } }\n"
  )
}

extension Benchmark {
  func measureAttentionLayer() throws {
    print("")
    print("attention layer: median of \(runs) runs in turn; baseline = the medicine scenario without it, in the same run;")
    print("patient = the Focus-and-pushes scenario with a patient who looks (wake 07:00, sleep 23:00, 52 looks a day), against it without looks")
    print("| track | without s | Focus only s | Focus ÷ without | Focus and pushes s | with pushes ÷ without | with the patient s | patient ÷ pushes | timeline lines | held | presented | received | looked | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for days in dayCounts {
      let trackPath = "\(workDirectory)/synthetic-\(days)d-1hz.csv"
      _ = try syntheticTrack(days: days, at: trackPath)
      let medicinePath = "\(workDirectory)/benchmark-\(days)d-medicines.yaml"
      let medicineText = scenarioText(days: days, track: trackPath) + medicineAppText
      try medicineText.write(toFile: medicinePath, atomically: true, encoding: .utf8)
      let scenarios = attentionScenarios(days: days, track: trackPath)
      let focusPath = "\(workDirectory)/benchmark-\(days)d-focus.yaml"
      try scenarios.focus.write(toFile: focusPath, atomically: true, encoding: .utf8)
      let attentionPath = "\(workDirectory)/benchmark-\(days)d-attention.yaml"
      try scenarios.attention.write(toFile: attentionPath, atomically: true, encoding: .utf8)
      let patientPath = "\(workDirectory)/benchmark-\(days)d-patient.yaml"
      try scenarios.patient.write(toFile: patientPath, atomically: true, encoding: .utf8)
      let outputPath = "\(workDirectory)/benchmark-\(days)d-attention.timeline"
      let patientOutputPath = "\(workDirectory)/benchmark-\(days)d-patient.timeline"
      // In turn: each scenario once per round, so all four see the same machine load; ratios are per round.
      var rounds: [(without: Measurement, focus: Measurement, with: Measurement, patient: Measurement)] = []
      for _ in 0..<runs {
        let without = measure([trigsim, "run", medicinePath, "--output", "\(workDirectory)/benchmark-\(days)d-medicines.timeline"])
        let focus = measure([trigsim, "run", focusPath, "--output", "\(workDirectory)/benchmark-\(days)d-focus.timeline"])
        let with = measure([trigsim, "run", attentionPath, "--output", outputPath])
        let patient = measure([trigsim, "run", patientPath, "--output", patientOutputPath])
        rounds.append((without, focus, with, patient))
      }
      let patientLines = try String(contentsOfFile: patientOutputPath, encoding: .utf8).split(separator: "\n")
      let looked = patientLines.count { $0.dropFirst(30).hasPrefix("looked ") }
      guard looked > 0 else { fatalError("the patient scenario's patient sees nothing at a look") }
      let lines = try String(contentsOfFile: outputPath, encoding: .utf8).split(separator: "\n")
      func count(_ kind: String) -> Int { lines.count { $0.dropFirst(30).hasPrefix(kind + " ") } }
      let held = count("held"), presented = count("presented"), received = count("received")
      // The benchmark must measure the layer at work, not a scenario it ignores.
      guard held > 0, presented > 0, received > 0 else { fatalError("the attention scenario holds, presents or receives nothing") }
      print(String(
        format: "| %d days | %.3f | %.3f | %.2f× | %.3f | %.2f× | %.3f | %.2f× | %d | %d | %d | %d | %d | %.1f |", days, middle(rounds.map(\.without.seconds)),
        middle(rounds.map(\.focus.seconds)), middle(rounds.map { $0.focus.seconds / $0.without.seconds }), middle(rounds.map(\.with.seconds)),
        middle(rounds.map { $0.with.seconds / $0.without.seconds }), middle(rounds.map(\.patient.seconds)),
        middle(rounds.map { $0.patient.seconds / $0.with.seconds }), lines.count, held, presented, received, looked,
        Double(rounds.map(\.patient.peakResidentBytes).max()!) / 1_048_576))
    }
  }
}
