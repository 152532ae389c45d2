import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture
private typealias S = ServerFixture

/// The server pushes to every device with a registered token; sign-in,
/// sign-out, token refresh and app deletion change what is registered.
@Suite struct PushRegistrationTests {
  static let tablet = ServerDevice(id: "tablet", platform: .ios, seenAfter: .minutes(2))

  @Test func everyRegisteredDeviceGetsItsOwnPush() throws {
    var scenario = S.scenario([S.step(.push)])
    scenario.server.devices = [ServerDevice(id: ServerDevice.phone), Self.tablet]
    let report = try S.report(scenario)
    let attempts = report.attempts(step: 1)
    #expect(attempts.map(\.device) == ["phone", "tablet"])
    #expect(attempts.map(\.subject) == ["\(S.doseLabel).s1.phone", "\(S.doseLabel).s1.tablet"])
    #expect(attempts.map(\.sent) == [F.at("08:00"), F.at("08:00")])
    #expect(attempts.allSatisfy { $0.failure == nil })
    #expect(report.timeline.entries(.sent).map(\.subject) == ["\(S.doseLabel).s1.phone", "\(S.doseLabel).s1.tablet"])
    // The tablet, not simulated, takes its push at once and the patient sees it `seenAfter` later.
    #expect(attempts.last?.delivered == F.at("08:00"))
    #expect(attempts.last?.perceived == F.at("08:02"))
    // No app was deleted: no reading decided anything.
    #expect(report.summary.consultedAssumptions.isEmpty)
  }

  @Test func signingOutRemovesThePhonesTokenSoTheNextPushGoesOnlyToTheOtherDevice() throws {
    var scenario = S.scenario([S.step(.push)])
    scenario.server.devices = [ServerDevice(id: ServerDevice.phone), Self.tablet]
    scenario.server.changes = [S.change(.signOut(device: ServerDevice.phone), at: "07:30")]
    let report = try S.report(scenario)
    let phone = report.timeline.entries(.server).filter { $0.subject == "phone" }
    #expect(phone.map { $0.brief("token") } == ["07:30 token=unregistered"])
    #expect(report.attempts(step: 1).map(\.device) == ["tablet"])
  }

  /// A phone that starts signed out, signs in at 07:30 offline (07:00 to `online`), with a push
  /// step at 08:00 and an email step if it failed.
  static func offlineSignIn(onlineAt online: String) -> Scenario {
    var scenario = S.scenario([S.step(.push), S.step(.email, after: 0, .pushFailed)])
    scenario.server.devices = [ServerDevice(id: ServerDevice.phone, signedIn: false)]
    scenario.server.changes = [S.change(.signIn(device: ServerDevice.phone), at: "07:30")]
    scenario.device.network = [NetworkChange(instant: F.at("07:00"), online: false), NetworkChange(instant: F.at(online), online: true)]
    return scenario
  }

