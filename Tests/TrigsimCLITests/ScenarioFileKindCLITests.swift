import Foundation
import Testing
import TrigsimScenario
import TrigsimTestSupport

/// Issue 41, items 1, 2 and 11: an `X.assumptions` linked to `/etc/passwd`
/// was printed whole past `--root`, an `X.platforms` was quoted without a
/// format check, and baselines and partials had no size cap. The rule now
/// is one policy for every kind of file a scenario names or implies
/// (`ScenarioFileKind`); this suite enumerates `ScenarioFileKind.allCases`
/// (an exhaustive switch: a new kind does not compile without its fixture)
/// and tries each kind four ways through the command line: a symbolic link
/// out of `--root`, a hard link to a file outside it, somebody else's file
/// in its place, and a file one byte over its size limit. Each is refused
/// with exit 65, naming the file, and nothing of the foreign file reaches
/// standard output, standard error or the JUnit report.
@Suite struct ScenarioFileKindCLITests {
  static let secret = "SECRET-MARKER-41d8cd98f00b204e"
  static let passwordFile = "root:x:0:0:\(secret):/root:/bin/bash\nhttps://user:\(secret)@example.invalid\n"
  static let head = "trigsim: 1\nclock: { start: 2026-05-04T07:00:00+02:00, end: 2026-05-04T09:00:00+02:00, timezone: Europe/Copenhagen }\n"
  static let medicine = "medicines:\n  - { id: 1, name: Metformin, dosage: 500, unit: mg, times: [\"08:00\"] }\n"

  /// How each kind is reached: the scenario (`s.yaml`) that names or implies
  /// the file, the file's name beside it, and the command that reads it.
  struct Fixture {
    var scenario: String
    var file: String
    var arguments: [String]
    /// Whether the kind obeys `--root` (a partial is `merge`'s own argument).
    var followsRoot = true
    /// Whether somebody else's text in its place is refused (the scenario
    /// itself is what the user asked to run: its own reader quotes it).
    var checksFormat = true
  }

  static func fixture(_ kind: ScenarioFileKind) -> Fixture {
    let test = ["test", "s.yaml", "--root", ".", "--junit", "junit.xml"]
    switch kind {
    case .scenario: return Fixture(scenario: head + medicine, file: "s.yaml", arguments: test, checksFormat: false)
    case .track: return Fixture(scenario: head + medicine + "track: { file: t.csv, format: csv }\n", file: "t.csv", arguments: test)
    case .regions: return Fixture(scenario: head + medicine + "regions:\n  - { file: r.geojson }\n", file: "r.geojson", arguments: test)
    case .places: return Fixture(scenario: head + medicine + "places:\n  shops: { file: p.csv }\n", file: "p.csv", arguments: test)
    case .expectedTimeline: return Fixture(scenario: head + medicine, file: "s.timeline", arguments: test)
    case .expectedDoses: return Fixture(scenario: head + medicine, file: "s.doses", arguments: test)
    case .expectedAssumptions: return Fixture(scenario: head + medicine, file: "s.assumptions", arguments: test)
    case .expectedPlatforms: return Fixture(scenario: head + medicine + "platforms: [ios, android]\n", file: "s.platforms", arguments: test)
    case .expectedTrials: return Fixture(scenario: head + medicine + "trials: { count: 2, seed: 1 }\n", file: "s.trials", arguments: test)
    case .partial: return Fixture(scenario: head + medicine, file: "p.json", arguments: ["merge", "p.json"], followsRoot: false)
    }
  }

  enum Attack: CaseIterable {
    case symbolicLinkOutOfRoot, hardLinkOutOfRoot, foreignFile, oneByteOverTheLimit
  }

