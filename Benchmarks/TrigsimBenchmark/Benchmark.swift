// What one invocation of the benchmark program measures with: the options of
// its command line and the `trigsim` beside it. Each table is a method of
// `Benchmark`, in a file named for the table; main.swift runs them in order.

import Foundation

struct Benchmark {
  /// `--runs N`: how many times each command is measured (or how many rounds are run); the median is reported.
  var runs = 5
  /// `--days 1,7,30`: the lengths of the synthetic 1 Hz tracks, in days.
  var dayCounts = [1, 7, 30]
  /// `--work-dir DIR`: where tracks, scenarios and timelines are written (tracks once per folder).
  var workDirectory = NSTemporaryDirectory() + "trigsim-benchmark"
  /// `--trials N`: the trials table's and the sharded trials' count.
  var trialCount = 1000
  /// `--month-dir DIR`: where the track-reading table finds `month.gpx` and `month.csv` (else the work folder).
  var monthDirectory: String?
  /// `--before PATH`: the `trigsim` the app-seam table compares this build with.
  var beforeTrigsim: String?

  /// The folder this program was built into (`.build/release`), which holds the `trigsim` it measures.
  var productsFolder: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }
  /// The `trigsim` of this build, which every table runs.
  var trigsim: String { productsFolder.appendingPathComponent("trigsim").path }
}
