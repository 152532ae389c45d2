import CLibXML2
import Foundation
import TrigsimCore

/// A point as found in the file: its values read, not yet judged (a point
/// that is not selected is never reported on).
struct GPXPoint {
  enum Kind { case track, route, waypoint }

  /// A `lat` or `lon` attribute as read; the text is quoted only when it is wrong.
  enum Coordinate {
    case missing
    case valid(Double)
    case notANumber(quoted: String)
    case notFinite(quoted: String)
    case outOfRange(quoted: String, value: Double)
  }

  /// A `<time>` or accuracy element's text as read.
  enum Reading<Value> {
    case valid(Value)
    case invalid(quoted: String)
  }

  var kind: Kind
  var latitude: Coordinate
  var longitude: Coordinate
  /// Milliseconds since the epoch; nil when the point has no `<time>`.
  var time: Reading<Int64>?
  var accuracy: Reading<Double>?
  var line: Int
  var column: Int
  var timeLine = 0
  var timeColumn = 0
  var startsSegment: Bool
}

/// Receives libxml2's SAX2 events for one GPX file and keeps its reading
/// state: the point being read, segment starts, held route and waypoint
/// points, the first XML problem.
///
/// Names are compared as bytes (the local name, after any prefix) and
/// `lat`, `lon`, `<time>` and accuracy are parsed from the bytes libxml2
/// hands over, so reading a point allocates nothing unless it is wrong.
final class GPXSAXHandler {
  /// Entity references may expand to this many bytes of text, plus
  /// `entityTextPerByteRead` for every byte of the file read so far.
  static let entityTextAllowance = 1 << 20
  static let entityTextPerByteRead = 4
  /// The most bytes of a `<time>` or accuracy element's text kept (past
  /// leading white space): a longer text is wrong, and is quoted cut.
  static let textCapacity = 128

  let options: TrackReadingOptions
  let consume: (TrackSample) throws -> Bool
  var normalizer: TrackNormalizer
  private var timeParser: TrackTimeParser
  /// The document's parser context. Positions are read from it, also while
  /// an entity's text is parsed in a nested context.
  let context: xmlParserCtxtPtr

  var thrown: Error?
  var stoppedEarly = false
  /// The first problem that stopped the parser, and where.
  private(set) var problem: (XMLProblem, line: Int, column: Int)?
  /// The first error libxml2 raised outside the parser, until the parser stops.
  private var outsideError: LibXML2Error?
  /// Whether any element has started: before that, the file may not be XML at all.
  private(set) var rootStarted = false
  /// Bytes handed to the parser so far.
  var bytesRead = 0
  private var entityTextBytes = 0

