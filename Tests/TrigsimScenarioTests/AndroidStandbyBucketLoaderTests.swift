import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// The standby-bucket and maintenance-draw keys: `app: - standbyBucket:`,
/// `android: bucketsFollowUse` and `bucketDecay`, `doze: maintenanceSpread`;
/// each problem at its value.
@Suite struct AndroidStandbyBucketLoaderTests: LoaderDiagnosticAssertions {
  static let header = AndroidLoaderTests.header

  func load(_ yaml: String) throws -> Scenario { try ScenarioLoader().load(yaml: yaml, file: "s.yaml") }

  @Test func theBucketKeysAreReadAsWritten() throws {
    let scenario = try load(
      Self.header + """
        platform: { device: android, android: { bucketsFollowUse: true, bucketDecay: { workingSet: 6h, rare: 3d }, doze: { maintenanceSpread: 2m } } }
        app:
          - { at: 2026-05-05T07:30:00+02:00, standbyBucket: rare }
          - { at: 2026-05-05T07:40:00+02:00, state: foreground }

        """)
    let android = try #require(scenario.platform.android)
    #expect(android.alarms.bucketsFollowUse)
    #expect(android.alarms.bucketDecay.workingSet == .hours(6) && android.alarms.bucketDecay.frequent == .hours(24))
    #expect(android.alarms.bucketDecay.rare == .hours(72))
    #expect(android.doze.maintenanceSpread == .minutes(2))
    #expect(scenario.medicineApp.appChanges.map(\.standbyBucket) == [.rare, nil])
  }

  @Test func absentBucketKeysKeepTheDefaults() throws {
    let android = try #require(try load(Self.header + "platform: android\n").platform.android)
    #expect(!android.alarms.bucketsFollowUse)
    #expect(android.alarms.bucketDecay == StandbyBucketDecay())
    #expect(android.doze.maintenanceSpread == .seconds(270))
  }

  @Test func badBucketValuesAreReportedWhereTheyAre() {
    assertDiagnostics(
      Self.header + """
        platform: { device: android, android: { bucketsFollowUse: 1️⃣often, bucketDecay: { frequent: 2️⃣0s, 3️⃣never: 1h }, doze: { maintenanceSpread: 4️⃣soon } } }
        app:
          - { at: 2026-05-05T07:30:00+02:00, standbyBucket: 5️⃣dormant }

        """,
      [
        Expected(marker: "1️⃣", message: "bucketsFollowUse must be true or false, not 'often'"),
        Expected(marker: "2️⃣", message: "frequent must be longer than zero and at most 365d, not 0s"),
        Expected(marker: "3️⃣", message: "unknown key 'never' in 'bucketDecay'"),
        Expected(marker: "4️⃣", message: "maintenanceSpread 'soon' is not a duration"),
        Expected(marker: "5️⃣", message: "unknown standby bucket 'dormant'"),
      ])
  }

  @Test func bucketDecayThresholdsMustGrow() {
    assertDiagnostics(
      Self.header + "platform: { device: android, android: { bucketDecay: 1️⃣{ workingSet: 30h } } }\n",
      [Expected(marker: "1️⃣", message: "the bucket-decay thresholds must grow: workingSet < frequent < rare < restricted, not 1d6h,1d,2d,8d")])
  }
}
