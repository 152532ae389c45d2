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
    var peakResidentMegabytes: Double
    var stderr: String
  }

  /// Runs `trigsim arguments…` and returns its own resource use (wait4 on
  /// its pid, so no other child of the test process counts).
  static func runMeasured(_ arguments: [String], stderrPath: String) throws -> Usage {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let all = [TrigsimBinary.url.path] + arguments
    let argv = all.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let environment = ProcessInfo.processInfo.environment.filter { $0.key != "CI" }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { environment.forEach { free($0) } }
    guard posix_spawn(&pid, all[0], &actions, nil, argv, environment) == 0 else {
      throw CocoaError(.executableNotLoadable)
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return Usage(
      status: (status >> 8) & 0xff, cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
      peakResidentMegabytes: Double(usage.ru_maxrss) / 1024, stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
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
    let usage = try Self.runMeasured(["run", scenario], stderrPath: folder.appendingPathComponent("stderr.txt").path)
    #expect(usage.status == 65, "\(usage.stderr)")
    #expect(usage.stderr.contains(inKeys ? "error: alias '*l0' in a mapping key" : "error: alias '*l4' makes the aliases of this document expand"))
    #expect(usage.cpuSeconds < 1, "CPU time \(usage.cpuSeconds) s")
    #expect(usage.peakResidentMegabytes < 64, "peak RSS \(usage.peakResidentMegabytes) MB")
  }
}