  private var depth = 0
  private var inPoint = false
  private var point = GPXPoint(kind: .track, latitude: .missing, longitude: .missing, line: 0, column: 0, startsSegment: false)
  private var pointDepth = 0
  private enum Capture { case none, time, accuracy }
  private var capture = Capture.none
  private var captureDepth = 0
  private let text = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: GPXSAXHandler.textCapacity)
  private var textCount = 0
  /// Text past `textCapacity` that was not white space was dropped.
  private var textOverflowed = false

  private var trackSegmentPending = false
  private var routeSegmentPending = false
  private var waypointSegmentPending = true
  var counts = (track: 0, route: 0, waypoint: 0)
  /// `.auto` only: route and waypoint points met before any `trkpt`.
  private var heldRoutePoints: [GPXPoint] = []
  private var heldWaypoints: [GPXPoint] = []

  init(file: String, options: TrackReadingOptions, context: xmlParserCtxtPtr, consume: @escaping (TrackSample) throws -> Bool) {
    self.options = options
    self.consume = consume
    self.context = context
    self.normalizer = TrackNormalizer(file: file, options: options)
    self.timeParser = TrackTimeParser(naiveTimeZone: options.naiveTimeZone)
  }

  deinit { text.deallocate() }

  /// The document context's current position (libxml2 keeps it 1-based; clamped to be sure).
  private var position: (line: Int, column: Int) {
    guard let input = context.pointee.input else { return (1, 1) }
    return (max(1, Int(input.pointee.line)), max(1, Int(input.pointee.col)))
  }

  /// Stops the parser: no further events arrive.
  func stop() { xmlStopParser(context) }

  // MARK: Elements

  func startElement(
    _ name: UnsafePointer<UInt8>, attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
  ) {
    depth += 1
    rootStarted = true
    if inPoint {
      if depth == pointDepth + 1 && nameIs(name, "time") {
        beginCapture(.time)
        let at = position
        point.timeLine = at.line
        point.timeColumn = at.column + 1
      } else if isAccuracyName(name) {
        beginCapture(.accuracy)
      }
      return
    }
    let kind: GPXPoint.Kind
    switch name[0] {
    case UInt8(ascii: "t"):
      if nameIs(name, "trkpt") {
        kind = .track
      } else {
        if nameIs(name, "trk") || nameIs(name, "trkseg") { trackSegmentPending = true }
        return
      }
    case UInt8(ascii: "r"):
      if nameIs(name, "rtept") {
        kind = .route
      } else {
        if nameIs(name, "rte") { routeSegmentPending = true }
        return
      }
    case UInt8(ascii: "w"):
      guard nameIs(name, "wpt") else { return }
      kind = .waypoint
    default:
      return
    }
    let startsSegment: Bool
    switch kind {
    case .track: startsSegment = trackSegmentPending; trackSegmentPending = false
    case .route: startsSegment = routeSegmentPending; routeSegmentPending = false
    case .waypoint: startsSegment = waypointSegmentPending; waypointSegmentPending = false
    }
    let at = position
    point = GPXPoint(
      kind: kind,
      latitude: Self.coordinate(attribute("lat", attributeCount, attributes), isLatitude: true),
      longitude: Self.coordinate(attribute("lon", attributeCount, attributes), isLatitude: false),
      line: at.line, column: at.column, startsSegment: startsSegment)
    inPoint = true
    pointDepth = depth
  }

  func endElement() {
    defer { depth -= 1 }
    guard inPoint else { return }
    if capture != .none && depth == captureDepth { endCapture() }
    if depth == pointDepth {
      inPoint = false
      capture = .none
      pointEnded(point)
    }
  }

  func characters(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
    guard capture != .none else { return }
    var index = 0
    if textCount == 0 {
      while index < count && isSpace(bytes[index]) { index += 1 }
    }
    let copied = min(count - index, Self.textCapacity - textCount)
    if copied > 0 {
      (text.baseAddress! + textCount).update(from: bytes + index, count: copied)
      textCount += copied
      index += copied
    }
    while index < count {
      if !isSpace(bytes[index]) { textOverflowed = true }
      index += 1
    }
  }

  private func beginCapture(_ kind: Capture) {
    capture = kind
    captureDepth = depth
    textCount = 0
    textOverflowed = false
  }

  private func endCapture() {
    let bytes = trimmedSpaces(UnsafeBufferPointer(start: text.baseAddress, count: textCount))
    switch capture {
    case .none: break
    case .time:
      if !textOverflowed, let milliseconds = timeParser.parseISO8601(bytes) {
        point.time = .valid(milliseconds)
      } else {
        point.time = .invalid(quoted: GPXMessages.quote(bytes, cut: textOverflowed))
      }
    case .accuracy:
      if !textOverflowed, let value = parseDecimal(bytes), value.isFinite, value >= 0 {
        point.accuracy = .valid(value)
      } else {
        point.accuracy = .invalid(quoted: GPXMessages.quote(bytes, cut: textOverflowed))
      }
    }
    capture = .none
  }

  /// The value of the attribute with local name `name`: the unprefixed one
  /// if there is one, else the first prefixed one (`gpx:lat`) in file order.
  private func attribute(
    _ name: StaticString, _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
  ) -> UnsafeBufferPointer<UInt8>? {
    guard let attributes else { return nil }
    var found: UnsafeBufferPointer<UInt8>?
    // libxml2 gives five pointers per attribute: local name, prefix, namespace URI, value start, value end.
    for index in 0..<count {
      let base = attributes + 5 * index
      guard let localName = base[0], nameIs(localName, name), let start = base[3], let end = base[4] else { continue }
      let value = UnsafeBufferPointer(start: start, count: end - start)
      if base[1] == nil { return value }
      if found == nil { found = value }
    }
    return found
  }

  static func coordinate(_ bytes: UnsafeBufferPointer<UInt8>?, isLatitude: Bool) -> GPXPoint.Coordinate {
    guard let bytes else { return .missing }
    let trimmed = trimmedSpaces(bytes)
    guard let value = parseDecimal(trimmed) else { return .notANumber(quoted: GPXMessages.quote(trimmed)) }
    guard value.isFinite else { return .notFinite(quoted: GPXMessages.quote(trimmed)) }
    guard isLatitude ? (-90...90).contains(value) : (-180...180).contains(value) else {
      return .outOfRange(quoted: GPXMessages.quote(trimmed), value: value)
    }
    return .valid(value)
  }

  // MARK: Entities and errors

  /// Counts the text an entity reference expands to, and refuses the
  /// reference once the total passes the allowance (see `XMLProblem.entityExpansion`).
  func allowsExpansion(ofBytes count: Int) -> Bool {
    entityTextBytes += count
    let limit = Self.entityTextAllowance + Self.entityTextPerByteRead * bytesRead
    guard entityTextBytes > limit else { return true }
    if problem == nil {
      let at = position
      problem = (.entityExpansion(limit: limit), at.line, at.column)
    }
    stop()
    return false
  }

  /// Keeps the first error that counts: warnings, and namespace errors (an
  /// undeclared prefix, which libxml2 reads past; elements are matched by
  /// local name anyway), do not. An error raised while an entity's text is
  /// parsed is located where the document is. One raised outside any parser
  /// (an encoder's, for bytes not in the declared encoding) waits for the
  /// parser to stop: the encoder converts ahead in bulk, and the parser
  /// stops where the converted text ends, at the bad bytes.
  func record(_ error: UnsafePointer<xmlError>) {
    guard problem == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
      error.pointee.domain != Int32(XML_FROM_NAMESPACE.rawValue)
    else { return }
    guard let errorContext = error.pointee.ctxt else {
      if outsideError == nil { outsideError = LibXML2Error(error) }
      return
    }
    var at = position
    if errorContext == UnsafeMutableRawPointer(context), error.pointee.line > 0 {
      at = (Int(error.pointee.line), max(1, Int(error.pointee.int2)))
    }
    problem = (.libxml2(LibXML2Error(error)), at.line, at.column)
  }

  /// Records why the parser stopped when it gave no error of its own:
  /// `xmlParseChunk` returned `status` (libxml2 2.9 halts on an encoder
  /// failure with just a return code), or an error came from outside it.
  func recordStop(status: Int32) {
    guard problem == nil, status != 0 || outsideError != nil else { return }
    let error = outsideError ?? LibXML2Error(code: status, domain: Int32(XML_FROM_PARSER.rawValue), message: "")
    let at = position
    problem = (.libxml2(error), at.line, at.column)
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

  /// Hands held route or waypoint points on, in `.auto` when the file had no `trkpt`.
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
    switch point.time {
    case nil: break
    case .valid(let milliseconds)?: instant = SimulationInstant(millisecondsSinceEpoch: milliseconds)
    case .invalid(let quoted)?:
      normalizer.report(
        line: point.timeLine, column: point.timeColumn, GPXMessages.badTime(quoted), notes: [GPXMessages.badTimeNote])
      ok = false
    }
    var accuracy: Double?
    switch point.accuracy {
    case nil: break
    case .valid(let value)?: accuracy = value
    case .invalid(let quoted)?:
      normalizer.report(line: point.line, column: point.column, CSVMessages.badAccuracy(quoted))
      ok = false
    }
    guard ok else { return }
    let fix = RawFix(
      instant: instant, coordinate: TrigsimCore.Coordinate(latitude: latitude, longitude: longitude),
      horizontalAccuracy: accuracy, line: point.line, startsSegment: point.startsSegment)
    do {
      let more = try normalizer.add(fix, consume) {
        point.time != nil ? (point.timeLine, point.timeColumn) : (point.line, point.column)
      }
      if !more {
        stoppedEarly = true
        stop()
      }
    } catch {
      thrown = error
      stop()
    }
  }

  private func coordinate(_ reading: GPXPoint.Coordinate, isLatitude: Bool, _ point: GPXPoint, _ ok: inout Bool)
    -> Double
  {
    switch reading {
    case .valid(let value):
      return value
    case .missing:
      normalizer.report(
        line: point.line, column: point.column, GPXMessages.missingAttribute(isLatitude ? "lat" : "lon", point.kind))
    case .notANumber(let quoted):
      normalizer.report(line: point.line, column: point.column, CoordinateMessages.notANumber(isLatitude, quoted))
    case .notFinite(let quoted):
      normalizer.report(
        line: point.line, column: point.column, CSVMessages.notFinite(isLatitude, quoted),
        notes: [GPXMessages.removePointNote(point.kind)])
    case .outOfRange(let quoted, let value):
      var notes: [String] = []
      if isLatitude && (value == 100 || value == 200) { notes.append(GPXMessages.pauseMarkerNote) }
      notes.append(GPXMessages.removePointNote(point.kind))
      normalizer.report(
        line: point.line, column: point.column, CoordinateMessages.outOfRange(isLatitude, quoted), notes: notes)
    }
    ok = false
    return 0
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

// MARK: - Names as bytes

@inline(__always)
private func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

/// Whether the NUL-terminated `name` is exactly the ASCII `literal`.
@inline(__always)
func nameIs(_ name: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
  let bytes = literal.utf8Start
  let count = literal.utf8CodeUnitCount
  // A shorter name stops the loop at its NUL, which no literal byte equals.
  for index in 0..<count where name[index] != bytes[index] { return false }
  return name[count] == 0
}

/// `hAcc` or `horizontalAccuracy`, in any letter case.
@inline(__always)
func isAccuracyName(_ name: UnsafePointer<UInt8>) -> Bool {
  let first = name[0] | 0x20
  guard first == UInt8(ascii: "h") else { return false }
  return equalsIgnoringASCIICase(name, "hacc") || equalsIgnoringASCIICase(name, "horizontalaccuracy")
}

/// Whether the NUL-terminated `name` is the lower-case ASCII `literal` in any letter case.
private func equalsIgnoringASCIICase(_ name: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
  let bytes = literal.utf8Start
  let count = literal.utf8CodeUnitCount
  for index in 0..<count {
    let c = name[index]
    let lower = c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c | 0x20 : c
    if lower != bytes[index] { return false }
  }
  return name[count] == 0
}

// MARK: - libxml2 callbacks

/// Calls `body` with the handler riding in a parser context's `_private`:
/// the document's context, or a nested one libxml2 made to parse an entity's
/// text (it copies `_private` into those). A free function: a C callback
/// cannot refer to a type's `Self`.
@inline(__always)
private func withHandler(_ context: UnsafeMutableRawPointer?, _ body: (GPXSAXHandler) -> Void) {
  guard let context, let handler = context.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return }
  Unmanaged<GPXSAXHandler>.fromOpaque(handler)._withUnsafeGuaranteedRef(body)
}

