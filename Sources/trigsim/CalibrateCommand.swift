import ArgumentParser
import Foundation
import TrigsimCore
import TrigsimScenario

struct CalibrateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calibrate",
    abstract: "Hold trigsim's defaults against published measurements: print the calibration table.",
    discussion: """
      Runs the trials of every probe scenario of the calibration corpus (one per published figure a default rests on, in the probes folder) and measures each documented constant, then prints one Markdown row per entry: the figure, its source, what trigsim gives with its 95 % interval, the band the figure's uncertainty allows, and the verdict. The manual's "Calibration" article holds this table; the tests regenerate it, so it cannot drift.

      Exit 0 when every row lies in its band or names the assumption that carries the other reading, 1 when one does not.

      Example: trigsim calibrate --trials 1000 --seed 7
      """)

  @Option(help: ArgumentHelp("The folder of the probe scenarios.", valueName: "dir"))
  var probes = "scenarios/calibration"

  @Option(help: "Trials per probe, 1 to 100000.")
  var trials = 300

  @Option(help: "Seed of the probes' trials.")
  var seed: UInt64 = 1

  @Option(help: "Worker threads for the trials (default: the number of cores); the table is the same for any number.")
  var jobs: Int?

  @Option(name: .shortAndLong, help: "Write the table to this file (atomically) instead of standard output.")
  var output: String?

  func validate() throws {
    guard (1...100_000).contains(trials) else { throw ValidationError("--trials takes 1 to 100000, not \(trials)") }
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
  }

  func run() throws {
    let destination = try openOutput(output)
    let plan = TrialPlan(count: trials, seed: seed, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
    let results = try reportingErrors {
      do {
        return try CalibrationRun(probes: probes, plan: plan).measure()
      } catch let error as CalibrationProbeError {
        printError("\(error)")
        throw ExitCode(TrigsimExitCode.invalidInput)
      }
    }
    try emit(CalibrationTable.markdown(results, trials: trials, seed: seed), to: destination)
    let unexplained = results.filter { !$0.isAccountedFor }
    for result in unexplained {
      printError("calibration: \(result.entry.id) is outside its band and names no assumption that explains it")
    }
    if !unexplained.isEmpty { throw ExitCode(TrigsimExitCode.timelineDiffers) }
  }
}
