import Foundation
import TrigsimCore

/// The file formats trigsim reads tracks from.
public enum TrackFormat: String, Sendable, CaseIterable {
  case gpx
  case csv

  /// The format a file name's extension names (`.gpx`, `.csv`, any letter case),
  /// or nil for any other extension.
  public init?(pathExtensionOf path: String) {
    let ext = (path as NSString).pathExtension.lowercased()
    self.init(rawValue: ext)
  }
}

/// How a track's timestamps are moved before replay.
public enum TrackTimeShift: Hashable, Sendable {
  /// Times are replayed as recorded.
  case none
  /// Every fix is moved by the same span (negative moves it earlier).
  case by(SimulationDuration)
  /// Every fix is moved by the same span, chosen so that the first fix
  /// (the earliest one, once any sorting is done) lands on this instant.
  case startAt(SimulationInstant)
}

/// What a CSV file's time column holds.
///
/// `.auto` decides per value, with this exact rule:
/// 1. a value that is a plain number (optional sign, digits, at most one `.`)
///    is an epoch time: milliseconds when its magnitude is at least 1e11
///    (1e11 s would be the year 5138), seconds otherwise;
/// 2. any other value that contains `-`, `T` or `:` is ISO 8601 text;
/// 3. anything else is an error.
///
/// In every mode a number written with an exponent (`1.58957E+12`, as
/// spreadsheets export long integers) is rejected: the exponent form keeps
/// only a few significant digits, so the instants it gives are hours off and
/// identical from row to row.
public enum CSVTimeFormat: String, Hashable, Sendable {
  case auto
  /// `2026-03-28T05:00:00Z`, `2026-03-28 06:00:00.250+01:00`, no offset = `naiveTimeZone`.
  case iso8601
  /// Seconds since 1970-01-01T00:00:00Z, decimals allowed (kept to the millisecond by truncation).
  case epochSeconds
  /// Milliseconds since 1970-01-01T00:00:00Z (a fraction is truncated).
  case epochMilliseconds
}

/// The quantities a CSV column can hold.
public enum CSVField: String, Hashable, Sendable, CaseIterable {
  case time, latitude, longitude, accuracy, elevation, speed
}

/// How to read the columns of a CSV track.
public struct CSVLayout: Hashable, Sendable {
  /// The field separator; nil = `;` when the header line has more `;` than
  /// `,`, else `,`.
  public var delimiter: Character?
  /// Header names to use for some fields instead of the built-in name lists
  /// (see `CSVTrackReader`). Names are matched the same way as the built-in
  /// ones (letter case, quotes, spaces, `_`, `-` and a leading `#` ignored).
  public var columns: [CSVField: String]
  public var timeFormat: CSVTimeFormat

  public init(delimiter: Character? = nil, columns: [CSVField: String] = [:], timeFormat: CSVTimeFormat = .auto) {
    self.delimiter = delimiter
    self.columns = columns
    self.timeFormat = timeFormat
  }
}

/// Which points of a GPX file make the track.
public enum GPXPointSelection: String, Hashable, Sendable {
  /// Track points when the file has any `trkpt`, else route points when it
  /// has any `rtept`, else waypoints. Only route and waypoint points met
  /// before the first `trkpt` are held in memory (and dropped once one
  /// appears); track points always stream.
  case auto
  case tracks
  case routes
  case waypoints
}

/// Everything that decides how a track file becomes a sequence of fixes.
public struct TrackReadingOptions: Hashable, Sendable {
  /// nil = from the file name's extension (`.gpx`, `.csv`, any case); any
  /// other extension is an error.
  public var format: TrackFormat?
  /// Speed, in m/s, used to time a point that has no time: it is timed at the
  /// previous point's time plus the geodesic distance from that point divided
  /// by this speed, truncated to the millisecond. Default 1.4 m/s (walking).
  public var untimedPointSpeed: Double
  /// The time given to the first point when it has no time (in the file's
  /// own time, before `timeShift`). When nil, an untimed first point is an error.
  public var untimedTrackStart: SimulationInstant?
  /// Applied after untimed points are timed and after sorting.
  public var timeShift: TrackTimeShift
  /// The zone of timestamps written without an offset.
  public var naiveTimeZone: TimeZone
  /// false: a fix earlier than the one before it is an error. true: the whole
  /// track is read into memory and stably sorted by time before replay.
  public var sortByTime: Bool
  public var csv: CSVLayout
  public var gpxPoints: GPXPointSelection

  public init(
    format: TrackFormat? = nil,
    untimedPointSpeed: Double = 1.4,
    untimedTrackStart: SimulationInstant? = nil,
    timeShift: TrackTimeShift = .none,
    naiveTimeZone: TimeZone = TimeZone(identifier: "UTC")!,
    sortByTime: Bool = false,
    csv: CSVLayout = CSVLayout(),
    gpxPoints: GPXPointSelection = .auto
  ) {
    self.format = format
    self.untimedPointSpeed = untimedPointSpeed
    self.untimedTrackStart = untimedTrackStart
    self.timeShift = timeShift
    self.naiveTimeZone = naiveTimeZone
    self.sortByTime = sortByTime
    self.csv = csv
    self.gpxPoints = gpxPoints
  }
}
