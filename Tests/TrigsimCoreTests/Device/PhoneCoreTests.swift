import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

private typealias F = MedicineFixture

/// The phone's core on its own (`PhoneCore`): it owns the notification
/// center and the app's permissions, and changes the run only through its
/// methods, so it can be driven without replaying a scenario.
@Suite struct PhoneCoreTests {
  /// A run of a scenario with no medicine and no notifications, not executed: only what a test does happens.
  func idleRun() -> SimulationRun {
    SimulationRun(F.scenario(MedicineApp(), start: "2026-03-28T06:00:00Z", end: "2026-03-28T13:00:00Z"))
  }

  /// A one-shot interval request firing `seconds` after it is added.
  func request(_ id: NotificationID, seconds: Int64) -> NotificationRequest {
    NotificationRequest(id: id, title: "\(id)", trigger: .interval(IntervalTrigger(interval: .seconds(seconds), repeats: false)))
  }

  @Test func withNotificationPermissionDeniedTheAddSucceedsButThePhoneKeepsNothing() throws {
    var run = idleRun()
    let phone = run.layers.phone.core
    phone.installedApp.permission = .denied
    #expect(!phone.add(request("pill", seconds: 300), in: &run, at: F.at("06:00")))
    #expect(phone.center.pending.isEmpty)
    let timeline = try #require(run.sink as? Timeline)
    #expect(timeline.entries.map(\.kind) == [.dropped])
  }

  @Test func aDeliveryQueuedForARequestReplacedSinceIsSkipped() throws {
    var run = idleRun()
    let phone = run.layers.phone.core
    phone.add(request("pill", seconds: 300), in: &run, at: F.at("06:00"))
    let replacedToken = try #require(phone.center.pending["pill"]).token
    phone.add(request("pill", seconds: 600), in: &run, at: F.at("06:01"))
    phone.handle(.timeTriggerDue("pill", token: replacedToken), in: &run, at: F.at("06:05"))
    let timeline = try #require(run.sink as? Timeline)
    #expect(!timeline.entries.contains { $0.kind == .fired })
    let pending = try #require(phone.center.pending["pill"])
    #expect(pending.token != replacedToken)
    // The replacement's own delivery comes at 06:11 and fires.
    phone.handle(.timeTriggerDue("pill", token: pending.token), in: &run, at: F.at("06:11"))
    #expect(try #require(run.sink as? Timeline).entries.filter { $0.kind == .fired }.map(\.subject) == ["pill"])
  }
}
