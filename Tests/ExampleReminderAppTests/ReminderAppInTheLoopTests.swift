import ExampleReminderApp
import Foundation
import Testing
import TrigsimCore
import TrigsimReport
import TrigsimScenario
import TrigsimTestSupport
import TrigsimTesting

/// The scenarios of `Scenarios/`, and the example app made for one of them
/// (its saved places are the scenario's circles).
enum ExampleScenario {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scenarios")

  static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  static func app(for path: String, _ configuration: ReminderApp.Configuration = .shipping) throws -> HostedApp {
    ReminderAppOnSimulatedDevice.hosted(configuration, places: savedPlaces(of: try ScenarioLoader().load(path: path)))
  }

  static let recordedWalk = "walk-urban-1hz-applewatch-hacc-vacc.gpx"
}

/// Each switch of `ReminderApp.Configuration` a team might ship, run in the
/// loop: the scenario catches the shipped mistake and passes the mended app.
@Suite struct ReminderAppInTheLoopTests {
  // MARK: - Follow-ups after "Taken"

  @Test func aTakenDoseMatchesItsReviewedTimeline() throws {
    let path = ExampleScenario.path("taken-on-first-alert.yaml")
    assertScenario(at: path, app: try ExampleScenario.app(for: path))
  }

  @Test func followUpsLeftPendingAfterTakenAreCaught() throws {
    let path = ExampleScenario.path("taken-on-first-alert.yaml")
    let shipped = try #require(runScenario(at: path, app: ExampleScenario.app(for: path, .init(cancelsChainOnComplete: false))))
    let mended = try #require(runScenario(at: path, app: ExampleScenario.app(for: path)))

    #expect(Self.followUpsFiredAfterTaken(shipped.timeline) == ReminderApp.followUpsPerDose)
    #expect(shipped.summary.doses.map(\.followUpsDelivered) == [ReminderApp.followUpsPerDose])
    #expect(Self.followUpsFiredAfterTaken(mended.timeline) == 0)
    #expect(mended.summary.doses.map(\.followUpsDelivered) == [0])
    #expect(mended.summary.doses.map(\.outcome) == [.completed])
  }

  /// The walk-through (Your app in the loop) shows this failure as
  /// `assertScenario` records it; the shown lines are held against the
  /// message (ShownText's rules), so the article cannot drift from it.
  @Test func theWalkThroughShowsTheShippedMistakesFailureAsRecorded() throws {
    let path = ExampleScenario.path("taken-on-first-alert.yaml")
    let app = try ExampleScenario.app(for: path, .init(cancelsChainOnComplete: false))
    var verification: ScenarioVerification?
    withKnownIssue("the shipped switch leaves the day's follow-ups pending") {
      verification = assertScenario(at: path, app: app)
    }
    let recorded = try #require(verification)
    let message = "\(path): \(recorded.headline)\n\(recorded.details)"
    let marker = "printed by: Tests/ExampleReminderAppTests/ReminderAppInTheLoopTests.swift"
    let shown = try #require(try Manual.fencedBlocks().first { $0.marker == marker }, "no block of the manual is marked '\(marker)'")
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let mismatch = ShownText.match(shown: shown.lines, actual: lines.last == "" ? Array(lines.dropLast()) : lines, anchored: true)
    #expect(mismatch == nil, "\(Manual.relativePath(shown.file)):\(shown.line): \(mismatch?.message ?? "")\n\(message.prefix(3000))")
  }

  /// Today's follow-ups fired after the patient's "Taken".
  static func followUpsFiredAfterTaken(_ timeline: Timeline) -> Int? {
    guard let taken = timeline.entries.first(where: { $0.kind == .action && $0[field: "action"] == "complete" }) else { return nil }
    return timeline.entries.count { entry in
      guard entry.kind == .fired, entry.instant > taken.instant, case .followUp(_, _, let day, _)? = ReminderID(rawValue: entry.subject) else {
        return false
      }
      return day == DoseDay(year: 2026, month: 5, day: 4)
    }
  }

  // MARK: - Snooze

  @Test func anHourSnoozeReachesTheAppAndReplacesTheFollowUps() throws {
    let path = ExampleScenario.path("snoozed-an-hour.yaml")
    let report = try #require(runScenario(at: path, app: ExampleScenario.app(for: path)))
    #expect(report.timeline.entries.filter { $0.kind == .warning }.map(\.canonicalLine) == [])
    let snooze = try #require(report.timeline.entries.first { $0.kind == .action && $0.subject == "metformin-0800" })
    let snoozedAlert = try #require(report.timeline.entries.first { $0.kind == .fired && $0.subject == "metformin-0800-20260504-snoozed" })
    #expect(snoozedAlert.instant == snooze.instant.advanced(by: .minutes(60)))
    let dose = try #require(report.summary.doses.first)
    #expect(dose.snoozes == 1)
    #expect(dose.snoozedAlertsDelivered == 1)
    #expect(dose.followUpsDelivered == 0)
    #expect(dose.completed == Build.instant("2026-05-04T09:03:00+02:00"))
  }

