import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// The significant-time-change callback (`SignificantTimeChangeObserving`):
/// an app that re-plans after travel, one that does not, and when iOS
/// delivers the change in each app state.
@Suite struct SignificantTimeChangeTests {
  /// A day that starts in Copenhagen (UTC+2) and lands in New York (UTC−4)
  /// at 12:00 UTC, 08:00 in New York.
  static func travelDay(appChanges: [AppChange]) -> Scenario {
    var scenario = HostedScenario.make()
    scenario.clock = Build.clock(
      "2026-05-04T05:00:00Z", "2026-05-05T03:00:00Z", zone: "Europe/Copenhagen",
      changes: [TimeZoneChange(instant: Build.instant("2026-05-04T12:00:00Z"), timeZone: Build.zone("America/New_York"))])
    scenario.medicineApp.appChanges = appChanges
    return scenario
  }

  /// A one-shot reminder for 20:00 today, pinned to the zone the app reads
  /// when it plans (as an app does that writes `DateComponents.timeZone`).
  static func eveningDose(in app: ScriptedApp) -> NotificationRequest {
    let calendar = app.device.clock.calendar
    let today = calendar.dateComponents([.year, .month, .day], from: app.device.clock.now)
    let trigger = CalendarTrigger(
      components: CalendarComponents(year: today.year, month: today.month, day: today.day, hour: 20, minute: 0, timeZone: app.device.clock.timeZone),
      repeats: false)
    return NotificationRequest(id: "evening-dose", title: "Evening dose", trigger: .calendar(trigger))
  }

  /// An app that plans the evening dose at launch, and again on a time change when `replans`.
  final class TravellingApp: SimulatedApp, SignificantTimeChangeObserving, @unchecked Sendable {
    let scripted: ScriptedApp
    let replans: Bool
    let log: AppLog
    init(_ scripted: ScriptedApp, replans: Bool, log: AppLog) {
      self.scripted = scripted
      self.replans = replans
      self.log = log
    }
    func didFinishLaunching(reason: LaunchReason) async {
      log.add("didFinishLaunching \(reason.rawValue)")
      if reason == .initial { await scripted.add(SignificantTimeChangeTests.eveningDose(in: scripted)) }
    }
    func didBecomeActive() async { log.add("didBecomeActive") }
    func significantTimeChange(_ change: SignificantTimeChange) async {
      log.add("significantTimeChange \(change.cause.rawValue) \(change.previousTimeZone.identifier)→\(change.timeZone.identifier) now=\(scripted.device.clock.timeZone.identifier)")
      guard replans else { return }
      scripted.device.notificationCenter.removePendingNotificationRequests(withIdentifiers: ["evening-dose"])
      await scripted.add(SignificantTimeChangeTests.eveningDose(in: scripted))
    }
  }

  static func run(_ scenario: Scenario, replans: Bool, log: AppLog) throws -> SimulationReport {
    let hosted = HostedApp { device in
      TravellingApp(ScriptedApp(device, AppScript(), log: AppLog(), instance: 1), replans: replans, log: log)
    }
    return try Simulation(scenario, app: hosted).report()
  }

  static func firings(_ report: SimulationReport) -> [String] {
    report.timeline.entries.filter { $0.kind == .fired }.map { "\($0.subject) \($0.localInstant)" }
  }

  static let foregroundAllDay = [HostedScenario.state(.foreground, at: "2026-05-04T05:01:00Z")]

  @Test func anAppThatReplansOnTheTimeChangeNotifiesAt20LocalAfterTravel() throws {
    let log = AppLog()
    let report = try Self.run(Self.travelDay(appChanges: Self.foregroundAllDay), replans: true, log: log)
    #expect(log.all.contains("significantTimeChange time-zone Europe/Copenhagen→America/New_York now=America/New_York"))
    // 20:00 in New York, the evening of the arrival day.
    #expect(Self.firings(report) == ["evening-dose 2026-05-04T20:00:00.000-04:00"])
    let entry = report.timeline.entries.first { $0.kind == .app && $0.subject == "significantTimeChange" }
    #expect(entry?.localInstant == "2026-05-04T08:00:00.000-04:00")
    #expect(entry?.fields.contains(TimelineField("zone", "America/New_York")) == true)
    #expect(entry?.fields.contains(TimelineField("state", "foreground")) == true)
  }

  @Test func anAppThatDoesNotReplanIsCaughtNotifyingAt14LocalAfterTravel() throws {
    let log = AppLog()
    let report = try Self.run(Self.travelDay(appChanges: Self.foregroundAllDay), replans: false, log: log)
    // The request stays pinned to Copenhagen: 20:00 there is 14:00 in New York.
    #expect(Self.firings(report) == ["evening-dose 2026-05-04T14:00:00.000-04:00"])
  }

