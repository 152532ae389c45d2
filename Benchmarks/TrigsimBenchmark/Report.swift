// `report`: `trigsim report` of the medicine scenario (the map simplifies the
// whole track, the chart draws every entry) against `trigsim run` of the same
// scenario (the baseline), in turn each round, with `expect: none` so that
// neither compares; the HTML's size, the points drawn of the fixes read; and,
// where Chromium is installed, the time a headless Chromium takes to load and
// lay out the report beside a blank page (the baseline: its start-up), in the
// same run.

import Foundation

extension Benchmark {
  func measureReport() throws {
    print("")
    print("report: median of \(runs) rounds in turn; baseline = `trigsim run` of the same scenario, in the same run")
    print("| track | run s | report s | report ÷ run (median of rounds) | HTML MB | fixes | points drawn | peak RSS MB run / report |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    var largestReport: String?
    for days in dayCounts {
      let trackPath = "\(workDirectory)/synthetic-\(days)d-1hz.csv"
      _ = try syntheticTrack(days: days, at: trackPath)
      let reportScenario = "\(workDirectory)/benchmark-\(days)d-report.yaml"
      try (scenarioText(days: days, track: trackPath) + medicineAppText + "expect: none\nassert:\n  - count: { fired: \"medicine_*\", atLeast: 1 }\n").write(toFile: reportScenario, atomically: true, encoding: .utf8)
      let htmlPath = "\(workDirectory)/benchmark-\(days)d-report.html"
      var rounds: [(run: Measurement, report: Measurement)] = []
      for _ in 0..<runs {
        let run = measure([trigsim, "run", reportScenario, "--output", "\(workDirectory)/benchmark-\(days)d-report.timeline"])
        let report = measure([trigsim, "report", reportScenario, "--output", htmlPath])
        rounds.append((run, report))
      }
      let runSeconds = middle(rounds.map(\.run.seconds))
      let reportSeconds = middle(rounds.map(\.report.seconds))
      let ratio = middle(rounds.map { $0.report.seconds / $0.run.seconds })
      let html = try String(contentsOfFile: htmlPath, encoding: .utf8)
      // The map's note: "N fixes, M points drawn (Douglas–Peucker, T m)".
      let note = html.range(of: #"\d+ fixes, \d+ points drawn"#, options: .regularExpression).map { String(html[$0]) } ?? "? fixes, ? points drawn"
      let numbers = note.split(separator: " ").compactMap { Int($0) }
      print(String(
        format: "| %d days | %.3f | %.3f | %.2f× | %.2f | %d | %d | %.1f / %.1f |", days, runSeconds, reportSeconds, ratio,
        Double(html.utf8.count) / 1e6, numbers.first ?? 0, numbers.last ?? 0,
        Double(rounds.map(\.run.peakResidentBytes).max()!) / 1_048_576, Double(rounds.map(\.report.peakResidentBytes).max()!) / 1_048_576))
      largestReport = htmlPath
    }
    if let largestReport, let chromium = ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap(executableOnPath).first {
      let blank = "\(workDirectory)/blank.html"
      try "<!DOCTYPE html><html><body></body></html>\n".write(toFile: blank, atomically: true, encoding: .utf8)
      func load(_ page: String) -> [String] {
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--user-data-dir=\(workDirectory)/chromium-profile", "--dump-dom", "file://\(page)"]
      }
      var rounds: [(blank: Double, report: Double)] = []
      for _ in 0..<runs { rounds.append((measure(load(blank)).seconds, measure(load(largestReport)).seconds)) }
      let blankSeconds = middle(rounds.map(\.blank))
      let reportSeconds = middle(rounds.map(\.report))
      let extra = middle(rounds.map { $0.report - $0.blank })
      print(String(
        format: "headless Chromium, %@: blank page %.2f s, report %.2f s, the report's own load and layout %.2f s (median of the per-round differences)",
        (largestReport as NSString).lastPathComponent, blankSeconds, reportSeconds, extra))
    }
  }
}
