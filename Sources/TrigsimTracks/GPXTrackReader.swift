import Foundation
import TrigsimCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Reads a GPX 1.0 or 1.1 track, streaming, with Foundation's `XMLParser`
/// over an `InputStream` (libxml2 push parsing on Linux: memory stays flat
/// however long the file is).
///
/// ## What is read
/// - `trk/trkseg/trkpt`, `rte/rtept` and `wpt`, chosen by
///   `TrackReadingOptions.gpxPoints`. In `.auto`: track points when the file
///   has any `trkpt`, else route points when it has any `rtept`, else
///   waypoints (a `trk` or `rte` without points does not count). Track points
///   stream as they are read; route and waypoint points met before the first
///   `trkpt` are held in memory and dropped once one appears, so only route
///   and waypoint files are ever buffered.
/// - Elements are matched by local name, so prefixed names (`gpx:trkpt`) work;
///   an undeclared prefix, which libxml2 reports as a namespace error and then
///   reads past, is tolerated.
/// - Per point: the `lat` and `lon` attributes, the `<time>` child (ISO 8601,
///   see `CSVTrackReader`; no offset = `naiveTimeZone`), and horizontal
///   accuracy in metres from an element named `hAcc` or `horizontalAccuracy`
///   (any letter case, any prefix, anywhere inside the point, typically under
///   `<extensions>`). `<hdop>` is not accuracy and is not read; nor are
///   `<ele>` and every other element.
/// - Segments: the first point of each `trk` and of each `trkseg` starts a
///   segment; so does the first point of each `rte`; waypoints form one segment.
/// - Encodings libxml2 knows (UTF-8 with or without a byte-order mark,
///   ISO-8859-1, …) as declared in the XML declaration.
///
/// ## Where diagnostics point
/// libxml2 reports an element where its start tag ends, so a point's
/// coordinate problems are located at the `>` (or `/`) closing its start tag,
/// and a time problem at the first character after `<time>`. XML errors are
/// located where libxml2 stopped. Columns are 1-based.
public struct GPXTrackReader: TrackSource {
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

  public func readSamples(_ consume: (TrackSample) throws -> Bool) throws {
    // Open once ourselves, for a located "not found" (InputStream only says nil).
    close(try TrackMessages.openTrackFile(path, referencedAt: referencedAt))
    guard let stream = InputStream(fileAtPath: path) else {
      throw TrackMessages.openError(path: path, errno: ENOENT, referencedAt: referencedAt)
    }
    try withoutActuallyEscaping(consume) { consume in
      let handler = GPXHandler(file: path, options: options, consume: consume)
      let parser = XMLParser(stream: stream)
      parser.shouldProcessNamespaces = false
      parser.shouldResolveExternalEntities = false
      parser.delegate = handler
      handler.parser = parser
      let completed = parser.parse()
      handler.parser = nil
      if let thrown = handler.thrown { throw thrown }
      if handler.stoppedEarly { return }
      // libxml2 may report a fatal error (a truncated file) and still let
      // `parse()` return true, so any recorded error counts.
      if let (code, line, column) = handler.xmlError {
        // A start tag cut short by the error can look like a point without
        // coordinates at the same place: the XML error is the real one.
        var kept = DiagnosticCollector()
        for diagnostic in handler.normalizer.diagnostics.diagnostics
        where (diagnostic.location.line, diagnostic.location.column) != (line, column) {
          kept.append(diagnostic)
        }
        handler.normalizer.diagnostics = kept
        handler.normalizer.report(line: line, column: column, GPXMessages.xmlError(code))
      } else if !completed {
        handler.normalizer.report(line: parser.lineNumber, column: parser.columnNumber, GPXMessages.xmlError(nil))
      } else {
        try handler.endOfDocument()
        if handler.stoppedEarly { return }
      }
      try handler.normalizer.finish(
        emptyLocation: InputLocation(file: path, line: 1, column: 1), emptyMessage: handler.emptyMessage,
        emptyNotes: handler.emptyNotes, consume)
    }
  }
}

