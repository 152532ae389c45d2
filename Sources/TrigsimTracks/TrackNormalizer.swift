import Foundation
import TrigsimCore

/// One point as a reader found it, before the shared track rules apply.
struct RawFix {
  /// nil when the point has no time (it is then timed from the previous point).
  var instant: SimulationInstant?
  var coordinate: Coordinate
  var horizontalAccuracy: Double?
  /// The 1-based line the point starts on (becomes `TrackSample.line`).
  var line: Int
  var startsSegment: Bool
}

/// The rules every track reader follows once it has read a point, so that GPX
/// and CSV tracks behave the same:
///
/// 1. **Untimed points.** A point without a time is timed at the previous
///    point's time plus the geodesic distance between the two divided by
///    `untimedPointSpeed`, truncated to the millisecond. A first point without
///    a time gets `untimedTrackStart`, or is an error when that is nil.
///    "Previous" is the previous point in file order, across segment breaks.
/// 2. **Order.** Times must not decrease (equal times are allowed). Without
///    `sortByTime`, the first fix earlier than the one before it is an error
///    (only the first is reported). With `sortByTime`, every fix is held in
///    memory and stably sorted by time (file order breaks ties).
/// 3. **Shift.** `timeShift` moves every fix by one span, after rules 1 and 2;
///    `.startAt` picks the span that puts the earliest fix on the instant.
/// 4. **Segments.** The first fix handed out always starts a segment; after a
///    sort, every fix keeps the flag it had in the file.
/// 5. **Errors stop the stream.** Once any problem is found, no further fixes
///    are handed out, but reading goes on so that every problem in the file
///    is reported together.
struct TrackNormalizer {
  let file: String
  let options: TrackReadingOptions
  var diagnostics = DiagnosticCollector()

  private var previousCoordinate: Coordinate?
  /// nil when the previous point's time could not be worked out.
  private var previousInstant: Int64?
  private var previousLine = 0
  private var orderReported = false
  private var shiftMilliseconds: Int64?
  private var sortBuffer: [TrackSample] = []
  private var stopped = false
  private var emittedAny = false
  /// Points accepted so far (timed or untimed), whether or not handed out.
  private(set) var fixCount = 0

  init(file: String, options: TrackReadingOptions) {
    self.file = file
    self.options = options
  }

  /// Whether reading should go on: false once `consume` asked to stop.
  var wantsMore: Bool { !stopped }

  mutating func report(line: Int, column: Int, _ message: String, notes: [String] = []) {
    diagnostics.append(Diagnostic(at: InputLocation(file: file, line: line, column: column), message, notes: notes))
  }

  /// Applies the rules to one point and hands it on when it can.
  /// Returns false when `consume` asked to stop reading.
  @inline(__always)
  /// `locate` gives where a diagnostic about this point's time or order
  /// points (the time field in CSV, the `<time>` or point element in GPX);
  /// it is called only when there is a problem.
  mutating func add(
    _ fix: RawFix, _ consume: (TrackSample) throws -> Bool, locate: () -> (line: Int, column: Int)
  ) rethrows -> Bool {
    fixCount += 1
    var instant: Int64?
    if let given = fix.instant {
      instant = given.millisecondsSinceEpoch
    } else if let previous = previousCoordinate {
      if let previousInstant {
        let metres = trackDistanceMetres(previous, fix.coordinate)
        instant = previousInstant + Int64(metres / options.untimedPointSpeed * 1000)
      }
    } else if let start = options.untimedTrackStart {
      instant = start.millisecondsSinceEpoch
    } else {
      let at = locate()
      report(
        line: at.line, column: at.column, TrackMessages.firstPointUntimed,
        notes: [TrackMessages.firstPointUntimedNote])
    }

    if let instant, let previousInstant, instant < previousInstant, !options.sortByTime, !orderReported {
      orderReported = true
      let at = locate()
      report(
        line: at.line, column: at.column,
        TrackMessages.timeGoesBackwards(
          SimulationInstant(millisecondsSinceEpoch: instant), previousLine: previousLine,
          previous: SimulationInstant(millisecondsSinceEpoch: previousInstant)),
        notes: [TrackMessages.sortNote])
    }
    previousCoordinate = fix.coordinate
    previousInstant = instant
    previousLine = fix.line

    guard let instant, !stopped, !diagnostics.hasErrors else { return !stopped }
    var sample = TrackSample(
      instant: SimulationInstant(millisecondsSinceEpoch: instant), coordinate: fix.coordinate,
      horizontalAccuracy: fix.horizontalAccuracy, line: fix.line, startsSegment: fix.startsSegment)
    if options.sortByTime {
      sortBuffer.append(sample)
      return true
    }
    shift(&sample)
    if try !consume(sample) { stopped = true }
    return !stopped
  }

