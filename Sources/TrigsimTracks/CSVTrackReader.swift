import Foundation
import TrigsimCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a CSV track, streaming, in fixed-size chunks.
///
/// ## Layout
/// - The first non-blank line is a header naming the columns, in any order.
///   Names are compared after trimming quotes, spaces and a leading `#`,
///   ignoring letter case and the characters `_`, `-` and space
///   (`Tracked At`, `tracked_at` and `TRACKED-AT` are the same name).
/// - Built-in names, earliest in each list wins when a header has several:
///   - time: `time`, `timestamp`, `datetime`, `date_time`, `tracked_at`,
///     `recorded_at`, `utc_time`, `time_utc`, `unixtime`, `unix_time`,
///     `unixtimemillis`, `unix_time_ms`, `timestamp_ms`, `epoch`, `epoch_ms`
///     (a GPS-epoch column such as `millisSinceGpsEpoch` is never picked: its
///     zero is 1980-01-06 and it runs 18 s ahead of UTC)
///   - latitude: `latitude`, `lat`, `latitudedegrees`, `latdeg`
///   - longitude: `longitude`, `lon`, `lng`, `long`, `longitudedegrees`, `lngdeg`
///   - accuracy (optional): `accuracy`, `horizontal_accuracy`,
///     `accuracy_horizontal`, `hacc`, `accuracymeters`, `horizontal_accuracy_m`
///   - elevation (optional, not used): `elevation`, `altitude`, `ele`, `alt`, `altitudemeters`
///   - speed (optional, not used): `speed`, `speedmps`, `speed_mps`
///
///   `CSVLayout.columns` overrides the lists for any field.
/// - Delimiter `,` or `;` (see `CSVLayout.delimiter`); fields may be
///   double-quoted, with `""` for a quote inside; a quoted field may span
///   lines. CRLF or LF line ends, an optional UTF-8 byte-order mark, blank
///   lines ignored. Every row has as many fields as the header.
/// - A row whose latitude and longitude are both empty is an error (rows
///   without a position are never skipped silently). An empty time is an
///   untimed point (see `TrackReadingOptions.untimedPointSpeed`); an empty
///   accuracy is no accuracy. Elevation and speed values are not read.
///
/// ## Values
/// - Numbers: optional sign, digits, one `.`; exponents, `nan` and `inf` are
///   read too (and then rejected by the range checks where they are not finite).
/// - Time: see `CSVTimeFormat` for the `.auto` rule. ISO 8601 is
///   `YYYY-MM-DD`, `T`/`t`/space, `hh:mm[:ss[.fraction]]`, then `Z`, `±hh:mm`,
///   `±hhmm`, `±hh` or nothing (then `naiveTimeZone` applies). A fraction of
///   any length is kept to the millisecond by truncation (`.9999` is 999 ms),
///   as are fractional epoch values.
///
/// ## Limits
/// - A line (row) holds at most `maximumLineBytes` (64 KiB); reading stops
///   at a longer one with an error, so memory stays bounded on any file.
/// - The first line must be UTF-8 text without NUL bytes; otherwise the file
///   is reported as not a CSV text file, without quoting it.
/// - A message quotes a value through `Diagnostic.quote` (at most 40
///   Unicode scalars, cut with `…`, control characters and bytes that are not
///   UTF-8 escaped), and lists at most `CSVMessages.listedColumnLimit` (8)
///   header columns.
/// - Only regular files are read (`TrackMessages.openTrackFile`).
///
/// Columns in diagnostics are 1-based and counted in Unicode scalars from
/// the start of the line (a byte-order mark is not counted).
public struct CSVTrackReader: TrackSource {
  public let path: String
  public let options: TrackReadingOptions
  /// Where the scenario names this file, for "file not found".
  public let referencedAt: InputLocation?

  public var name: String { path }

  public init(path: String, options: TrackReadingOptions = TrackReadingOptions(), referencedAt: InputLocation? = nil) {
    self.path = path
    self.options = options
    self.referencedAt = referencedAt
  }

  /// Bytes read from the file at a time.
  static let chunkSize = 1 << 20

