import Foundation
import Testing
import TrigsimTestSupport

/// The reproducers of the "track files that are not files" issue, run through
/// the binary: each ends at once with exit 65 and a located error.
@Suite struct TrackFileCLITests {
  /// Runs `trigsim run` on a scenario whose track line is `track`, line 3.
  func run(track: String, extraFiles: [String: String] = [:], environment: [String: String] = [:]) throws
    -> TrigsimBinary.Result
  {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-track-cli")
    try """
      trigsim: 1
      clock: { start: 2026-03-28T06:00:00Z, end: 2026-03-28T07:00:00Z, timezone: UTC }
      \(track)

      """.write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    for (name, text) in extraFiles {
      try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return try TrigsimBinary.run(["run", "s.yaml"], in: folder, environment: environment)
  }

  @Test(arguments: ["/dev/zero", "/dev/urandom"])
  func aDeviceAsTheTrackIsRefused(device: String) throws {
    let result = try run(track: "track: { file: \(device), format: csv }")
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("s.yaml:3:16: error: track file '\(device)' is a character device, not a regular file"))
    #expect(result.stdout.isEmpty)
  }

  @Test func theEnvironmentInProcIsNeverPrinted() throws {
    let secret = "ci-token-5d41402abc4b2a76"
    let result = try run(
      track: "track: { file: /proc/self/environ, format: csv }", environment: ["TRIGSIM_CI_SECRET": secret])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("s.yaml:3:16: error: track file '/proc/self/environ' is a file of the kernel's procfs"))
    #expect(!result.stderr.contains(secret))
    #expect(!result.stdout.contains(secret))
  }

  @Test func aTinyUntimedSpeedIsALocatedErrorNotACrash() throws {
    let result = try run(
      track: "track: { file: t.csv, untimedSpeed: 1e-12 }",
      extraFiles: ["t.csv": "time,lat,lon\n2026-03-28T06:00:00Z,55.0,12.0\n,55.1,12.0\n"])
    #expect(result.status == 65)
    #expect(result.stderr.contains("t.csv:3:1: error: the point has no time"), "\(result.stderr)")
  }

  @Test func aLineWithoutAnEndIsALocatedErrorNotAMemoryHog() throws {
    let result = try run(
      track: "track: { file: t.csv }",
      extraFiles: ["t.csv": "time,lat,lon\n" + String(repeating: "1", count: 1 << 20)])
    #expect(result.status == 65)
    #expect(result.stderr.contains("t.csv:2:1: error: line is longer than 65536 bytes"), "\(result.stderr)")
  }
}

@Suite struct GenerateTrackArgumentCLITests {
  @Test func daysPastTheYear9999AreAUsageErrorNotATrap() throws {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-generate-cli")
    // Within the --days range, but past the year 9999 from this start.
    let result = try TrigsimBinary.run(
      ["generate-track", "--start", "9990-01-01T00:00:00Z", "--days", "36500", "--output", "t.csv"], in: folder)
    #expect(result.status == 64)
    #expect(result.stderr.contains("36500 days from 9990-01-01T00:00:00.000Z would end after the year 9999"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("t.csv").path))
  }
}
