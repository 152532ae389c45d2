import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

/// The phone seam: a third platform written here, not in `Sources/`, runs a
/// scenario through the same engine. It is a `SimulatedPhone` of its own (a
/// pager): its core is built with a one-line notification rule (every
/// delivery is an alert, whatever Focus or setting is on), and it schedules
/// nothing of its own. Adding it edited no file in `Sources/`: this file is
/// all it took (`theToyTouchesOnlyThisFile`).
@Suite struct ToyPlatformTests {
  /// The pager's notification rule: it rings for everything.
  struct RingsForEverything: NotificationPresenter {
    func perception(of delivery: DeliveryAttributes, in context: AttentionContext) -> Perception { .alert(AlertStyle(banner: true, lockScreen: true, sound: true), note: "a pager rings for everything") }
  }

  /// A pager: a phone whose core presents with `RingsForEverything` and that
  /// has no scheduling of its own (the protocol's defaults).
  final class Pager: SimulatedPhone {
    let core: PhoneCore
    init(_ scenario: Scenario) {
      core = PhoneCore(scenario, variation: nil, calendar: CalendarTriggerEvaluator(scenario.platform), presenter: RingsForEverything())
    }
  }

  /// The 07:00 reminder falls in the Sleep Focus (22:30–07:30); the patient looks at 07:40 and completes what they perceive a minute later.
  func sleepingScenario() -> Scenario {
    var scenario = F.scenario(
      MedicineApp(
        medicineChanges: [F.create(F.medicine("a", times: ["07:00"], snooze: nil), at: "06:00")],
        responseRules: [ResponseRule(pattern: IdentifierPattern("medicine_a_*"), after: .minutes(1), actions: [.complete])]),
      start: "2026-03-28T06:00:00Z", end: "2026-03-28T09:00:00Z")
    scenario.device.focus = [
      FocusPeriod(name: "Sleep", schedule: .daily(from: F.time("22:30"), to: F.time("07:30"), weekdays: nil), allowsTimeSensitive: true)
    ]
    scenario.patientAttention.looks = [ScriptedLook(instant: F.at("07:40"))]
    return scenario
  }

  func run(_ scenario: Scenario, phone: (any SimulatedPhone)?) throws -> (timeline: Timeline, summary: RunSummary) {
    let app = HostedAppLayer.make(MedicineReminderApp.hosted(for: scenario), for: scenario)
    var run = SimulationRun(scenario, layers: SimulationLayers(scenario, variation: nil, app: app, phone: phone))
    try run.execute()
    return (try #require(run.sink as? Timeline), run.summary())
  }

  @Test func thePagerAlertsThroughTheFocusThatHoldsTheReminderOnTheIPhone() throws {
    let scenario = sleepingScenario()
    let iPhone = try run(scenario, phone: nil)
    let pager = try run(scenario, phone: Pager(scenario))

    // On the scenario's own phone the Focus holds the 07:00 reminder; it is seen at the 07:40 look and completed at 07:41.
    #expect(iPhone.timeline.entries.contains { $0.kind == .held && $0.subject == "medicine_a_reminder_0" })
    #expect(iPhone.summary.dose("a", .time(F.time("07:00")))?.completed == F.at("07:41"))
    // The pager's one rule: nothing is held, the alert is perceived at 07:00 and the rule completes the dose at 07:01.
    #expect(!pager.timeline.entries.contains { $0.kind == .held })
    #expect(pager.summary.dose("a", .time(F.time("07:00")))?.completed == F.at("07:01"))
  }

  @Test func theToyTouchesOnlyThisFile() throws {
    // The pager is a conformer of the device layer's protocol declared here, its rule one of the
    // presentation seam's; the engine and the phone's core are the shipped ones (the layers are
    // assembled with it, no source edited).
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
    #expect(source.contains("final class Pager: SimulatedPhone"))
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
    let shipped = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
    #expect(!shipped.isEmpty)
    for file in shipped {
      let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
      #expect(!text.contains("Pager") && !text.contains("RingsForEverything"), "\(file) names the toy platform")
    }
  }
}
