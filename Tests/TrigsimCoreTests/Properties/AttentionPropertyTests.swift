import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// Seeded properties of the attention layer over random medicine days,
/// interruption levels, Focus periods and summaries. The runs have no
/// response rules, so the deliveries are the same with and without a Focus;
/// only what the patient perceives may differ. A failure names its seed.
@Suite struct AttentionPropertyTests {
  static let seeds: [UInt64] = Array(0..<100)

  static func randomScenario(seed: UInt64) -> Scenario {
    var random = SplitMix64(seed: seed)
    let start = SimulationInstant(millisecondsSinceEpoch: 1_774_656_000_000)  // 2026-03-28T00:00Z
    let end = start.advanced(by: .seconds(2 * 86_400))
    var changes: [MedicineChange] = []
    for index in 0..<Int.random(in: 1...3, using: &random) {
      let times = (0..<Int.random(in: 1...4, using: &random)).map { _ in
        DailyTime(hour: Int.random(in: 0...23, using: &random), minute: 5 * Int.random(in: 0...11, using: &random))
      }
      let chain = Bool.random(using: &random)
        ? SnoozeChainPolicy(every: .minutes(Int64.random(in: 5...20, using: &random)), count: Int.random(in: 1...4, using: &random), scheduling: .upfront) : nil
      var medicine = Medicine(id: MedicineID("m\(index)"), name: "M\(index)", dosage: "1", unit: "", times: Array(Set(times)).sorted(), snooze: chain)
      medicine.interruptionLevel = InterruptionLevel.allCases.randomElement(using: &random)!
      changes.append(MedicineChange(instant: start, kind: .create(medicine)))
    }
    var device = DeviceSetup()
    device.entitlements.criticalAlerts = Bool.random(using: &random)
    for index in 0..<Int.random(in: 1...3, using: &random) {
      let from = DailyTime(hour: Int.random(in: 0...23, using: &random), minute: 15 * Int.random(in: 0...3, using: &random))
      let to = DailyTime(hour: Int.random(in: 0...23, using: &random), minute: 15 * Int.random(in: 0...3, using: &random))
      let schedule: FocusPeriod.Schedule = Bool.random(using: &random)
        ? .daily(from: from, to: to, weekdays: nil)
        : .once(from: start.advanced(by: .minutes(Int64.random(in: 0...2000, using: &random))), to: start.advanced(by: .minutes(Int64.random(in: 2000...2880, using: &random))))
      device.focus.append(FocusPeriod(name: "F\(index)", schedule: schedule, allowsApp: Int.random(in: 0..<4, using: &random) == 0,
                                      allowsTimeSensitive: Bool.random(using: &random)))
    }
    if Bool.random(using: &random) { device.summary = ScheduledSummary(times: [DailyTime(hour: 8, minute: 0), DailyTime(hour: 18, minute: 0)]) }
    var platform = PlatformSettings()
    platform.location = .ideal
    return Scenario(
      name: "attention \(seed)", clock: ClockSettings(start: start, end: end, timeZone: TimeZone(identifier: "Europe/Copenhagen")!),
      platform: platform, medicineApp: MedicineApp(medicineChanges: changes), device: device)
  }

  /// Perceptions by delivery: the n-th perception record of each subject.
  static func perceptions(_ report: SimulationReport) -> [String: [PerceptionRecord]] {
    Dictionary(grouping: report.summary.perceptions, by: \.subject)
  }

  @Test(arguments: seeds)
  func aFocusNeverAdvancesAPerceptionAndRemovingItNeverRemovesOne(seed: UInt64) throws {
    let withFocus = Self.randomScenario(seed: seed)
    var withoutFocus = withFocus
    withoutFocus.device.focus = []
    let held = try Simulation(withFocus).report()
    let free = try Simulation(withoutFocus).report()
    #expect(held.timeline.entries(.fired).map(\.canonicalLine) == free.timeline.entries(.fired).map(\.canonicalLine), "seed \(seed): deliveries differ")
    let heldBySubject = Self.perceptions(held)
    let freeBySubject = Self.perceptions(free)
    for (subject, records) in heldBySubject {
      let withoutRecords = freeBySubject[subject] ?? []
      // Removing the Focus never removes a perception: each one with the Focus exists without it.
      #expect(records.count <= withoutRecords.count, "seed \(seed): \(subject) perceived more often with a Focus")
      for (withRecord, withoutRecord) in zip(records, withoutRecords) {
        // A Focus never advances a perception.
        #expect(withRecord.instant >= withoutRecord.instant, "seed \(seed): \(subject) perceived earlier with a Focus")
      }
    }
    for dose in held.summary.doses {
      let free = free.summary.doses.first { $0.key == dose.key }
      if let notified = dose.notified {
        #expect(free?.notified.map { $0 <= notified } == true, "seed \(seed): a dose was notified earlier or only with a Focus")
      }
    }
  }

  @Test(arguments: seeds)
  func nothingIsAudibleDuringAFocusThatSilencesTheAppUnlessItBreaksThrough(seed: UInt64) throws {
    let scenario = Self.randomScenario(seed: seed)
    let report = try Simulation(scenario).report()
    let breakthrough = Set(report.timeline.entries(.presented).filter { $0[field: "reason"]?.contains("breaks through") == true }.map { "\($0.subject)@\($0.instant)" })
    let intervals = SimulationRun(scenario).deviceSchedule.focusIntervals
    for record in report.summary.perceptions where record.audible {
      // Only one Focus is on at a time: of those whose span holds the instant, the one that began last.
      let inForce = intervals.indices.filter { intervals[$0].from <= record.instant && record.instant < intervals[$0].to }
        .max { (intervals[$0].from, $0) < (intervals[$1].from, $1) }
      let silenced = inForce.map { !scenario.device.focus[intervals[$0].period].allowsApp } ?? false
      #expect(!silenced || breakthrough.contains("\(record.subject)@\(record.instant)"), "seed \(seed): \(record.subject) audible in a Focus at \(record.instant)")
    }
  }
}
