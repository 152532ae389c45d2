// Scale (`--only scale`, not part of the full run): scenarios of 25,000, 50,000
// and 100,000 raw notifications over a year (`manyNotificationsText`) in turn,
// with the ratio of each to the one half its size (the baseline: a linear cost
// gives 2.0×, n^1.6 gives 3.03×), and 3,000 daily Focus periods over a year,
// which stop at the default limit of a million entries.

import Foundation
import TrigsimCore

/// A year of `count` raw notifications, added one after another at equal
/// steps over the clock, as an app scheduling one reminder at a time:
/// every other one a one-shot calendar trigger 160 steps after its add, the
/// others a one-shot interval of 60 steps, so that about 95 are pending at
/// once and the pending limit of 64 drops some at most adds; every tenth
/// reuses the identifier of the one five before it (a replacement, or a
/// re-add once that one has fired or been dropped), and every seventh is
/// removed ten steps after its add. The same design at every size, so the
/// timelines grow in proportion.
func manyNotificationsText(count: Int) -> String {
  let yearStart: Int64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z
  let year: Int64 = 365 * 86_400_000
  let step = year / Int64(count + 1)
  var text = """
    trigsim: 1
    name: \(count) notifications
    clock: { start: 2026-01-01T00:00:00Z, end: 2026-12-31T23:59:59Z, timezone: Europe/Berlin }
    notifications:

    """
  text.reserveCapacity(count * 140)
  let utc = TimeZone(identifier: "UTC")!
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = utc
  for index in 0..<count {
    let add = SimulationInstant(millisecondsSinceEpoch: yearStart + step * Int64(index + 1))
    let id = index % 10 == 9 ? index - 5 : index
    let trigger: String
    if index % 2 == 0 {
      let fire = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: add.advanced(byMilliseconds: step * 160).date)
      trigger = "{ calendar: { year: \(fire.year!), month: \(fire.month!), day: \(fire.day!), hour: \(fire.hour!), minute: \(fire.minute!), timezone: UTC } }"
    } else {
      trigger = "{ interval: \(max(60, step * 60 / 1000))s }"
    }
    var line = "  - { id: n\(id), title: Note \(index), trigger: \(trigger), add: \(InstantFormatter.utc.string(for: add))"
    let removal = add.advanced(byMilliseconds: step * 10)
    if index % 7 == 3 && removal.millisecondsSinceEpoch < yearStart + year { line += ", remove: \(InstantFormatter.utc.string(for: removal))" }
    text += line + " }\n"
  }
  return text
}

/// 3,000 daily Focus periods over a year, 8 hours each, starting 7 minutes
/// apart around the clock (about 1,000 in force at any time), and one daily
/// reminder: 2.2 million Focus entries, so the run stops at the default
/// limit of a million entries (exit 65) halfway through the year.
func manyFocusText(count: Int) -> String {
  var text = """
    trigsim: 1
    name: \(count) Focus periods
    clock: { start: 2026-01-01T00:00:00, end: 2026-12-31T23:59:59, timezone: Europe/Berlin }
    notifications:
      - { id: daily, title: Pills, trigger: { calendar: { hour: 8, minute: 0 }, repeats: true } }
    device:
      focus:

    """
  func time(_ minutes: Int) -> String { String(format: "\"%02d:%02d\"", minutes / 60, minutes % 60) }
  for index in 0..<count {
    let from = (index * 7) % 1440
    text += "    - { name: F\(index), daily: { from: \(time(from)), to: \(time((from + 480) % 1440)) } }\n"
  }
  return text
}

extension Benchmark {
  func measureScale() throws {
    print("")
    print("scale: \(runs) rounds in turn; baseline = the scenario half the size, in the same round")
    print("| notifications | YAML MB | trigsim s | ÷ half the size | timeline lines | dropped | peak RSS MB |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    let sizes = [25_000, 50_000, 100_000]
    var paths: [String] = []
    for size in sizes {
      let path = "\(workDirectory)/notifications-\(size).yaml"
      if !FileManager.default.fileExists(atPath: path) { try manyNotificationsText(count: size).write(toFile: path, atomically: true, encoding: .utf8) }
      paths.append(path)
    }
    var rounds: [[Measurement]] = []
    for _ in 0..<runs {
      rounds.append(paths.enumerated().map { index, path in
        medianAlone(1, [trigsim, "run", path, "--output", "\(workDirectory)/notifications-\(sizes[index]).timeline"], resultFile: "\(workDirectory)/scale.result")
      })
    }
    for (index, size) in sizes.enumerated() {
      let lines = try String(contentsOfFile: "\(workDirectory)/notifications-\(size).timeline", encoding: .utf8).split(separator: "\n")
      let dropped = lines.count { $0.dropFirst(30).hasPrefix("dropped ") }
      // The benchmark must exercise the pending limit, not only adds and deliveries.
      guard dropped > 0 else { fatalError("the \(size)-notification scenario drops nothing") }
      let ratio = index == 0 ? "–" : String(format: "%.2f×", middle(rounds.map { $0[index].seconds / $0[index - 1].seconds }))
      let megabytes = Double((try FileManager.default.attributesOfItem(atPath: paths[index])[.size] as? Int) ?? 0) / 1_048_576
      print(String(
        format: "| %d | %.1f | %.2f | %@ | %d | %d | %.0f |", size, megabytes, middle(rounds.map { $0[index].seconds }), ratio, lines.count,
        dropped, Double(rounds.map { $0[index].peakResidentBytes }.max()!) / 1_048_576))
    }
    // Over the whole span (two doublings), which evens out the noise of a single step.
    let span = middle(rounds.map { $0[sizes.count - 1].seconds / $0[0].seconds })
    print(String(format: "\n25,000 → 100,000: %.2f×, %.2f× per doubling (linear: 2.00×, n^1.6: 3.03×)", span, span.squareRoot()))
    let focusPath = "\(workDirectory)/focus-3000.yaml"
    try manyFocusText(count: 3000).write(toFile: focusPath, atomically: true, encoding: .utf8)
    let focus = median(runs, [trigsim, "run", focusPath, "--output", "\(workDirectory)/focus-3000.timeline"], expectedStatus: 65)
    print("")
    print(String(format: "3,000 daily Focus periods, stopped at 1,000,000 entries: %.2f s (median of %d), peak RSS %.0f MB", focus.seconds, runs, Double(focus.peakResidentBytes) / 1_048_576))
  }
}
