import Foundation
import Testing
import TrigsimCore

@testable import TrigsimScenario

/// Which expected files a run on a phone uses: the scenario's own on its own
/// phone, each platform's named after it otherwise.
@Suite struct PlatformFilesTests {
  static let yaml = """
    trigsim: 1
    clock: { start: 2026-05-05T07:00:00+02:00, end: 2026-05-05T09:00:00+02:00, timezone: Europe/Copenhagen }
    medicines:
      - { id: met, name: Metformin, dosage: 500, unit: mg, times: ["08:00"] }
    trials: { count: 2 }

    """

  @Test func thePlatformGoesBeforeTheExtension() {
    #expect(ScenarioVerifier.path("dir/x.timeline", on: .android) == "dir/x.android.timeline")
    #expect(ScenarioVerifier.path("golden/x.json", on: .ios) == "golden/x.ios.json")
    #expect(ScenarioVerifier.path("x", on: .android) == "x.android")
    #expect(ScenarioVerifier.path("a.b/x", on: .android) == "a.b/x.android")
  }

  @Test func theSideBySideTableSitsBesideTheScenariosOwnTimeline() {
    #expect(ScenarioVerifier.platformsPath(forTimeline: "dir/x.timeline") == "dir/x.platforms")
    #expect(ScenarioVerifier.platformsPath(forTimeline: "golden/x.json") == "golden/x.platforms")
  }

  @Test func onlyARunOnTheScenariosOwnPhoneKeepsItsFiles() throws {
    let scenario = try ScenarioLoader().load(yaml: Self.yaml, file: "x.yaml")
    #expect(ScenarioVerifier.keepsOwnFiles([.ios], of: scenario))
    #expect(!ScenarioVerifier.keepsOwnFiles([.android], of: scenario))
    #expect(!ScenarioVerifier.keepsOwnFiles([.ios, .android], of: scenario))
  }

  @Test func aFileOnAPlatformRunsThereWithEveryExpectedFileNamedAfterIt() throws {
    let file = try ScenarioLoader().loadFile(yaml: Self.yaml, file: "x.yaml", defaultName: "x")
    let android = ScenarioVerifier.file(file, on: .android)
    #expect(android.scenario.platform.name == .android)
    #expect(file.scenario.platform.name == .ios)
    let timeline = try #require(file.checks.expectedTimelinePath)
    #expect(android.checks.expectedTimelinePath == ScenarioVerifier.path(timeline, on: .android))
    #expect(android.checks.expectedTimelinePath?.hasSuffix("x.android.timeline") == true)
    #expect(android.checks.trials?.expectedReportPath.hasSuffix("x.android.trials") == true)
  }

  @Test func theOverrideReplacesTheScenariosPlatformsAndWithoutItTheKeyDecides() throws {
    var scenario = try ScenarioLoader().load(yaml: Self.yaml, file: "x.yaml")
    var verifier = ScenarioVerifier()
    #expect(verifier.platforms(of: scenario) == [.ios])
    scenario.platforms = [.android, .ios]
    #expect(verifier.platforms(of: scenario) == [.android, .ios])
    verifier.platformOverride = [.ios]
    #expect(verifier.platforms(of: scenario) == [.ios])
  }
}