/// A point as found in the file, before validation.
private struct GPXPoint {
  enum Kind { case track, route, waypoint }
  var kind: Kind
  var latitude: String?
  var longitude: String?
  var time: String?
  var accuracy: String?
  var line: Int
  var column: Int
  var timeLine = 0
  var timeColumn = 0
  var startsSegment: Bool
}

/// The XMLParser delegate: keeps the reading state of one GPX file.
private final class GPXHandler: NSObject, XMLParserDelegate {
  let file: String
  let options: TrackReadingOptions
  let consume: (TrackSample) throws -> Bool
  var normalizer: TrackNormalizer
  var timeParser: TrackTimeParser
  weak var parser: XMLParser?

  var thrown: Error?
  var stoppedEarly = false
  /// The last fatal XML error: code, line, column.
  var xmlError: (Int, Int, Int)?

  var depth = 0
  var point: GPXPoint?
  var pointDepth = 0
  enum Capture { case none, time, accuracy }
  var capture = Capture.none
  var text = ""

  var trackSegmentPending = false
  var routeSegmentPending = false
  var waypointSegmentPending = true
  var counts = (track: 0, route: 0, waypoint: 0)
  /// `.auto` only: route and waypoint points met before any `trkpt`.
  var heldRoutePoints: [GPXPoint] = []
  var heldWaypoints: [GPXPoint] = []

  init(file: String, options: TrackReadingOptions, consume: @escaping (TrackSample) throws -> Bool) {
    self.file = file
    self.options = options
    self.consume = consume
    self.normalizer = TrackNormalizer(file: file, options: options)
    self.timeParser = TrackTimeParser(naiveTimeZone: options.naiveTimeZone)
  }