extension GPXSAXHandler {
  /// The SAX2 callbacks: libxml2's own for the file's DTD declarations, so
  /// that entities declared in it expand (on a small document libxml2 keeps
  /// for them; the reader frees it), and the handler's for elements, text
  /// and errors. Everything that would load, print or build anything else
  /// is switched off.
  static func saxHandler() -> xmlSAXHandler {
    var sax = xmlSAXHandler()
    xmlSAXVersion(&sax, 2)
    sax.resolveEntity = nil  // nothing outside the file is ever loaded
    sax.externalSubset = nil
    sax.setDocumentLocator = nil
    sax.startElement = nil  // SAX1
    sax.endElement = nil
    sax.reference = nil
    sax.processingInstruction = nil
    sax.comment = nil
    sax.warning = nil
    sax.error = nil
    sax.fatalError = nil
    sax.getEntity = { context, name in
      guard let entity = xmlSAX2GetEntity(context, name) else { return nil }
      if entity.pointee.etype == XML_INTERNAL_PREDEFINED_ENTITY { return entity }
      var allowed = true
      withHandler(context) { allowed = $0.allowsExpansion(ofBytes: Int(entity.pointee.length)) }
      guard allowed else {
        // Also stops the nested context, if this reference is inside another entity's text.
        if let context { xmlStopParser(context.assumingMemoryBound(to: xmlParserCtxt.self)) }
        return nil
      }
      return entity
    }
    sax.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
      guard let localName else { return }
      withHandler(context) { $0.startElement(localName, attributeCount: Int(attributeCount), attributes: attributes) }
    }
    sax.endElementNs = { context, _, _, _ in
      withHandler(context) { $0.endElement() }
    }
    sax.characters = { context, bytes, count in
      guard let bytes, count > 0 else { return }
      withHandler(context) { $0.characters(bytes, Int(count)) }
    }
    sax.ignorableWhitespace = sax.characters
    sax.cdataBlock = sax.characters
    sax.serror = { context, error in
      guard let error else { return }
      withHandler(context) { $0.record(error) }
    }
    return sax
  }

  /// Errors libxml2 raises outside the parser (its encoders'), sent here by
  /// `trigsim_xml_capture_errors` with the document's context.
  static let threadError: xmlStructuredErrorFunc = { context, error in
    guard let error else { return }
    withHandler(context) { $0.record(error) }
  }
}
