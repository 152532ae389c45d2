import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// The ceiling on what a scenario may raise its `limits:` and `trials.count`
/// to (`ScenarioLimitCeiling`): the defaults under a root folder, what the
/// format allows otherwise, and an error at the value that asks for more.
@Suite struct LimitCeilingLoaderTests: LoaderDiagnosticAssertions {
  static let header = ScenarioLoaderDiagnosticsTests.header
  static let ticking = LimitsLoaderTests.ticking
  /// A loader for scenarios from an untrusted pull request (the root holds every file they name).
  static let confined = ScenarioLoader(pathPolicy: .confined(to: "/"))

  @Test func theStandardCeilingIsTheDefaultsUnderARootAndTheFormatsMaximumOtherwise() {
    #expect(Self.confined.limitCeiling == .defaults)
    #expect(ScenarioLoader().limitCeiling == .syntaxMaximum)
    #expect(ScenarioLimitCeiling.defaults.timelineEntries == 1_000_000 && RunLimits.spelling(of: ScenarioLimitCeiling.defaults.clockSpan) == "10y")
    #expect(ScenarioLimitCeiling.defaults.trialCount == 10_000)
    #expect(ScenarioLimitCeiling.syntaxMaximum.timelineEntries == 1_000_000_000)
    #expect(RunLimits.spelling(of: ScenarioLimitCeiling.syntaxMaximum.clockSpan) == "100000y")
    #expect(ScenarioLimitCeiling.syntaxMaximum.trialCount == 1_000_000)
    let raised = ScenarioLimitCeiling(timelineEntries: 5, clockSpan: SimulationDuration(milliseconds: 1), trialCount: 2)
    #expect(ScenarioLoader(pathPolicy: .confined(to: "/tmp"), limitCeiling: raised).limitCeiling == raised)
  }

  /// Issue 27's reproducer under a root: both raised limits are errors at
  /// their values, each naming the ceiling and the option that raises it.
  @Test func limitsAboveTheCeilingAreErrorsAtTheirValues() {
    assertDiagnostics(
      Self.header + "limits: { timelineEntries: 1️⃣1000000000, clockSpan: 2️⃣20y }\n" + Self.ticking,
      [
        Expected(
          marker: "1️⃣", message: "'limits.timelineEntries' 1000000000 is above the ceiling of 1000000",
          note: "if you trust this scenario, run it with --max-timeline-entries 1000000000"),
        Expected(
          marker: "2️⃣", message: "'limits.clockSpan' 20y is above the ceiling of 10y", note: "if you trust this scenario, run it with --max-clock-span 20y"),
      ],
      loader: Self.confined)
    let (_, found) = diagnostics(Self.header + "limits: { timelineEntries: 1000000000 }\n", loader: Self.confined)
    #expect(found.first?.notes.first == "the ceiling is the default under --root, or what the command line sets; a scenario may lower its limits but not raise them above it")
  }

  @Test func aTrialCountAboveTheCeilingIsAnErrorAtTheCount() {
    assertDiagnostics(
      TrialSettingsLoaderTests.withLocation + "trials: { count: 1️⃣1000000, seed: 3 }\n",
      [Expected(marker: "1️⃣", message: "'trials.count' 1000000 is above the ceiling of 10000", note: "if you trust this scenario, run it with --max-trials 1000000")],
      loader: Self.confined)
  }

  @Test func aScenarioUnderTheCeilingMayLowerItsLimitsAndAskForTheCeilingItself() throws {
    let lowered = try Self.confined.load(yaml: Self.header + "limits: { timelineEntries: 500, clockSpan: 1d }\n", file: "s.yaml")
    #expect(lowered.limits.timelineEntries == 500 && lowered.limits.clockSpan == SimulationDuration(milliseconds: 86_400_000))
    let atCeiling = try Self.confined.loadFile(
      yaml: TrialSettingsLoaderTests.withLocation + "limits: { timelineEntries: 1000000, clockSpan: 10y }\ntrials: { count: 10000 }\n", file: "s.yaml")
    #expect(atCeiling.scenario.limits.timelineEntries == 1_000_000 && atCeiling.checks.trials?.count == 10_000)
  }

  @Test func aRaisedCeilingLetsAnUntrustedScenarioAskForMore() throws {
    var ceiling = ScenarioLimitCeiling.defaults
    ceiling.timelineEntries = 2_000_000
    ceiling.trialCount = 20_000
    let loader = ScenarioLoader(pathPolicy: .confined(to: "/"), limitCeiling: ceiling)
    let file = try loader.loadFile(
      yaml: TrialSettingsLoaderTests.withLocation + "limits: { timelineEntries: 2000000 }\ntrials: { count: 20000 }\n", file: "s.yaml")
    #expect(file.scenario.limits.timelineEntries == 2_000_000 && file.checks.trials?.count == 20_000)
    assertDiagnostics(
      Self.header + "limits: { timelineEntries: 1️⃣2000001 }\n",
      [Expected(marker: "1️⃣", message: "'limits.timelineEntries' 2000001 is above the ceiling of 2000000")], loader: loader)
  }

  /// A ceiling below a default lowers it: a scenario that writes no
  /// `limits:` is bounded by the ceiling.
  @Test func aCeilingBelowADefaultLowersIt() throws {
    let hour = SimulationDuration(milliseconds: 3_600_000)
    let (_, found) = diagnostics(Self.header, loader: ScenarioLoader(limitCeiling: ScenarioLimitCeiling(timelineEntries: 100, clockSpan: hour, trialCount: 10)))
    #expect(found.map(\.message) == ["the clock spans 6h, more than the 1h 'limits.clockSpan' allows"])
    let loader = ScenarioLoader(limitCeiling: ScenarioLimitCeiling(timelineEntries: 100, clockSpan: hour * 7, trialCount: 10))
    let scenario = try loader.load(yaml: Self.header, file: "s.yaml")
    #expect(scenario.limits.timelineEntries == 100 && scenario.limits.clockSpan == hour * 7)
  }

  /// Without a root, the format's maximum is the ceiling: issue 27's
  /// reproducer loads (the batch's time and memory limits stop its run).
  @Test func withoutARootTheFormatsMaximumIsTheCeiling() throws {
    let scenario = try ScenarioLoader().load(yaml: Self.header + "limits: { timelineEntries: 1000000000, clockSpan: 20y }\n", file: "s.yaml")
    #expect(scenario.limits.timelineEntries == 1_000_000_000 && scenario.limits.clockSpan.milliseconds == 20 * RunLimits.year)
  }
}
