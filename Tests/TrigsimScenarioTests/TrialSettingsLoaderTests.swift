import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// The `trials:` section and the probability form of assertions: values, and
/// every problem located at the value to change.
@Suite struct TrialSettingsLoaderTests: LoaderDiagnosticAssertions {
  static let header = ScenarioLoaderDiagnosticsTests.header
  static let withLocation = header + """
    regions:
      - { id: pharmacy, center: [55.67, 12.56] }
    notifications:
      - { id: pickup, trigger: { region: pharmacy, on: [enter] } }
    medicines:
      - { id: vitd, name: Vitamin D, dosage: 1, unit: tablet, times: ["08:00"], location: { region: pharmacy, on: [enter] } }

    """

  @Test func aTrialsSectionNamesCountSeedAndTheReportBesideTheScenario() throws {
    let file = try ScenarioLoader().loadFile(
      yaml: Self.withLocation + """
        trials: { count: 500, seed: 18446744073709551615 }
        assert:
          - dosesNotified: { within: 10m, probability: 0.95 }
          - dosesNotified: { within: 10m }
          - locationFired: { request: "*_location", within: 5m, probability: { atMost: 0.05 } }
          - locationFired: { probability: { atLeast: 0.5, atMost: 0.9 } }
        """, file: "/tmp/x/quick.yaml", baseDirectory: "/tmp/x", defaultName: "quick")
    let trials = try #require(file.checks.trials)
    #expect(trials.count == 500 && trials.seed == UInt64.max)
    #expect(trials.expectedReportPath == "/tmp/x/quick.trials")
    #expect(file.checks.assertions.count == 1)  // the single-run dosesNotified
    #expect(file.checks.probabilityAssertions.map(\.description) == [
      "every dose notified within 10m of its time with probability at least 0.95",
      "every location request matching '*_location' fired at each true crossing within 5m with probability at most 0.05",
      "every location request fired at each true crossing with probability between 0.5 and 0.9",
    ])
  }

  @Test func theSeedDefaultsAndTheReportCanBeNamed() throws {
    let file = try ScenarioLoader().loadFile(
      yaml: Self.withLocation + "trials: { count: 10, expect: other.trials }\n", file: "/tmp/x/a.yaml", baseDirectory: "/tmp/x",
      defaultName: "a")
    #expect(file.checks.trials?.seed == TrialSettings.defaultSeed)
    #expect(file.checks.trials?.expectedReportPath == "/tmp/x/other.trials")
  }

  @Test func badTrialSettingsAreLocated() {
    assertDiagnostics(
      Self.withLocation + "trials: 1️⃣{ seed: 3 }\n",
      [Expected(marker: "1️⃣", message: "'trials' needs 'count'")])
    assertDiagnostics(
      Self.withLocation + "trials: { count: 2️⃣0, seed: 3️⃣-1, 1️⃣jobs: 2 }\n",
      [
        Expected(marker: "2️⃣", message: "'count' must be between 1 and 1000000, not 0"),
        Expected(marker: "3️⃣", message: "'seed' must be a whole number from 0 to 18446744073709551615"),
        Expected(marker: "1️⃣", message: "unknown key 'jobs' in 'trials'"),
      ])
    assertDiagnostics(
      Self.withLocation + "trials: { count: 5, expect: 1️⃣none }\n",
      [Expected(marker: "1️⃣", message: "the expected trial report needs a file name")])
  }

  @Test func aProbabilityAssertionNeedsTrials() {
    assertDiagnostics(
      Self.withLocation + "assert:\n  - 1️⃣locationFired: { probability: 0.9 }\n",
      [Expected(marker: "1️⃣", message: "an assertion with 'probability' is checked over trials, and the scenario has no 'trials:' section",
                note: "add 'trials: { count: 1000, seed: 1 }' (how many seeded trials 'verify' and 'test' run)")])
  }

  @Test func badProbabilitiesAndRequestsAreLocated() {
    let trials = "trials: { count: 10 }\n"
    assertDiagnostics(
      Self.withLocation + trials + "assert:\n  - dosesNotified: { within: 5m, probability: 1️⃣95 }\n",
      [Expected(marker: "1️⃣", message: "'probability' must be between 0 and 1", note: "write a probability such as 0.95, not a percentage")])
    assertDiagnostics(
      Self.withLocation + trials + "assert:\n  - locationFired: { probability: { atLeast: 0.9, 1️⃣atMost: 0.5 } }\n",
      [Expected(marker: "1️⃣", message: "'atMost' 0.5 is below 'atLeast' 0.9")])
    assertDiagnostics(
      Self.withLocation + trials + "assert:\n  - locationFired: { request: 1️⃣pikcup, probability: 0.9 }\n",
      [Expected(marker: "1️⃣", message: "pattern 'pikcup' matches no location request in this scenario", note: "did you mean 'pickup'?")])
    assertDiagnostics(
      Self.withLocation + trials + "assert:\n  - locationFired: 1️⃣{ request: pickup }\n",
      [Expected(marker: "1️⃣", message: "'locationFired' needs 'probability'")])
    assertDiagnostics(
      Self.header + trials + "assert:\n  - 1️⃣locationFired: { probability: 0.9 }\n",
      [Expected(marker: "1️⃣", message: "'locationFired' needs location requests")])
  }
}
