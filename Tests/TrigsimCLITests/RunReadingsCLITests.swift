import Foundation
import Testing
import TrigsimTestSupport

/// `run` says how it read what a scenario leaves open (an instant without a
/// UTC offset) as warnings at the values, then runs; a key written where it
/// does not belong is an error naming where it goes (issue 45, item 8).
@Suite struct RunReadingsCLITests {
  static func scenario(start: String, platform: String = "") -> String {
    """
    trigsim: 1
    clock: { start: \(start), end: 2026-05-05T09:00:00+02:00, timezone: Europe/Copenhagen }
    \(platform)medicines:
      - { id: met, name: Metformin, dosage: 500, unit: mg, times: ["08:00"] }

    """
  }

  @Test func aClockStartWithoutAnOffsetRunsWithAWarningSayingHowItWasRead() throws {
    let workspace = try Workspace()
    try workspace.write("s.yaml", Self.scenario(start: "2026-05-05 06:00"))
    let result = try TrigsimBinary.run(["run", "s.yaml"], in: workspace.root)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr == """
        s.yaml:2:17: warning: clock start '2026-05-05 06:00' has no UTC offset: read as 2026-05-05T06:00:00+02:00, local time in Europe/Copenhagen (the device zone)
            clock: { start: 2026-05-05 06:00, end: 2026-05-05T09:00:00+02:00, timezone: Europe/Copenhagen }
                            ^
        note: write '2026-05-05T06:00:00+02:00' to state it

        """)
    #expect(result.stdout.contains("# clock: 2026-05-05T06:00:00.000+02:00 to 2026-05-05T09:00:00.000+02:00 (end inclusive)\n"), "\(result.stdout)")
  }

  @Test func aStatedOffsetRunsWithoutAWarning() throws {
    let workspace = try Workspace()
    try workspace.write("s.yaml", Self.scenario(start: "2026-05-05T06:00:00+02:00"))
    let result = try TrigsimBinary.run(["run", "s.yaml"], in: workspace.root)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test func anAndroidKeyUnderPlatformIsAnErrorNamingWhereItBelongs() throws {
    let workspace = try Workspace()
    try workspace.write("s.yaml", Self.scenario(start: "2026-05-05T06:00:00+02:00", platform: "platform: { exactAlarms: denied }\n"))
    let result = try TrigsimBinary.run(["run", "s.yaml"], in: workspace.root)
    #expect(result.status == 65)
    #expect(
      result.stderr == """
        s.yaml:3:13: error: unknown key 'exactAlarms' in 'platform': it belongs under 'platform: { android: { exactAlarms: … } }'
            platform: { exactAlarms: denied }
                        ^
        note: move it there
        1 error found; nothing was written.

        """)
  }
}