  /// `root/` (the scenario and the kind's file) beside `outside/secret`.
  static func layout(_ kind: ScenarioFileKind, _ attack: Attack) throws -> (root: URL, fixture: Fixture)? {
    let fixture = fixture(kind)
    let top = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-file-kind")
    let root = top.appendingPathComponent("root"), outside = top.appendingPathComponent("outside")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    let secret = outside.appendingPathComponent("secret")
    try passwordFile.write(to: secret, atomically: true, encoding: .utf8)
    let target = root.appendingPathComponent(fixture.file)
    if fixture.file != "s.yaml" { try fixture.scenario.write(to: root.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8) }
    switch attack {
    case .symbolicLinkOutOfRoot:
      guard fixture.followsRoot else { return nil }
      try FileManager.default.createSymbolicLink(atPath: target.path, withDestinationPath: "../outside/secret")
    case .hardLinkOutOfRoot:
      guard fixture.followsRoot else { return nil }
      try FileManager.default.linkItem(at: secret, to: target)
    case .foreignFile:
      guard fixture.checksFormat else { return nil }
      try passwordFile.write(to: target, atomically: true, encoding: .utf8)
    case .oneByteOverTheLimit:
      guard let limit = kind.byteLimit else { return nil }  // a track is streamed, in bounded memory
      // A sparse file: its size says it is over the limit, and no byte of it may be read.
      #expect(FileManager.default.createFile(atPath: target.path, contents: Data(passwordFile.utf8)))
      let handle = try FileHandle(forWritingTo: target)
      try handle.truncate(atOffset: UInt64(limit) + 1)
      try handle.close()
    }
    return (root, fixture)
  }

  static let cases: [(ScenarioFileKind, Attack)] = ScenarioFileKind.allCases.flatMap { kind in Attack.allCases.map { (kind, $0) } }

  @Test(arguments: cases.indices)
  func everyKindOfFileIsReadUnderThePolicy(index: Int) throws {
    let (kind, attack) = Self.cases[index]
    guard let (root, fixture) = try Self.layout(kind, attack) else { return }
    defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
    let result = try TrigsimBinary.run(fixture.arguments, in: root)
    let junit = (try? String(contentsOf: root.appendingPathComponent("junit.xml"), encoding: .utf8)) ?? ""
    let everything = result.stdout + result.stderr + junit
    #expect(result.status == 65, "\(kind) \(attack): exit \(result.status)\n\(result.stderr)\(result.stdout)")
    #expect(!everything.contains(Self.secret) && !everything.contains("root:x"), "\(kind) \(attack) quoted the file:\n\(everything)")
    let expected: String
    switch attack {
    case .symbolicLinkOutOfRoot: expected = "leads outside the root folder '.' (--root) through a symbolic link"
    case .hardLinkOutOfRoot: expected = "has 2 hard links, so it may be a file outside the root folder '.' (--root)"
    case .foreignFile: expected = "\(fixture.file):1:1: error: the file is not "
    case .oneByteOverTheLimit: expected = "is \(kind.byteLimit! + 1) bytes, more than the \(kind.byteLimit! >> 20) MiB"
    }
    #expect(result.stderr.contains(expected) || result.stdout.contains(expected), "\(kind) \(attack):\n\(result.stderr)\(result.stdout)")
  }

  /// The reproducer, as a team would meet it: `s.assumptions` linked
  /// to a credentials file, for a scenario without `robust: true`, under
  /// `verify --root`: refused at the scenario, the token never printed.
  @Test func anAssumptionReportLinkedOutOfTheRootIsNeverQuoted() throws {
    guard let (root, _) = try Self.layout(.expectedAssumptions, .symbolicLinkOutOfRoot) else { return }
    defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
    let result = try TrigsimBinary.run(["verify", "s.yaml", "--root", "."], in: root)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix(
      "s.yaml:1:1: error: expected assumption report 's.assumptions' leads outside the root folder '.' (--root) through a symbolic link\n"),
      "\(result.stderr)")
    #expect(!(result.stdout + result.stderr).contains(Self.secret))
  }
}
