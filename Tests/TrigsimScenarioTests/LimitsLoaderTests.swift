import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// The `limits:` section: its values, every problem located at the value to
/// change, and the errors of a run that exceeds a limit, located where the
/// scenario can fix it and naming the setting.
@Suite struct LimitsLoaderTests: LoaderDiagnosticAssertions {
  static let header = ScenarioLoaderDiagnosticsTests.header
  /// A one-minute repeating interval: 361 entries over the header's six-hour clock.
  static let ticking = "notifications:\n  - { id: tick, title: Tick, trigger: { interval: 60s, repeats: true } }\n"

  @Test func theDefaultsApplyWithoutALimitsSection() throws {
    let scenario = try ScenarioLoader().load(yaml: Self.header + Self.ticking, file: "s.yaml")
    #expect(scenario.limits.timelineEntries == RunLimits.defaultTimelineEntries)
    #expect(scenario.limits.clockSpan == RunLimits.defaultClockSpan)
    #expect(RunLimits.defaultTimelineEntries == 1_000_000 && RunLimits.spelling(of: RunLimits.defaultClockSpan) == "10y")
  }

  @Test(arguments: [("2y", 2 * 365 * 86_400_000), ("400d", 400 * 86_400_000), ("36h", 36 * 3_600_000)] as [(String, Int64)])
  func clockSpanIsYearsOrADuration(text: String, milliseconds: Int64) throws {
    let scenario = try ScenarioLoader().load(yaml: Self.header + "limits: { clockSpan: \(text), timelineEntries: 500 }\n", file: "s.yaml")
    #expect(scenario.limits.clockSpan.milliseconds == milliseconds)
    #expect(scenario.limits.timelineEntries == 500)
  }

  @Test func badLimitsAreLocated() {
    assertDiagnostics(
      Self.header + "limits: { 1️⃣timelineEntry: 10, clockSpan: 2️⃣soon }\n",
      [
        Expected(marker: "1️⃣", message: "unknown key 'timelineEntry' in 'limits'", note: "did you mean 'timelineEntries'?"),
        Expected(marker: "2️⃣", message: "clockSpan 'soon' is not a positive duration"),
      ])
    assertDiagnostics(
      Self.header + "limits: { timelineEntries: 1️⃣0, clockSpan: 2️⃣0y }\n",
      [
        Expected(marker: "1️⃣", message: "timelineEntries must be between 1 and 1000000000, not 0"),
        Expected(marker: "2️⃣", message: "clockSpan '0y' is not a positive duration"),
      ])
  }

  /// Issue 10's reproducer: a clock of about ten thousand years and a
  /// one-minute repeating interval is rejected at the clock's end before
  /// anything runs.
  @Test func aClockLongerThanTheSpanLimitIsReportedAtItsEnd() {
    let (_, found) = diagnostics(
      "trigsim: 1\nclock: { start: 0026-01-01T00:00:00Z, end: 1️⃣9999-12-31T00:00:00Z, timezone: Europe/Copenhagen }\n" + Self.ticking)
    #expect(found.map(\.location) == [InputLocation(file: "s.yaml", line: 2, column: 44)])
    #expect(found.first?.message == "the clock spans 3642927d (about 9981 years), more than the 10y 'limits.clockSpan' allows")
    assertDiagnostics(
      Self.header.replacingOccurrences(of: "end: ", with: "end: 1️⃣") + "limits: { clockSpan: 5h }\n",
      [Expected(marker: "1️⃣", message: "the clock spans 6h, more than the 5h 'limits.clockSpan' allows")])
  }

  @Test func aLongerClockSpanLetsALongClockLoad() throws {
    let scenario = try ScenarioLoader().load(
      yaml: "trigsim: 1\nclock: { start: 2026-01-01T00:00:00Z, end: 2046-01-01T00:00:00Z, timezone: UTC }\nlimits: { clockSpan: 21y }\n",
      file: "s.yaml")
    #expect(scenario.limits.clockSpan.milliseconds == 21 * RunLimits.year)
  }

  /// The entry past the limit stops the run; the error points at the
  /// `timelineEntries` value that sets it.
  @Test func anExceededEntryLimitIsReportedAtItsSetting() throws {
    let text = MarkedText(Self.header + "limits: { timelineEntries: 1️⃣100 }\n" + Self.ticking)
    let scenario = try ScenarioLoader().load(yaml: text.text, file: "s.yaml")
    let error = try #require(throws: InputError.self) { try Simulation(scenario).run() }
    #expect(error.diagnostics.map(\.location) == [text.location("1️⃣", file: "s.yaml")])
    #expect(error.diagnostics.first?.message.contains("would exceed 100 entries ('limits.timelineEntries')") == true)
  }

  /// Without a `timelineEntries` setting the error points at the clock's
  /// end (a shorter clock is the usual fix); checked on the loaded limits,
  /// as a run to the default limit makes a million entries.
  @Test func anExceededDefaultEntryLimitIsReportedAtTheClocksEnd() throws {
    let text = MarkedText(Self.header.replacingOccurrences(of: "end: ", with: "end: 1️⃣") + "limits: { clockSpan: 1d }\n" + Self.ticking)
    let scenario = try ScenarioLoader().load(yaml: text.text, file: "s.yaml")
    #expect(scenario.limits.timelineEntriesOrigin == text.location("1️⃣", file: "s.yaml"))
    var limited = scenario
    limited.limits.timelineEntries = 10
    let error = try #require(throws: InputError.self) { try Simulation(limited).run() }
    #expect(error.diagnostics.map(\.location) == [text.location("1️⃣", file: "s.yaml")])
    #expect(error.diagnostics.first?.notes.contains("a run meant to make more entries needs a larger 'limits: { timelineEntries: N }' (default 1000000)") == true)
  }
}
