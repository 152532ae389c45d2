import ArgumentParser
import Foundation
import TrigsimCore
import TrigsimScenario

/// `--root DIR`: every file a scenario names or implies (its track, expected
/// timeline and trial report), and the scenario file itself, must resolve
/// inside DIR after following symbolic links; for scenarios from untrusted
/// pull requests. The rule is `ScenarioPathPolicy`'s, applied by the loader.
///
/// With it go the ceiling options (`ScenarioLimitCeiling`): the most a
/// scenario may raise its `limits:` and `trials: { count: N }` to. Each
/// defaults to the run's default under `--root` and to what the format
/// allows without it; an option sets it either way.
struct RootOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Refuse (exit 65) a scenario, or a file it names, that resolves outside this folder after following symbolic links: for scenarios from untrusted pull requests. It also lowers the ceilings below to the defaults.",
      valueName: "dir"))
  var root: String?

  @Option(
    name: .customLong("max-timeline-entries"),
    help: ArgumentHelp(
      "The most a scenario's 'limits: { timelineEntries: N }' may ask for (default: 1000000 with --root, else 1000000000).", valueName: "n"))
  var maxTimelineEntries: Int?

  @Option(
    name: .customLong("max-clock-span"),
    help: ArgumentHelp(
      "The most a scenario's 'limits: { clockSpan: S }' may ask for, in years (20y) or a duration (400d) (default: 10y with --root, else 100000y).",
      valueName: "span"))
  var maxClockSpan: String?

  @Option(
    name: .customLong("max-trials"),
    help: ArgumentHelp("The most a scenario's 'trials: { count: N }' may ask for (default: 10000 with --root, else 1000000).", valueName: "n"))
  var maxTrials: Int?

  func validate() throws {
    if let root {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw ValidationError("--root '\(root)' is not a folder")
      }
    }
    _ = try limitCeiling()
  }

  var pathPolicy: ScenarioPathPolicy { root.map { .confined(to: $0) } ?? .unrestricted }

  /// The standard ceiling for `--root` with each option laid over it, or a
  /// `ValidationError` (exit 64) naming a value out of range.
  func limitCeiling() throws -> ScenarioLimitCeiling {
    var ceiling = ScenarioLimitCeiling.standard(for: pathPolicy)
    if let maxTimelineEntries {
      let range = 1...ScenarioLimitCeiling.largestTimelineEntries
      guard range.contains(maxTimelineEntries) else {
        throw ValidationError("--max-timeline-entries takes \(range.lowerBound) to \(range.upperBound), not \(maxTimelineEntries)")
      }
      ceiling.timelineEntries = maxTimelineEntries
    }
    if let maxClockSpan {
      guard let span = ValueSyntax.clockSpan(maxClockSpan) else {
        throw ValidationError(
          "--max-clock-span '\(maxClockSpan)' is not a positive duration: write years (20y, at most \(ScenarioLimitCeiling.largestClockSpanYears)y) or a duration (400d)")
      }
      ceiling.clockSpan = span
    }
    if let maxTrials {
      let range = 1...ScenarioLimitCeiling.largestTrialCount
      guard range.contains(maxTrials) else { throw ValidationError("--max-trials takes \(range.lowerBound) to \(range.upperBound), not \(maxTrials)") }
      ceiling.trialCount = maxTrials
    }
    return ceiling
  }

  /// The loader these options describe.
  func loader() throws -> ScenarioLoader { ScenarioLoader(pathPolicy: pathPolicy, limitCeiling: try limitCeiling()) }

  /// The options as `trigsim scenario-worker` arguments, each value attached
  /// with `=` so one starting with `-` is not read as an option.
  var workerArguments: [String] {
    var arguments: [String] = []
    if let root { arguments.append("--root=\(root)") }
    if let maxTimelineEntries { arguments.append("--max-timeline-entries=\(maxTimelineEntries)") }
    if let maxClockSpan { arguments.append("--max-clock-span=\(maxClockSpan)") }
    if let maxTrials { arguments.append("--max-trials=\(maxTrials)") }
    return arguments
  }
}
