import Foundation
import TrigsimCore

/// A track file of either format: picks `GPXTrackReader` or `CSVTrackReader`
/// from `TrackReadingOptions.format`, or else from the file name's extension
/// (`.gpx`, `.csv`, any letter case).
///
/// Problems with the file itself (not found, unreadable, unknown extension)
/// are located at `referencedAt`, where the scenario names the file, when
/// given; otherwise at line 1, column 1 of the path.
public struct TrackFile: TrackSource {
  public let path: String
  public let options: TrackReadingOptions
  public let referencedAt: InputLocation?

  public var name: String { path }

  public init(path: String, options: TrackReadingOptions = TrackReadingOptions(), referencedAt: InputLocation? = nil) {
    self.path = path
    self.options = options
    self.referencedAt = referencedAt
  }

  /// The format the file will be read as.
  public func format() throws -> TrackFormat {
    if let format = options.format ?? TrackFormat(pathExtensionOf: path) { return format }
    let ext = (path as NSString).pathExtension
    throw InputError(
      Diagnostic(
        at: referencedAt ?? InputLocation(file: path, line: 1, column: 1),
        ext.isEmpty
          ? "cannot tell the format of track file \(Diagnostic.quotePath(path)): it has no extension"
          : "cannot tell the format of track file \(Diagnostic.quotePath(path)) from its extension \(Diagnostic.quote("." + ext))",
        notes: ["name the file *.gpx or *.csv, or set `format: gpx` or `format: csv` under track"]))
  }

  /// The reader for this file.
  public func reader() throws -> any TrackSource {
    switch try format() {
    case .gpx: return GPXTrackReader(path: path, options: options, referencedAt: referencedAt)
    case .csv: return CSVTrackReader(path: path, options: options, referencedAt: referencedAt)
    }
  }

  public func readSamples(_ consume: (TrackSample) throws -> Bool) throws {
    // "Not found" beats "unknown extension": it is the likelier mistake.
    close(try TrackMessages.openTrackFile(path, referencedAt: referencedAt))
    try reader().readSamples(consume)
  }
}
