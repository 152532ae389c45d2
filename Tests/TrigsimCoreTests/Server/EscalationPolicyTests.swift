import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture
private typealias S = ServerFixture

// MARK: - Steps and the unconfirmed condition

@Suite struct EscalationStepTests {
  @Test func aStepRunsAtTheDosesDueInstantPlusItsDelayAndSendsOnItsChannel() throws {
    let report = try S.report(S.scenario([S.step(.sms, after: 10), S.step(.email, after: 30)]))
    let attempts = report.summary.channelAttempts
    #expect(attempts.map(\.channel) == [.sms, .email])
    #expect(attempts.map(\.step) == [1, 2])
    #expect(attempts.map(\.subject) == ["\(S.doseLabel).s1", "\(S.doseLabel).s2"])
    #expect(attempts.map(\.sent) == [F.at("08:10"), F.at("08:30")])
    // A single run's latencies are the model's own: SMS 30 s, email 60 s.
    #expect(attempts.map(\.delivered) == [F.at("08:10:30"), F.at("08:31")])
    #expect(report.timeline.entries(.sms).map { $0.brief("status", "step") } == ["08:10 status=sent step=1", "08:10:30 status=delivered step=-", "08:10:30 status=perceived step=-"])
    #expect(report.timeline.entries(.email).first?.brief("status", "step") == "08:30 status=sent step=2")
  }

  @Test func anUnconfirmedStepIsSkippedOnceThePatientTookTheDoseBeforeIt() throws {
    var scenario = S.scenario([S.step(.sms, after: 10)], localNotifications: true)
    scenario.medicineApp.userActions = [F.action(.complete, on: "medicine_1_reminder_0", at: "08:05")]
    let report = try S.report(scenario)
    #expect(report.summary.channelAttempts.isEmpty)
    #expect(report.stepEntries.map { $0.brief("step", "channel", "status") } == ["08:10 step=1 channel=sms status=skipped"])
    #expect(report.stepEntries.first?[field: "reason"] == "the server knows the dose was taken (it heard at \(F.local("08:05")))")
  }

  @Test func aDismissalTheAppHearsOfTellsTheServerTheDoseWasSkipped() throws {
    var scenario = S.scenario([S.step(.sms, after: 10)], localNotifications: true)
    scenario.medicineApp.category.customDismiss = true
    scenario.medicineApp.userActions = [F.action(.dismiss, on: "medicine_1_reminder_0", at: "08:05")]
    let report = try S.report(scenario)
    #expect(report.summary.channelAttempts.isEmpty)
    #expect(report.stepEntries.first?[field: "reason"] == "the server knows the dose was skipped (it heard at \(F.local("08:05")))")
  }

  @Test func aDismissalTheAppIsNotToldOfDoesNotReachTheServerSoTheStepSends() throws {
    var scenario = S.scenario([S.step(.sms, after: 10)], localNotifications: true)
    // No custom dismiss action: the platform never tells the app, which cannot tell the server.
    scenario.medicineApp.userActions = [F.action(.dismiss, on: "medicine_1_reminder_0", at: "08:05")]
    let report = try S.report(scenario)
    let text = try #require(report.attempts(step: 1).first)
    #expect(text.sent == F.at("08:10"))
    #expect(report.stepEntries.isEmpty)
  }

  @Test func anAlwaysStepSendsEvenAfterTheServerHeardTheDoseWasTaken() throws {
    var scenario = S.scenario([S.step(.sms, after: 10, .always)], localNotifications: true)
    scenario.medicineApp.userActions = [F.action(.complete, on: "medicine_1_reminder_0", at: "08:05")]
    let report = try S.report(scenario)
    let text = try #require(report.attempts(step: 1).first)
    #expect(text.sent == F.at("08:10"))
    #expect(text.answeredBeforeSend == F.at("08:05"))
    #expect(report.stepEntries.isEmpty)
  }

  @Test func anAnswerMadeOfflineReachesTheServerOnlyWhenThePhoneIsOnlineAgain() throws {
    var scenario = S.scenario([S.step(.sms, after: 10), S.step(.sms, after: 40)], localNotifications: true)
    scenario.medicineApp.userActions = [F.action(.complete, on: "medicine_1_reminder_0", at: "08:05")]
    scenario.device.network = [NetworkChange(instant: F.at("07:50"), online: false), NetworkChange(instant: F.at("08:30"), online: true)]
    let report = try S.report(scenario)
    // Step 1 at 08:10: the server has not heard of the 08:05 answer, so it sends.
    let first = try #require(report.attempts(step: 1).first)
    #expect(first.sent == F.at("08:10"))
    #expect(first.answeredBeforeSend == F.at("08:05"))
    #expect(report.attempts(step: 2).isEmpty)
    #expect(report.stepEntries.map { $0.brief("answer", "step", "status") } == [
      "08:30 answer=synced step=- status=-",
      "08:40 answer=- step=2 status=skipped",
    ])
    #expect(report.stepEntries.first?[field: "reason"] == "the app sent the patient's answer of \(F.local("08:05")) when the phone could reach the server again")
    #expect(report.stepEntries.last?[field: "reason"] == "the server knows the dose was taken (it heard at \(F.local("08:30")))")
  }
}

// MARK: - push-failed

@Suite struct PushFailedConditionTests {
  @Test func aPushFailedStepIsSkippedWhenADeviceTookThePush() throws {
    let report = try S.report(S.scenario([S.step(.push), S.step(.sms, after: 10, .pushFailed)]))
    #expect(report.summary.channelAttempts.map(\.channel) == [.push])
    #expect(report.attempts(step: 1).first?.sent == F.at("08:00"))
    let skipped = try #require(report.stepEntries.first { $0[field: "step"] == "2" })
    #expect(skipped.brief("channel", "status") == "08:10 channel=sms status=skipped")
    #expect(skipped[field: "reason"] == "only if the dose's push failed: a device took it")
  }

