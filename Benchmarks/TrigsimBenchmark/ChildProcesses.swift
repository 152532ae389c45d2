// The child processes this program starts of itself (`--trial-child`,
// `--read-track-child`, `--measure-child`), measuring one command alone in a
// launcher, and finding a tool on PATH.

import Foundation
import TrigsimCore
import TrigsimMedicineApp
import TrigsimScenario
import TrigsimTracks

#if canImport(Glibc)
  import Glibc
#endif

/// Child process of the memory measurement: runs `count` trials of `scenario` (on `jobs` workers, default every core) and exits.
func runTrialChild(_ arguments: [String]) {
  guard (2...3).contains(arguments.count), let count = Int(arguments[1]) else { fatalError("--trial-child SCENARIO COUNT [JOBS]") }
  do {
    let scenario = try ScenarioLoader().load(path: arguments[0])
    let jobs = arguments.count == 3 ? Int(arguments[2]) ?? 1 : ProcessInfo.processInfo.activeProcessorCount
    _ = try TrialRunner(scenario).run(TrialPlan(count: count, seed: 1, jobs: jobs))
  } catch {
    fatalError("\(error)")
  }
}

/// Child process of the track-reading measurement: reads every sample of the
/// track at `arguments[0]` and writes how many there were to `arguments[1]`.
func runReadTrackChild(_ arguments: [String]) {
  guard arguments.count == 2 else { fatalError("--read-track-child TRACK COUNT-FILE") }
  var fixes = 0
  do {
    try TrackFile(path: arguments[0]).readSamples { _ in
      fixes += 1
      return true
    }
    try String(fixes).write(toFile: arguments[1], atomically: true, encoding: .utf8)
  } catch {
    fatalError("\(error)")
  }
}

/// Child process that measures one command alone: runs `arguments[1...]`
/// with stdout to /dev/null and writes `seconds peakKB` to `arguments[0]`.
///
/// A command started straight from this process would inherit its peak
/// memory: posix_spawn execs in a vfork child that shares this process's
/// memory, and Linux keeps the larger high-water mark across exec. This
/// launcher is freshly started and small, and it forks (copying only its own
/// few MB) rather than vforks, so the command's ru_maxrss is its own.
func runMeasureChild(_ arguments: [String]) {
  guard arguments.count >= 2 else { fatalError("--measure-child RESULT-FILE COMMAND [ARGUMENT ...]") }
  let command = Array(arguments.dropFirst())
  let argv = command.map { strdup($0) } + [nil]
  let started = monotonicSeconds()
  let pid = fork()
  if pid == 0 {
    let devNull = open("/dev/null", O_WRONLY)
    dup2(devNull, 1)
    execv(command[0], argv)
    _exit(127)
  }
  guard pid > 0 else { fatalError("cannot fork") }
  var status: Int32 = 0
  var usage = rusage()
  wait4(pid, &status, 0, &usage)
  let elapsed = monotonicSeconds() - started
  guard (status & 0x7f) == 0 && (status >> 8) & 0xff == 0 else {
    fatalError("\(command.joined(separator: " ")) exited with status \((status >> 8) & 0xff)")
  }
  do {
    try "\(elapsed) \(usage.ru_maxrss)".write(toFile: arguments[0], atomically: true, encoding: .utf8)
  } catch {
    fatalError("\(error)")
  }
}

/// Median wall time and largest peak memory of `runs` runs of `arguments`,
/// each measured alone by a `--measure-child` launcher writing to `resultFile`.
func medianAlone(_ runs: Int, _ arguments: [String], resultFile: String) -> Measurement {
  let results = (0..<runs).map { _ -> Measurement in
    _ = measure([CommandLine.arguments[0], "--measure-child", resultFile] + arguments)
    let fields = ((try? String(contentsOfFile: resultFile, encoding: .utf8)) ?? "").split(separator: " ")
    guard fields.count == 2, let seconds = Double(fields[0]), let kilobytes = Int(fields[1]) else {
      fatalError("unreadable result from --measure-child")
    }
    return Measurement(seconds: seconds, peakResidentBytes: kilobytes * 1024)
  }
  let times = results.map(\.seconds).sorted()
  return Measurement(seconds: times[times.count / 2], peakResidentBytes: results.map(\.peakResidentBytes).max()!)
}

/// The first executable named `name` on PATH, or nil.
func executableOnPath(_ name: String) -> String? {
  let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
  return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}
