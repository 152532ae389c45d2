// Long tracks: peak memory of trials, flat in trials and workers (`--only
// long-trials`): the peak memory of trials on 12-day and 116-day 1 Hz tracks
// (1,036,800 and 10,022,400 fixes), with 2 and 6 trials on 1 and 2 workers,
// each in a `--trial-child` process.

// Not part of the full run: it writes a 411 MB track into the work folder once (about half a minute here, all told).

import Foundation

extension Benchmark {
  func measureLongTracks() throws {
    print("")
    print("long tracks: peak RSS of a child process running trials of the trials scenario on a 12-day (array) and a 116-day (compact) 1 Hz track")
    print("| track | fixes | trials | workers | peak RSS MB | s |")
    print("|---|---:|---:|---:|---:|---:|")
    let self_ = CommandLine.arguments[0]
    for days in [12, 116] {
      let (path, fixes) = try writeTrialsScenario(days: days)
      for (trials, jobs) in [(2, 1), (2, 2), (6, 1), (6, 2)] {
        let measured = median(1, [self_, "--trial-child", path, String(trials), String(jobs)])
        print(String(
          format: "| %d days | %d | %d | %d | %.0f | %.1f |", days, fixes, trials, jobs, Double(measured.peakResidentBytes) / 1_048_576,
          measured.seconds))
      }
    }
  }
}
