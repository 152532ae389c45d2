import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture
private typealias S = ServerFixture

/// A dose is notified by the first thing the patient perceives of it: the
/// app's own notification or one of the server's channels, named in `perception.channel`.
@Suite struct ChannelAccountingTests {
  @Test func theDoseIsNotifiedByTheServersChannelWhenTheAppsNotificationsAreDenied() throws {
    let report = try S.report(S.scenario([S.step(.sms, after: 10), S.step(.email, after: 20)]))
    let dose = try #require(report.dueDose)
    #expect(dose.notified == F.at("08:10:30"))
    #expect(dose.perception?.channel == .sms)
    #expect(dose.perception?.notification == NotificationID("\(S.doseLabel).s1"))
    #expect(dose.perception?.role == "server step 1")
  }

  @Test func theDosesChannelIsNilWhenTheAppsOwnNotificationCameFirst() throws {
    let report = try S.report(S.scenario([S.step(.sms, after: 10)], localNotifications: true))
    let dose = try #require(report.dueDose)
    #expect(dose.notified == F.at("08:00"))
    #expect(dose.perception?.notification == NotificationID("medicine_1_reminder_0"))
    #expect(dose.perception?.channel == nil)
    // The text was still sent and perceived: it is an attempt, not the dose's perception.
    #expect(report.attempts(step: 1).first?.perceived == F.at("08:10:30"))
  }

  @Test func theDosesChannelIsTheFirstPerceivedNotTheFirstSent() throws {
    // The email goes first but is read at 12:00; the text, sent later, is perceived at 09:00:30.
    var scenario = S.scenario([S.step(.email, after: 0), S.step(.sms, after: 60)])
    scenario.server.email.reads = [F.time("12:00")]
    let report = try S.report(scenario)
    let dose = try #require(report.dueDose)
    #expect(dose.notified == F.at("09:00:30"))
    #expect(dose.perception?.channel == .sms)
    #expect(report.attempts(step: 1).first?.perceived == F.at("12:00"))
  }

  @Test(arguments: [(seenAfter: Int64(5), channel: DeliveryChannel.push), (seenAfter: Int64(20), channel: DeliveryChannel.sms)])
  func theDosesChannelIsWhicheverIsSeenFirstOfAnotherDevicesPushAndTheText(seenAfter: Int64, channel: DeliveryChannel) throws {
    var scenario = S.scenario([S.step(.push), S.step(.sms, after: 10, .always)])
    scenario.server.devices = [ServerDevice(id: ServerDevice.phone, signedIn: false), ServerDevice(id: "ipad", platform: .ios, seenAfter: .minutes(seenAfter))]
    let report = try S.report(scenario)
    let dose = try #require(report.dueDose)
    #expect(dose.perception?.channel == channel)
    #expect(dose.notified == (channel == .push ? F.at("08:00").advanced(by: .minutes(seenAfter)) : F.at("08:10:30")))
  }
}
