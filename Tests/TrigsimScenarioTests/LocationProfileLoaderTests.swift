import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// `platform.location` and the location authorization in `app:`: values, and
/// every problem located at the value to change.
@Suite struct LocationProfileLoaderTests: LoaderDiagnosticAssertions {
  static let header = ScenarioLoaderDiagnosticsTests.header

  @Test func theDefaultProfileIsIOSWithTheDocumentedRules() throws {
    let scenario = try ScenarioLoader().load(yaml: Self.header)
    #expect(scenario.platform.location == .ios(RegionMonitoringRules()))
    let rules = RegionMonitoringRules()
    #expect(rules.minimumRadius == 100 && rules.entryMargin == 50 && rules.exitMargin == 50)
    // The calibrated latency and background accuracy (issue 42; the manual, "Calibration").
    #expect(rules.dwell == .seconds(20) && rules.latency == .minutes(1) && rules.backgroundInterval == .seconds(60))
    #expect(rules.backgroundAccuracy == 50)
    #expect(scenario.platform.summary.hasSuffix(
      "location=ios min-radius=100m entry-margin=50m exit-margin=50m dwell=20s latency=1m assumed-accuracy=10m foreground-updates=continuous background-updates=1m"))
  }

  @Test func aProfileIsNamedOrGivenWithOverrides() throws {
    let ideal = try ScenarioLoader().load(yaml: Self.header + "platform: { location: ideal }\n")
    #expect(ideal.platform.location == .ideal)
    let tuned = try ScenarioLoader().load(
      yaml: Self.header
        + "platform: { location: { profile: ios, entryMargin: 80, exitMargin: 200, dwell: 30s, latency: 5m, minimumRadius: 150, assumedAccuracy: 20, backgroundAccuracy: 100, foregroundUpdates: 1s, backgroundUpdates: continuous, latencySpread: 0.8, errorCorrelation: 2m } }\n")
    var expected = RegionMonitoringRules()
    expected.entryMargin = 80
    expected.exitMargin = 200
    expected.dwell = .seconds(30)
    expected.latency = .minutes(5)
    expected.minimumRadius = 150
    expected.assumedAccuracy = 20
    expected.backgroundAccuracy = 100
    expected.foregroundInterval = .seconds(1)
    expected.backgroundInterval = .zero
    expected.latencySpread = 0.8
    expected.errorCorrelation = .minutes(2)
    #expect(tuned.platform.location == .ios(expected))
  }

  @Test func badProfilesAndRulesAreLocated() {
    assertDiagnostics(
      Self.header + "platform: { location: 1️⃣iso }\n",
      [Expected(marker: "1️⃣", message: "unknown location profile 'iso'", note: "did you mean 'ios'?")])
    assertDiagnostics(
      Self.header + "platform: { location: { profile: ios, 1️⃣dwel: 30s, entryMargin: 2️⃣-5, latency: 3️⃣soon } }\n",
      [
        Expected(marker: "1️⃣", message: "unknown key 'dwel' in 'location'", note: "did you mean 'dwell'?"),
        Expected(marker: "2️⃣", message: "entryMargin must be between 0 and 100000 metres, not -5.0"),
        Expected(marker: "3️⃣", message: "latency 'soon' is not a duration"),
      ])
    assertDiagnostics(
      Self.header + "platform: { location: { profile: ideal, 1️⃣dwell: 30s } }\n",
      [Expected(marker: "1️⃣", message: "'dwell' is a rule of the ios profile; the ideal profile has no rules to set")])
    assertDiagnostics(
      Self.header + "platform: { location: 1️⃣{ dwell: 30s } }\n",
      [Expected(marker: "1️⃣", message: "missing 'profile' in 'location'")])
  }

  @Test func locationAuthorizationChangesAreReadAndBadValuesLocated() throws {
    let scenario = try ScenarioLoader().load(
      yaml: Self.header + """
        app:
          - { at: 2026-03-28T07:00:00+01:00, location: denied }
          - { at: 2026-03-28T08:00:00+01:00, location: when-in-use, locationAccuracy: approximate }
        """)
    let changes = scenario.medicineApp.appChanges
    #expect(changes.map(\.location) == [.denied, .whenInUse])
    #expect(changes.map(\.locationAccuracy) == [nil, .approximate])
    assertDiagnostics(
      Self.header + "app:\n  - { at: 2026-03-28T07:00:00+01:00, location: 1️⃣whenInUse, locationAccuracy: 2️⃣reduced }\n",
      [
        Expected(marker: "1️⃣", message: "unknown location authorization 'whenInUse'", note: "did you mean 'when-in-use'?"),
        Expected(marker: "2️⃣", message: "unknown location accuracy 'reduced'"),
      ])
  }
}
