import Foundation
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// Builders for the reminder server's engine tests. Every scenario runs in
/// UTC on 2026-03-28 from 06:00 to 23:00 (`MedicineFixture`'s day), with one
/// medicine, `1`, due daily at 08:00 (no follow-ups), entered at 07:00.
/// Unless a test asks for them, the app's own notifications are denied at
/// 06:00, so only the server's channels can notify the dose.
enum ServerFixture {
  /// `1.2026-03-28T08:00`: the 08:00 dose as the server's entries name it.
  static let doseLabel = "1.2026-03-28T08:00"
  static let dueTime = DailyTime(hour: 8, minute: 0)

  static func scenario(
    _ policy: [EscalationStep], localNotifications: Bool = false, times: [String] = ["08:00"], end: String = "2026-03-28T23:00:00Z"
  ) -> Scenario {
    var app = MedicineApp(medicineChanges: [MedicineFixture.create(MedicineFixture.medicine(times: times, snooze: nil), at: "07:00")])
    if !localNotifications { app.appChanges = [AppChange(instant: MedicineFixture.at("06:00"), permission: .denied)] }
    var scenario = Scenario(
      name: "server-test", clock: Build.clock("2026-03-28T06:00:00Z", end), platform: .idealLocation, medicineApp: app)
    scenario.server.policy = policy
    return scenario
  }

  static func report(_ scenario: Scenario) throws -> SimulationReport { try Simulation(scenario).report() }

  static func step(_ channel: DeliveryChannel, after minutes: Int64 = 0, _ condition: StepCondition = .unconfirmed) -> EscalationStep {
    EscalationStep(channel: channel, after: .minutes(minutes), condition: condition)
  }

  static func change(_ what: ServerChange.What, at time: String) -> ServerChange {
    ServerChange(instant: MedicineFixture.at(time), what: what)
  }

  static func look(_ time: String) -> ScriptedLook { ScriptedLook(instant: MedicineFixture.at(time)) }

  static func appState(_ state: AppState, at time: String) -> AppChange { AppChange(instant: MedicineFixture.at(time), state: state) }

  static func power(_ kind: PowerEvent.Kind, at time: String) -> PowerEvent { PowerEvent(instant: MedicineFixture.at(time), kind: kind) }
}

extension SimulationReport {
  /// The 08:00 dose of medicine `1` on the fixture's day.
  var dueDose: DoseRecord? { summary.dose("1", .time(ServerFixture.dueTime)) }

  /// The channel attempts of policy step `step` (from 1).
  func attempts(step: Int) -> [ChannelAttempt] { summary.channelAttempts.filter { $0.step == step } }

  /// The server's entries about the dose's steps (`server 1.2026-03-28T08:00`), in order.
  var stepEntries: [TimelineEntry] { timeline.entries(.server).filter { $0.subject == ServerFixture.doseLabel } }
}

extension TimelineEntry {
  /// `08:10 step=2 status=skipped`: an entry's instant (UTC, as `HH:mm` or `HH:mm:ss`) and the fields named.
  func brief(_ keys: String...) -> String {
    let time = localInstant.dropFirst(11).prefix(8)
    let shown = time.hasSuffix(":00") ? String(time.prefix(5)) : String(time)
    return ([shown] + keys.map { "\($0)=\(self[field: $0] ?? "-")" }).joined(separator: " ")
  }
}
