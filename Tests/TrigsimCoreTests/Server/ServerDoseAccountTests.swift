import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture
private typealias S = ServerFixture

/// The dose table's reason with a server (`PolicyServer.accountedDose`): a missed
/// dose says what the server tried; a dose the server notified, when the
/// app leaves daily reminders to it, has no reason.
@Suite struct ServerDoseAccountTests {
  static func serverDriven(_ policy: [EscalationStep]) -> Scenario {
    var scenario = S.scenario(policy, localNotifications: true)
    scenario.medicineApp.policy.dailyReminders = .server
    return scenario
  }

  @Test func whenTheAppLeavesDailyRemindersToTheServerTheAppSchedulesNoneAndTheServersChannelNotifiesTheDose() throws {
    let report = try S.report(Self.serverDriven([S.step(.sms, after: 10)]))
    #expect(report.timeline.entries(.fired).isEmpty)
    let dose = try #require(report.dueDose)
    #expect(dose.notified == F.at("08:10:30"))
    #expect(dose.perception?.channel == .sms)
    #expect(dose.reason == nil)
  }

  @Test func aMissedServerDrivenDoseGivesTheServersAttemptsAsItsReason() throws {
    let report = try S.report(Self.serverDriven([S.step(.email, after: 10), S.step(.inbox, after: 20)]))
    let dose = try #require(report.dueDose)
    #expect(dose.outcome == .missed)
    #expect(dose.reason == "the server's attempts: "
      + "email at \(F.local("08:10")), delivered \(F.local("08:11")), not read by the end of the run; "
      + "inbox at \(F.local("08:20")), never fetched: the app was not opened while it waited")
  }

  @Test func aMissedServerDrivenDoseWhoseStepsWereAllSkippedSaysTheServerSentNothing() throws {
    var scenario = Self.serverDriven([S.step(.sms, after: 10)])
    scenario.server.preferences.off = [.sms]
    let report = try S.report(scenario)
    #expect(report.dueDose?.reason == "the server sent nothing for it")
  }

  @Test func aMissedDoseOfTheLocalAppKeepsTheAppsReasonAndAddsTheServersAttempts() throws {
    var scenario = S.scenario([S.step(.sms, after: 10)])
    scenario.server.sms.numberVerified = false
    let report = try S.report(scenario)
    let reason = try #require(report.dueDose?.reason)
    let account = "; the server's attempts: sms not sent: the patient has no verified phone number: the server sends texts only to a verified number"
    // The app's own reason (the denied permission: nothing kept of the 07:00 add) comes first.
    #expect(reason == "not kept: notification permission denied: add() succeeds but the platform keeps nothing (\(F.local("07:00")))" + account)
  }
}
