import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture
private typealias S = ServerFixture

/// Texts: a verified number, the carrier's storage while the phone cannot
/// receive, a Focus that silences Messages, and the latencies a trial draws.
@Suite struct SMSChannelTests {
  @Test func aTextToAnUnverifiedNumberFailsUnsent() throws {
    var scenario = S.scenario([S.step(.sms, after: 10)])
    scenario.server.sms.numberVerified = false
    let report = try S.report(scenario)
    let text = try #require(report.attempts(step: 1).first)
    #expect(text.at == F.at("08:10"))
    #expect(text.sent == nil)
    #expect(text.delivered == nil)
    #expect(text.failure == "the patient has no verified phone number: the server sends texts only to a verified number")
    #expect(report.timeline.entries(.sms).map { $0.brief("status") } == ["08:10 status=failed"])
    #expect(report.dueDose?.notified == nil)
  }

  @Test func aTextToAPhoneThatIsOffIsHeldAtTheCarrierAndDeliveredWhenItIsSwitchedOn() throws {
    var scenario = S.scenario([S.step(.sms, after: 10)])
    scenario.device.power = [S.power(.switchOff, at: "07:30"), S.power(.switchOn, at: "09:00")]
    let report = try S.report(scenario)
    #expect(report.timeline.entries(.sms).map { $0.brief("status") } == [
      "08:10 status=sent", "08:10:30 status=held", "09:00 status=delivered", "09:00 status=perceived",
    ])
    #expect(report.timeline.entries(.sms)[1][field: "reason"]
      == "the phone is off: the carrier stores the text and retries until the phone can receive it, for up to \(SimulationDuration.seconds(86_400)) (sms carrierStorage)")
    let text = try #require(report.attempts(step: 1).first)
    #expect(text.delivered == F.at("09:00"))
    #expect(text.failure == nil)
  }

  /// The carrier gives up `carrierStorage` after the send (08:10 + 1 h): the
  /// text fails then, and is not delivered when the phone comes on at 10:00.
  @Test func aTextHeldAtTheCarrierLongerThanCarrierStorageFailsWhenTheCarrierGivesUp() throws {
    var scenario = S.scenario([S.step(.sms, after: 10)])
    scenario.server.sms.carrierStorage = .minutes(60)
    scenario.device.power = [S.power(.switchOff, at: "07:30"), S.power(.switchOn, at: "10:00")]
    let report = try S.report(scenario)
    let text = try #require(report.attempts(step: 1).first)
    #expect(text.delivered == nil)
    #expect(text.perceived == nil)
    #expect(text.failure == "the carrier gave up after \(SimulationDuration.minutes(60)) (sms carrierStorage): the phone could not receive it")
    #expect(report.timeline.entries(.sms).map { $0.brief("status") } == ["08:10 status=sent", "08:10:30 status=held", "09:10 status=failed"])
    #expect(report.dueDose?.notified == nil)
    // Neither the latency nor the carrier's storage is documented: both consulted.
    #expect(Set(report.summary.consultedAssumptions) == [.smsLatency, .smsCarrierStorage])
  }

  /// The same give-up when the phone never comes back within the run: the
  /// attempt fails at 09:10, rather than staying neither delivered nor failed.
  @Test func aTextHeldAtTheCarrierFailsAtTheEndOfCarrierStorageEvenIfThePhoneNeverComesBack() throws {
    var scenario = S.scenario([S.step(.sms, after: 10)])
    scenario.server.sms.carrierStorage = .minutes(60)
    scenario.device.power = [S.power(.switchOff, at: "07:30")]
    let report = try S.report(scenario)
    let text = try #require(report.attempts(step: 1).first)
    #expect(text.delivered == nil)
    #expect(text.failure == "the carrier gave up after \(SimulationDuration.minutes(60)) (sms carrierStorage): the phone could not receive it")
    #expect(report.timeline.entries(.sms).map { $0.brief("status") } == ["08:10 status=sent", "08:10:30 status=held", "09:10 status=failed"])
  }

  @Test func aTextDeliveredDuringAFocusIsHeldAndSeenAtThePatientsFirstLookAfterTheFocusEnds() throws {
    var scenario = S.scenario([S.step(.sms, after: 10)])
    scenario.device.focus = [FocusPeriod(name: "Work", schedule: .once(from: F.at("07:30"), to: F.at("09:00")))]
    // A look during the Focus does not show it; the one after the Focus does.
    scenario.patientAttention.looks = [S.look("08:30"), S.look("09:20")]
    let report = try S.report(scenario)
    let text = try #require(report.attempts(step: 1).first)
    #expect(text.delivered == F.at("08:10:30"))
    #expect(text.perceived == F.at("09:20"))
    #expect(report.timeline.entries(.sms).map { $0.brief("status") } == ["08:10 status=sent", "08:10:30 status=held", "09:20 status=perceived"])
    #expect(report.timeline.entries(.sms)[1][field: "reason"]
      == "delivered while Focus 'Work' silences Messages: listed on the lock screen when it ends, seen at the patient's next look")
    let dose = try #require(report.dueDose)
    #expect(dose.notified == F.at("09:20"))
    #expect(dose.perception?.kind == .afterFocus)
  }

  /// Ten texts a dose, every 10 minutes whatever the server knows, in trials of one seed.
  static func trialScenario() -> Scenario {
    var scenario = S.scenario((0..<10).map { S.step(.sms, after: Int64($0) * 10, .always) })
    scenario.server.sms.latency = .seconds(60)
    scenario.server.sms.latencySpread = .seconds(30)
    scenario.server.sms.failureRate = 0
    return scenario
  }

  @Test func inATrialTextLatenciesLieWithinLatencyPlusOrMinusSpreadAndTheSameSeedDrawsTheSame() throws {
    let simulation = Simulation(Self.trialScenario())
    var latencies: [Int64] = []
    for trial in 0..<5 {
      let attempts = try simulation.report(trial: trial, seed: 2026).summary.channelAttempts
      #expect(attempts.count == 10)
      let drawn = attempts.compactMap { attempt in attempt.sent.flatMap { sent in attempt.delivered.map { sent.duration(to: $0).milliseconds } } }
      #expect(drawn.count == 10, "trial \(trial): every text delivered (failureRate 0, the phone reachable)")
      #expect(drawn.allSatisfy { (30_000...90_000).contains($0) }, "trial \(trial): \(drawn)")
      let again = try simulation.report(trial: trial, seed: 2026).summary.channelAttempts
      #expect(again == attempts, "trial \(trial): the same seed draws the same")
      latencies += drawn
    }
    // Drawn, not the fixed single-run latency: fifty draws are not all one value.
    #expect(Set(latencies).count > 1)
    #expect(latencies.contains { $0 != 60_000 })
    // Another seed draws otherwise.
    let other = try simulation.report(trial: 0, seed: 2027).summary.channelAttempts
    let first = try simulation.report(trial: 0, seed: 2026).summary.channelAttempts
    #expect(other.map(\.delivered) != first.map(\.delivered))
  }

  @Test func aSingleRunDrawsNoFailureWhileATrialFailsTextsAtFailureRate() throws {
    var scenario = S.scenario([S.step(.sms, after: 10), S.step(.sms, after: 20, .always)])
    scenario.server.sms.failureRate = 1
    let single = try S.report(scenario).summary.channelAttempts
    #expect(single.map(\.failure) == [nil, nil])
    #expect(single.map(\.delivered) == [F.at("08:10:30"), F.at("08:20:30")])
    let trial = try Simulation(scenario).report(trial: 0, seed: 7).summary.channelAttempts
    #expect(trial.map(\.failure) == Array(repeating: "the carrier reported it undelivered (drawn in this trial: sms failureRate 1.0)", count: 2))
    #expect(trial.map(\.delivered) == [nil, nil])
  }
}
