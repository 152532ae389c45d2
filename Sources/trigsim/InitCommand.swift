import ArgumentParser
import Foundation
import TrigsimCore
import TrigsimScenario
import TrigsimTracks

/// `trigsim init DIR`: a starting scenario a new user can run, verify and edit.
///
/// Writes, in this order, each through `OutputFile` (all or nothing per file):
/// `DIR/track.csv` (a seeded one-day `SyntheticTrack` of the default routine,
/// a fix every 30 s), `DIR/scenario.yaml` (a medicine with two daily times and
/// a location reminder at the pharmacy the track passes), then
/// `DIR/scenario.timeline` and its dose table `DIR/scenario.doses`, recorded
/// from a run of that scenario as `trigsim record` does, so `trigsim verify
/// DIR/scenario.yaml` passes at once. DIR is created when missing. When any of the four files
/// already exists nothing is written and the command exits 73 naming them;
/// when a write fails, the files already written are removed again.
///
/// DIR inside trigsim's own git checkout (`enclosingTrigsimCheckout`) is
/// refused, exit 64, before anything is written: a new user runs `swift
/// run trigsim init NAME` in the clone, and the scenario would be left
/// there as an untracked folder. Any other folder, inside the user's own
/// repositories too, is written as asked.
struct InitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init",
    abstract: "Write a starting scenario, its track, its expected timeline and dose table into a folder.",
    discussion: """
      Writes DIR/scenario.yaml (a medicine with two daily times and a location reminder), DIR/track.csv (a generated one-day track) and DIR/scenario.timeline and DIR/scenario.doses, the expected timeline and dose table recorded from it. DIR is created when missing; existing files are never overwritten (exit 73). DIR inside trigsim's own git checkout is refused (exit 64): write it beside the checkout, e.g. ../my-first.

      Example: trigsim init my-first && trigsim verify my-first/scenario.yaml
      """)

  @Argument(help: "The folder to write into (created when missing).")
  var folder: String

  /// The files written, in order, relative to the folder.
  static let fileNames = ["track.csv", "scenario.yaml", "scenario.timeline", "scenario.doses"]

  /// The generated track: the default routine (home, pharmacy, office, park) for one day from midnight in Copenhagen.
  static let track = SyntheticTrack(
    start: SimulationInstant(millisecondsSinceEpoch: 1_777_845_600_000),  // trackStart
    days: 1, sampleRate: 1.0 / 30, seed: 1, stops: GenerateTrackCommand.defaultStops)

  /// `track`'s first instant as `generate-track --start` takes it.
  static let trackStart = "2026-05-04T00:00:00+02:00"

  /// The `generate-track` command that writes `track` again, byte for byte,
  /// given in the scenario's comment: every argument is `track`'s own
  /// (the rate as Swift's shortest decimal of the same `Double`, which
  /// `--rate` reads back exactly), the stops are the default routine.
  static let regenerateCommand =
    "trigsim generate-track --start \(trackStart) --days \(track.days) --rate \(track.sampleRate) --seed \(track.seed) --output track.csv"

  /// The settings of a phone whose patient allowed exact alarms and location
  /// all the time, shown in the scenario's comment (`#   ` before each line):
  /// with them the Android run notifies each dose when the iPhone does (a
  /// test holds it so).
  static let androidGrants = [
    "platform: { location: ios, android: { exactAlarms: granted } }",
    "app: [{ at: 2026-05-04T00:00:00+02:00, location: always }]",
  ]

  static var androidGrantsComment: String { androidGrants.map { "#   " + $0 }.joined(separator: "\n") }

  /// The scenario; its location reminder is a circle around the track's pharmacy stop.
  static let scenarioText = """
    # A starting scenario written by 'trigsim init'. Edit it, then:
    #   trigsim run scenario.yaml              the timeline
    #   trigsim run scenario.yaml --summary    and every dose's outcome
    #   trigsim verify scenario.yaml           compare with scenario.timeline and .doses
    #   trigsim record scenario.yaml --mode all   accept a reviewed change
    # track.csv is generate-track's default routine (home until 08:00, the pharmacy, the
    # office, the park, home) for one day, seed 1, a fix every 30 s (a rate of 1/30 per
    # second); this writes it again, byte for byte (another --seed, --days or --rate, another one):
    #   \(regenerateCommand)
    # On Android (--platform android, or --platform ios,android side by side) the phone is a
    # fresh Android 14 install: the exact-alarm permission is denied, so each reminder's inexact
    # alarm fires at the end of its 1-hour window, and location is allowed only while the app
    # is in use, so the pharmacy geofence never reaches the app in the background. For a
    # patient who allowed both, replace the platform line and add the app line:
    \(androidGrantsComment)
    trigsim: 1
    name: Starting scenario
    clock: { start: 2026-05-04T00:00:00+02:00, end: 2026-05-04T23:59:00+02:00, timezone: Europe/Copenhagen }
    platform: { location: ios }
    track: { file: track.csv }
    medicines:
      - id: 1
        name: Metformin
        dosage: 500
        unit: mg
        times: ["08:00", "20:00"]
        snooze: { every: 10m, count: 3, schedule: upfront }
      - id: 2
        name: Vitamin D
        dosage: 20
        unit: µg
        times: []
        location: { center: [55.6795, 12.5775], radius: 150, on: [enter] }   # the pharmacy
        snooze: none
    respond:
      - { to: "medicine_1_reminder_0*", after: 2m, actions: [complete] }

    """

  func validate() throws {
    // An empty name would resolve to the working folder itself.
    guard !folder.isEmpty else { throw ValidationError("init needs a folder name; '' names none (use '.' for the working folder)") }
  }

  func run() throws {
    if let checkout = Self.enclosingTrigsimCheckout(of: folder) {
      printError("error: '\(folder)' is inside trigsim's own checkout '\(checkout)', where it would be left as an untracked folder; nothing was written")
      printError("note: write your scenario outside the checkout, e.g. 'trigsim init \(Self.besideCheckout(checkout, name: folder))'")
      throw ExitCode(TrigsimExitCode.usage)
    }
    let paths = Self.fileNames.map { (folder as NSString).appendingPathComponent($0) }
    let existing = paths.filter { path in
      var status = stat()
      return lstat(path, &status) == 0
    }
    guard existing.isEmpty else {
      printError("error: \(existing.map { "'\($0)'" }.joined(separator: ", ")) already exist\(existing.count == 1 ? "s" : ""); 'trigsim init' never overwrites files")
      printError("note: choose a new folder, or move those files away")
      throw ExitCode(TrigsimExitCode.cannotWriteOutput)
    }
    // All four files or none: a later failure removes the files already written.
    var written: [String] = []
    func removeWritten() { for path in written { unlink(path) } }
    do {
      let trackFile = try OutputFile.open(paths[0], creatingFolders: true)
      try TrackWriter.write(Self.track, format: .csv) { try trackFile.write($0) }
      try trackFile.commit()
      written.append(paths[0])
      let scenarioFile = try OutputFile.open(paths[1])
      try scenarioFile.write(Self.scenarioText)
      try scenarioFile.commit()
      written.append(paths[1])
    } catch let error as OutputFile.WriteError {
      removeWritten()
      if error.stream == nil { printError("error: \(error.message)") }
      throw ExitCode(TrigsimExitCode.cannotWriteOutput)
    }
    let recording = ScenarioVerifier(record: .missing, trialJobs: 1).verify(path: paths[1])
    guard recording.outcome == .passed, recording.recorded == .created, recording.dosesRecorded == .created else {
      removeWritten()
      // None of them existed before (checked above): what the recording wrote goes too.
      for path in paths[2...] { unlink(path) }
      // The scenario is trigsim's own: failing to record it is a bug, or a write error.
      for diagnostic in recording.diagnostics { printError(diagnostic.description) }
      if case .error(let kind, let message) = recording.outcome {
        printError(message)
        throw ExitCode(kind == .cannotWrite ? TrigsimExitCode.cannotWriteOutput : TrigsimExitCode.internalError)
      }
      printError("error: cannot record the expected timeline of '\(paths[1])'")
      throw ExitCode(TrigsimExitCode.internalError)
    }
    var lines = ["wrote:"]
    lines += zip(paths, [
      "a generated one-day track, a fix every 30 s",
      "a medicine at 08:00 and 20:00, and one on arriving at the pharmacy",
      "the expected timeline, recorded from a run",
      "the expected dose table, recorded from the same run",
    ]).map { "  \($0)  \($1)" }
    lines.append("next: trigsim verify \(paths[1])")
    lines.append("both phones: trigsim run \(paths[1]) --platform ios,android   (Android's defaults differ: see the scenario's comment)")
    writeToStandardOutput(lines.joined(separator: "\n") + "\n")
  }

  /// A folder named like `name`'s last component (`my-first` for `.`,
  /// `..` or `/`) beside `checkout`: `../NAME` from the checkout's top,
  /// else the absolute path.
  static func besideCheckout(_ checkout: String, name: String) -> String {
    let last = (name as NSString).lastPathComponent
    let base = [".", "..", "/", ""].contains(last) ? "my-first" : last
    let working = realpath(FileManager.default.currentDirectoryPath, nil).map { real in
      defer { free(real) }
      return String(cString: real)
    }
    return working == checkout ? "../" + base : ((checkout as NSString).deletingLastPathComponent as NSString).appendingPathComponent(base)
  }

  /// The top of trigsim's own git work tree that `folder` (relative to the
  /// working folder, or absolute; it need not exist) lies in, or nil.
  ///
  /// The rule: from the nearest existing ancestor of `folder`, symbolic
  /// links followed, go up to the nearest folder holding `.git` (a folder,
  /// or a file in a linked work tree): the work tree's top. It is trigsim's
  /// when its `Package.swift` declares `Package(name: "trigsim"`; a
  /// package that merely depends on trigsim (`.package(name: "trigsim",
  /// …)`) is not. No `.git` above: nil.
  static func enclosingTrigsimCheckout(of folder: String) -> String? {
    let manager = FileManager.default
    var path = folder.hasPrefix("/") ? folder : manager.currentDirectoryPath + "/" + folder
    // The nearest existing ancestor, then its real path.
    while !manager.fileExists(atPath: path), path != "/" { path = (path as NSString).deletingLastPathComponent }
    guard let real = realpath(path, nil) else { return nil }
    var top = String(cString: real)
    free(real)
    while true {
      var status = stat()
      if lstat(top + "/.git", &status) == 0 {
        guard let manifest = try? String(contentsOfFile: top + "/Package.swift", encoding: .utf8) else { return nil }
        return manifest.contains(/Package\(\s*name:\s*"trigsim"/) ? top : nil
      }
      if top == "/" { return nil }
      top = (top as NSString).deletingLastPathComponent
    }
  }
}
