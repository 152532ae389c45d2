import Foundation
import Testing
import TrigsimTestSupport

/// Issue 27, item 6: without `--root`, `/etc/passwd` named as GeoJSON, a
/// places CSV, an expected timeline or a CSV track printed its lines, a
/// one-line credentials file named as a CSV track printed the token, and
/// `test` copied them into its failure block. The quoting policy
/// (`ForeignFile`): a file whose first bytes are not its format is named,
/// never quoted, through `run`, `verify` and `test` alike.
@Suite struct ForeignFileCLITests {
  static let secret = "SECRET-MARKER-5d41402abc4b2a76"
  /// A password file's lines and a credentials file's only line.
  static let passwordFile = "root:x:0:0:\(secret):/root:/bin/bash\ndaemon:x:1:1:daemon,,,:/usr/sbin:/usr/sbin/nologin\n"
  static let credentialsFile = "api_token=\(secret)\n"
  static let head = "trigsim: 1\nclock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T07:00:00Z, timezone: UTC }\n"

  /// Each way a scenario can name a file, with the foreign file's name and the message.
  static let cases: [(yaml: String, file: String, message: String)] = [
    ("regions:\n  - { file: other }\n", "other",
     #"the file is not GeoJSON: it does not begin as an object with "type": "FeatureCollection""#),
    ("places:\n  shops: { file: other }\n", "other",
     "the file is not a places CSV: its first line names none of the columns id, latitude, longitude and radius"),
    ("track: { file: other, format: csv }\n", "other", "the file is not a CSV track: its first line names none of the columns a track has"),
    ("track: { file: creds, format: csv }\n", "creds", "the file is not a CSV track: its first line names none of the columns a track has"),
    ("expect: { file: other }\n", "other", "the file is not a trigsim timeline: its first line is not '# trigsim timeline 1'"),
  ]

  static func folder(scenario yaml: String) throws -> URL {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-foreign")
    try (head + yaml).write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    try passwordFile.write(to: folder.appendingPathComponent("other"), atomically: true, encoding: .utf8)
    try credentialsFile.write(to: folder.appendingPathComponent("creds"), atomically: true, encoding: .utf8)
    return folder
  }

  @Test(arguments: cases.indices)
  func aForeignFileIsNamedNeverQuoted(index: Int) throws {
    let (yaml, file, message) = Self.cases[index]
    let folder = try Self.folder(scenario: yaml)
    let command = yaml.hasPrefix("expect") ? "verify" : "run"
    let result = try TrigsimBinary.run([command, "s.yaml"], in: folder)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("\(file):1:1: error: \(message)\nnote: "), "\(result.stderr)")
    #expect(!result.stderr.contains(Self.secret) && !result.stdout.contains(Self.secret))
    #expect(!result.stderr.contains("root:x") && !result.stderr.contains("daemon"))
  }

  /// `test` prints a failure block per scenario and writes JUnit: neither quotes the file.
  @Test func testAndItsJUnitReportQuoteNoForeignFile() throws {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-foreign-test")
    for (index, (yaml, _, _)) in Self.cases.enumerated() {
      try (Self.head + yaml).write(to: folder.appendingPathComponent("s\(index).yaml"), atomically: true, encoding: .utf8)
    }
    try Self.passwordFile.write(to: folder.appendingPathComponent("other"), atomically: true, encoding: .utf8)
    try Self.credentialsFile.write(to: folder.appendingPathComponent("creds"), atomically: true, encoding: .utf8)
    let result = try TrigsimBinary.run(["test", ".", "--junit", "junit.xml", "--jobs", "2"], in: folder)
    #expect(result.status == 65)
    let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
    for (_, file, message) in Self.cases {
      #expect(result.stdout.contains("\(file):1:1: error: \(message)\nnote: "), "\(result.stdout)")
    }
    for text in [result.stdout, result.stderr, junit] {
      #expect(!text.contains(Self.secret))
      #expect(!text.contains("root:x"))
    }
  }
}

/// Issue 27, item 8: raw control characters (ESC, BEL, NUL) from names and
/// titles reached text and CSV timelines. Every text output escapes them
/// (`ControlCharacterEscape`); the text timeline reads back as `verify` needs.
@Suite struct ControlCharacterCLITests {
  static let scenario = """
    trigsim: 1
    name: "Clear\\e[2J screen\\a"
    clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T09:00:00Z, timezone: UTC }
    notifications:
      - { id: "bell\\a", title: "red\\e[31m title\\0", trigger: { interval: 1h } }
    medicines:
      - { id: 1, name: "Met\\e[5mformin", dosage: 500, unit: mg, times: ["08:00"] }

    """

  @Test(arguments: [["--summary"], ["--format", "csv"], ["--format", "text"]])
  func noRawControlCharacterReachesATextOutput(options: [String]) throws {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-controls")
    try Self.scenario.write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    let result = try TrigsimBinary.run(["run", "s.yaml"] + options, in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let raw = result.stdout.unicodeScalars.filter { $0 != "\n" && $0 != "\r" && ControlCharacterEscapeProbe.isControl($0) }
    #expect(raw.isEmpty, "raw controls: \(raw.map { String($0.value, radix: 16) })")
    #expect(result.stdout.contains(#"\u{1B}[31m title\u{0}"#))
    #expect(result.stdout.contains(#"bell\u{7}"#))
    if options == ["--summary"] { #expect(result.stdout.contains(#"Met\u{1B}[5mformin"#)) }
  }

  /// The escaped text timeline is an expected timeline `verify` reads back.
  @Test func anEscapedTimelineVerifies() throws {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-controls-verify")
    try Self.scenario.write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    let record = try TrigsimBinary.run(["record", "s.yaml"], in: folder)
    #expect(record.status == 0, "\(record.stderr)")
    let verify = try TrigsimBinary.run(["verify", "s.yaml"], in: folder)
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
  }
}

/// Category Cc, independently of the rule under test.
enum ControlCharacterEscapeProbe {
  static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .control }
}
