import Foundation
import Testing
import TrigsimTestSupport

/// Issue 41, finding 12: messages at the value, one per cause, notes that
/// match the rule, and a file name that is not UTF-8 said to be so.
@Suite struct MessagesRoundFourCLITests {
  /// A trial partial (`t.json`) and a test partial (`s.json`) of the quick stop, in a new folder.
  static func partials() throws -> Workspace {
    let workspace = try Workspace()
    let trials = try TrigsimBinary.run(
      ["run", "scenarios/pharmacy-quick-stop.yaml", "--trials", "4", "--shard", "1/1", "--output", workspace.path("t.json")])
    #expect(trials.status == 0, "\(trials.stderr)")
    let test = try TrigsimBinary.run(["test", "scenarios/pharmacy-quick-stop.yaml", "--jobs", "1", "--partial", workspace.path("s.json")])
    #expect(test.status == 0, "\(test.stderr)")
    return workspace
  }

  /// `merge` of `file` after replacing `old` with `new` in it.
  static func merge(_ workspace: Workspace, _ file: String, replacing old: String, with new: String) throws -> TrigsimBinary.Result {
    let text = try #require(workspace.read(file))
    #expect(text.contains(old))
    try workspace.write("edited.json", text.replacingOccurrences(of: old, with: new))
    return try TrigsimBinary.run(["merge", "edited.json"], in: workspace.root)
  }

  /// The line and column of the first `needle` in `file`'s text, 1-based.
  static func position(of needle: String, in workspace: Workspace) throws -> String {
    let lines = try #require(workspace.read("edited.json")).components(separatedBy: "\n")
    let line = try #require(lines.firstIndex { $0.contains(needle) })
    let column = lines[line].unicodeScalars.distance(from: lines[line].unicodeScalars.startIndex, to: lines[line].range(of: needle)!.lowerBound.samePosition(in: lines[line].unicodeScalars)!)
    return "\(line + 1):\(column + 1)"
  }

  @Test func aNumberOutOfRangeInAPartialIsNamedAtTheValue() throws {
    let workspace = try Self.partials()
    for number in ["1e400", "12345678901234567890123456789012"] {
      let result = try Self.merge(workspace, "t.json", replacing: "\"seed\" : 2026,", with: "\"seed\" : \(number),")
      #expect(result.status == 65)
      let at = try Self.position(of: number, in: workspace)
      #expect(result.stderr.hasPrefix("edited.json:\(at): error: the number '\(number)' is out of range\n"), "\(result.stderr)")
      #expect(!result.stderr.contains("not valid JSON"))
    }
  }

  @Test func aKeyGivenTwiceInAPartialIsRefusedAsInAJSONTimeline() throws {
    let workspace = try Self.partials()
    let result = try Self.merge(workspace, "t.json", replacing: "\"seed\" : 2026,", with: "\"seed\" : 7, \"seed\" : 2026,")
    #expect(result.status == 65)
    let at = try Self.position(of: "\"seed\" : 7", in: workspace)
    #expect(result.stderr.hasPrefix("edited.json:\(at): error: key 'seed' appears more than once in an object\n"), "\(result.stderr)")
  }

  @Test func aStatusThatIsNoneOfItsValuesNamesTheValuesAllowed() throws {
    let workspace = try Self.partials()
    let result = try Self.merge(workspace, "s.json", replacing: "\"status\" : \"passed\"", with: "\"status\" : \"pwned\"")
    #expect(result.status == 65)
    let at = try Self.position(of: "\"pwned\"", in: workspace)
    #expect(result.stderr.hasPrefix("""
      edited.json:\(at): error: 'status' is 'pwned', not one of its values
      """), "\(result.stderr)")
    #expect(result.stderr.contains(
      "note: status is one of: passed, failed, skipped, invalidInput, cannotRead, cannotWrite, internalError, crashed, timedOut, memoryExceeded\n"))
    #expect(!result.stderr.contains("too large"))
  }

  /// Issue 41, finding 10: a forged partial's miss reason with a line break added a line of its choosing to the report.
  @Test func aForgedReasonWithALineBreakStaysOnItsLine() throws {
    let workspace = try Self.partials()
    let result = try Self.merge(workspace, "t.json", replacing: "\"reason\" : \"the device", with: "\"reason\" : \"one\\u001b[2J\\nforged: the device")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(": one\\u{1B}[2J\\u{A}forged: the device"), "\(result.stdout)")
    #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("forged:") })
    #expect(!result.stdout.contains("\u{1B}"))
  }

  @Test func aPolicyStepsRefusedAfterIsOneErrorNotTwo() throws {
    let workspace = try Workspace()
    try workspace.write("s.yaml", """
      trigsim: 1
      clock: { start: 2026-05-05T06:00:00+02:00, end: 2026-05-05T09:00:00+02:00, timezone: Europe/Copenhagen }
      medicines:
        - { id: lev, name: Levothyroxine, dosage: 50, unit: µg, times: ["07:00"], snooze: none }
      policy: { dailyReminders: server }
      server:
        policy:
          - { channel: push, after: 1h }
          - { channel: sms, after: 99999999d }
        devices:
          - { id: phone }

      """)
    let result = try TrigsimBinary.run(["run", "s.yaml"], in: workspace.root)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("s.yaml:9:30: error: after '99999999d' is longer than the longest duration"), "\(result.stderr)")
    #expect(result.stderr.hasSuffix("1 error found; nothing was written.\n"), "\(result.stderr)")
    #expect(!result.stderr.contains("earlier than the step before it"))
  }

  @Test func theNoteOfAnAndroidSpanStatesTheLimitItGoesWith() throws {
    let workspace = try Workspace()
    try workspace.write("s.yaml", """
      trigsim: 1
      clock: { start: 2026-05-05T06:00:00+02:00, end: 2026-05-05T09:00:00+02:00, timezone: Europe/Copenhagen }
      platform: { device: android, android: { inexactWindow: 8d } }

      """)
    let result = try TrigsimBinary.run(["run", "s.yaml"], in: workspace.root)
    #expect(result.status == 65)
    #expect(result.stderr.contains("error: inexactWindow must be at most 7d, not 8d\n"), "\(result.stderr)")
    #expect(result.stderr.contains("note: at most 7d: no Android alarm or Doze rule spans more than a day, and a week is far past any\n"), "\(result.stderr)")
  }

  @Test func aFileNameThatIsNotUTF8IsSaidToBeSoEscaped() throws {
    let workspace = try Workspace()
    // A name with the byte 0xFF, made by the shell (Foundation cannot name such a file).
    let shell = try TrigsimBinary.runProcess(
      URL(fileURLWithPath: "/bin/sh"), ["-c", "printf 'trigsim: 1\\n' > \"$(printf 'a\\377b.yaml')\" && \"$0\" run \"$(printf 'a\\377b.yaml')\"", TrigsimBinary.url.path],
      in: workspace.root)
    #expect(shell.status == 66)
    #expect(shell.stderr == "error: argument 2, 'a\\xFFb.yaml', is not UTF-8\nnote: trigsim reads file names and options as UTF-8; rename the file to a UTF-8 name\n", "\(shell.stderr)")
  }
}
