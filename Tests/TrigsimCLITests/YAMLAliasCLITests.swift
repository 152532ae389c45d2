import Foundation
import Testing
import TrigsimTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 10's billion laughs, run as a whole `trigsim` process: refused with
/// exit 65 in under a second of CPU time and under 64 MB of memory.
@Suite struct YAMLAliasCLITests {
  struct Usage {
    var status: Int32
    var cpuSeconds: Double
    /// Nil without GNU time (see `runMeasured`).
    var peakResidentMegabytes: Double?
    var stderr: String
  }

  /// GNU time, which reports a command's own peak memory.
  static let gnuTime = "/usr/bin/time"

  /// Runs `trigsim arguments…` and returns its resource use.
  ///
  /// The peak memory comes from GNU time when it is installed: posix_spawn
  /// starts a child in the test process's memory (vfork), and Linux then
  /// counts the test process's peak as the child's, so wait4 on trigsim
  /// itself cannot tell. GNU time forks trigsim from its own small process.
  static func runMeasured(_ arguments: [String], in folder: URL) throws -> Usage {
    let stderrPath = folder.appendingPathComponent("stderr.txt").path
    let timePath = folder.appendingPathComponent("time.txt").path
    let measuresMemory = FileManager.default.isExecutableFile(atPath: gnuTime)
    let command = (measuresMemory ? [gnuTime, "-o", timePath, "-f", "%M"] : []) + [TrigsimBinary.url.path] + arguments
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let environment = ProcessInfo.processInfo.environment.filter { $0.key != "CI" }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { environment.forEach { free($0) } }
    guard posix_spawn(&pid, command[0], &actions, nil, argv, environment) == 0 else {
      throw CocoaError(.executableNotLoadable)
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    // CPU time is not inherited through vfork: wait4's figure (with GNU time's
    // own few milliseconds, when it is used) is trigsim's.
    let kilobytes = (try? String(contentsOfFile: timePath, encoding: .utf8))?.split(separator: "\n").last.flatMap { Double($0) }
    return Usage(
      status: (status >> 8) & 0xff, cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
      peakResidentMegabytes: kilobytes.map { $0 / 1024 }, stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
  }

  static func laughs(inKeys: Bool) -> String {
    var text = "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T12:00:00+01:00, timezone: UTC }\nlaughs:\n  l0: &l0 lol\n"
    for level in 1...9 {
      let list = "[" + Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ") + "]"
      text += inKeys ? "  l\(level): &l\(level) { ? \(list) : 1 }\n" : "  l\(level): &l\(level) \(list)\n"
    }
    return text
  }

  @Test(arguments: [true, false])
  func billionLaughsIsRefusedQuicklyInLittleMemory(inKeys: Bool) throws {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-laughs")
    defer { try? FileManager.default.removeItem(at: folder) }
    let scenario = folder.appendingPathComponent("laughs.yaml").path
    try Self.laughs(inKeys: inKeys).write(toFile: scenario, atomically: true, encoding: .utf8)
    let usage = try Self.runMeasured(["run", scenario], in: folder)
    #expect(usage.status == 65, "\(usage.stderr)")
    #expect(usage.stderr.contains(inKeys ? "error: alias '*l0' in a mapping key" : "error: alias '*l4' makes the aliases of this document expand"))
    #expect(usage.cpuSeconds < 1, "CPU time \(usage.cpuSeconds) s")
    if FileManager.default.isExecutableFile(atPath: Self.gnuTime) {
      let megabytes = try #require(usage.peakResidentMegabytes)
      #expect(megabytes < 64, "peak RSS \(megabytes) MB")
    }
  }
}