  private mutating func shift(_ sample: inout TrackSample) {
    if !emittedAny {
      emittedAny = true
      sample.startsSegment = true
    }
    let shift: Int64
    if let known = shiftMilliseconds {
      shift = known
    } else {
      switch options.timeShift {
      case .none: shift = 0
      case .by(let duration): shift = duration.milliseconds
      case .startAt(let start): shift = start.millisecondsSinceEpoch - sample.instant.millisecondsSinceEpoch
      }
      shiftMilliseconds = shift
    }
    sample.instant = sample.instant.advanced(byMilliseconds: shift)
  }

  /// Ends the track: hands out sorted fixes, reports an empty track, and
  /// throws every problem found.
  mutating func finish(
    emptyLocation: InputLocation, emptyMessage: String, emptyNotes: [String] = [],
    _ consume: (TrackSample) throws -> Bool
  ) throws {
    if fixCount == 0 && !diagnostics.hasErrors {
      diagnostics.append(Diagnostic(at: emptyLocation, emptyMessage, notes: emptyNotes))
    }
    try diagnostics.throwIfAny()
    guard options.sortByTime, !stopped else { return }
    // Stable: ties keep file order.
    let order = sortBuffer.indices.sorted {
      (sortBuffer[$0].instant, $0) < (sortBuffer[$1].instant, $1)
    }
    for index in order {
      var sample = sortBuffer[index]
      shift(&sample)
      if try !consume(sample) { break }
    }
    sortBuffer = []
  }
}

/// Geodesic distance used to time untimed points (WGS84 metres).
@inline(__always)
func trackDistanceMetres(_ a: Coordinate, _ b: Coordinate) -> Double {
  Geodesic.distance(a, b)
}

// MARK: - Messages shared by the readers

/// The messages track readers give, in one place (lower case, no trailing
/// period, user values in single quotes).
enum TrackMessages {
  static let sortNote =
    "set `sort: true` under track to sort points by time (holds the whole track in memory)"
  static let firstPointUntimed = "the first point of the track has no time"
  static let firstPointUntimedNote =
    "give the first point a time; later points without a time are timed from the point before them"

  static func timeGoesBackwards(_ instant: SimulationInstant, previousLine: Int, previous: SimulationInstant)
    -> String
  {
    "time goes backwards: \(instant) is earlier than \(previous) on line \(previousLine)"
  }

  static func fileNotFound(_ path: String) -> String { "track file '\(path)' not found" }
  static func fileUnreadable(_ path: String, _ reason: String) -> String {
    "cannot read track file '\(path)': \(reason)"
  }

  /// Opens a track file for reading, or throws a located error (a folder
  /// counts as unreadable).
  static func openTrackFile(_ path: String, referencedAt: InputLocation?) throws -> Int32 {
    let fd = open(path, O_RDONLY)
    if fd < 0 { throw openError(path: path, errno: errno, referencedAt: referencedAt) }
    var info = stat()
    if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
      close(fd)
      throw openError(path: path, errno: EISDIR, referencedAt: referencedAt)
    }
    return fd
  }

  /// A located error for a file that could not be opened.
  static func openError(path: String, errno code: Int32, referencedAt: InputLocation?) -> InputError {
    let location = referencedAt ?? InputLocation(file: path, line: 1, column: 1)
    if code == ENOENT {
      let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
      return InputError(
        Diagnostic(at: location, fileNotFound(path), notes: ["looked for '\(absolute)'"]))
    }
    return InputError(Diagnostic(at: location, fileUnreadable(path, String(cString: strerror(code)))))
  }
}