  // MARK: - Location reminders and force-quit

  @Test func aForceQuitAppMissesTheArrivalItWatchesForItself() throws {
    try Self.checkForceQuitBeforeArrival(at: ExampleScenario.path("force-quit-before-home.yaml"))
  }

  @Test func theRegionCallbackRemindsWhileTheAppIsNotForceQuit() throws {
    let path = ExampleScenario.path("force-quit-before-home.yaml")
    var scenario = try ScenarioLoader().load(path: path)
    scenario.medicineApp.appChanges = []
    let report = try Simulation(scenario, app: ExampleScenario.app(for: path, .init(location: .regionCallback))).report()
    let arrival = try #require(report.timeline.entries.first { $0.kind == .enter && $0.subject == "home" })
    let dose = try #require(report.summary.doses.first { $0.key.slot == .location })
    #expect(dose.notified == arrival.instant.advanced(by: .seconds(Int64(ReminderApp.arrivalAlertDelaySeconds))))
  }

  @Test(
    .enabled(
      if: RepositoryPaths.sharedTrack(ExampleScenario.recordedWalk) != nil,
      "the shared track corpus is absent (../shared/tracks/\(ExampleScenario.recordedWalk) beside the checkout)"))
  func onARecordedWalkTheForceQuitAppMissesTheArrival() throws {
    try Self.checkForceQuitBeforeArrival(at: ExampleScenario.path("savannah-walk-force-quit.yaml"))
  }

  /// The app was force-quit before the patient arrived at the medication's
  /// place: the region-callback app is not relaunched and never reminds;
  /// the location trigger is delivered by the system, after the entry.
  static func checkForceQuitBeforeArrival(at path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let shipped = try #require(runScenario(at: path, app: ExampleScenario.app(for: path, .init(location: .regionCallback))))
    let mended = try #require(runScenario(at: path, app: ExampleScenario.app(for: path)))

    let entries = shipped.timeline.entries.filter { $0.kind == .app && $0.subject == "didEnterRegion" }
    #expect(entries.map { $0[field: "ran"] } == ["no"], sourceLocation: sourceLocation)
    #expect(placeRemindersFired(shipped.timeline).isEmpty, sourceLocation: sourceLocation)
    #expect(shipped.summary.doses.filter { $0.key.slot == .location && $0.notified != nil }.isEmpty, sourceLocation: sourceLocation)
    let missed = try #require(shipped.summary.doses.first { $0.key.slot == .location }, sourceLocation: sourceLocation)
    #expect(missed.outcome == .missed, sourceLocation: sourceLocation)
    // The dose is due at the true crossing, and the table says why no reminder came.
    let crossing = try #require(shipped.timeline.entries.first { $0.kind == .enter }, sourceLocation: sourceLocation)
    #expect(missed.scheduled == crossing.instant, sourceLocation: sourceLocation)
    #expect(missed.reason?.hasPrefix("the app's didEnterRegion did not run at ") == true, sourceLocation: sourceLocation)
    #expect(
      missed.reason?.hasSuffix(": the patient force-quit the app: the system does not relaunch it for region events") == true,
      sourceLocation: sourceLocation)

