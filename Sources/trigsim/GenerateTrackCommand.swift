import ArgumentParser
import Foundation
import TrigsimCore
import TrigsimScenario
import TrigsimTracks

struct GenerateTrackCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate-track",
    abstract: "Write a synthetic, seeded daily-routine track (CSV or GPX).",
    discussion: """
      The device starts each day at the first stop, stays for its dwell time, moves to the next stop (walking under 2 km, driving over), and returns to the first stop for the rest of the day. Fixes carry seeded GPS-like error. The same arguments always write the same bytes.

      Without --stop, a routine in Copenhagen is used: home 55.6761,12.5683 for 8h, pharmacy 55.6795,12.5775 for 15m, office 55.6867,12.5700 for 8h, park 55.6880,12.5790 for 45m.

      Example: trigsim generate-track --days 30 --rate 1 --output month.csv
      """)

  @Option(help: "First instant, ISO 8601 with an offset or Z (2026-03-01T08:00:00+01:00).")
  var start = "2026-03-01T00:00:00Z"

  @Option(help: "Number of days, 1 to \(Self.longestRun).")
  var days = 1

  @Option(help: "Fixes per second, more than 0 and at most 100 (1 = every second, 0.1 = every 10 s).")
  var rate = 1.0

  @Option(help: "Seed for everything random: the fixes' GPS-like error, the dwell times (±10 %) and the walking and driving speeds.")
  var seed: UInt64 = 1

  @Option(name: .customLong("stop"), help: "A stop as NAME=LAT,LON,DWELL (DWELL like 8h, 15m); repeat in visiting order.")
  var stops: [String] = []

  @Option(name: .shortAndLong, help: "Output file; .csv or .gpx decides the format. Written atomically.")
  var output: String

  /// The most days `--days` takes (about 100 years): the track's instants,
  /// sample count and phase ends then stay far inside 64-bit milliseconds.
  static let longestRun = 36_500

  func validate() throws {
    guard (1...Self.longestRun).contains(days) else {
      throw ValidationError("--days takes 1 to \(Self.longestRun) days (about 100 years), not \(days)")
    }
    guard rate > 0, rate <= 100 else { throw ValidationError("--rate must be in (0, 100] fixes per second") }
    guard TrackFormat(pathExtensionOf: output) != nil else { throw ValidationError("--output must end in .csv or .gpx") }
    guard parseInstant(start) != nil else { throw ValidationError("--start '\(start)' is not an ISO 8601 date-time") }
    // A local time without an offset would silently be read as UTC.
    guard start.hasSuffix("Z") || start.range(of: #"[+-]\d\d:?\d\d$"#, options: .regularExpression) != nil else {
      throw ValidationError("--start '\(start)' has no offset: write the zone's offset or Z, e.g. \(start)+01:00 or \(start)Z")
    }
    for stop in stops where Self.parseStop(stop) == nil {
      throw ValidationError("--stop '\(stop)' is not NAME=LAT,LON,DWELL (for example home=55.6761,12.5683,8h)")
    }
    let routine = stops.isEmpty ? Self.defaultStops : stops.compactMap(Self.parseStop)
    if let problem = SyntheticTrack.problem(start: parseInstant(start)!, days: days, sampleRate: rate, stops: routine) {
      throw ValidationError(problem)
    }
  }

  static let defaultStops = [
    SyntheticTrack.Stop(name: "home", coordinate: Coordinate(latitude: 55.6761, longitude: 12.5683), dwell: .hours(8)),
    SyntheticTrack.Stop(name: "pharmacy", coordinate: Coordinate(latitude: 55.6795, longitude: 12.5775), dwell: .minutes(15)),
    SyntheticTrack.Stop(name: "office", coordinate: Coordinate(latitude: 55.6867, longitude: 12.5700), dwell: .hours(8)),
    SyntheticTrack.Stop(name: "park", coordinate: Coordinate(latitude: 55.6880, longitude: 12.5790), dwell: .minutes(45)),
  ]

  static func parseStop(_ text: String) -> SyntheticTrack.Stop? {
    let parts = text.split(separator: "=", maxSplits: 1)
    guard parts.count == 2 else { return nil }
    let values = parts[1].split(separator: ",")
    guard values.count == 3, let latitude = Double(values[0]), let longitude = Double(values[1]),
      let dwell = parseDuration(String(values[2]))
    else { return nil }
    let coordinate = Coordinate(latitude: latitude, longitude: longitude)
    guard coordinate.isValid else { return nil }
    return SyntheticTrack.Stop(name: String(parts[0]), coordinate: coordinate, dwell: dwell)
  }

  /// Streams the track through an `OutputFile`: a temporary file beside
  /// `--output`, renamed over it once complete (see `OutputFile` for the
  /// rules); a failure or a signal leaves the destination as it was.
  func run() throws {
    let track = SyntheticTrack(
      start: parseInstant(start)!, days: days, sampleRate: rate, seed: seed,
      stops: stops.isEmpty ? Self.defaultStops : stops.compactMap(Self.parseStop))
    do {
      let file = try OutputFile.open(output)
      try TrackWriter.write(track, format: TrackFormat(pathExtensionOf: output)!) { try file.write($0) }
      try file.commit()
    } catch let error as OutputFile.WriteError {
      if error.stream == nil { printError("error: \(error.message)") }
      throw ExitCode(TrigsimExitCode.cannotWriteOutput)
    }
  }
}

private func parseInstant(_ text: String) -> SimulationInstant? {
  try? ValueSyntax.instant(text, zone: TimeZone(identifier: "UTC")!).get()
}

private func parseDuration(_ text: String) -> SimulationDuration? { ValueSyntax.duration(text) }
