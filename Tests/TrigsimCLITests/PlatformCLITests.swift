import Foundation
import Testing
import TrigsimTestSupport

/// One scenario on two phones through the built binary: `--platform`, the
/// `platforms:` key, the files named after each platform, the side-by-side
/// table, JUnit's testcase per platform and the stacked report.
///
/// The chain here is the default one on a fresh install: on Android 14 its
/// reminder runs on an inexact alarm that fires an hour late (a single run
/// takes the window's end), so the side-by-side table has one difference.
@Suite struct PlatformCLITests {
  /// The default chain of Metformin at 08:00, nobody answering (`scenarios/chain-ignored.yaml`), plus `extra`.
  static func chain(_ extra: String = "") -> String {
    """
    trigsim: 1
    name: Default chain ignored
    clock: { start: 2026-03-28T07:00:00+01:00, end: 2026-03-28T10:00:00+01:00, timezone: Europe/Copenhagen }
    medicines:
      - id: 1
        name: Metformin
        dosage: 500
        unit: mg
        times: ["08:00"]
    \(extra)
    """
  }

  func workspace(_ extra: String = "platforms: [ios, android]\n") throws -> Workspace {
    let workspace = try Workspace()
    try workspace.write("chain.yaml", Self.chain(extra))
    return workspace
  }

  func trigsim(_ arguments: [String], in workspace: Workspace) throws -> TrigsimBinary.Result {
    try TrigsimBinary.run(arguments, in: workspace.root)
  }

  // MARK: - run