  static func localName(_ name: String) -> Substring {
    if let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) { return name[name.utf8.index(after: colon)...] }
    return Substring(name)
  }

  /// `hAcc` or `horizontalAccuracy`, in any letter case.
  static func isAccuracyElement(_ name: Substring) -> Bool {
    let count = name.utf8.count
    guard count == 4 || count == 18 else { return false }
    let lower = name.lowercased()
    return lower == "hacc" || lower == "horizontalaccuracy"
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
    attributes attributeDict: [String: String] = [:]
  ) {
    depth += 1
    let name = GPXHandler.localName(elementName)
    if point != nil {
      if depth == pointDepth + 1 && name == "time" {
        capture = .time
        text = ""
        point!.timeLine = parser.lineNumber
        point!.timeColumn = parser.columnNumber + 1
      } else if GPXHandler.isAccuracyElement(name) {
        capture = .accuracy
        text = ""
      }
      return
    }
    switch name {
    case "trk", "trkseg": trackSegmentPending = true
    case "rte": routeSegmentPending = true
    case "trkpt", "rtept", "wpt":
      let kind: GPXPoint.Kind = name == "trkpt" ? .track : name == "rtept" ? .route : .waypoint
      let startsSegment: Bool
      switch kind {
      case .track: startsSegment = trackSegmentPending; trackSegmentPending = false
      case .route: startsSegment = routeSegmentPending; routeSegmentPending = false
      case .waypoint: startsSegment = waypointSegmentPending; waypointSegmentPending = false
      }
      point = GPXPoint(
        kind: kind, latitude: attribute("lat", attributeDict), longitude: attribute("lon", attributeDict),
        line: parser.lineNumber, column: parser.columnNumber, startsSegment: startsSegment)
      pointDepth = depth
    default: break
    }
  }

  /// An attribute by local name (`lat` or `gpx:lat`).
  private func attribute(_ name: String, _ attributes: [String: String]) -> String? {
    if let value = attributes[name] { return value }
    for (key, value) in attributes where GPXHandler.localName(key) == name { return value }
    return nil
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if capture != .none { text += string }
  }

  func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
    if capture != .none { text += String(decoding: CDATABlock, as: UTF8.self) }
  }

  func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
    defer { depth -= 1 }
    guard var current = point else { return }
    if depth == pointDepth {
      point = nil
      capture = .none
      pointEnded(current)
      return
    }
    switch capture {
    case .none: break
    case .time: current.time = text
    case .accuracy: current.accuracy = text
    }
    capture = .none
    point = current
  }

  func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
    let code = (parseError as NSError).code
    // Namespace errors (an undeclared prefix) are not fatal and do not matter:
    // elements are matched by local name.
    if (200..<300).contains(code) { return }
    // The first error is the cause; libxml2 may report follow-on errors.
    if xmlError == nil { xmlError = (code, parser.lineNumber, parser.columnNumber) }
  }

  // MARK: Points

  private func pointEnded(_ point: GPXPoint) {
    switch point.kind {
    case .track:
      counts.track += 1
      if counts.track == 1 {
        heldRoutePoints = []
        heldWaypoints = []
      }
    case .route:
      counts.route += 1
      if counts.route == 1 { heldWaypoints = [] }
    case .waypoint: counts.waypoint += 1
    }
    switch (options.gpxPoints, point.kind) {
    case (.tracks, .track), (.routes, .route), (.waypoints, .waypoint), (.auto, .track):
      add(point)
    case (.auto, .route):
      if counts.track == 0 { heldRoutePoints.append(point) }
    case (.auto, .waypoint):
      if counts.track == 0 && counts.route == 0 { heldWaypoints.append(point) }
    default:
      break
    }
  }

  /// Hands held route or waypoint points on, in `.auto` when the file had no `trk`.
  func endOfDocument() throws {
    guard options.gpxPoints == .auto, counts.track == 0 else { return }
    let held = counts.route > 0 ? heldRoutePoints : heldWaypoints
    heldRoutePoints = []
    heldWaypoints = []
    for point in held {
      add(point)
      if let thrown { throw thrown }
      if stoppedEarly { return }
    }
  }

  private func add(_ point: GPXPoint) {
    guard thrown == nil, !stoppedEarly else { return }
    var ok = true
    let latitude = coordinate(point.latitude, isLatitude: true, point, &ok)
    let longitude = coordinate(point.longitude, isLatitude: false, point, &ok)
    var instant: SimulationInstant?
    if let timeText = point.time {
      let parsed = withTrimmedUTF8(timeText) { timeParser.parseISO8601($0) }
      if let parsed {
        instant = SimulationInstant(millisecondsSinceEpoch: parsed)
      } else {
        normalizer.report(
          line: point.timeLine, column: point.timeColumn,
          GPXMessages.badTime(timeText.trimmingCharacters(in: .whitespacesAndNewlines)),
          notes: [GPXMessages.badTimeNote])
        ok = false
      }
    }
    var accuracy: Double?
    if let accuracyText = point.accuracy {
      if let value = decimal(accuracyText), value.isFinite, value >= 0 {
        accuracy = value
      } else {
        let trimmed = accuracyText.trimmingCharacters(in: .whitespacesAndNewlines)
        normalizer.report(line: point.line, column: point.column, CSVMessages.badAccuracy(trimmed))
        ok = false
      }
    }
    guard ok else { return }
    let fix = RawFix(
      instant: instant, coordinate: Coordinate(latitude: latitude, longitude: longitude),
      horizontalAccuracy: accuracy, line: point.line, startsSegment: point.startsSegment)
    do {
      let more = try normalizer.add(fix, consume) {
        point.time != nil ? (point.timeLine, point.timeColumn) : (point.line, point.column)
      }
      if !more {
        stoppedEarly = true
        parser?.abortParsing()
      }
    } catch {
      thrown = error
      parser?.abortParsing()
    }
  }

  /// The number in `text`, ignoring surrounding white space.
  private func decimal(_ text: String) -> Double? {
    withTrimmedUTF8(text) { parseDecimal($0) }
  }

  /// Calls `body` with the UTF-8 of `text` without leading and trailing
  /// white space (Foundation's `trimmingCharacters` costs more than parsing).
  private func withTrimmedUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    var contiguous = text
    return contiguous.withUTF8 { bytes in
      var start = 0
      var end = bytes.count
      func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
      while start < end && isSpace(bytes[start]) { start += 1 }
      while end > start && isSpace(bytes[end - 1]) { end -= 1 }
      return body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }
  }

  private func coordinate(_ text: String?, isLatitude: Bool, _ point: GPXPoint, _ ok: inout Bool) -> Double {
    let name = isLatitude ? "lat" : "lon"
    guard let text else {
      normalizer.report(line: point.line, column: point.column, GPXMessages.missingAttribute(name, point.kind))
      ok = false
      return 0
    }
    guard let value = decimal(text) else {
      normalizer.report(line: point.line, column: point.column, CoordinateMessages.notANumber(isLatitude, text))
      ok = false
      return 0
    }
    guard value.isFinite, isLatitude ? (-90...90).contains(value) : (-180...180).contains(value) else {
      var notes: [String] = []
      if isLatitude && (value == 100 || value == 200) { notes.append(GPXMessages.pauseMarkerNote) }
      notes.append(GPXMessages.removePointNote(point.kind))
      normalizer.report(
        line: point.line, column: point.column,
        value.isFinite ? CoordinateMessages.outOfRange(isLatitude, text) : CSVMessages.notFinite(isLatitude, text),
        notes: notes)
      ok = false
      return 0
    }
    return value
  }

  // MARK: Empty track

  var emptyMessage: String {
    switch options.gpxPoints {
    case .auto: return GPXMessages.noPoints
    case .tracks: return "track has no points: the file has no trkpt elements"
    case .routes: return "track has no points: the file has no rtept elements"
    case .waypoints: return "track has no points: the file has no wpt elements"
    }
  }

  var emptyNotes: [String] {
    var found: [String] = []
    if counts.track > 0 { found.append("\(counts.track) trkpt") }
    if counts.route > 0 { found.append("\(counts.route) rtept") }
    if counts.waypoint > 0 { found.append("\(counts.waypoint) wpt") }
    guard !found.isEmpty else { return [] }
    return [
      "the file has \(found.joined(separator: ", ")); choose them with `points:` under track (tracks, routes, waypoints)"
    ]
  }
}