  @Test func aSuspendedAppHearsOnlyTheLatestChangeWhenItComesToTheForeground() throws {
    let log = AppLog()
    var scenario = Self.travelDay(appChanges: [HostedScenario.state(.foreground, at: "2026-05-04T15:00:00Z")])
    scenario.clock.timeZoneChanges.append(TimeZoneChange(instant: Build.instant("2026-05-04T14:00:00Z"), timeZone: Build.zone("America/Chicago")))
    let report = try Self.run(scenario, replans: true, log: log)
    #expect(log.all == [
      "didFinishLaunching initial",
      "significantTimeChange time-zone America/New_York→America/Chicago now=America/Chicago",
      "didBecomeActive",
    ])
    let entries = report.timeline.entries.filter { $0.kind == .app && $0.subject == "significantTimeChange" }
    #expect(entries.map { $0.fields.first { $0.key == "ran" }?.value ?? "yes" } == ["no", "no", "yes"])
    #expect(entries.last?.localInstant == "2026-05-04T10:00:00.000-05:00")
    #expect(entries.last?.fields.contains(TimelineField("queued", "2026-05-04T09:00:00.000-05:00")) == true)
    // Re-planned at 10:00 in Chicago: 20:00 there.
    #expect(Self.firings(report) == ["evening-dose 2026-05-04T20:00:00.000-05:00"])
  }

  @Test func aTerminatedAppIsNotLaunchedForATimeChangeAndItsNextProcessHearsNothing() throws {
    let log = AppLog()
    let scenario = Self.travelDay(appChanges: [
      HostedScenario.state(.terminated, at: "2026-05-04T06:00:00Z"), HostedScenario.state(.foreground, at: "2026-05-04T13:00:00Z"),
    ])
    let report = try Self.run(scenario, replans: true, log: log)
    #expect(log.all == ["didFinishLaunching initial", "didFinishLaunching patient", "didBecomeActive"])
    #expect(!report.timeline.entries.contains { $0.subject == "significantTimeChange" })
    #expect(Self.firings(report) == ["evening-dose 2026-05-04T14:00:00.000-04:00"])
  }

  @Test func anAppThatDoesNotObserveTimeChangesHasNoEntryForThem() throws {
    let log = AppLog()
    let report = try Simulation(Self.travelDay(appChanges: Self.foregroundAllDay), app: ScriptedApp.hosted(AppScript(), log: log)).report()
    #expect(!report.timeline.entries.contains { $0.subject == "significantTimeChange" })
  }

  /// The night the EU clocks go forward in Copenhagen: midnight (UTC+1) at
  /// 23:00 UTC, then 02:00 → 03:00 at 01:00 UTC.
  static func springNight(appChanges: [AppChange]) -> Scenario {
    var scenario = HostedScenario.make("2026-03-28T20:00:00Z", "2026-03-29T03:00:00Z")
    scenario.clock = Build.clock("2026-03-28T20:00:00Z", "2026-03-29T03:00:00Z", zone: "Europe/Copenhagen")
    scenario.medicineApp.appChanges = appChanges
    return scenario
  }

  @Test func aForegroundAppHearsMidnightAndTheDaylightSavingChangeAtTheirInstants() throws {
    let log = AppLog()
    let report = try Self.run(Self.springNight(appChanges: [HostedScenario.state(.foreground, at: "2026-03-28T20:01:00Z")]), replans: false, log: log)
    #expect(log.all.filter { $0.hasPrefix("significantTimeChange") } == [
      "significantTimeChange midnight Europe/Copenhagen→Europe/Copenhagen now=Europe/Copenhagen",
      "significantTimeChange daylight-saving Europe/Copenhagen→Europe/Copenhagen now=Europe/Copenhagen",
    ])
    let entries = report.timeline.entries.filter { $0.kind == .app && $0.subject == "significantTimeChange" }
    #expect(entries.map(\.localInstant) == ["2026-03-29T00:00:00.000+01:00", "2026-03-29T03:00:00.000+02:00"])
    #expect(entries.first?.fields == [
      TimelineField("cause", "midnight"), TimelineField("zone", "Europe/Copenhagen"), TimelineField("state", "foreground"),
    ])
  }

  @Test func aSuspendedAppHearsOnlyTheDaylightSavingChangeAfterMidnightWhenItComesForward() throws {
    let log = AppLog()
    let report = try Self.run(Self.springNight(appChanges: [HostedScenario.state(.foreground, at: "2026-03-29T02:00:00Z")]), replans: false, log: log)
    #expect(log.all == [
      "didFinishLaunching initial",
      "significantTimeChange daylight-saving Europe/Copenhagen→Europe/Copenhagen now=Europe/Copenhagen",
      "didBecomeActive",
    ])
    let entries = report.timeline.entries.filter { $0.kind == .app && $0.subject == "significantTimeChange" }
    #expect(entries.map { $0[field: "cause"] ?? "" } == ["midnight", "daylight-saving", "daylight-saving"])
    #expect(entries.map { $0[field: "ran"] ?? "yes" } == ["no", "no", "yes"])
  }
}
