import Foundation
import CFileSystem
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
  var diagnostics = DiagnosticCollector() {
    didSet { hasErrors = diagnostics.hasErrors }
  }
  /// `diagnostics.hasErrors`, kept here: the collector lives in another
  /// module, and asking it cost a call on every fix.
  private(set) var hasErrors = false

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

  /// The instants a track's fixes may have, read and after any shift: the
  /// years 0000 to 9999 (UTC), those ISO 8601 writes with four digits.
  /// Epoch values and shifts beyond them are errors, so no later arithmetic
  /// on a fix's instant can overflow.
  static let instants: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999

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
      if TrackNormalizer.instants.contains(given.millisecondsSinceEpoch) {
        instant = given.millisecondsSinceEpoch
      } else {
        let at = locate()
        report(line: at.line, column: at.column, TrackMessages.instantOutOfRange, notes: [TrackMessages.instantRangeNote])
      }
    } else if let previous = previousCoordinate {
      if let previousInstant {
        let metres = trackDistanceMetres(previous, fix.coordinate)
        instant = untimedInstant(after: previousInstant, metres: metres)
        if instant == nil {
          let at = locate()
          report(
            line: at.line, column: at.column, TrackMessages.untimedPointTooLate(metres, options.untimedPointSpeed),
            notes: [TrackMessages.untimedPointTooLateNote])
        }
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

    guard let instant, !stopped, !hasErrors else { return !stopped }
    var sample = TrackSample(
      instant: SimulationInstant(millisecondsSinceEpoch: instant), coordinate: fix.coordinate,
      horizontalAccuracy: fix.horizontalAccuracy, line: fix.line, startsSegment: fix.startsSegment)
    if options.sortByTime {
      sortBuffer.append(sample)
      return true
    }
    guard shift(&sample) else {
      let at = locate()
      report(line: at.line, column: at.column, TrackMessages.shiftedOutOfRange(sample.instant), notes: [TrackMessages.instantRangeNote])
      return !stopped
    }
    if try !consume(sample) { stopped = true }
    return !stopped
  }

  /// The instant of an untimed point `metres` after a point at `previous`
  /// (rule 1), or nil when it would fall after `TrackNormalizer.instants`.
  /// Checked in floating point before converting, so that a tiny
  /// `untimedPointSpeed` gives an error rather than an overflow.
  private func untimedInstant(after previous: Int64, metres: Double) -> Int64? {
    let milliseconds = (metres / options.untimedPointSpeed * 1000).rounded(.towardZero)
    guard milliseconds.isFinite, milliseconds >= 0,
      milliseconds <= Double(TrackNormalizer.instants.upperBound - previous)
    else { return nil }
    return previous + Int64(milliseconds)
  }

  /// Moves `sample` by the time shift (rule 3) and marks the first fix as
  /// starting a segment (rule 4). False when the shifted instant falls
  /// outside `TrackNormalizer.instants` (the sample then holds the instant
  /// unshifted).
  private mutating func shift(_ sample: inout TrackSample) -> Bool {
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
      // Both instants lie in `instants`, so the difference cannot overflow.
      case .startAt(let start): shift = start.millisecondsSinceEpoch - sample.instant.millisecondsSinceEpoch
      }
      shiftMilliseconds = shift
    }
    let (moved, overflow) = sample.instant.millisecondsSinceEpoch.addingReportingOverflow(shift)
    guard !overflow, TrackNormalizer.instants.contains(moved) else { return false }
    sample.instant = SimulationInstant(millisecondsSinceEpoch: moved)
    return true
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
    guard options.sortByTime, !stopped, !diagnostics.hasErrors else {
      try diagnostics.throwIfAny()
      return
    }
    // Stable: ties keep file order.
    let order = sortBuffer.indices.sorted {
      (sortBuffer[$0].instant, $0) < (sortBuffer[$1].instant, $1)
    }
    // The shift moves every fix by the same span, so only the earliest and
    // the latest can leave the range; check them before handing any out.
    if let first = order.first, let last = order.last {
      for index in [first, last] {
        var sample = sortBuffer[index]
        if !shift(&sample) {
          report(line: sample.line, column: 1, TrackMessages.shiftedOutOfRange(sample.instant), notes: [TrackMessages.instantRangeNote])
        }
      }
      emittedAny = false
    }
    try diagnostics.throwIfAny()
    for index in order {
      var sample = sortBuffer[index]
      _ = shift(&sample)
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

  static func untimedPointTooLate(_ metres: Double, _ speed: Double) -> String {
    "the point has no time, and \((metres * 10).rounded() / 10) m from the point before it at the untimed speed of \(speed) m/s would put it after the year 9999"
  }
  static let untimedPointTooLateNote =
    "give the point a time, or set a realistic `untimedSpeed` (m/s) under track; the default is 1.4, a walk"
  static func shiftedOutOfRange(_ unshifted: SimulationInstant) -> String {
    "moved by the track's `shift` or `startAt`, the fix at \(unshifted) would lie outside the years 0000 to 9999"
  }
  static let instantOutOfRange = "the fix's time lies outside the years 0000 to 9999"
  static let instantRangeNote = "track times, read and moved, must lie within the years 0000 to 9999 (UTC)"

  static func fileNotFound(_ path: String) -> String { "track file \(Diagnostic.quotePath(path)) not found" }
  static func fileUnreadable(_ path: String, _ reason: String) -> String {
    "cannot read track file \(Diagnostic.quotePath(path)): \(reason)"
  }

  /// Opens a track file for reading and returns its descriptor (blocking
  /// mode, positioned at the start, close-on-exec), or throws an error
  /// located at `referencedAt` (else at the path's 1:1). Only a regular file
  /// is read (`RegularFile.open`).
  static func openTrackFile(_ path: String, referencedAt: InputLocation?) throws -> Int32 {
    do {
      return try RegularFile.open(path)
    } catch .notRegular(.folder) {
      throw openError(path: path, errno: EISDIR, referencedAt: referencedAt)
    } catch .notRegular(let kind) {
      throw notRegularError(path: path, kind.description, referencedAt: referencedAt)
    } catch .onKernelFileSystem(let kernel) {
      throw notRegularError(path: path, "a file of the kernel's \(kernel.name) file system", referencedAt: referencedAt)
    } catch .system(let code) {
      throw openError(path: path, errno: code, referencedAt: referencedAt)
    }
  }

  static func notRegularFile(_ path: String, _ kind: String) -> String {
    "track file \(Diagnostic.quotePath(path)) is \(kind), not a regular file"
  }
  static let notRegularFileNote =
    "a track is read from a regular GPX or CSV file; folders, named pipes, devices, sockets and files under /proc or /sys are refused before reading"

  static func notRegularError(path: String, _ kind: String, referencedAt: InputLocation?) -> InputError {
    InputError(
      Diagnostic(
        at: referencedAt ?? InputLocation(file: path, line: 1, column: 1), notRegularFile(path, kind),
        notes: [notRegularFileNote]))
  }

  /// A located error for a file that could not be read after it was opened.
  static func readError(path: String, errno code: Int32, at location: InputLocation) -> InputError {
    InputError(Diagnostic(at: location, fileUnreadable(path, String(cString: strerror(code)))))
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

/// The kinds of file `TrackMessages.openTrackFile` refuses by their mode.
package enum TrackFileKind: CustomStringConvertible, Sendable {
  case folder, fifo, characterDevice, blockDevice, socket, other

  /// nil for a regular file.
  init?(mode: mode_t) {
    switch mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: self = .folder
    case S_IFIFO: self = .fifo
    case S_IFCHR: self = .characterDevice
    case S_IFBLK: self = .blockDevice
    case S_IFSOCK: self = .socket
    default: self = .other  // stat follows symbolic links, so only an unknown type lands here
    }
  }

  package var description: String {
    switch self {
    case .folder: "a folder"
    case .fifo: "a named pipe (FIFO)"
    case .characterDevice: "a character device"
    case .blockDevice: "a block device"
    case .socket: "a socket"
    case .other: "a special file"
    }
  }
}

/// Kernel pseudo file systems whose files are generated on reading (their
/// `statfs` magic numbers, from Linux's `include/uapi/linux/magic.h`).
/// Their files look regular but may be endless or hold secrets.
package enum KernelFileSystem: Int64, CaseIterable, Sendable {
  case proc = 0x9fa0
  case sys = 0x6265_6572
  case debug = 0x6462_6720
  case trace = 0x7472_6163
  case security = 0x7363_6673
  case cgroup = 0x27e0eb
  case cgroup2 = 0x6367_7270
  case bpf = 0xcafe_4a11
  case config = 0x6265_6570
  case efivar = 0xde5e_81e4
  case pstore = 0x6165_676c

  init?(magic: Int64) { self.init(rawValue: magic) }

  var name: String {
    switch self {
    case .proc: "procfs (/proc)"
    case .sys: "sysfs (/sys)"
    case .debug: "debugfs"
    case .trace: "tracefs"
    case .security: "securityfs"
    case .cgroup: "cgroup"
    case .cgroup2: "cgroup2"
    case .bpf: "bpf"
    case .config: "configfs"
    case .efivar: "efivarfs"
    case .pstore: "pstore"
    }
  }
}