  /// The longest line (row) a CSV track may have, in bytes, not counting its
  /// line end: 64 KiB. A row whose quoted field spans lines counts whole.
  /// Reading stops at a longer row with an error at its first line, so
  /// that a file without line breaks (or a binary file) cannot fill memory.
  public static let maximumLineBytes = 65_536

  public func readSamples(_ consume: (TrackSample) throws -> Bool) throws {
    let fd = try TrackMessages.openTrackFile(path, referencedAt: referencedAt)
    defer { close(fd) }
    var scanner = CSVScanner(file: path, fd: fd, options: options)
    defer { scanner.deallocate() }
    try scanner.run(consume)
  }
}

// MARK: - Column names

extension CSVField {
  /// Built-in header names (already normalised), in priority order.
  static func builtInNames(_ field: CSVField) -> [String] {
    switch field {
    case .time:
      return [
        "time", "timestamp", "datetime", "date_time", "tracked_at", "recorded_at", "utc_time", "time_utc",
        "unixtime", "unix_time", "unixtimemillis", "unix_time_ms", "timestamp_ms", "epoch", "epoch_ms",
      ].map(CSVField.normalize)
    case .latitude: return ["latitude", "lat", "latitudedegrees", "latdeg"]
    case .longitude: return ["longitude", "lon", "lng", "long", "longitudedegrees", "lngdeg"]
    case .accuracy:
      return [
        "accuracy", "horizontal_accuracy", "accuracy_horizontal", "hacc", "accuracymeters",
        "horizontal_accuracy_m",
      ].map(CSVField.normalize)
    case .elevation: return ["elevation", "altitude", "ele", "alt", "altitudemeters"]
    case .speed: return ["speed", "speedmps", "speed_mps"].map(CSVField.normalize)
    }
  }

  /// The comparison form of a header name: trimmed of quotes, spaces and a
  /// leading `#`, lower-cased, without `_`, `-` or spaces.
  static func normalize(_ name: String) -> String {
    var scalars = Substring(name)
    while let first = scalars.first, first == "\"" || first == " " || first == "\t" || first == "#" || first == "\u{FEFF}" {
      scalars = scalars.dropFirst()
    }
    while let last = scalars.last, last == "\"" || last == " " || last == "\t" { scalars = scalars.dropLast() }
    return String(scalars.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
  }
}

// MARK: - Messages

enum CSVMessages {
  static let emptyFile = "track has no fixes: the file is empty"
  static let emptyFileNote = "a CSV track starts with a header line naming its columns, e.g. 'time,latitude,longitude'"
  static let noFixes = "track has no fixes: the file has a header but no data rows"
  static let noFixesNote = "add rows below the header, one fix per line"
  static let badQuote = "badly quoted field: a quoted field must end with '\"' right before the delimiter or line end"
  static let noPosition = "row has no position: latitude and longitude are both empty"
  static let noPositionNote =
    "remove rows without a position from the file (for example sensor-only or segment-marker rows); they are not skipped silently"

  static func fieldCount(_ found: Int, _ expected: Int) -> String {
    "row has \(found) field\(found == 1 ? "" : "s") but the header has \(expected)"
  }
  static func fieldCountNote(_ delimiter: UInt8) -> String {
    "fields are separated by '\(Character(Unicode.Scalar(delimiter)))'; quote a field that contains one (\"a\(Character(Unicode.Scalar(delimiter)))b\")"
  }
  static func badDelimiter(_ delimiter: Character) -> String {
    "the delimiter '\(delimiter)' cannot be used: it must be one ASCII character other than a quote or a line break"
  }
  static func gpsEpochNote(_ column: String) -> String {
    "\(Diagnostic.quote(column)) counts from the GPS epoch (1980-01-06) and runs ahead of UTC by the leap seconds, so it is not read as a time; add a Unix-time column (Unix ms = GPS ms + 315964800000 - 18000 since 2017)"
  }
  static func missingColumn(_ field: CSVField) -> String { "the header has no \(field.rawValue) column" }

