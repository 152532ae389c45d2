import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// Notification action options (`UNNotificationActionOptions`) and text-input
/// actions (`UNTextInputNotificationAction`) as the patient meets them.
@Suite struct NotificationActionOptionsTests {
  /// An app whose 08:00 "pill" reminder offers `actions`; the patient chooses `complete` at 08:02.
  static func run(_ actions: [NotificationAction], appState: AppState? = nil, typed: String? = nil, log: AppLog) throws -> SimulationReport {
    var script = AppScript()
    script.launched = { app, reason in
      app.device.notificationCenter.setNotificationCategories([NotificationCategory(identifier: "dose", actions: actions)])
      if reason == .initial { await app.add(HostedScenario.daily("pill", hour: 8)) }
    }
    script.received = { app, response in
      app.log.add("#\(app.instance) userText \(response.userText ?? "nil") state=\(app.device.application.applicationState.rawValue)")
    }
    var scenario = HostedScenario.make()
    if let appState { scenario.medicineApp.appChanges = [HostedScenario.state(appState, at: "2026-05-04T07:30:00Z")] }
    scenario.medicineApp.userActions = [HostedScenario.act(.complete, on: "pill", at: "2026-05-04T08:02:00Z")]
    var hosted = ScriptedApp.hosted(script, log: log)
    if let typed { hosted.typedText = { id, action in "\(typed) (\(id), \(action))" } }
    return try Simulation(scenario, app: hosted).report()
  }

  static func entry(_ report: SimulationReport, _ kind: TimelineEntry.Kind, _ subject: String) -> TimelineEntry? {
    report.timeline.entries.first { $0.kind == kind && $0.subject == subject }
  }

  @Test func aForegroundActionBringsABackgroundAppForwardBeforeDidReceive() throws {
    let log = AppLog()
    let report = try Self.run([NotificationAction(identifier: "complete", title: "Taken", options: .foreground)], log: log)
    #expect(log.all == ["#1 didFinishLaunching initial", "#1 didBecomeActive", "#1 didReceive pill complete", "#1 userText nil state=foreground"])
    let state = try #require(Self.entry(report, .app, "state"))
    #expect(state.fields == [
      TimelineField("to", "foreground"), TimelineField("from", "background"),
      TimelineField("reason", "the patient chose 'complete', a foreground action"),
    ])
  }

  @Test func aForegroundActionLaunchesATerminatedAppIntoTheForeground() throws {
    let log = AppLog()
    _ = try Self.run([NotificationAction(identifier: "complete", title: "Taken", options: .foreground)], appState: .terminated, log: log)
    #expect(log.all == [
      "#1 didFinishLaunching initial", "#2 didFinishLaunching notification-response", "#2 didBecomeActive", "#2 didReceive pill complete",
      "#2 userText nil state=foreground",
    ])
  }

  @Test func anActionWithoutTheForegroundOptionLeavesTheAppInTheBackground() throws {
    let log = AppLog()
    let report = try Self.run([NotificationAction(identifier: "complete", title: "Taken", options: .destructive)], log: log)
    #expect(log.all == ["#1 didFinishLaunching initial", "#1 didReceive pill complete", "#1 userText nil state=background"])
    #expect(Self.entry(report, .app, "state") == nil)
    // Destructive changes only how the button looks: nothing is recorded.
    let action = try #require(Self.entry(report, .action, "pill"))
    #expect(!action.fields.contains { $0.key == "authentication" || $0.key == "destructive" })
  }

  @Test func anAuthenticationRequiredActionIsPerformedAtItsInstantAndSaysSo() throws {
    let log = AppLog()
    let report = try Self.run([NotificationAction(identifier: "complete", title: "Taken", options: .authenticationRequired)], log: log)
    let action = try #require(Self.entry(report, .action, "pill"))
    #expect(action.instant == Build.instant("2026-05-04T08:02:00Z"))
    #expect(action.fields.contains(TimelineField("authentication", "required")))
    #expect(log.all.contains("#1 didReceive pill complete"))
  }

  @Test func aTextInputActionCarriesWhatThePatientTyped() throws {
    let log = AppLog()
    let textInput = TextInputAction(buttonTitle: "Send", placeholder: "How do you feel?")
    let report = try Self.run(
      [NotificationAction(identifier: "complete", title: "Taken, with a note", textInput: textInput)], typed: "took it with food", log: log)
    #expect(log.all.contains("#1 userText took it with food (pill, complete) state=background"))
    let action = try #require(Self.entry(report, .action, "pill"))
    #expect(action.fields.contains(TimelineField("text", "took it with food (pill, complete)")))
  }

  @Test func aTextInputActionWithNothingTypedGivesEmptyText() throws {
    let log = AppLog()
    let textInput = TextInputAction(buttonTitle: "Send", placeholder: "Note")
    _ = try Self.run([NotificationAction(identifier: "complete", title: "Taken", textInput: textInput)], log: log)
    #expect(log.all.contains("#1 userText  state=background"))
  }
}
