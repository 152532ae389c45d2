// trigsim-benchmark: measures the release `trigsim` beside it on synthetic
// 1 Hz tracks of 1, 7 and 30 days (--days) and on scenarios made from them,
// each table against a baseline measured in the same run. This file is the
// entry point: the command line and the order in which the tables run. Each
// table is a method of `Benchmark` in a file named for it, with what it
// measures at the top:
//
//   in the full run, in this order: Run.swift, MedicineAppOverhead.swift,
//   Verify.swift, Batches.swift, AttentionLayer.swift (attention),
//   Places.swift (places), Trials.swift (trials), ShardedTrials.swift
//   (shards), TrackReading.swift (io), Report.swift (report);
//   alone only (--only NAME): AppSeam.swift (app-seam), DoseTables.swift
//   (doses), TwoPhones.swift (android), EventStorms.swift (storms),
//   ServerSide.swift (server), AssumptionReport.swift (assumptions),
//   LongTracks.swift (long-trials), Scale.swift (scale).
//
// Measuring.swift measures commands, ChildProcesses.swift holds the child
// processes this program starts of itself, SyntheticInputs.swift the tracks
// and scenarios the tables share, and WrittenInputs.swift `--write-inputs`.
//
//   swift build -c release && .build/release/trigsim-benchmark [--runs 5] [--days 1,7,30] [--work-dir DIR] [--only trials|shards|io|attention|places|report|scale|long-trials|app-seam|doses|assumptions|android|storms|server] [--before PATH] [--month-dir DIR]
//   .build/release/trigsim-benchmark --write-inputs DIR [--days 1]   # writes the representative scenarios, prints "NAME PATH" for each
//
// Each measurement runs the command as a child process `--runs` times and
// reports the median wall time; peak memory is the child's maximum resident
// set size (getrusage via wait4). Tracks are generated once per work folder.
import Foundation

// MARK: - Arguments

var benchmark = Benchmark()
var only: String?
/// `--write-inputs DIR`: write the representative scenarios there and measure nothing.
var inputsFolder: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--only": only = arguments.popFirst()
  case "--trials": benchmark.trialCount = Int(arguments.popFirst() ?? "") ?? benchmark.trialCount
  case "--trial-child": runTrialChild(Array(arguments)); exit(0)
  case "--before": benchmark.beforeTrigsim = arguments.popFirst()
  case "--read-track-child": runReadTrackChild(Array(arguments)); exit(0)
  case "--measure-child": runMeasureChild(Array(arguments)); exit(0)
  case "--month-dir": benchmark.monthDirectory = arguments.popFirst()
  case "--runs": benchmark.runs = Int(arguments.popFirst() ?? "") ?? benchmark.runs
  case "--days": benchmark.dayCounts = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
  case "--work-dir": benchmark.workDirectory = arguments.popFirst() ?? benchmark.workDirectory
  case "--write-inputs" where !arguments.isEmpty: inputsFolder = arguments.popFirst()
  default:
    FileHandle.standardError.write(Data("""
      trigsim-benchmark: unknown argument '\(argument)'
      usage: trigsim-benchmark [--runs N] [--days 1,7,30] [--work-dir DIR] [--only trials|shards|io|attention|places|report|scale|long-trials|app-seam|doses|assumptions|android|storms|server] [--before PATH] [--month-dir DIR]
             trigsim-benchmark --write-inputs DIR [--days 1,7,30]
      (see the comment at the top of Benchmarks/TrigsimBenchmark/main.swift)

      """.utf8))
    exit(64)
  }
}
if let inputsFolder {
  try benchmark.writeInputs(to: inputsFolder)
  exit(0)
}
guard FileManager.default.isExecutableFile(atPath: benchmark.trigsim) else {
  fatalError("\(benchmark.trigsim) not found: run `swift build -c release` first")
}
try FileManager.default.createDirectory(atPath: benchmark.workDirectory, withIntermediateDirectories: true)

// MARK: - The tables, in order

if only == nil {
  try benchmark.measureRun()
  // The next two read the scenarios and timelines the one before wrote.
  try benchmark.measureMedicineAppOverhead()
  try benchmark.measureVerify()
  try benchmark.measureBatches()
}
if only == nil || only == "attention" { try benchmark.measureAttentionLayer() }
if only == nil || only == "places" { try benchmark.measurePlaces() }
if only == nil || only == "trials" { try benchmark.measureTrials() }
if only == "app-seam" { try benchmark.measureAppSeam() }
if only == "doses" { try benchmark.measureDoseTables() }
if only == "android" { try benchmark.measureTwoPhones() }
if only == "storms" { try benchmark.measureEventStorms() }
if only == "server" { try benchmark.measureServerSide() }
if only == "assumptions" { try benchmark.measureAssumptionReport() }
if only == "long-trials" { try benchmark.measureLongTracks() }
if only == nil || only == "shards" { try benchmark.measureShardedTrials() }
if only == nil || only == "io" { try benchmark.measureTrackReading() }
if only == nil || only == "report" { try benchmark.measureReport() }
if only == "scale" { try benchmark.measureScale() }
