// The verify table: `trigsim verify` of the medicine scenario against its own
// timeline and dose table, as `trigsim record` writes them (a match), and
// against a copy of the timeline with every region entry moved by 1 ms (one
// difference per visit; the same dose table), with `trigsim run` of the same
// scenario as the baseline in the same run. It reads the medicine app table's scenarios and
// timelines, so it runs after it.

import Foundation

extension Benchmark {
  func measureVerify() throws {
    print("")
    print("verify: median of \(runs) runs; baseline = `trigsim run` of the same medicine scenario, in the same run")
    print("| track | timeline lines | run s | verify, match s | verify / run | entries shifted | verify, differs s | differs / run |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for days in dayCounts {
      let appPath = "\(workDirectory)/benchmark-\(days)d-medicines.yaml"
      let expectedPath = "\(workDirectory)/benchmark-\(days)d-medicines.timeline"
      let shiftedPath = "\(workDirectory)/benchmark-\(days)d-shifted.timeline"
      let verifyPath = "\(workDirectory)/benchmark-\(days)d-verify.yaml"
      let verifyShiftedPath = "\(workDirectory)/benchmark-\(days)d-verify-shifted.yaml"
      let appText = try String(contentsOfFile: appPath, encoding: .utf8)
      try (appText + "expect: \(expectedPath)\n").write(toFile: verifyPath, atomically: true, encoding: .utf8)
      try (appText + "expect: \(shiftedPath)\n").write(toFile: verifyShiftedPath, atomically: true, encoding: .utf8)
      // `verify` of a scenario with medicines compares its dose table too (`NAME.doses` beside the
      // expected timeline): record both once, and give the shifted copy the same table, so that
      // only its timeline differs.
      _ = measure([trigsim, "record", verifyPath])
      let shiftedDoses = "\(workDirectory)/benchmark-\(days)d-shifted.doses"
      if FileManager.default.fileExists(atPath: shiftedDoses) { try FileManager.default.removeItem(atPath: shiftedDoses) }
      try FileManager.default.copyItem(atPath: "\(workDirectory)/benchmark-\(days)d-medicines.doses", toPath: shiftedDoses)
      // Every `enter`, and every entry at the same instant, one millisecond later
      // in the expected copy (order stays valid: instants are whole milliseconds).
      let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
      let rawLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
      let enterStamps = Set(rawLines.filter { $0.contains(" enter       ") }.compactMap { $0.split(separator: " ").first })
      var shifted = 0
      let lines = rawLines.map { line -> String in
        guard !line.hasPrefix("#"), let space = line.firstIndex(of: " "), enterStamps.contains(line[..<space]) else { return String(line) }
        var bytes = Array(line[..<space].utf8)
        func digits(_ offset: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 * 10 + Int(bytes[offset + $1] - 48) } }
        // 2026-03-01T19:11:10.974+01:00: hours at 11, minutes 14, seconds 17, milliseconds 20.
        let total = ((digits(11, 2) * 60 + digits(14, 2)) * 60 + digits(17, 2)) * 1000 + digits(20, 3) + 1
        guard total < 86_400_000 else { return String(line) }
        for (offset, count, value) in [(11, 2, total / 3_600_000), (14, 2, total / 60_000 % 60), (17, 2, total / 1000 % 60), (20, 3, total % 1000)] {
          var rest = value
          for index in stride(from: offset + count - 1, through: offset, by: -1) {
            bytes[index] = UInt8(48 + rest % 10)
            rest /= 10
          }
        }
        if line.contains(" enter       ") { shifted += 1 }
        return String(decoding: bytes, as: UTF8.self) + line[space...]
      }
      try lines.joined(separator: "\n").write(toFile: shiftedPath, atomically: true, encoding: .utf8)
      let run = median(runs, [trigsim, "run", appPath, "--output", "\(workDirectory)/benchmark-\(days)d-rerun.timeline"])
      let match = median(runs, [trigsim, "verify", verifyPath])
      let differs = median(runs, [trigsim, "verify", verifyShiftedPath], expectedStatus: 1)
      print(String(
        format: "| %d days | %d | %.3f | %.3f | %.2f× | %d | %.3f | %.2f× |", days, expected.split(separator: "\n").count, run.seconds, match.seconds,
        match.seconds / run.seconds, shifted, differs.seconds, differs.seconds / run.seconds))
    }
  }
}
