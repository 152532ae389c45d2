import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// `ScenarioLoader(pathPolicy: .confined(to: root))`: every file a scenario
/// names or implies, and the scenario itself, resolves inside the root, or
/// the load fails at the value that names it.
@Suite struct ScenarioPathPolicyTests {
  /// A folder `root/` (the scenarios, a track) beside `outside/` (a track, a
  /// timeline, a scenario), in a fresh temporary folder removed afterwards.
  final class Layout {
    let top: URL
    var root: String { top.appendingPathComponent("root").path }
    var outside: String { top.appendingPathComponent("outside").path }

    init() throws {
      top = FileManager.default.temporaryDirectory.appendingPathComponent("trigsim-root-\(UUID().uuidString)")
      let manager = FileManager.default
      try manager.createDirectory(atPath: top.appendingPathComponent("root/sub").path, withIntermediateDirectories: true)
      try manager.createDirectory(atPath: top.appendingPathComponent("outside").path, withIntermediateDirectories: true)
      let track = RepositoryPaths.fixtures.appendingPathComponent("tracks/morning-walk.gpx")
      try manager.copyItem(atPath: track.path, toPath: root + "/walk.gpx")
      try manager.copyItem(atPath: track.path, toPath: outside + "/walk.gpx")
      try "outside\n".write(toFile: outside + "/secret.timeline", atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: top) }

    func link(_ name: String, to target: String) throws {
      try FileManager.default.createSymbolicLink(atPath: root + "/" + name, withDestinationPath: target)
    }

    /// Writes `root/NAME` (markers removed) and returns its path and the marked text.
    func scenario(_ name: String, _ marked: String) throws -> (path: String, text: MarkedText) {
      let text = MarkedText(marked)
      let path = root + "/" + name
      try text.text.write(toFile: path, atomically: true, encoding: .utf8)
      return (path, text)
    }

    var confined: ScenarioLoader { ScenarioLoader(pathPolicy: .confined(to: root)) }
  }

  static let clock = "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T12:00:00+01:00, timezone: Europe/Copenhagen }\n"

  /// The load's diagnostics (none when it loads).
  func diagnostics(_ loader: ScenarioLoader, _ path: String) throws -> [Diagnostic] {
    do {
      _ = try loader.loadFile(path: path)
      return []
    } catch let error as InputError {
      return error.diagnostics
    }
  }

  @Test func aTrackInsideTheRootLoadsAndSoDoesALinkThatStaysInside() throws {
    let layout = try Layout()
    try layout.link("sub/alias.gpx", to: "../walk.gpx")
    let plain = try layout.scenario("plain.yaml", Self.clock + "track: { file: walk.gpx }\nexpect: none\nassert: [{ noPendingLimitDrops: true }]\n")
    let linked = try layout.scenario("linked.yaml", Self.clock + "track: { file: sub/alias.gpx }\nexpect: none\nassert: [{ noPendingLimitDrops: true }]\n")
    #expect(try diagnostics(layout.confined, plain.path).isEmpty)
    #expect(try diagnostics(layout.confined, linked.path).isEmpty)
  }

  @Test func aDotDotPathOutOfTheRootIsAnErrorAtTheValue() throws {
    let layout = try Layout()
    let scenario = try layout.scenario("s.yaml", Self.clock + "track: { file: 1️⃣../outside/walk.gpx }\n")
    let found = try diagnostics(layout.confined, scenario.path)
    #expect(found.map(\.location) == [scenario.text.location("1️⃣", file: scenario.path)])
    #expect(found.map(\.message) == ["track file '../outside/walk.gpx' leaves the root folder '\(layout.root)' (--root)"])
    #expect(found.first?.notes == [ScenarioPathPolicy.note])
    // Without a policy the same scenario loads: the rule is the option's, not the loader's default.
    #expect(try diagnostics(ScenarioLoader(), scenario.path).isEmpty)
  }

  @Test func anAbsolutePathElsewhereIsAnError() throws {
    let layout = try Layout()
    let scenario = try layout.scenario("s.yaml", Self.clock + "track: { file: 1️⃣\(layout.outside)/walk.gpx }\n")
    let found = try diagnostics(layout.confined, scenario.path)
    #expect(found.map(\.location) == [scenario.text.location("1️⃣", file: scenario.path)])
    #expect(found.map(\.message) == ["track file '\(layout.outside)/walk.gpx' leaves the root folder '\(layout.root)' (--root)"])
  }