    let arrival = try #require(mended.timeline.entries.first { $0.kind == .enter }, sourceLocation: sourceLocation)
    let fired = placeRemindersFired(mended.timeline)
    #expect(fired.count == 1, sourceLocation: sourceLocation)
    #expect(fired.allSatisfy { $0.instant >= arrival.instant }, sourceLocation: sourceLocation)
    let reminded = try #require(mended.summary.doses.first { $0.key.slot == .location }, sourceLocation: sourceLocation)
    #expect(reminded.notified == fired.first?.instant, sourceLocation: sourceLocation)
  }

  /// The deliveries of location reminders (`<medication>-place`).
  static func placeRemindersFired(_ timeline: Timeline) -> [TimelineEntry] {
    timeline.entries.filter { entry in
      guard entry.kind == .fired, case .place? = ReminderID(rawValue: entry.subject) else { return false }
      return true
    }
  }

  // MARK: - A week of one-shot requests

  @Test func aWeekOfOneShotsLosesTheFirstRemindersToThePendingLimit() throws {
    let path = ExampleScenario.path("week-of-one-shots.yaml")
    let shipped = try #require(runScenario(at: path, app: ExampleScenario.app(for: path, .init(scheduling: .weekOfOneShots))))
    let perDose = 1 + ReminderApp.followUpsPerDose
    let overTheLimit = ReminderApp.daysScheduledAhead * perDose - PlatformSettings().pendingLimit
    #expect(shipped.summary.droppedByPendingLimit.count == overTheLimit)
    #expect(shipped.summary.droppedByPendingLimit.first?.id == "metformin-0800-20260504")

    let doses = shipped.summary.doses
    try #require(doses.count == 3)
    // Today's reminder and every follow-up were dropped.
    #expect(doses[0].outcome == .missed)
    #expect(
      doses[0].reason
        == "metformin-0800-20260504 dropped at 2026-05-04T07:00:00.000+02:00: pending limit of 64 reached: the platform keeps the 64 most recently added requests")
    // Tomorrow's reminder and first follow-ups too: the first kept follow-up notifies, late.
    let droppedOfTomorrow = overTheLimit - perDose
    #expect(doses[1].reminderDelivered == nil)
    #expect(doses[1].notified == doses[1].scheduled.advanced(by: .minutes(Int64(droppedOfTomorrow * ReminderApp.followUpSpacingMinutes))))
    #expect(doses[2].reminderDelivered == doses[2].scheduled)
  }

  /// One one-shot request per day, the dose due at home time, a flight
  /// east: the day's request fires six hours early and answers no dose. The
  /// dose's reason is that request, the first broken link the timeline
  /// records for it (its `warning` entry), not the next day's request.
  @Test func aOneShotMovedByAFlightEastIsTheMissedDosesReason() throws {
    let path = ExampleScenario.path("one-shots-flight-east.yaml")
    let shipped = try #require(runScenario(at: path, app: ExampleScenario.app(for: path, .init(scheduling: .weekOfOneShots))))
    let early = shipped.timeline.entries(.warning).filter { $0.subject == "levo-2000-20260504" }
    #expect(early.map(\.localInstant) == ["2026-05-04T20:00:00.000+02:00"])
    let doses = shipped.summary.doses
    try #require(doses.count == 1)
    #expect(doses[0].outcome == .missed)
    #expect(
      doses[0].reason
        == "levo-2000-20260504 fired 2026-05-04T20:00:00.000+02:00, 6h before the dose was due, outside the prescription's window (America/New_York ±1h); when added at 2026-05-04T07:00:00.000-04:00 it was to fire 2026-05-04T20:00:00.000-04:00: the time-zone change at 2026-05-04T16:00:00.000+02:00 (America/New_York → Europe/Copenhagen) moved its floating time")
    // Medicine reminders ("What the dose table explains") shows this reason.
    let marker = "printed by: Tests/ExampleReminderAppTests/ReminderAppInTheLoopTests.swift (a one-shot moved by a flight east)"
    let shown = try #require(try Manual.fencedBlocks().first { $0.marker == marker }, "no block of the manual is marked '\(marker)'")
    let mismatch = ShownText.match(shown: shown.lines, actual: [doses[0].reason ?? ""], anchored: true)
    #expect(mismatch == nil, "\(Manual.relativePath(shown.file)):\(shown.line): \(mismatch?.message ?? "")")
  }

  @Test func repeatingDailyRemindersStayUnderThePendingLimit() throws {
    let path = ExampleScenario.path("week-of-one-shots.yaml")
    let mended = try #require(runScenario(at: path, app: ExampleScenario.app(for: path)))
    #expect(mended.summary.droppedByPendingLimit.isEmpty)
    #expect(mended.summary.doses.count == 3)
    #expect(mended.summary.doses.allSatisfy { $0.reminderDelivered == $0.scheduled })
    #expect(mended.summary.pendingPeak == 1 + ReminderApp.followUpsPerDose)
  }

  // MARK: - Trials

  @Test func trialsOfTheAppDoNotDependOnTheWorkerCount() throws {
    let path = ExampleScenario.path("pharmacy-quick-stop.yaml")
    let file = try ScenarioLoader().loadFile(path: path)
    let trials = try #require(file.checks.trials)
    let app = ReminderAppOnSimulatedDevice.hosted(places: savedPlaces(of: file.scenario))
    let oneWorker = try TrialRunner(file.scenario, app: app).run(TrialPlan(count: trials.count, seed: trials.seed, jobs: 1))
    let twoWorkers = try TrialRunner(file.scenario, app: app).run(TrialPlan(count: trials.count, seed: trials.seed, jobs: 2))
    #expect(oneWorker.text == twoWorkers.text)
    // The trials vary: the quick stop is detected in some, not in all.
    let entry = try #require(oneWorker.locationChances.first { $0.request == "vitd-place" })
    #expect(entry.fired > 0)
    #expect(entry.fired < entry.pending)
  }
}

/// The pictures of a run with the team's app, drawn from Swift as `trigsim report` draws them.
@Suite struct ReminderAppReportTests {
  @Test func theReportOfTheShippedAppShowsWhyTheArrivalWasMissed() throws {
    let path = ExampleScenario.path("force-quit-before-home.yaml")
    let scenario = try ScenarioLoader().load(path: path)
    let run = try Simulation(scenario, app: ExampleScenario.app(for: path, .init(location: .regionCallback))).report()
    let html = try ReportDocument(ReportInput(scenario: scenario, path: path, run: run)).html
    #expect(html.contains("the patient force-quit the app: the system does not relaunch it for region events"))
    let mended = try Simulation(scenario, app: ExampleScenario.app(for: path)).report()
    let mendedHTML = try ReportDocument(ReportInput(scenario: scenario, path: path, run: mended)).html
    #expect(!mendedHTML.contains("the patient force-quit the app: the system does not relaunch it for region events"))
  }
}
