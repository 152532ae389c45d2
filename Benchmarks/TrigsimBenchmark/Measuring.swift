// Measuring commands: each as a child process (wall time, and peak memory from
// wait4's rusage), the median of several, and paired rounds of two commands.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

struct Measurement {
  var seconds: Double
  var peakResidentBytes: Int
}

/// Seconds on the monotonic clock, for differences only.
func monotonicSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs `arguments` with stdout to /dev/null (and stderr, when it is
/// expected to fail); returns wall time and peak RSS. The command must exit
/// with `expectedStatus`.
func measure(_ arguments: [String], expectedStatus: Int32 = 0) -> Measurement {
  var pid: pid_t = 0
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  // An expected failure's message is not the benchmark's output.
  if expectedStatus != 0 { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
  let argv = arguments.map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  let started = monotonicSeconds()
  guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else {
    fatalError("cannot start \(arguments[0])")
  }
  var status: Int32 = 0
  var usage = rusage()
  wait4(pid, &status, 0, &usage)
  let elapsed = monotonicSeconds() - started
  posix_spawn_file_actions_destroy(&actions)
  let exitStatus = (status >> 8) & 0xff
  guard exitStatus == expectedStatus && (status & 0x7f) == 0 else {
    fatalError("\(arguments.joined(separator: " ")) exited with status \(exitStatus), expected \(expectedStatus)")
  }
  return Measurement(seconds: elapsed, peakResidentBytes: Int(usage.ru_maxrss) * 1024)
}

/// The middle of `values` (the upper one of two when their count is even): the median of rounds and of per-round ratios.
func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Median wall time and largest peak memory of `runs` measurements of `arguments`.
func median(_ runs: Int, _ arguments: [String], expectedStatus: Int32 = 0) -> Measurement {
  let results = (0..<runs).map { _ in measure(arguments, expectedStatus: expectedStatus) }
  let times = results.map(\.seconds).sorted()
  return Measurement(seconds: times[times.count / 2], peakResidentBytes: results.map(\.peakResidentBytes).max()!)
}

/// `rounds` paired runs of two commands, alternating which goes first: each
/// one's seconds, the per-round ratio candidate ÷ baseline, and the candidate's peak memory.
func pairedRounds(_ rounds: Int, baseline: [String], candidate: [String])
  -> (baseline: [Double], candidate: [Double], ratios: [Double], candidatePeak: Int)
{
  var baselineRuns: [Double] = [], candidateRuns: [Double] = [], ratios: [Double] = [], peak = 0
  for round in 0..<rounds {
    let order = round % 2 == 0 ? [baseline, candidate] : [candidate, baseline]
    var seconds: [[String]: Double] = [:]
    for command in order {
      let measurement = measure(command)
      seconds[command] = measurement.seconds
      if command == candidate { peak = max(peak, measurement.peakResidentBytes) }
    }
    baselineRuns.append(seconds[baseline]!)
    candidateRuns.append(seconds[candidate]!)
    ratios.append(seconds[candidate]! / seconds[baseline]!)
  }
  return (baselineRuns, candidateRuns, ratios, peak)
}

extension Benchmark {
  /// Two scenarios (`benchmark-<days>d-<name>.yaml`) run in paired rounds
  /// with `trigsim run`: `pairedRounds`' figures and each run's timeline lines.
  func pairedScenarios(_ rounds: Int, days: Int, baseline: (name: String, text: String), candidate: (name: String, text: String)) throws
    -> (baseline: [Double], candidate: [Double], ratios: [Double], candidatePeak: Int, baselineLines: [Substring], candidateLines: [Substring])
  {
    var commands: [[String]] = [], outputs: [String] = []
    for (name, text) in [baseline, candidate] {
      let path = "\(workDirectory)/benchmark-\(days)d-\(name).yaml"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      outputs.append("\(workDirectory)/benchmark-\(days)d-\(name).timeline")
      commands.append([trigsim, "run", path, "--output", outputs.last!])
    }
    let runs = pairedRounds(rounds, baseline: commands[0], candidate: commands[1])
    let lines = try outputs.map { try String(contentsOfFile: $0, encoding: .utf8).split(separator: "\n") }
    return (runs.baseline, runs.candidate, runs.ratios, runs.candidatePeak, lines[0], lines[1])
  }
}
