import Foundation
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// Builders for medicine-app tests. Every scenario runs in UTC on 2026-03-28
/// unless a test says otherwise, so a local time `08:06` is `2026-03-28T08:06:00Z`.
enum MedicineFixture {
  static let day = "2026-03-28"
  static let nextDay = "2026-03-29"

  /// `08:06` (or `08:06:30`) on `day`, UTC.
  static func at(_ time: String, on date: String = day) -> SimulationInstant {
    Build.instant("\(date)T\(time.count == 5 ? time + ":00" : time)Z")
  }

  /// The timeline's rendering of `at(time, on:)`: `2026-03-28T08:06:00.000+00:00`.
  static func local(_ time: String, on date: String = day) -> String {
    InstantFormatter.format(at(time, on: date), offsetSeconds: 0)
  }

  static func time(_ text: String) -> DailyTime {
    let parts = text.split(separator: ":").map { Int($0)! }
    return DailyTime(hour: parts[0], minute: parts[1])
  }

  static func medicine(
    _ id: MedicineID = "1", name: String = "Metformin", dosage: String = "500", unit: String = "mg",
    times: [String] = ["08:00", "14:00"], location: LocationReminder? = nil,
    snooze: SnoozeChainPolicy? = .productDefault
  ) -> Medicine {
    Medicine(id: id, name: name, dosage: dosage, unit: unit, times: times.map(time), location: location, snooze: snooze)
  }

  static func create(_ medicine: Medicine, at time: String = "07:00") -> MedicineChange {
    MedicineChange(instant: at(time), kind: .create(medicine))
  }

  static func action(_ action: UserAction, on id: NotificationID, at time: String, origin: InputLocation? = nil)
    -> ScheduledUserAction
  {
    ScheduledUserAction(instant: at(time), notification: id, action: action, origin: origin)
  }

  static let onDelivery = SnoozeChainPolicy(every: .minutes(6), count: 10, scheduling: .onDelivery)

  static func scenario(
    _ app: MedicineApp, start: String = "2026-03-28T07:00:00Z", end: String = "2026-03-28T23:00:00Z",
    regions: [MonitoredRegion] = [], track: (any TrackSource)? = nil, platform: PlatformSettings = .idealLocation
  ) -> Scenario {
    Scenario(
      name: "medicine-test", clock: Build.clock(start, end), regions: regions, track: track, platform: platform,
      medicineApp: app)
  }

  static func report(
    _ app: MedicineApp, start: String = "2026-03-28T07:00:00Z", end: String = "2026-03-28T23:00:00Z",
    regions: [MonitoredRegion] = [], track: (any TrackSource)? = nil, platform: PlatformSettings = .idealLocation
  ) throws -> SimulationReport {
    try Simulation(scenario(app, start: start, end: end, regions: regions, track: track, platform: platform)).report()
  }
}

extension Timeline {
  /// The entries at one instant, in handling order.
  func entries(at instant: SimulationInstant) -> [TimelineEntry] { entries.filter { $0.instant == instant } }

  /// `kind subject @ local` for the entries whose subject starts with `prefix`.
  func outline(subjectPrefix prefix: String) -> [String] {
    entries.filter { $0.subject.hasPrefix(prefix) }.map { "\($0.kind.rawValue) \($0.subject) @ \($0.localInstant)" }
  }
}

extension TimelineEntry {
  /// `kind subject`, for asserting what happened at one instant.
  var kindAndSubject: String { "\(kind.rawValue) \(subject)" }
}

extension RunSummary {
  /// The dose of `medicine` for `slot` whose occurrence label is `label` (`2026-03-28`, `#2`).
  func dose(_ medicine: MedicineID, _ slot: DoseSlot, _ label: String = MedicineFixture.day) -> DoseRecord? {
    doses.first { $0.key.medicine == medicine && $0.key.slot == slot && $0.key.occurrenceLabel == label }
  }
}

/// Follow-up identifiers `medicine_{id}_snooze_{k}` for `k` in `range`.
func followUpIDs(_ medicine: MedicineID = "1", _ range: ClosedRange<Int>) -> [String] {
  range.map { "medicine_\(medicine)_snooze_\($0)" }
}

extension SimulationRun {
  /// A run of `scenario` with the scenario's medicine app (`MedicineReminderApp`), for tests that look inside the run.
  init(_ scenario: Scenario, variation: DeviceVariation? = nil, patientLayer: any PatientLayer = ScriptedPatient()) {
    self.init(
      scenario, variation: variation,
      layers: SimulationLayers(
        scenario, variation: variation, app: HostedAppLayer.make(MedicineReminderApp.hosted(for: scenario), for: scenario), patient: patientLayer))
  }
}
