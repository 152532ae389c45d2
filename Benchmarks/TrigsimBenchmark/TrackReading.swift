// Track reading (`io`): reads a 30-day 1 Hz track end to end (TrackFile, the
// normalizer, every sample) from `month.gpx` and `month.csv`, each in a
// `--read-track-child` process of this binary, beside `xmllint --stream
// --noout` on the GPX and `wc -l` on the CSV (the baselines, in the same run).
// The two files come from --month-dir, or are generated into the work folder
// with the release `trigsim generate-track` when absent there.

import Foundation

extension Benchmark {
  func measureTrackReading() throws {
    let folder = monthDirectory ?? workDirectory
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    print("")
    for format in ["gpx", "csv"] where !FileManager.default.fileExists(atPath: "\(folder)/month.\(format)") {
      print("generating \(folder)/month.\(format) (30 days at 1 Hz) with \(trigsim) generate-track")
      _ = measure([trigsim, "generate-track", "--days", "30", "--rate", "1", "--output", "\(folder)/month.\(format)"])
    }
    print("io: median of \(runs) runs, each in a child process started alone (peak RSS is its own); baselines = `xmllint --stream --noout` on the GPX, `wc -l` on the CSV, in the same run")
    print("| file | MB | reader | median s | MB/s | fixes/s | ÷ baseline | peak RSS MB |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    let countFile = "\(workDirectory)/read-track-count"
    let resultFile = "\(workDirectory)/measure-child-result"
    let readers: [(format: String, tool: String, arguments: [String])] = [
      ("gpx", "xmllint", ["--stream", "--noout"]),
      ("csv", "wc", ["-l"]),
    ]
    for (format, tool, toolArguments) in readers {
      let path = "\(folder)/month.\(format)"
      let megabytes = Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1e6
      let read = medianAlone(runs, [CommandLine.arguments[0], "--read-track-child", path, countFile], resultFile: resultFile)
      let fixes = Double(try String(contentsOfFile: countFile, encoding: .utf8)) ?? 0
      var baselineSeconds: Double?
      if let toolPath = executableOnPath(tool) {
        let baseline = medianAlone(runs, [toolPath] + toolArguments + [path], resultFile: resultFile)
        baselineSeconds = baseline.seconds
        let command = ([tool] + toolArguments).joined(separator: " ")
        print(
          "| month.\(format) | \(String(format: "%.1f", megabytes)) | `\(command)` | "
            + String(
              format: "%.3f | %.0f | – | 1.00× | %.1f |", baseline.seconds, megabytes / baseline.seconds,
              Double(baseline.peakResidentBytes) / 1_048_576))
      } else {
        print("| month.\(format) | \(String(format: "%.1f", megabytes)) | `\(tool)` not on PATH: baseline skipped | – | – | – | – | – |")
      }
      let ratio = baselineSeconds.map { String(format: "%.2f×", read.seconds / $0) } ?? "–"
      print(
        "| month.\(format) | \(String(format: "%.1f", megabytes)) | trigsim | "
          + String(format: "%.3f | %.0f | %.2f M | ", read.seconds, megabytes / read.seconds, fixes / read.seconds / 1e6)
          + "\(ratio) | \(String(format: "%.1f", Double(read.peakResidentBytes) / 1_048_576)) |")
    }
    if let truePath = executableOnPath("true") {
      // What the fork from the launcher costs any command: the floor under every peak above.
      let floor = medianAlone(1, [truePath], resultFile: resultFile)
      print(String(format: "peak RSS floor (`true` measured the same way): %.1f MB", Double(floor.peakResidentBytes) / 1_048_576))
    }
  }
}