  @Test func runOnBothPrintsEachTimelineUnderItsPlatformThenTheSideBySideTable() throws {
    let workspace = try workspace("")
    let ios = try trigsim(["run", "chain.yaml"], in: workspace)
    let both = try trigsim(["run", "chain.yaml", "--platform", "ios,android"], in: workspace)
    #expect(both.status == 0, "\(both.stderr)")
    let blocks = both.stdout.components(separatedBy: "# === ")
    #expect(blocks.count == 4, "\(both.stdout)")
    #expect(blocks[1] == "ios ===\n" + ios.stdout)
    #expect(blocks[2].hasPrefix("android ===\n# trigsim timeline 1\n"))
    #expect(
      blocks[3].hasPrefix(
        "side by side ===\n# platforms: ios, android\n# doses: 1, differing between the platforms: 1\n# 1 2026-03-28 08:00: notified 08:00 on ios, 09:00 on android: "),
      "\(blocks[3])")
    #expect(blocks[3].contains("from the app's alarm 'medicine_1_0800' for 08:00, 1h late: inexact alarm"), "\(blocks[3])")
  }

  @Test func thePlatformsKeyMakesRunRunOnEachAndOnePlatformOverridesIt() throws {
    let workspace = try workspace()
    let both = try trigsim(["run", "chain.yaml"], in: workspace)
    #expect(both.status == 0, "\(both.stderr)")
    #expect(both.stdout.hasPrefix("# === ios ===\n") && both.stdout.contains("# === android ===\n"))
    let one = try trigsim(["run", "chain.yaml", "--platform", "ios"], in: workspace)
    #expect(one.status == 0)
    #expect(!one.stdout.contains("# === "))
  }

  @Test func anUnknownOrRepeatedPlatformIsAUsageError() throws {
    let workspace = try workspace("")
    let unknown = try trigsim(["run", "chain.yaml", "--platform", "ios,andriod"], in: workspace)
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("--platform: unknown platform 'andriod'; choose ios, android, or both: ios,android"), "\(unknown.stderr)")
    let twice = try trigsim(["verify", "chain.yaml", "--platform", "ios,ios"], in: workspace)
    #expect(twice.status == 64)
    #expect(twice.stderr.contains("'ios' is named twice"))
  }

  @Test func severalPlatformsGoWithTextOnly() throws {
    let plain = try workspace("")
    let json = try trigsim(["run", "chain.yaml", "--platform", "ios,android", "--format", "json"], in: plain)
    #expect(json.status == 64)
    #expect(json.stderr.contains("--format json takes one"), "\(json.stderr)")
    // The same from the scenario's own key: a usage error at the key (line 10 of chain.yaml), naming both phones.
    let keyed = try workspace()
    let fromKey = try trigsim(["run", "chain.yaml", "--trials", "3"], in: keyed)
    #expect(fromKey.status == 64)
    #expect(
      fromKey.stderr.hasPrefix(
        """
        chain.yaml:10:1: error: the scenario runs on ios and android ('platforms:'); --trials takes one phone
            platforms: [ios, android]
            ^
        note: choose it with --platform ios or --platform android

        """), "\(fromKey.stderr)")
    let expect = try trigsim(["run", "chain.yaml", "--expect", "other.timeline"], in: keyed)
    #expect(expect.status == 64)
    #expect(
      expect.stderr.hasPrefix(
        "chain.yaml:10:1: error: the scenario runs on ios and android ('platforms:'); --expect takes one phone\n"), "\(expect.stderr)")
    #expect(expect.stderr.contains("note: choose it with --platform ios or --platform android\n"), "\(expect.stderr)")
  }

  // MARK: - record, verify, test

  @Test func recordWritesEachPlatformsFilesAndTheSideBySideTableAndVerifyPassesOnThem() throws {
    let workspace = try workspace()
    let record = try trigsim(["record", "chain.yaml"], in: workspace)
    #expect(record.status == 0, "\(record.stdout)\(record.stderr)")
    for name in ["chain.ios.timeline", "chain.android.timeline", "chain.ios.doses", "chain.android.doses", "chain.platforms"] {
      #expect(workspace.exists(name), "\(name) missing; record said:\n\(record.stdout)")
      #expect(record.stdout.contains(workspace.path(name)) || record.stdout.contains(name), "\(record.stdout)")
    }
    #expect(!workspace.exists("chain.timeline"))
    #expect(workspace.read("chain.platforms")?.hasPrefix("# platforms: ios, android\n") == true)
    let verify = try trigsim(["verify", "chain.yaml"], in: workspace)
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    #expect(verify.stdout == "chain.yaml [ios]: passed\nchain.yaml [android]: passed\nchain.yaml [ios,android]: passed\n")
  }

  @Test func aChangedPlatformTimelineFailsNamingThatPlatform() throws {
    let workspace = try workspace()
    _ = try trigsim(["record", "chain.yaml"], in: workspace)
    try workspace.edit("chain.android.timeline", line: "# scenario: ") { _ in "# scenario: Another name" }
    let verify = try trigsim(["verify", "chain.yaml"], in: workspace)
    #expect(verify.status == 1)
    #expect(verify.stdout.contains("chain.yaml [android]: FAILED: timeline differs"), "\(verify.stdout)")
    #expect(verify.stdout.contains("chain.yaml [ios]: passed"))
  }

  @Test func aChangedSideBySideTableFailsAsItsOwnCheck() throws {
    let workspace = try workspace()
    _ = try trigsim(["record", "chain.yaml"], in: workspace)
    try workspace.edit("chain.platforms", line: "# doses: ") { _ in "# doses: 2, differing between the platforms: 2" }
    let verify = try trigsim(["verify", "chain.yaml"], in: workspace)
    #expect(verify.status == 1)
    #expect(verify.stdout.contains("chain.yaml [ios,android]: FAILED: side-by-side table differs"), "\(verify.stdout)")
    #expect(verify.stdout.contains("-# doses: 2, differing between the platforms: 2\n+# doses: 1, differing between the platforms: 1\n"))
  }

  @Test func aScenarioOnItsOwnPhoneKeepsItsFileNames() throws {
    let workspace = try workspace("")
    _ = try trigsim(["record", "chain.yaml"], in: workspace)
    #expect(workspace.exists("chain.timeline") && workspace.exists("chain.doses"))
    #expect(!workspace.exists("chain.ios.timeline") && !workspace.exists("chain.platforms"))
    let ownPhone = try trigsim(["verify", "chain.yaml", "--platform", "ios"], in: workspace)
    #expect(ownPhone.status == 0, "\(ownPhone.stdout)")
    #expect(ownPhone.stdout == "chain.yaml: passed\n")
    // Another phone has its own files, which are not there yet.
    let android = try trigsim(["verify", "chain.yaml", "--platform", "android"], in: workspace)
    #expect(android.status == 1)
    #expect(android.stdout.contains("no expected timeline at '\(workspace.path("chain.android.timeline"))'") || android.stdout.contains("chain.android.timeline"), "\(android.stdout)")
    #expect(android.stdout.contains("chain.yaml [android]: FAILED"))
  }

  @Test func testHasARowAndAJUnitTestcasePerPlatformAndOneForTheSideBySideTable() throws {
    let workspace = try workspace()
    _ = try trigsim(["record", "chain.yaml"], in: workspace)
    let test = try trigsim(["test", "chain.yaml", "--jobs", "1", "--junit", "junit.xml"], in: workspace)
    #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
    #expect(test.stdout.contains("chain.yaml [ios]  "))
    #expect(test.stdout.contains("chain.yaml [android]  "))
    #expect(test.stdout.contains("chain.yaml [ios,android]  "))
    #expect(test.stdout.contains("3 passed, 0 failed, 0 errors, 0 skipped"), "\(test.stdout)")
    let junit = try #require(workspace.read("junit.xml"))
    #expect(junit.contains("tests=\"3\""))
    for name in ["chain.yaml [ios]", "chain.yaml [android]", "chain.yaml [ios,android]"] { #expect(junit.contains("name=\"\(name)\""), "\(junit)") }
  }

  @Test func testPlatformOverridesEveryScenariosOwn() throws {
    let workspace = try workspace("")
    let test = try trigsim(["test", "chain.yaml", "--jobs", "1", "--platform", "ios,android", "--record", "missing"], in: workspace)
    #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
    #expect(workspace.exists("chain.android.timeline") && workspace.exists("chain.platforms"))
  }

  @Test func aShardsPartialFileKeepsEveryPlatformForMerge() throws {
    let workspace = try workspace()
    _ = try trigsim(["record", "chain.yaml"], in: workspace)
    let shard = try trigsim(["test", "chain.yaml", "--jobs", "1", "--shard", "1/1", "--partial", "part.json"], in: workspace)
    #expect(shard.status == 0, "\(shard.stdout)\(shard.stderr)")
    let merged = try trigsim(["merge", "part.json", "--junit", "merged.xml"], in: workspace)
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    #expect(merged.stdout.contains("chain.yaml [android]  ") && merged.stdout.contains("3 passed, 0 failed"), "\(merged.stdout)")
    #expect(workspace.read("merged.xml")?.contains("name=\"chain.yaml [ios,android]\"") == true)
  }

  @Test func underRootAPlatformsFileLeadingOutsideIsRefused() throws {
    let workspace = try workspace()
    _ = try trigsim(["record", "chain.yaml"], in: workspace)
    let outside = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-outside")
    let target = outside.appendingPathComponent("stolen.timeline")
    try FileManager.default.moveItem(atPath: workspace.path("chain.android.timeline"), toPath: target.path)
    try FileManager.default.createSymbolicLink(atPath: workspace.path("chain.android.timeline"), withDestinationPath: target.path)
    let verify = try trigsim(["verify", "chain.yaml", "--root", "."], in: workspace)
    #expect(verify.status == 65, "\(verify.stdout)\(verify.stderr)")
    #expect(verify.stderr.contains("chain.android.timeline"), "\(verify.stderr)")
    #expect(verify.stderr.contains("through a symbolic link"), "\(verify.stderr)")
  }

  // MARK: - report

  @Test func theReportStacksEachPlatformUnderTheSideBySideTableWithUniqueIDs() throws {
    let workspace = try workspace()
    let report = try trigsim(["report", "chain.yaml"], in: workspace)
    #expect(report.status == 0, "\(report.stderr)")
    let html = report.stdout
    let sideBySide = try #require(html.range(of: "<section id=\"platforms\"><h2>Side by side</h2>"))
    let ios = try #require(html.range(of: "<h2>On ios</h2>"))
    let android = try #require(html.range(of: "<h2>On android</h2>"))
    #expect(sideBySide.lowerBound < ios.lowerBound && ios.lowerBound < android.lowerBound)
    // The scenario has no track or region: each platform's map section says so, under its own id.
    #expect(html.contains("id=\"no-map-ios\"") && html.contains("id=\"no-map-android\""))
    let ids = html.components(separatedBy: " id=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
    #expect(Set(ids).count == ids.count, "duplicate ids: \(ids)")
    let svg = try trigsim(["report", "chain.yaml", "--format", "svg"], in: workspace)
    #expect(svg.status == 64)
  }
}