  /// A first line that is not a CSV track's header (`ForeignFile`): it
  /// names none of the columns a track can have, or it is not text, is
  /// too long, or is badly quoted. Nothing of it is quoted or shown.
  static func notACSVTrack(
    file: String, line: Int, whyNot: String = "its first line names none of the columns a track has", notes: [String] = headerNotes
  ) -> Diagnostic {
    ForeignFile.diagnostic(file: file, line: line, format: "a CSV track", whyNot: whyNot, notes: notes)
  }
  static let headerNotes = [
    "a CSV track starts with a header such as 'time,latitude,longitude' (also: timestamp, lat, lon, lng, accuracy, …)",
    "if it is a track with other column names, name them under `columns:` in the scenario's track, e.g. `columns: {time: <column>}`",
  ]
  static func mappedColumnMissing(_ field: CSVField, _ name: String) -> String {
    "the header has no column \(Diagnostic.quote(name)) (named for \(field.rawValue) under `columns:`)"
  }
  static func didYouMean(_ name: String) -> String { "did you mean \(Diagnostic.quote(name))?" }
  static func nameTheColumnNote(_ field: CSVField, example: String?) -> String {
    "name the column under `columns:` in the scenario's track, e.g. `columns: {\(field.rawValue): \(example.map { Diagnostic.excerpt($0) } ?? "<column>")}`"
  }

  /// The most header columns a note lists.
  static let listedColumnLimit = 8

  /// "the header's columns are 'a', 'b', 'c'": at most `listedColumnLimit`
  /// names, each quoted by `Diagnostic.quote`, then how many more there are.
  static func headerColumns(_ names: [String]) -> String {
    "the header's columns are \(MessageList.joined(names.lazy.map { Diagnostic.quote($0) }, limit: listedColumnLimit))"
  }

  static func notFinite(_ isLatitude: Bool, _ text: String) -> String { notFinite(isLatitude, quoted: Diagnostic.quote(text)) }
  static func notFinite(_ isLatitude: Bool, quoted: String) -> String {
    "\(isLatitude ? "latitude" : "longitude") \(quoted) is not a finite number"
  }
  static func badAccuracy(_ text: String) -> String { badAccuracy(quoted: Diagnostic.quote(text)) }
  static func badAccuracy(quoted: String) -> String { "accuracy \(quoted) is not a number of metres ≥ 0" }

  static let lineTooLong =
    "line is longer than \(CSVTrackReader.maximumLineBytes) bytes, the most a CSV track line may hold; reading stopped here"
  static let lineTooLongNote =
    "a CSV track has one short line per fix: check that the file is a CSV text file with line breaks, and that no quoted field is left open"

  /// Why a file is not read as CSV text.
  enum NotTextReason {
    case nul, notUTF8
  }
  static func notText(_ reason: NotTextReason) -> String {
    switch reason {
    case .nul: "its first line holds a NUL byte"
    case .notUTF8: "its first line holds bytes that are not UTF-8"
    }
  }
  static let notTextNote =
    "a CSV track is UTF-8 text whose first line names the columns, e.g. 'time,latitude,longitude'; check that the scenario names the right file, and save a UTF-16 export as UTF-8"
}

/// Coordinate messages shared by the CSV and GPX readers. Values are shown
/// through `Diagnostic.quote` (at most 40 scalars, escaped).
enum CoordinateMessages {
  static func notANumber(_ isLatitude: Bool, _ text: String) -> String {
    notANumber(isLatitude, quoted: Diagnostic.quote(text))
  }
  static func notANumber(_ isLatitude: Bool, quoted: String) -> String {
    "\(isLatitude ? "latitude" : "longitude") \(quoted) is not a number"
  }
  static func outOfRange(_ isLatitude: Bool, _ text: String) -> String {
    outOfRange(isLatitude, quoted: Diagnostic.quote(text))
  }
  static func outOfRange(_ isLatitude: Bool, quoted: String) -> String {
    isLatitude ? "latitude \(quoted) is outside -90...90" : "longitude \(quoted) is outside -180...180"
  }
  static let swappedNote = "latitude comes first in the name lists; check that the latitude and longitude columns are not swapped"
}