  @Test func aSymbolicLinkOutOfTheRootIsAnErrorAtTheValue() throws {
    let layout = try Layout()
    try layout.link("escape.gpx", to: layout.outside + "/walk.gpx")
    try layout.link("sub/away", to: layout.outside)
    let file = try layout.scenario("file.yaml", Self.clock + "track: { file: 1️⃣escape.gpx }\n")
    let folder = try layout.scenario("folder.yaml", Self.clock + "track: { file: 1️⃣sub/away/walk.gpx }\n")
    for (scenario, written) in [(file, "escape.gpx"), (folder, "sub/away/walk.gpx")] {
      let found = try diagnostics(layout.confined, scenario.path)
      #expect(found.map(\.location) == [scenario.text.location("1️⃣", file: scenario.path)])
      #expect(found.map(\.message) == ["track file '\(written)' leads outside the root folder '\(layout.root)' (--root) through a symbolic link"])
    }
  }

  @Test func anOptionalTrackOutsideTheRootIsAnErrorNotASkip() throws {
    let layout = try Layout()
    // Whether the file exists outside the root is not even looked at.
    let scenario = try layout.scenario("s.yaml", Self.clock + "track: { file: 1️⃣../outside/absent.gpx, ifMissing: skip }\n")
    let found = try diagnostics(layout.confined, scenario.path)
    #expect(found.map(\.location) == [scenario.text.location("1️⃣", file: scenario.path)])
    #expect(found.first?.message.hasSuffix("leaves the root folder '\(layout.root)' (--root)") == true)
  }

