import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture
private typealias S = ServerFixture

/// The seam of `ServerChannel`: a channel the server does not ship, written
/// here under a name of its own and registered with the server, serves the
/// policy's steps on that name. Adding it edited no file in `Sources/`: the
/// toy below is all it took.
@Suite struct ServerChannelTests {
  /// A messenger app: a message arrives `latency` after the server sends it
  /// and the patient perceives it on arrival (a toy for the channel seam).
  final class Messenger: ServerChannel {
    static let name = DeliveryChannel("messenger")
    var name: DeliveryChannel { Self.name }
    let latency = SimulationDuration.seconds(30)

    func send(_ dose: DoseKey, step: Int, label: String, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
      let attempt = server.newAttempt("\(label).s\(step + 1)", dose, step: step, channel: name, at: now)
      server.markSent(attempt, in: run, at: now)
      run.record(.server, server.attempts[attempt].subject, at: now, server.doseFields(dose, step: step) + [
        TimelineField("channel", "messenger"), TimelineField("status", "sent"),
      ])
      server.scheduleArrival(attempt, in: &run, at: now.advanced(by: latency))
    }

    func arrives(_ attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
      server.attempts[attempt].delivered = now
      run.record(.server, server.attempts[attempt].subject, at: now, [TimelineField("channel", "messenger"), TimelineField("status", "delivered")])
      server.attemptPerceived(attempt, kind: .alert, how: "messenger, on arrival", in: &run, at: now)
    }

    func perceivedEntryKind(of attempt: ChannelAttempt) -> TimelineEntry.Kind? { .server }
  }

  /// Runs `scenario` with `channels` registered with its server.
  static func run(_ scenario: Scenario, registering channels: [any ServerChannel]) throws -> (timeline: Timeline, summary: RunSummary, attempts: [ChannelAttempt]) {
    let server = PolicyServer(scenario.server)
    for channel in channels { server.register(channel) }
    let app = HostedAppLayer.make(MedicineReminderApp.hosted(for: scenario), for: scenario)
    var run = SimulationRun(scenario, layers: SimulationLayers(scenario, variation: nil, app: app, server: server))
    try run.execute()
    return (try #require(run.sink as? Timeline), run.summary(), server.channelAttempts)
  }

  @Test func aRegisteredChannelServesTheStepsOnItsNameAndItsArrivalNotifiesTheDose() throws {
    // An email step at 08:10; the patient reads no mail, so the email alone leaves the dose missed.
    let withEmail = try Self.run(S.scenario([S.step(.email, after: 10)]), registering: [])
    #expect(withEmail.summary.dose("1", .time(S.dueTime))?.outcome == .missed)

    // A messenger step at 08:10, then the same email at 08:20: both channels serve their steps.
    let scenario = S.scenario([S.step(Messenger.name, after: 10), S.step(.email, after: 20)])
    let withMessenger = try Self.run(scenario, registering: [Messenger()])
    let entries = withMessenger.timeline.entries(.server).filter { $0.subject == "\(S.doseLabel).s1" }
    #expect(entries.map { $0.brief("channel", "status", "step") } == [
      "08:10 channel=messenger status=sent step=1",
      "08:10:30 channel=messenger status=delivered step=-",
      "08:10:30 channel=- status=perceived step=-",
    ])
    #expect(withMessenger.attempts.map(\.channel) == [Messenger.name, .email])
    #expect(withMessenger.attempts.first?.delivered == F.at("08:10:30"))
    // The email step is the shipped channel's: sent at 08:20, delivered after its one-minute latency.
    #expect(withMessenger.timeline.entries(.email).map { "\($0.subject) \($0.brief("status"))" } == [
      "\(S.doseLabel).s2 08:20 status=sent", "\(S.doseLabel).s2 08:21 status=delivered",
    ])
    let dose = try #require(withMessenger.summary.dose("1", .time(S.dueTime)))
    #expect(dose.notified == F.at("08:10:30"))
    #expect(dose.perception?.how == "messenger, on arrival")
    #expect(dose.outcome == .unanswered)
  }

  @Test func theServerCallsEveryChannelItHasWhenThePhoneIsReachableAgain() throws {
    final class Listener: ServerChannel {
      var heard: [SimulationInstant] = []
      var name: DeliveryChannel { .inbox }
      func send(_ dose: DoseKey, step: Int, label: String, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {}
      func phoneReachable(server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) { heard.append(now) }
      func perceivedEntryKind(of attempt: ChannelAttempt) -> TimelineEntry.Kind? { nil }
    }
    var scenario = S.scenario([S.step(.sms, after: 10)])
    scenario.device.network = [NetworkChange(instant: F.at("07:50"), online: false), NetworkChange(instant: F.at("08:30"), online: true)]
    let listener = Listener()
    _ = try Self.run(scenario, registering: [listener])
    #expect(listener.heard == [F.at("08:30")])
  }
}