// MARK: - Messages

enum GPXMessages {
  static let noPoints = "track has no points: the file has no trkpt, rtept or wpt elements"
  static let badTimeNote = "GPX times are ISO 8601, e.g. '2026-03-28T07:00:00Z' or '2026-03-28T08:00:00.250+01:00'"
  static let pauseMarkerNote =
    "legacy OpenTracks exports mark pauses with lat=\"100\" (pause) and lat=\"200\" (resume); these are not positions"

  static func badTime(_ text: String) -> String { "cannot read time '\(text)'" }

  fileprivate static func elementName(_ kind: GPXPoint.Kind) -> String {
    switch kind {
    case .track: return "trkpt"
    case .route: return "rtept"
    case .waypoint: return "wpt"
    }
  }

  fileprivate static func missingAttribute(_ name: String, _ kind: GPXPoint.Kind) -> String {
    "\(elementName(kind)) has no '\(name)' attribute"
  }

  fileprivate static func removePointNote(_ kind: GPXPoint.Kind) -> String {
    "remove the \(elementName(kind)) element or correct its coordinates"
  }

  /// libxml2's error by its code: swift-corelibs-foundation passes on the
  /// code of libxml2's `xmlParserErrors` but not libxml2's message text (and
  /// its `XMLParser.ErrorCode` names are numbered differently), so the common
  /// codes are named here.
  static func xmlError(_ code: Int?) -> String {
    guard let code else { return "the file is not well-formed XML" }
    let known: [Int: String] = [
      4: "the document is empty",
      5: "extra content at the end of the document, or the document ends early",
      9: "invalid character",
      26: "undeclared entity",
      38: "'<' in an attribute value",
      39: "attribute value without quotes",
      40: "unterminated attribute value",
      41: "attribute without a value",
      42: "attribute given twice",
      65: "space required between attributes",
      73: "'>' expected",
      76: "closing tag does not match the opening tag",
      77: "premature end of data in tag",
    ]
    guard let words = known[code] else { return "the file is not well-formed XML (libxml2 error \(code))" }
    return "the file is not well-formed XML: \(words) (libxml2 error \(code))"
  }
}
