import Foundation
import Testing
import TrigsimTestSupport

@testable import trigsim

/// `trigsim report`: the page and the pictures it writes, the option rules,
/// and bad input, which writes nothing.
@Suite struct ReportCLITests {
  @Test func theReportOfASmallScenarioIsOneSelfContainedPage() throws {
    let folder = try GeoJSONCLITests.smallScenario()
    let result = try TrigsimBinary.run(["report", "s.yaml", "--output", "report.html"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "")
    let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>\n"))
    #expect(html.contains("<svg id=\"map\"") && html.contains("<svg id=\"chart\""))
    // The walk enters and leaves the shop and the park; the reminder fires at the shop.
    #expect(html.ranges(of: "data-mark=\"enter\"").count == 2 && html.ranges(of: "data-mark=\"exit\"").count == 2)
    #expect(html.contains("<section id=\"doses\">"))
    // Standard output gets the same bytes.
    let again = try TrigsimBinary.run(["report", "s.yaml"], in: folder)
    #expect(again.stdout == html)
  }

  /// Issue 26: the page says why a check failed: each changed dose and each failed assertion with what it found.
  @Test func aFailedVerdictListsTheChangedDosesAndEachFailedAssertionWithItsFinding() throws {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-report-findings")
    defer { try? FileManager.default.removeItem(at: folder) }
    let name = "focus-sleep-breakthrough"
    for suffix in [".timeline", ".doses"] {
      try FileManager.default.copyItem(at: RepositoryPaths.scenarios.appendingPathComponent(name + suffix), to: folder.appendingPathComponent(name + suffix))
    }
    var yaml = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent(name + ".yaml"), encoding: .utf8)
    yaml = yaml.replacingOccurrences(of: "unit: µg, times: [\"07:00\"]", with: "unit: µg, times: [\"08:00\"]")
    yaml += "  - pendingPeak: { atMost: 1 }\n"
    try yaml.write(to: folder.appendingPathComponent(name + ".yaml"), atomically: true, encoding: .utf8)
    let line = yaml.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    let result = try TrigsimBinary.run(["report", name + ".yaml"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let html = result.stdout
    #expect(html.contains("<p class=\"verdict failed\" id=\"verdict\">verify: doses differ: 2 of 4 doses changed (2 better for the patient); timeline differs: "))
    #expect(html.contains("<ul class=\"findings\" id=\"findings\"><li>Levothyroxine 2026-05-05 07:00 → 08:00 (better for the patient): notified 07:45 lock screen → 08:00 alert; "))
    #expect(html.contains("<li>Levothyroxine 2026-05-06 07:00 → 08:00 (better for the patient): notified 07:45 lock screen → 08:00 alert; "))
    #expect(html.contains(
      "<li>\(name).yaml:\(line):5: assertion failed: pending peak at most 1: 2 requests were pending at once at 2026-05-04T21:00:00.000+02:00</li></ul>"),
      "\(html.components(separatedBy: "id=\"findings\"").last?.prefix(1500) ?? "")")
  }

  @Test func withoutAnExpectedTimelineThePageSaysWhatVerifyWould() throws {
    let folder = try GeoJSONCLITests.smallScenario()
    let result = try TrigsimBinary.run(["report", "s.yaml"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("<p class=\"verdict failed\" id=\"verdict\">verify: no expected timeline</p>"))
    // Recorded, it passes.
    #expect(try TrigsimBinary.run(["record", "s.yaml"], in: folder).status == 0)
    #expect(try TrigsimBinary.run(["report", "s.yaml"], in: folder).stdout.contains("<p class=\"verdict passed\" id=\"verdict\">verify: passed</p>"))
  }

  @Test func oneSVGPictureForAPullRequestComment() throws {
    let folder = try GeoJSONCLITests.smallScenario()
    for (picture, id) in [(["--picture", "chart"], "chart"), (["--picture", "map"], "map"), ([], "map")] {
      let result = try TrigsimBinary.run(["report", "s.yaml", "--format", "svg"] + picture, in: folder)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg id=\"\(id)\""))
      #expect(result.stdout.ranges(of: "<svg ").count == 1)
    }
  }

  @Test func optionsThatDoNotFitAreRefused() throws {
    let folder = try GeoJSONCLITests.smallScenario()
    let picture = try TrigsimBinary.run(["report", "s.yaml", "--picture", "map"], in: folder)
    #expect(picture.status == 64)
    #expect(picture.stderr.contains("--picture chooses the picture of --format svg; the html report has both"))
    let tolerance = try TrigsimBinary.run(["report", "s.yaml", "--simplify=-1"], in: folder)
    #expect(tolerance.status == 64)
    #expect(tolerance.stderr.contains("--simplify takes a tolerance from 0 to 100000 metres, not -1.0"))
  }

  @Test func badInputIsLocatedAndLeavesTheOutputAsItWas() throws {
    let folder = try GeoJSONCLITests.smallScenario()
    let report = folder.appendingPathComponent("report.html")
    try "previous report\n".write(to: report, atomically: true, encoding: .utf8)
    try "trigsim: 1\nclock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T07:00:00Z, timezone: UTC }\nregions:\n  - { id: a, center: [95, 12] }\n"
      .write(to: folder.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
    let result = try TrigsimBinary.run(["report", "bad.yaml", "--output", "report.html"], in: folder)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("bad.yaml:4:"))
    #expect(try String(contentsOf: report, encoding: .utf8) == "previous report\n")
    // Nothing else was left in the folder.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["bad.yaml", "report.html", "s.yaml", "t.csv"])
  }

  @Test func aScenarioThatDiffersFromItsExpectedTimelineIsDrawnWithTheDifferences() throws {
    let folder = try GeoJSONCLITests.smallScenario()
    let recorded = try TrigsimBinary.run(["run", "s.yaml"], in: folder)
    // The expected timeline lacks the last entry.
    var lines = recorded.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines.removeAll { $0.contains(" exit ") && $0.contains(" park ") }
    try lines.joined(separator: "\n").write(to: folder.appendingPathComponent("old.timeline"), atomically: true, encoding: .utf8)
    let result = try TrigsimBinary.run(["report", "s.yaml", "--expect", "old.timeline", "--output", "r.html"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let html = try String(contentsOf: folder.appendingPathComponent("r.html"), encoding: .utf8)
    #expect(html.contains("<p class=\"verdict failed\" id=\"verdict\">verify: timeline differs: 0 missing, 1 unexpected, 0 shifted</p>"))
    #expect(html.contains("data-diff=\"unexpected\""))
    #expect(html.contains("<section id=\"differences\">"))
    // Issue 26: the diff's header names the files, as `verify` prints it.
    #expect(html.contains("--- expected old.timeline\n+++ actual run of s.yaml\n@@ expected line "))
    let run = try TrigsimBinary.run(["run", "s.yaml", "--expect", "old.timeline"], in: folder)
    #expect(run.stderr.contains("--- expected old.timeline\n+++ actual run of s.yaml\n"), "\(run.stderr)")
  }
}

extension ReportCLITests {
  @Test func testWritesTheReportOfEveryFailedScenarioForTheCIArtifacts() throws {
    let folder = try GeoJSONCLITests.smallScenario()
    // Two copies of the scenario: one whose expected timeline matches, one whose does not.
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("more"), withIntermediateDirectories: true)
    let yaml = try String(contentsOf: folder.appendingPathComponent("s.yaml"), encoding: .utf8)
    try yaml.replacingOccurrences(of: "file: t.csv", with: "file: ../t.csv").write(to: folder.appendingPathComponent("more/s.yaml"), atomically: true, encoding: .utf8)
    #expect(try TrigsimBinary.run(["record", "s.yaml", "more/s.yaml"], in: folder).status == 0)
    let recorded = try String(contentsOf: folder.appendingPathComponent("more/s.timeline"), encoding: .utf8)
    try recorded.replacingOccurrences(of: "title=Tea", with: "title=Coffee").write(to: folder.appendingPathComponent("more/s.timeline"), atomically: true, encoding: .utf8)

    let result = try TrigsimBinary.run(["test", "s.yaml", "more/s.yaml", "--reports", "out/reports"], in: folder)
    #expect(result.status == 1)
    #expect(result.stdout.hasSuffix("report: out/reports/more__s.yaml.html\n"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out/reports").path) == ["more__s.yaml.html"])
    let html = try String(contentsOf: folder.appendingPathComponent("out/reports/more__s.yaml.html"), encoding: .utf8)
    #expect(html.contains("<p class=\"verdict failed\" id=\"verdict\">verify: timeline differs: 0 missing, 0 unexpected, 0 shifted, 2 changed</p>"))
    #expect(html.contains("data-diff=\"changed\""))
  }

  @Test func aReportsFileNameKeepsFoldersApart() {
    #expect(TestCommand.reportName("scenarios/corpus/walk.yaml") == "scenarios__corpus__walk.yaml.html")
    #expect(TestCommand.reportName("./a.yml") == "a.yml.html")
    #expect(TestCommand.reportName("../x/a.yaml") == "..__x__a.yaml.html")
    #expect(TestCommand.reportName("/tmp/a.yaml") == "__tmp__a.yaml.html")
  }

  /// Issue 41, finding 9: `a/b.yaml` and `a__b.yaml` both wrote `a__b.html`.
  @Test func reportNamesOfDifferentPathsNeverMeet() {
    #expect(TestCommand.reportName("a/b.yaml") == "a__b.yaml.html")
    #expect(TestCommand.reportName("a__b.yaml") == "a_-_-b.yaml.html")
    #expect(TestCommand.reportName("a\u{1B}b\nc.yaml") == "a_x1B_b_xA_c.yaml.html")
    // Paths built from the characters the escape uses, every one up to length 4: no two share a name.
    let alphabet = ["a", "/", "_", "-", "x", "\u{1B}", "."]
    var paths = [""]
    var all: [String] = []
    for _ in 1...4 {
      paths = paths.flatMap { path in alphabet.map { path + $0 } }
      all += paths
    }
    let names = all.filter { !$0.hasPrefix("./") }.map(TestCommand.reportName)
    #expect(Set(names).count == names.count)
  }

  @Test func testWritesOneReportPerScenarioWhenPathsLookAlike() throws {
    let folder = try GeoJSONCLITests.smallScenario()
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("a"), withIntermediateDirectories: true)
    let yaml = try String(contentsOf: folder.appendingPathComponent("s.yaml"), encoding: .utf8)
    try yaml.replacingOccurrences(of: "file: t.csv", with: "file: ../t.csv").write(to: folder.appendingPathComponent("a/b.yaml"), atomically: true, encoding: .utf8)
    try yaml.write(to: folder.appendingPathComponent("a__b.yaml"), atomically: true, encoding: .utf8)
    #expect(try TrigsimBinary.run(["record", "a/b.yaml", "a__b.yaml"], in: folder).status == 0)
    for timeline in ["a/b.timeline", "a__b.timeline"] {
      let recorded = try String(contentsOf: folder.appendingPathComponent(timeline), encoding: .utf8)
      try recorded.replacingOccurrences(of: "title=Tea", with: "title=Coffee").write(to: folder.appendingPathComponent(timeline), atomically: true, encoding: .utf8)
    }
    let result = try TrigsimBinary.run(["test", "a/b.yaml", "a__b.yaml", "--reports", "out"], in: folder)
    #expect(result.status == 1)
    #expect(result.stdout.hasSuffix("report: out/a__b.yaml.html\nreport: out/a_-_-b.yaml.html\n"), "\(result.stdout)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).sorted() == ["a_-_-b.yaml.html", "a__b.yaml.html"])
  }
}