  @Test func aPushFailedStepRunsWhenNoDeviceIsRegisteredBecauseThePatientSignedOut() throws {
    var scenario = S.scenario([S.step(.push), S.step(.sms, after: 10, .pushFailed)])
    scenario.server.changes = [S.change(.signOut(device: ServerDevice.phone), at: "07:30")]
    let report = try S.report(scenario)
    let push = try #require(report.attempts(step: 1).first)
    #expect(push.at == F.at("08:00"))
    #expect(push.sent == nil)
    #expect(push.device == nil)
    #expect(push.failure == "no device of the patient's has a push token registered with the server (signed out, or the token was dropped)")
    #expect(report.stepEntries.first?.brief("step", "channel", "status") == "08:00 step=1 channel=push status=failed")
    let text = try #require(report.attempts(step: 2).first)
    #expect(text.channel == .sms)
    #expect(text.sent == F.at("08:10"))
  }

  @Test func aPushFailedStepRunsWhenThePushServiceRejectedEveryToken() throws {
    var scenario = S.scenario([S.step(.push), S.step(.sms, after: 10, .pushFailed)])
    scenario.server.devices = [ServerDevice(id: ServerDevice.phone, signedIn: false), ServerDevice(id: "ipad", platform: .ios)]
    scenario.server.push.unregisteredAfter = .minutes(10)
    scenario.server.changes = [S.change(.appDeleted(device: "ipad"), at: "07:30")]
    let report = try S.report(scenario)
    #expect(report.attempts(step: 1).map(\.device) == ["ipad"])
    #expect(report.attempts(step: 1).first?.failure?.hasPrefix("APNs answered 410 Unregistered") == true)
    #expect(report.attempts(step: 2).first?.sent == F.at("08:10"))
  }

  @Test func aPushFailedStepIsSkippedWhenNoPushStepRanForTheDose() throws {
    let report = try S.report(S.scenario([S.step(.sms), S.step(.email, after: 10, .pushFailed)]))
    #expect(report.summary.channelAttempts.map(\.channel) == [.sms])
    let skipped = try #require(report.stepEntries.first { $0[field: "step"] == "2" })
    #expect(skipped.brief("channel", "status") == "08:10 channel=email status=skipped")
    #expect(skipped[field: "reason"] == "only if the dose's push failed: no push was sent for it")
  }
}

// MARK: - The patient's channel settings

@Suite struct ChannelPreferenceTests {
  @Test func aStepOnAChannelSwitchedOffInThePreferencesIsSkipped() throws {
    var scenario = S.scenario([S.step(.sms, after: 10), S.step(.email, after: 20)])
    scenario.server.preferences.off = [.sms]
    let report = try S.report(scenario)
    #expect(report.summary.channelAttempts.map(\.channel) == [.email])
    #expect(report.stepEntries.map { $0.brief("step", "status") } == ["08:10 step=1 status=skipped"])
    #expect(report.stepEntries.first?[field: "reason"] == "the patient switched sms off in the app's settings")
  }

  @Test func aChannelSwitchedOffMidRunSkipsTheStepsDueAfterTheChange() throws {
    var scenario = S.scenario([S.step(.sms, after: 10), S.step(.sms, after: 30)])
    scenario.server.changes = [S.change(.channel(.sms, on: false), at: "08:20")]
    let report = try S.report(scenario)
    #expect(report.summary.channelAttempts.map(\.step) == [1])
    #expect(report.attempts(step: 1).first?.sent == F.at("08:10"))
    let settings = report.timeline.entries(.server).filter { $0.subject == "settings" }
    #expect(settings.map { $0.brief("sms") } == ["08:20 sms=off"])
    #expect(report.stepEntries.map { $0.brief("step", "status") } == ["08:30 step=2 status=skipped"])
    #expect(report.stepEntries.first?[field: "reason"] == "the patient switched sms off in the app's settings")
  }

  @Test func aStepInItsChannelsQuietHoursWaitsUntilTheyEndAndSendsThen() throws {
    var scenario = S.scenario([S.step(.sms, after: 10)])
    scenario.server.preferences.quietHours[.sms] = QuietHours(from: F.time("07:30"), to: F.time("09:00"))
    let report = try S.report(scenario)
    #expect(report.stepEntries.map { $0.brief("step", "status", "until") } == ["08:10 step=1 status=waiting until=\(F.local("09:00"))"])
    #expect(report.stepEntries.first?[field: "reason"] == "the patient's quiet hours for sms, 07:30 to 09:00: the server sends when they end")
    let text = try #require(report.attempts(step: 1).first)
    #expect(text.sent == F.at("09:00"))
    #expect(report.summary.channelAttempts.count == 1)
  }

  @Test func aStepThatWaitedForQuietHoursIsSkippedAtTheirEndWhenTheServerHeardTheDoseWasTakenMeanwhile() throws {
    var scenario = S.scenario([S.step(.sms, after: 10)], localNotifications: true)
    scenario.server.preferences.quietHours[.sms] = QuietHours(from: F.time("07:30"), to: F.time("09:00"))
    scenario.medicineApp.userActions = [F.action(.complete, on: "medicine_1_reminder_0", at: "08:30")]
    let report = try S.report(scenario)
    #expect(report.summary.channelAttempts.isEmpty)
    #expect(report.stepEntries.map { $0.brief("step", "status") } == ["08:10 step=1 status=waiting", "09:00 step=1 status=skipped"])
    #expect(report.stepEntries.last?[field: "reason"] == "the server knows the dose was taken (it heard at \(F.local("08:30")))")
  }
}
