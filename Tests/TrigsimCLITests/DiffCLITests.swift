import Foundation
import Testing
import TrigsimTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--diff compact|full` and `--color auto|always|never` on `verify`, `run --expect` and `test`, with the built binary.
@Suite(.serialized) struct DiffCLITests {
  /// A folder with `base.yaml` (a medicine at 08:00 and 14:00 for seven days), its
  /// recorded `base.timeline`, and `moved.yaml`: the 14:00 moved to 14:01, expecting `base.timeline`.
  static func movedMedicineFolder() throws -> URL {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-diff")
    let scenario = { (time: String) in
      """
      trigsim: 1
      name: Seven days of Metformin
      clock: { start: 2026-05-04T06:00:00+02:00, end: 2026-05-11T06:00:00+02:00, timezone: Europe/Copenhagen }
      medicines:
        - { id: 1, name: Metformin, dosage: 500, unit: mg, times: ["08:00", "\(time)"] }
      respond:
        - { to: "medicine_*", after: 13m, actions: [complete] }
      expect: base.timeline

      """
    }
    try scenario("14:00").write(to: folder.appendingPathComponent("base.yaml"), atomically: true, encoding: .utf8)
    try scenario("14:01").write(to: folder.appendingPathComponent("moved.yaml"), atomically: true, encoding: .utf8)
    let recorded = try TrigsimBinary.run(["record", "base.yaml"], in: folder)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    return folder
  }

  /// The dose table's report, which leads: the seven 14:00 doses moved to 14:01. (The response at
  /// +13 min answers the dose's most recent notification, its second follow-up, `snooze_12`; the
  /// reminder and the first follow-up are cleared.)
  static let doseDiff = """
    doses differ from base.doses: 7 of 14 doses changed
    """ + "\n" + (4...10).map { day in
      "  Metformin 2026-05-\(String(format: "%02d", day)) 14:00 → 14:01 (as good for the patient): notified 14:00 alert → 14:01 alert; also completed 14:13 → 14:14 (base.doses:\(2 * day - 3))\n"
    }.joined()

  static let compactDiff = """
    timeline differs from base.timeline: 0 missing, 0 unexpected, 168 shifted by +1m, 12 changed
     1 × medicine medicine_1 changed: times (first: expected line 6, actual line 6)
     1 × scheduled medicine_1_reminder_1 changed: trigger, next (moved by +1m) (first: expected line 18, actual line 18)
    10 × scheduled medicine_1_snooze_* changed: trigger, next (moved by +1m) (first: expected line 19, actual line 19)
     7 × fired medicine_1_reminder_1 shifted by +1m (first: expected line 53, actual line 53)
    14 × fired medicine_1_snooze_* shifted by +1m (first: expected line 54, actual line 54)
     7 × action medicine_1_snooze_12 shifted by +1m (first: expected line 56, actual line 56)
    56 × removed medicine_1_snooze_* shifted by +1m (first: expected line 57, actual line 57)
     7 × cleared medicine_1_reminder_1 shifted by +1m (first: expected line 65, actual line 65)
     7 × cleared medicine_1_snooze_11 shifted by +1m (first: expected line 66, actual line 66)
    70 × scheduled medicine_1_snooze_* shifted by +1m (first: expected line 67, actual line 67)

    """

  @Test func verifyWithCompactDiffPrintsTheSummaryAndOneLinePerGroup() throws {
    let folder = try Self.movedMedicineFolder()
    let result = try TrigsimBinary.run(["verify", "moved.yaml", "--diff", "compact"], in: folder)
    #expect(result.status == 1)
    #expect(
      result.stdout == Self.doseDiff + Self.compactDiff
        + "moved.yaml: FAILED: doses differ: 7 of 14 doses changed; timeline differs: 0 missing, 0 unexpected, 168 shifted by +1m, 12 changed\n")
  }

  @Test func testAndRunExpectTakeTheCompactDiffToo() throws {
    let folder = try Self.movedMedicineFolder()
    let test = try TrigsimBinary.run(["test", "moved.yaml", "--diff", "compact", "--jobs", "1"], in: folder)
    #expect(test.status == 1)
    #expect(
      test.stdout.hasPrefix(
        "=== FAIL moved.yaml: doses differ: 7 of 14 doses changed; timeline differs: 0 missing, 0 unexpected, 168 shifted by +1m, 12 changed\n"
          + Self.doseDiff + Self.compactDiff + "\n"))
    // `run --expect FILE` compares the timeline it is given, and only that.
    let run = try TrigsimBinary.run(["run", "moved.yaml", "--expect", "base.timeline", "--diff", "compact"], in: folder)
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix(Self.compactDiff))
  }

  @Test func recordListsTheDoseTableAfterTheTimelineAndTheJUnitMessageNamesTheFirstChangedDose() throws {
    let folder = try Self.movedMedicineFolder()
    // The folder's base.yaml was recorded by `record`: both baselines were written and listed.
    let again = try TrigsimBinary.run(["record", "base.yaml"], in: folder)
    #expect(again.stdout == "unchanged base.timeline\nunchanged base.doses\n")
    let test = try TrigsimBinary.run(["test", "moved.yaml", "--junit", "junit.xml"], in: folder)
    #expect(test.status == 1)
    let report = try JUnitDocument(#require(FileManager.default.contents(atPath: folder.appendingPathComponent("junit.xml").path)))
    #expect(report.cases.first?.failureMessage == """
      dose changed: Metformin 2026-05-04 14:00 → 14:01 (as good for the patient): notified 14:00 alert → 14:01 alert; also completed 14:13 → 14:14 (and 6 more); \
      timeline differs: 0 missing, 0 unexpected, 168 shifted by +1m, 12 changed
      """)
    #expect(report.cases.first?.failureText?.hasPrefix(Self.doseDiff) == true)
  }

  @Test func anUnreadableTimelineStopsTheCheckBeforeTheDoseTableIsRecorded() throws {
    let folder = try Self.movedMedicineFolder()
    let doses = folder.appendingPathComponent("base.doses").path
    try FileManager.default.removeItem(atPath: doses)
    try Data([0xFF, 0xFE, 0x00]).write(to: folder.appendingPathComponent("base.timeline"))
    let result = try TrigsimBinary.run(["verify", "base.yaml", "--record", "missing"], in: folder)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("base.timeline:1:1: error: cannot read the expected timeline: the file is not UTF-8 text\n"))
    // `--record missing` would write a missing dose table; not for a check that cannot go on.
    #expect(!FileManager.default.fileExists(atPath: doses))
  }

  @Test func theFullDiffIsTheDefault() throws {
    let folder = try Self.movedMedicineFolder()
    let result = try TrigsimBinary.run(["verify", "moved.yaml"], in: folder)
    #expect(result.status == 1)
    #expect(result.stdout.contains("--- expected base.timeline\n+++ actual run of moved.yaml\n@@ expected line 6, actual line 6 @@\n"))
    #expect(result.stdout.components(separatedBy: "\n!   shifted by +1m (tolerance 0s)").count - 1 == 168)
    #expect(!result.stdout.contains("!   missing"))
  }

  @Test func aPipeIsNeverColouredUnlessAskedAndAlwaysColoursIt() throws {
    let folder = try Self.movedMedicineFolder()
    let plain = try TrigsimBinary.run(["verify", "moved.yaml", "--diff", "compact"], in: folder)
    #expect(!plain.stdout.contains("\u{1B}["))
    let colored = try TrigsimBinary.run(["verify", "moved.yaml", "--diff", "compact", "--color", "always"], in: folder, environment: ["NO_COLOR": "1"])
    #expect(colored.stdout.hasPrefix("\u{1B}[1mdoses differ from base.doses: 7 of 14 doses changed\u{1B}[0m\n\u{1B}[33m  Metformin 2026-05-04 14:00 → 14:01 (as good for the patient): "))
    #expect(colored.stdout.contains("\n\u{1B}[1mtimeline differs from base.timeline: "))
    #expect(colored.stdout.contains("\n\u{1B}[33m 7 × fired medicine_1_reminder_1 shifted by +1m (first: expected line 53, actual line 53)\u{1B}[0m\n"))
  }

  @Test(arguments: [
    // (options, environment, coloured)
    ([String](), ["NO_COLOR": ""], true),
    ([String](), ["NO_COLOR": "1"], false),
    (["--color", "never"], ["NO_COLOR": ""], false),
    (["--color", "always"], ["NO_COLOR": "1"], true),
  ])
  func aTerminalIsColouredUnlessNoColorOrNever(_ options: [String], _ environment: [String: String], _ colored: Bool) throws {
    let folder = try Self.movedMedicineFolder()
    let output = try Self.runOnTerminal(["verify", "moved.yaml", "--diff", "compact"] + options, in: folder, environment: environment)
    #expect(output.contains("timeline differs from base.timeline"))
    #expect(output.contains("\u{1B}[") == colored)
  }

  /// Runs trigsim with standard output on a new pseudo-terminal and returns what it wrote there.
  static func runOnTerminal(_ arguments: [String], in folder: URL, environment: [String: String]) throws -> String {
    // The C library's pseudo-terminal calls, looked up at run time (Glibc's module map leaves them out).
    func function<T>(_ name: String, as type: T.Type) throws -> T {
      let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), name), "\(name) not found in the C library")
      return unsafeBitCast(symbol, to: type)
    }
    let openTerminal = try function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    let grant = try function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    let unlock = try function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    let name = try function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
    let master = openTerminal(O_RDWR | O_NOCTTY)
    try #require(master >= 0 && grant(master) == 0 && unlock(master) == 0)
    let path = try #require(name(master))
    let terminal = FileHandle(forUpdatingAtPath: String(cString: path))
    let slave = try #require(terminal)
    let process = Process()
    process.executableURL = TrigsimBinary.url
    process.arguments = arguments
    process.currentDirectoryURL = folder
    var childEnvironment = ProcessInfo.processInfo.environment
    childEnvironment["CI"] = nil
    childEnvironment.merge(environment) { $1 }
    process.environment = childEnvironment
    process.standardOutput = slave
    process.standardError = FileHandle.nullDevice
    try process.run()
    try slave.close()
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(master, &buffer, buffer.count)  // EIO once the child has closed the terminal
      if count <= 0 { break }
      output += buffer[0..<count]
    }
    process.waitUntilExit()
    close(master)
    return String(decoding: output, as: UTF8.self)
  }
}
