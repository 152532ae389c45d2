import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimTracks

/// A fresh folder for one test's files.
func temporaryFolder() -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("trigsim-tracks-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Writes `text` (UTF-8) to a new file named `name` and returns its path.
func trackFile(_ text: String, name: String = "track.csv") -> String {
  trackFile(bytes: Array(text.utf8), name: name)
}

func trackFile(bytes: [UInt8], name: String) -> String {
  let url = temporaryFolder().appendingPathComponent(name)
  try! Data(bytes).write(to: url)
  return url.path
}

/// Every fix of a track, in order.
func samples(of source: some TrackSource) throws -> [TrackSample] {
  var all: [TrackSample] = []
  try source.readSamples {
    all.append($0)
    return true
  }
  return all
}

func readCSV(_ text: String, _ options: TrackReadingOptions = TrackReadingOptions()) throws -> [TrackSample] {
  try samples(of: CSVTrackReader(path: trackFile(text), options: options))
}

func readGPX(_ text: String, _ options: TrackReadingOptions = TrackReadingOptions()) throws -> [TrackSample] {
  try samples(of: GPXTrackReader(path: trackFile(text, name: "track.gpx"), options: options))
}

/// The diagnostics reading `source` throws, as `line:column: message` (the
/// file is left out), each followed by its notes as `note: …` lines.
func problems(of source: some TrackSource, withNotes: Bool = false) -> [String] {
  do {
    _ = try samples(of: source)
    return []
  } catch let error as InputError {
    return error.diagnostics.map { diagnostic in
      var text = "\(diagnostic.location.line):\(diagnostic.location.column): \(diagnostic.message)"
      if withNotes { for note in diagnostic.notes { text += "\nnote: \(note)" } }
      return text
    }
  } catch {
    return ["unexpected error: \(error)"]
  }
}

func csvProblems(_ text: String, _ options: TrackReadingOptions = TrackReadingOptions(), withNotes: Bool = false)
  -> [String]
{
  problems(of: CSVTrackReader(path: trackFile(text), options: options), withNotes: withNotes)
}

func gpxProblems(_ text: String, _ options: TrackReadingOptions = TrackReadingOptions(), withNotes: Bool = false)
  -> [String]
{
  problems(of: GPXTrackReader(path: trackFile(text, name: "track.gpx"), options: options), withNotes: withNotes)
}

/// Milliseconds since the epoch of an ISO 8601 UTC text, for readable expectations.
func ms(_ iso: String) -> Int64 {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  if let date = formatter.date(from: iso) { return SimulationInstant(date).millisecondsSinceEpoch }
  formatter.formatOptions = [.withInternetDateTime]
  return SimulationInstant(formatter.date(from: iso)!).millisecondsSinceEpoch
}

/// A shared corpus track's path, or nil (the test is then skipped).
func corpus(_ name: String) -> String? { RepositoryPaths.sharedTrack(name)?.path }

func fixture(_ relative: String) -> String { RepositoryPaths.fixtures.appendingPathComponent(relative).path }
