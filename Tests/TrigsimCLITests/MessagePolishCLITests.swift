import Foundation
import Testing
import TrigsimTestSupport

/// The small silences and help texts of issue 13: what each command says
/// where it used to say too little or something misleading.
@Suite struct MessagePolishCLITests {
  func temporaryDirectory() throws -> URL { try TrigsimBinary.temporaryDirectory(prefix: "trigsim-polish") }

  @Test func aOneFixTrackIsOneFixAndUTCIsNamedAsWritten() throws {
    let folder = try temporaryDirectory()
    try "time,latitude,longitude\n2026-05-04T07:00:00Z,55.0,12.0\n".write(to: folder.appendingPathComponent("one.csv"), atomically: true, encoding: .utf8)
    try """
      trigsim: 1
      clock: { start: 2026-05-04T07:00:00Z, end: 2026-05-04T07:00:00Z, timezone: UTC }
      track: { file: one.csv }

      """.write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    let result = try TrigsimBinary.run(["run", "s.yaml"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("# time zone: UTC\n"))
    #expect(result.stdout.contains("# track: one.csv, 1 fix read from 2026-05-04T07:00:00.000Z to 2026-05-04T07:00:00.000Z\n"))
  }

  @Test func anActionOnANotificationThePendingLimitDroppedSaysSo() throws {
    let folder = try temporaryDirectory()
    try """
      trigsim: 1
      clock: { start: 2026-05-04T07:00:00Z, end: 2026-05-04T09:00:00Z, timezone: UTC }
      platform: { pendingLimit: 1 }
      medicines:
        - { id: 1, name: M, dosage: 1, times: ["08:00"], snooze: { every: 6m, count: 1 } }
      actions:
        - { at: 2026-05-04T08:01:00, notification: medicine_1_reminder_0, action: complete }

      """.write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    let result = try TrigsimBinary.run(["run", "s.yaml"], in: folder)
    #expect(result.status == 65)
    #expect(result.stderr.contains("which is not in Notification Center: it was never delivered: dropped at 2026-05-04T07:00:00.000+00:00: pending limit of 1 reached"), "\(result.stderr)")
  }

  @Test func recordNamesTheScenarioWhoseTimelineItKept() throws {
    let folder = try temporaryDirectory()
    try """
      trigsim: 1
      clock: { start: 2026-05-04T07:00:00Z, end: 2026-05-04T08:00:00Z, timezone: UTC }
      notifications:
        - { id: a, title: A, trigger: { interval: 10m } }
      expect: none
      assert:
        - noPendingLimitDrops: true

      """.write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    let result = try TrigsimBinary.run(["record", "s.yaml"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("kept      s.yaml (no expected timeline: expect: none)\n"), "\(result.stdout)")
  }

  @Test func generateTrackNeedsAnOffsetOnStart() throws {
    let folder = try temporaryDirectory()
    let result = try TrigsimBinary.run(["generate-track", "--start", "2026-03-01T08:00:00", "--output", "x.csv"], in: folder)
    #expect(result.status == 64)
    #expect(result.stderr.contains("--start '2026-03-01T08:00:00' has no offset: write the zone's offset or Z, e.g. 2026-03-01T08:00:00+01:00 or 2026-03-01T08:00:00Z"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.csv").path))
  }

  /// The help text with its wrapping undone: one space between words.
  func flatHelp(_ command: String) throws -> String {
    try TrigsimBinary.run([command, "--help"]).stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
  }

  @Test func helpShowsOneDefaultForJobsAndOnlyWritingModesForRecord() throws {
    for command in ["test", "record"] {
      let help = try flatHelp(command)
      #expect(help.contains("--jobs <jobs> Scenarios run at once (default: the number of cores). --"), "\(help)")
    }
    #expect(try flatHelp("record").contains("--mode <mode> Which expected timelines to write. (values: missing, failed, all; default: all)"))
  }
}
