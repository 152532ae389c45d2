import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

/// The reminder server's assertions (`dosesReached`, `noSendAfterAnswer`,
/// `noSendWhileChannelOff`): each holds on a run that keeps it and fails, with
/// evidence, on one that breaks it.
@Suite struct ChannelAssertionTests {
  /// One medicine at 08:00 without follow-ups; the patient takes the dose at 08:05 when `takes`.
  func report(policy: [EscalationStep], takes: Bool = false, preferencesOff: Set<DeliveryChannel> = []) throws -> SimulationReport {
    var app = MedicineApp(medicineChanges: [F.create(F.medicine("met", times: ["08:00"], snooze: nil))])
    if takes { app.userActions = [F.action(.complete, on: "medicine_met_reminder_0", at: "08:05")] }
    var scenario = F.scenario(app, end: "2026-03-28T12:00:00Z")
    scenario.server.policy = policy
    scenario.server.preferences.off = preferencesOff
    return try Simulation(scenario).report()
  }

  @Test func noSendAfterAnswerFailsWhenAStepSendsRegardlessOfTheAnswer() throws {
    let always = try report(policy: [EscalationStep(channel: .push), EscalationStep(channel: .sms, after: .minutes(30), condition: .always)], takes: true)
    let failure = RunAssertion(.noSendAfterAnswer(.sms)).check(always)
    #expect(failure?.evidence == ["met.2026-03-28T08:00.s2 sent \(F.local("08:30")): the patient answered at \(F.local("08:05"))"])
    let unconfirmed = try report(policy: [EscalationStep(channel: .push), EscalationStep(channel: .sms, after: .minutes(30))], takes: true)
    #expect(RunAssertion(.noSendAfterAnswer(.sms)).check(unconfirmed) == nil)
    #expect(unconfirmed.summary.channelAttempts.map(\.channel) == [.push])
  }

  @Test func noSendWhileChannelOffComparesTheSendsWithTheSwitchesItWasGiven() throws {
    let run = try report(policy: [EscalationStep(channel: .sms)])
    // The patient's setting (as the assertion knows it) was off until 09:00: the 08:00 text breaks it.
    let offUntilNine = RunAssertion(.noSendWhileChannelOff(.sms, initiallyOn: false, switches: [ChannelSwitch(instant: F.at("09:00"), on: true)]))
    #expect(offUntilNine.check(run)?.evidence == ["met.2026-03-28T08:00.s1 sent \(F.local("08:00"))"])
    let offAtSeven = RunAssertion(.noSendWhileChannelOff(.sms, initiallyOn: true, switches: [ChannelSwitch(instant: F.at("07:30"), on: false)]))
    #expect(offAtSeven.check(run) != nil)
    #expect(RunAssertion(.noSendWhileChannelOff(.sms, initiallyOn: true, switches: [])).check(run) == nil)
    // The server honours the setting: with sms off it sends none, and the assertion holds.
    let off = try report(policy: [EscalationStep(channel: .sms)], preferencesOff: [.sms])
    #expect(off.summary.channelAttempts.isEmpty)
    #expect(RunAssertion(.noSendWhileChannelOff(.sms, initiallyOn: false, switches: [])).check(off) == nil)
  }

  @Test func dosesReachedByAChannelCountsOnlyThatChannelsPerceivedAttempts() throws {
    let pushOnly = try report(policy: [EscalationStep(channel: .push)])
    // Any channel: the phone's own reminder at 08:00 counts.
    #expect(RunAssertion(.dosesReached(within: .seconds(0), medicine: nil, channels: [])).check(pushOnly) == nil)
    // By SMS: no text was sent, so the dose was never reached that way.
    let bySMS = RunAssertion(.dosesReached(within: .hours(1), medicine: nil, channels: [.sms])).check(pushOnly)
    #expect(bySMS?.evidence == ["met 08:00 2026-03-28: never perceived (no attempt on sms was perceived)"])
    // The text arrives 30 s after it is sent (the default latency): within 1 min holds, within 10 s does not.
    let withText = try report(policy: [EscalationStep(channel: .sms, after: .minutes(5))])
    #expect(RunAssertion(.dosesReached(within: .minutes(6), medicine: nil, channels: [.sms])).check(withText) == nil)
    let late = RunAssertion(.dosesReached(within: .minutes(5), medicine: nil, channels: [.sms])).check(withText)
    #expect(late?.evidence == ["met 08:00 2026-03-28: due \(F.local("08:00")), perceived \(F.local("08:05:30")), 5m30s late"])
  }
}
