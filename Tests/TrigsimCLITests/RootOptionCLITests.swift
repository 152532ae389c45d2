import Foundation
import Testing
import TrigsimTestSupport

/// `--root DIR` on `test`, `verify`, `record` and `run`: scenarios from an
/// untrusted pull request may not reach files outside DIR, by `..`, an
/// absolute path or a symbolic link.
@Suite struct RootOptionCLITests {
  static let secret = "SECRET-FILE-CONTENT"

  /// `pr/` (the root: a track, good.yaml and scenarios that try to leave)
  /// beside `secret/` (a track, a scenario, a timeline).
  func pullRequest() throws -> Workspace {
    let workspace = try Workspace()
    let track = try String(contentsOf: RepositoryPaths.fixtures.appendingPathComponent("tracks/morning-walk.gpx"), encoding: .utf8)
    try workspace.write("pr/walk.gpx", track)
    try workspace.write("secret/walk.gpx", track)
    try workspace.write("secret/s.yaml", Self.secret + "\n")
    try workspace.write("secret/s.timeline", Self.secret + "\n")
    try workspace.write("pr/good.yaml", Self.walk(track: "walk.gpx"))
    try workspace.write("pr/dotdot.yaml", Self.walk(track: "../secret/walk.gpx"))
    try workspace.write("pr/linked.yaml", Self.walk(track: "link.gpx"))
    try FileManager.default.createSymbolicLink(atPath: workspace.path("pr/link.gpx"), withDestinationPath: "../secret/walk.gpx")
    try FileManager.default.createSymbolicLink(atPath: workspace.path("pr/evil.yaml"), withDestinationPath: "../secret/s.yaml")
    return workspace
  }

  /// The walk with its track at `track` (line 5, the value at column 16).
  static func walk(track: String, extra: String = "") -> String {
    Workspace.walk(extra).split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.hasPrefix("track:") ? "track: { file: \(track) }" : String($0) }.joined(separator: "\n")
  }

  @Test func testRefusesEveryWayOutAndRunsTheRest() throws {
    let workspace = try pullRequest()
    let recorded = try TrigsimBinary.run(["record", "pr/good.yaml", "--root", "pr"], in: workspace.root)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    let result = try TrigsimBinary.run(["test", "pr", "--root", "pr", "--junit", "junit.xml"], in: workspace.root)
    #expect(result.status == 65)
    let lines = result.stdout.components(separatedBy: "\n")
    let header = try #require(lines.firstIndex { $0.hasPrefix("scenario ") })
    let rows = lines[(header + 1)...].prefix { $0.hasPrefix("pr/") }.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
    #expect(rows == ["pr/dotdot.yaml ERROR", "pr/evil.yaml ERROR", "pr/good.yaml pass", "pr/linked.yaml ERROR"])
    #expect(result.stdout.contains("""
      === ERROR pr/dotdot.yaml: invalid input
      pr/dotdot.yaml:5:16: error: track file '../secret/walk.gpx' leaves the root folder 'pr' (--root)
          track: { file: ../secret/walk.gpx }
                         ^
      note: with --root, every file a scenario names must lie inside the root folder after following symbolic links, and be a file of its own (one hard link); keep a copy of the file inside it
      """))
    #expect(result.stdout.contains("""
      === ERROR pr/evil.yaml: invalid input
      error: scenario 'pr/evil.yaml' leads outside the root folder 'pr' (--root) through a symbolic link
      """))
    #expect(result.stdout.contains(
      "pr/linked.yaml:5:16: error: track file 'link.gpx' leads outside the root folder 'pr' (--root) through a symbolic link\n    track: { file: link.gpx }\n                   ^\n"))
    let junit = try String(contentsOfFile: workspace.path("junit.xml"), encoding: .utf8)
    #expect(!result.stdout.contains(Self.secret) && !result.stderr.contains(Self.secret) && !junit.contains(Self.secret))
    // Without --root the same batch reaches the files outside (the default is unchanged).
    let unconfined = try TrigsimBinary.run(["run", "pr/dotdot.yaml"], in: workspace.root)
    #expect(unconfined.status == 0)
  }

  @Test func verifyAndRunReportTheLocatedErrorWithItsLine() throws {
    let workspace = try pullRequest()
    let verify = try TrigsimBinary.run(["verify", "pr/linked.yaml", "--root", "pr"], in: workspace.root)
    #expect(verify.status == 65)
    #expect(verify.stderr.hasPrefix("""
      pr/linked.yaml:5:16: error: track file 'link.gpx' leads outside the root folder 'pr' (--root) through a symbolic link
          track: { file: link.gpx }
                         ^

      """))
    let run = try TrigsimBinary.run(["run", "pr/dotdot.yaml", "--root", "pr"], in: workspace.root)
    #expect(run.status == 65)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("pr/dotdot.yaml:5:16: error: track file '../secret/walk.gpx' leaves the root folder 'pr' (--root)\n"))
    let evil = try TrigsimBinary.run(["run", "pr/evil.yaml", "--root", "pr"], in: workspace.root)
    #expect(evil.status == 65)
    #expect(evil.stderr.hasPrefix("error: scenario 'pr/evil.yaml' leads outside the root folder 'pr' (--root) through a symbolic link\n"))
    #expect(!evil.stderr.contains(Self.secret))
  }

  @Test func recordWritesNoBaselineOutsideTheRoot() throws {
    let workspace = try pullRequest()
    try workspace.write("pr/named.yaml", Self.walk(track: "walk.gpx", extra: "expect: ../secret/s.timeline"))
    try workspace.write("pr/implied.yaml", Self.walk(track: "walk.gpx"))
    try FileManager.default.createSymbolicLink(atPath: workspace.path("pr/implied.timeline"), withDestinationPath: "../secret/s.timeline")
    let result = try TrigsimBinary.run(["record", "pr/named.yaml", "pr/implied.yaml", "--root", "pr"], in: workspace.root)
    #expect(result.status == 65)
    #expect(result.stderr.contains("pr/named.yaml:13:9: error: expected timeline '../secret/s.timeline' leaves the root folder 'pr' (--root)\n"))
    #expect(result.stderr.contains("pr/implied.yaml:1:1: error: expected timeline 'implied.timeline' leads outside the root folder 'pr' (--root) through a symbolic link\n"))
    #expect(workspace.read("secret/s.timeline") == Self.secret + "\n")
  }

  @Test func aRootThatIsNotAFolderIsAUsageError() throws {
    let workspace = try pullRequest()
    for command in ["test", "verify", "record", "run"] {
      let result = try TrigsimBinary.run([command, "pr/good.yaml", "--root", "missing"], in: workspace.root)
      #expect(result.status == 64, "\(command)")
      #expect(result.stderr.contains("--root 'missing' is not a folder"), "\(command)")
    }
  }
}