  @Test func expectedTimelinesAndTrialReportsAreConfinedToo() throws {
    let layout = try Layout()
    try layout.link("linked.timeline", to: layout.outside + "/secret.timeline")
    let scenario = try layout.scenario(
      "s.yaml",
      Self.clock + """
        expect: { file: 1️⃣linked.timeline }
        trials: { count: 2, expect: 2️⃣../outside/s.trials }
        """)
    let found = try diagnostics(layout.confined, scenario.path)
    #expect(found.map(\.location) == [scenario.text.location("1️⃣", file: scenario.path), scenario.text.location("2️⃣", file: scenario.path)])
    #expect(found.map(\.message) == [
      "expected timeline 'linked.timeline' leads outside the root folder '\(layout.root)' (--root) through a symbolic link",
      "expected trial report '../outside/s.trials' leaves the root folder '\(layout.root)' (--root)",
    ])
  }

  @Test func impliedBaselinesAreCheckedWhereTheScenarioImpliesThem() throws {
    let layout = try Layout()
    try layout.link("s.timeline", to: layout.outside + "/secret.timeline")
    try layout.link("s.trials", to: layout.outside + "/secret.timeline")
    let scenario = try layout.scenario("s.yaml", Self.clock + "trials: 1️⃣{ count: 2 }\n")
    let found = try diagnostics(layout.confined, scenario.path)
    #expect(found.map(\.location) == [InputLocation(file: scenario.path, line: 1, column: 1), scenario.text.location("1️⃣", file: scenario.path)])
    #expect(found.map(\.message) == [
      "expected timeline 's.timeline' leads outside the root folder '\(layout.root)' (--root) through a symbolic link",
      "expected trial report 's.trials' leads outside the root folder '\(layout.root)' (--root) through a symbolic link",
    ])
    #expect(found.first?.notes.first?.hasPrefix("no 'expect:' names an expected timeline, so it is 's.timeline' beside the scenario") == true)
  }

  /// Issue 26: a scenario with medicines keeps its dose table beside its expected timeline; a link out of the root is refused at `expect:`.
  @Test func theDoseTableBesideTheExpectedTimelineIsConfinedToo() throws {
    let layout = try Layout()
    try layout.link("s.doses", to: layout.outside + "/secret.timeline")
    let scenario = try layout.scenario(
      "s.yaml",
      Self.clock + """
        medicines:
          - { id: 1, name: Metformin, dosage: 500, unit: mg, times: ["08:00"] }
        expect: 1️⃣s.timeline
        """)
    let found = try diagnostics(layout.confined, scenario.path)
    #expect(found.map(\.location) == [scenario.text.location("1️⃣", file: scenario.path)])
    #expect(found.map(\.message) == ["expected dose table 's.doses' leads outside the root folder '\(layout.root)' (--root) through a symbolic link"])
    // Without medicines there is no dose table to confine.
    let plain = try layout.scenario("p.yaml", Self.clock + "notifications:\n  - { id: a, trigger: { interval: 1h } }\nexpect: p.timeline\n")
    try layout.link("p.doses", to: layout.outside + "/secret.timeline")
    #expect(try diagnostics(layout.confined, plain.path).isEmpty)
  }

  @Test func aBaselineNotWrittenYetResolvesThroughItsFolder() throws {
    let layout = try Layout()
    let policy = ScenarioPathPolicy.confined(to: layout.root)
    #expect(policy.escape(of: layout.root + "/new.timeline") == nil)
    #expect(policy.escape(of: layout.root + "/sub/new/deeper.timeline") == nil)
    #expect(policy.escape(of: layout.root + "/missing/../../outside/new.timeline") == .byName)
    try layout.link("dangling.timeline", to: layout.outside + "/not-there.timeline")
    #expect(policy.escape(of: layout.root + "/dangling.timeline") == .danglingSymbolicLink)
  }

  @Test func aRootReachedThroughALinkOrARelativePathHoldsItsOwnFiles() throws {
    let layout = try Layout()
    let alias = layout.top.appendingPathComponent("alias").path
    try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: layout.root)
    let throughLink = ScenarioPathPolicy.confined(to: alias)
    #expect(throughLink.escape(of: layout.root + "/walk.gpx") == nil)
    #expect(throughLink.escape(of: alias + "/walk.gpx") == nil)
    #expect(throughLink.escape(of: alias + "/../outside/walk.gpx") == .byName)
    #expect(ScenarioPathPolicy.confined(to: layout.top.appendingPathComponent("nowhere").path).escape(of: layout.root + "/walk.gpx") == .missingRoot)
    #expect(ScenarioPathPolicy.unrestricted.escape(of: "/etc/passwd") == nil)
  }

  @Test func aScenarioFileOutsideTheRootIsRefusedUnread() throws {
    let layout = try Layout()
    // Not even valid YAML: were it read, the error would be a located InputError.
    try "{{{ not a scenario\n".write(toFile: layout.outside + "/s.yaml", atomically: true, encoding: .utf8)
    try layout.link("s.yaml", to: layout.outside + "/s.yaml")
    for path in [layout.root + "/s.yaml", layout.root + "/../outside/s.yaml"] {
      #expect(throws: ScenarioOutsideRoot.self) { try layout.confined.loadFile(path: path) }
    }
    do {
      _ = try layout.confined.loadFile(path: layout.root + "/s.yaml")
    } catch let error as ScenarioOutsideRoot {
      #expect(error.description == """
        error: scenario '\(layout.root)/s.yaml' leads outside the root folder '\(layout.root)' (--root) through a symbolic link
        note: \(ScenarioPathPolicy.note)
        """)
    }
  }

  /// Issue 27, item 7: a hard link under the root to a file outside it was
  /// read. A hard link has no direction, so any regular file with more than
  /// one link is refused, the scenario itself included; a file of its own loads.
  @Test func aHardLinkedFileIsRefusedWhateverItsOtherNameIs() throws {
    let layout = try Layout()
    try FileManager.default.linkItem(atPath: layout.outside + "/secret.timeline", toPath: layout.root + "/linked.timeline")
    try FileManager.default.linkItem(atPath: layout.outside + "/walk.gpx", toPath: layout.root + "/linked.gpx")
    let scenario = try layout.scenario("s.yaml", Self.clock + "track: { file: 1️⃣linked.gpx }\nexpect: { file: 2️⃣linked.timeline }\n")
    let found = try diagnostics(layout.confined, scenario.path)
    #expect(found.map(\.location) == [scenario.text.location("1️⃣", file: scenario.path), scenario.text.location("2️⃣", file: scenario.path)])
    #expect(found.map(\.message) == [
      "track file 'linked.gpx' has 2 hard links, so it may be a file outside the root folder '\(layout.root)' (--root) under another name",
      "expected timeline 'linked.timeline' has 2 hard links, so it may be a file outside the root folder '\(layout.root)' (--root) under another name",
    ])
    #expect(found.allSatisfy { $0.notes == [ScenarioPathPolicy.note] })

    try FileManager.default.linkItem(atPath: scenario.path, toPath: layout.outside + "/copy.yaml")
    #expect(throws: ScenarioOutsideRoot.self) { try layout.confined.loadFile(path: scenario.path) }
    // The same files pass without --root, and a single-link copy passes with it.
    #expect(ScenarioPathPolicy.unrestricted.escape(of: layout.root + "/linked.gpx") == nil)
    #expect(ScenarioPathPolicy.confined(to: layout.root).escape(of: layout.root + "/walk.gpx") == nil)
  }

  /// How messages spell a path the user named: `.` and `NAME/..` taken out by
  /// name, a relative path kept relative (its leading `..` too), never made absolute.
  @Test(arguments: [
    ("absent/track.gpx", "absent/track.gpx"), ("./absent/./track.gpx", "absent/track.gpx"),
    ("scenarios/corpus/../../../shared/t.gpx", "../shared/t.gpx"), ("a/../..//b", "../b"), ("../../x", "../../x"),
    ("a/..", "."), ("", "."), ("/tmp/a/../b", "/tmp/b"), ("/../x", "/x"), ("/", "/"),
  ])
  func lexicallyNormalizedKeepsARelativePathRelative(path: String, normalized: String) {
    #expect(ScenarioPathPolicy.lexicallyNormalized(path) == normalized)
  }
}
