import Foundation
import Testing
import TrigsimCore
import TrigsimMedicineApp
import TrigsimScenario

/// Properties of the Android device and the medicine app's Android build, over random medicines.
@Suite struct AndroidPropertyTests {
  /// A random scenario: 1–3 medicines with 1–3 daily times each over two days, some with a chain, on Android.
  static func scenario(seed: UInt64, platform: String, extra: String = "") -> String {
    var random = TrialRandom(seed: seed)
    var medicines: [String] = []
    for index in 0..<(1 + Int(random.next(below: 3))) {
      let times = (0..<(1 + Int(random.next(below: 3)))).map { _ in
        String(format: "\"%02d:%02d\"", 6 + Int(random.next(below: 15)), 5 * Int(random.next(below: 12)))
      }
      let chain = random.next(below: 2) == 0 ? "none" : "{ every: \(3 + random.next(below: 10))m, count: \(1 + random.next(below: 4)) }"
      medicines.append("  - { id: m\(index), name: M\(index), dosage: 1, unit: tablet, times: [\(Set(times).sorted().joined(separator: ", "))], snooze: \(chain) }")
    }
    return """
      trigsim: 1
      clock: { start: 2026-05-04T05:00:00+02:00, end: 2026-05-06T05:00:00+02:00, timezone: Europe/Copenhagen }
      platform: \(platform)
      medicines:
      \(medicines.joined(separator: "\n"))
      \(extra)

      """
  }

  static func run(_ yaml: String) throws -> SimulationReport {
    try Simulation(try ScenarioLoader().load(yaml: yaml, file: "s.yaml")).report()
  }

  /// Each dose's first perceivable instant, by medicine, time and day.
  static func notified(_ report: SimulationReport) -> [String: SimulationInstant?] {
    Dictionary(uniqueKeysWithValues: report.summary.doses.map { ("\($0.key.medicine) \($0.reminder) \($0.key.occurrence) \($0.key.repeatOnDay)", $0.notified) })
  }

  @Test(arguments: 0..<40)
  func withExactAlarmsNoDozeAndNoKillerEveryDoseIsNotifiedAtItsTime(seed: Int) throws {
    let report = try Self.run(Self.scenario(seed: UInt64(seed), platform: "{ device: android, android: { exactAlarms: granted, doze: off } }"))
    #expect(!report.summary.doses.isEmpty)
    for dose in report.summary.doses {
      #expect(dose.notified == dose.scheduled, "seed \(seed): \(dose.key.medicine) \(dose.reminder) notified \(String(describing: dose.notified)), due \(dose.scheduled)")
    }
  }

  @Test(arguments: 0..<40)
  func grantingTheExactAlarmPermissionNeverDelaysADelivery(seed: Int) throws {
    let denied = Self.notified(try Self.run(Self.scenario(seed: UInt64(seed), platform: "{ device: android, android: { exactAlarms: denied } }")))
    let granted = Self.notified(try Self.run(Self.scenario(seed: UInt64(seed), platform: "{ device: android, android: { exactAlarms: granted } }")))
    #expect(Set(denied.keys) == Set(granted.keys))
    var later = 0
    for (key, withPermission) in granted {
      guard let without = denied[key] ?? nil else { continue }
      // Notified without the permission: notified with it, and no later.
      guard let with = withPermission else {
        Issue.record("seed \(seed): \(key) notified without the permission, not with it")
        continue
      }
      #expect(with <= without, "seed \(seed): \(key)")
      if with < without { later += 1 }
    }
    // Not vacuous: the inexact fallback makes some delivery later.
    #expect(later > 0, "seed \(seed): the permission changed nothing")
  }

  @Test(arguments: 0..<30)
  func aRebootWithoutBootReRegistrationLosesEveryLaterAlarm(seed: Int) throws {
    var random = TrialRandom(seed: UInt64(seed) &+ 1000)
    // A reboot some time on the first day, unlocked a few minutes after.
    let minutes = Int(random.next(below: 16 * 60))
    let reboot = Date(timeIntervalSince1970: 1_777_863_600 + Double(minutes * 60))  // 2026-05-04T05:00:00+02:00 + minutes
    let unlock = reboot.addingTimeInterval(600)
    let format = ISO8601DateFormatter()
    let power = "device:\n  power:\n    - { at: \(format.string(from: reboot)), event: reboot }\n    - { at: \(format.string(from: unlock)), event: unlock }"
    let lost = try Self.run(
      Self.scenario(seed: UInt64(seed), platform: "{ device: android, android: { exactAlarms: granted } }", extra: "policy:\n  android: { reRegisterAtBoot: false }\n" + power))
    let fired = lost.timeline.entries.filter { $0.kind == .alarm && $0.fields.contains(TimelineField("change", "fired")) }
    #expect(fired.allSatisfy { $0.instant.date < reboot }, "seed \(seed): an alarm fired after the reboot at \(reboot)")
    #expect(!lost.timeline.entries.contains { $0.kind == .fired && $0.instant.date >= reboot })
    // With the receiver, the next day's doses ring again.
    let kept = try Self.run(
      Self.scenario(seed: UInt64(seed), platform: "{ device: android, android: { exactAlarms: granted } }", extra: power))
    #expect(kept.timeline.entries.contains { $0.kind == .fired && $0.instant.date > unlock }, "seed \(seed)")
  }

  @Test func trialsDrawWhereEachInexactAlarmFiresWithinItsHourNeverEarly() throws {
    let yaml = """
      trigsim: 1
      clock: { start: 2026-05-04T07:00:00+02:00, end: 2026-05-04T12:00:00+02:00, timezone: Europe/Copenhagen }
      platform: android
      medicines:
        - { id: levo, name: Levothyroxine, dosage: 50, unit: µg, times: ["09:00"], snooze: none }

      """
    let scenario = try ScenarioLoader().load(yaml: yaml, file: "s.yaml")
    let report = try TrialRunner(scenario).run(TrialPlan(count: 200, seed: 7))
    let dose = try #require(report.doses.first)
    #expect(report.doses.count == 1)
    #expect(dose.due == 200 && dose.notified == 200)
    let delays = dose.latencies.sorted
    // Never early, never past the hour (inexactWindow), and spread over it: the single run's end-of-window is one reading of many.
    #expect(delays.first! >= 0 && delays.last! <= 3_600_000)
    #expect(delays[20] < 15 * 60_000 && delays[180] > 45 * 60_000, "p10 \(delays[20]) ms, p90 \(delays[180]) ms")
    #expect(report.variationSummary.hasPrefix("where each inexact or window alarm fires in its window (uniform)"))
    // The same seed gives the same report, whatever runs it.
    let again = try TrialRunner(scenario).run(TrialPlan(count: 200, seed: 7))
    #expect(again.doses.first?.latencies == dose.latencies)
  }
}