  @Test func aSignInWhileOfflineRegistersTheTokenOnlyWhenThePhoneIsNextOnline() throws {
    let report = try S.report(Self.offlineSignIn(onlineAt: "09:00"))
    let phone = report.timeline.entries(.server).filter { $0.subject == "phone" }
    #expect(phone.map { $0.brief("token") } == ["07:30 token=waiting", "09:00 token=registered"])
    #expect(phone.first?[field: "reason"]
      == "the patient signed in, but the phone is offline: the app cannot reach the server, and sends the device's push token when the phone is next online")
    #expect(phone.last?[field: "reason"]
      == "the phone is online again: the app sent the push token of the patient's sign-in at \(F.local("07:30")), which waited for the network")
  }

  @Test func aPushStepWhileTheOfflineSignInWaitsFindsNoDeviceAndTheEmailFallbackSends() throws {
    let report = try S.report(Self.offlineSignIn(onlineAt: "09:00"))
    let push = try #require(report.attempts(step: 1).first)
    #expect(push.sent == nil)
    #expect(push.failure
      == "no device of the patient's has a push token registered with the server: the sign-in on phone at \(F.local("07:30")) waits for the network to send its token")
    let email = try #require(report.attempts(step: 2).first)
    #expect(email.channel == .email)
    #expect(email.sent == F.at("08:00"))
  }

  @Test func aSignInWhoseNetworkReturnsBeforeTheDoseLetsThePushReachThePhone() throws {
    let report = try S.report(Self.offlineSignIn(onlineAt: "07:45"))
    let push = try #require(report.attempts(step: 1).first)
    #expect(push.device == ServerDevice.phone)
    #expect(push.sent == F.at("08:00"))
    #expect(push.failure == nil)
    #expect(report.attempts(step: 2).isEmpty)
  }

  @Test func aTokenRefreshReplacesThePhonesRegisteredTokenAndPushesStillReachIt() throws {
    var scenario = S.scenario([S.step(.push)])
    scenario.server.changes = [S.change(.tokenRefresh(device: ServerDevice.phone), at: "07:30")]
    let report = try S.report(scenario)
    let phone = report.timeline.entries(.server).filter { $0.subject == "phone" }
    #expect(phone.map { $0.brief("token", "generation") } == ["07:30 token=replaced generation=2"])
    let push = try #require(report.attempts(step: 1).first)
    #expect(push.device == "phone")
    #expect(push.sent == F.at("08:00"))
    #expect(push.failure == nil)
  }

  @Test func aPushToADeviceTheAppWasDeletedFromIsAcceptedAndGoesNowhereBeforeUnregisteredAfter() throws {
    var scenario = S.scenario([S.step(.push), S.step(.sms, after: 10, .pushFailed)])
    scenario.server.devices = [ServerDevice(id: ServerDevice.phone, signedIn: false), Self.tablet]
    scenario.server.changes = [S.change(.appDeleted(device: "tablet"), at: "07:30")]
    let report = try S.report(scenario)
    let push = try #require(report.attempts(step: 1).first)
    #expect(push.device == "tablet")
    #expect(push.sent == F.at("08:00"))
    #expect(push.delivered == nil)
    #expect(push.perceived == nil)
    let entry = try #require(report.timeline.entries(.server).first { $0.subject == "\(S.doseLabel).s1.tablet" })
    #expect(entry.brief("status") == "08:00 status=accepted")
    #expect(push.failure == entry[field: "reason"])
    #expect(push.failure?.hasPrefix("the app was deleted from tablet at \(F.local("07:30")): the push service accepted the push, which goes nowhere") == true)
    // Accepted counts as reached: the server cannot tell, so the push-failed step does not run.
    #expect(report.attempts(step: 2).isEmpty)
    #expect(report.dueDose?.notified == nil)
    // How long the service accepts is a reading (no one documents it): consulted.
    #expect(report.summary.consultedAssumptions == [.pushUnregisteredAfter])
  }

  @Test func fromUnregisteredAfterOnThePushServiceRejectsTheTokenWithItsPlatformsAnswerAndTheServerDropsIt() throws {
    var scenario = S.scenario([S.step(.push), S.step(.push, after: 30)])
    scenario.server.devices = [
      ServerDevice(id: ServerDevice.phone, signedIn: false),
      ServerDevice(id: "ipad", platform: .ios), ServerDevice(id: "pixel", platform: .android),
    ]
    // Deleted at 07:30: from 08:00 on (07:30 + 30 min) the push services answer "unregistered".
    scenario.server.push.unregisteredAfter = .minutes(30)
    scenario.server.changes = [S.change(.appDeleted(device: "ipad"), at: "07:30"), S.change(.appDeleted(device: "pixel"), at: "07:30")]
    let report = try S.report(scenario)
    let rejected = report.attempts(step: 1)
    #expect(rejected.map(\.device) == ["ipad", "pixel"])
    #expect(rejected.map(\.failure) == [
      "APNs answered 410 Unregistered: the device token is no longer active for the topic (Apple, \"Handling notification responses from APNs\"); the server dropped the token",
      "FCM answered 404 UNREGISTERED: the app instance is no longer registered (Firebase, \"FCM error codes\"); the server dropped the token",
    ])
    let entries = report.timeline.entries(.server).filter { $0.subject.hasPrefix("\(S.doseLabel).s1.") }
    #expect(entries.map { $0.brief("device", "status", "token") } == ["08:00 device=ipad status=rejected token=dropped", "08:00 device=pixel status=rejected token=dropped"])
    // Both tokens were dropped: the next push step has no device to send to.
    let next = try #require(report.attempts(step: 2).first)
    #expect(report.attempts(step: 2).count == 1)
    #expect(next.device == nil)
    #expect(next.sent == nil)
    #expect(next.failure == "no device of the patient's has a push token registered with the server (signed out, or the token was dropped)")
  }
}

/// A push the server sends to the simulated phone goes through the phone's
/// push path; its attempt is delivered when the phone receives it (the
/// `received` entry), whether or not, and whenever, the patient sees it.
@Suite struct ServerPushOnThePhoneTests {
  @Test func aPushHeldByAFocusIsDeliveredWhenThePhoneReceivesItAndPerceivedAtTheLookAfterTheFocus() throws {
    var scenario = S.scenario([S.step(.push)], localNotifications: true)
    scenario.device.focus = [FocusPeriod(name: "Work", schedule: .once(from: F.at("07:30"), to: F.at("09:00")))]
    scenario.patientAttention.looks = [S.look("09:20")]
    let report = try S.report(scenario)
    let received = report.timeline.entries(.received).filter { $0.subject == "\(S.doseLabel).s1.phone" }
    #expect(received.map(\.instant) == [F.at("08:00")])
    let push = try #require(report.attempts(step: 1).first)
    #expect(push.delivered == F.at("08:00"))
    #expect(push.perceived == F.at("09:20"))
  }

  @Test func aPushTheServiceStoredWhileThePhoneWasOfflineIsDeliveredWhenItIsOnlineAgain() throws {
    var scenario = S.scenario([S.step(.push)])
    scenario.device.network = [NetworkChange(instant: F.at("07:50"), online: false), NetworkChange(instant: F.at("12:00"), online: true)]
    let report = try S.report(scenario)
    #expect(report.timeline.entries(.received).filter { $0.subject == "\(S.doseLabel).s1.phone" }.map(\.instant) == [F.at("12:00")])
    let push = try #require(report.attempts(step: 1).first)
    #expect(push.sent == F.at("08:00"))
    // Received at 12:00; the denied permission shows nothing, so it is never perceived.
    #expect(push.delivered == F.at("12:00"))
    #expect(push.perceived == nil)
  }

  @Test func onAndroidAServerPushIsDeliveredWhenFCMHandsItToThePhone() throws {
    var scenario = S.scenario([S.step(.push)], localNotifications: true).on(.android)
    scenario.device.network = [NetworkChange(instant: F.at("07:50"), online: false), NetworkChange(instant: F.at("09:00"), online: true)]
    let report = try S.report(scenario)
    let received = report.timeline.entries(.received).filter { $0.subject == "\(S.doseLabel).s1.phone" }
    #expect(received.map(\.instant) == [F.at("09:00")])
    let push = try #require(report.attempts(step: 1).first)
    #expect(push.sent == F.at("08:00"))
    #expect(push.delivered == F.at("09:00"))
  }
}
