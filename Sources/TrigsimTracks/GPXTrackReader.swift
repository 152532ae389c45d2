import CLibXML2
import Foundation
import TrigsimCore

/// Reads a GPX 1.0 or 1.1 track, streaming, with libxml2's SAX2 push parser
/// fed 256 KiB at a time: memory stays flat however long the file is.
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
/// - Per point: the `lat` and `lon` attributes (by local name; an unprefixed
///   one wins over a prefixed one), the `<time>` child (ISO 8601,
///   see `CSVTrackReader`; no offset = `naiveTimeZone`), and horizontal
///   accuracy in metres from an element named `hAcc` or `horizontalAccuracy`
///   (any letter case, any prefix, anywhere inside the point, typically under
///   `<extensions>`). `<hdop>` is not accuracy and is not read; nor are
///   `<ele>` and every other element. A `<time>` or accuracy text longer than
///   128 bytes (past surrounding white space) is an error.
/// - An empty file is an error ("the file is empty"), not an XML error.
/// - Segments: the first point of each `trk` and of each `trkseg` starts a
///   segment; so does the first point of each `rte`; waypoints form one segment.
/// - Encodings: UTF-8 with or without a byte-order mark, UTF-16 with one, and
///   any encoding libxml2 knows (ISO-8859-1, windows-1252, …) when the XML
///   declaration names it. Bytes that are not UTF-8 in a file that declares
///   no encoding, or not valid in the declared one, are a located error.
///
/// ## Limits and safety
/// External entities and DTDs are never loaded and nothing is fetched from
/// the network (`XML_PARSE_NONET`; no `XML_PARSE_NOENT`, no DTD loading).
/// Entities declared in the file's own `<!DOCTYPE … [ ]>` are expanded in
/// text (a `<time>`), up to 1 MiB of text plus 4 bytes per byte of the file
/// read so far; in attribute values libxml2 hands them over as written, so
/// `lat="&x;"` is not a number. libxml2's
/// own limits stay on (no `XML_PARSE_HUGE`): they stop entity loops and
/// nested expansion (a "billion laughs" document), 10,000,000 bytes for one
/// tag, comment or text it must hold whole, 50,000 characters for a name.
/// The expansion limit is the reader's: libxml2 2.9 without a tree
/// re-expands an entity at every reference and does not count the
/// repeats, so one 100 kB entity referenced a million times would run for
/// minutes.
/// libxml2 prints nothing: its errors become diagnostics.
///
/// ## Where diagnostics point
/// libxml2 reports an element where its start tag ends, so a point's
/// coordinate problems are located at the `>` (or `/`) closing its start tag,
/// and a time problem at the first character after `<time>`. XML errors are
/// located where libxml2 stopped, read from its structured error; lines and
/// columns are 1-based (anything lower becomes 1). The common libxml2 errors
/// are named in words (`GPXMessages.libxml2Words`); values and names from the
/// file are quoted at most `Diagnostic.quoteLimit` characters long. An XML
/// error before the first element (the file is not XML at all, such as
/// `/etc/shadow` named as a track) carries `showsSourceLine = false`, so its
/// lines are not printed. A file that cannot be read (`EIO`, say) is a read
/// error located like "not found", never "not well-formed XML".
public struct GPXTrackReader: TrackSource {
  public let path: String
  public let options: TrackReadingOptions
  /// Where the scenario names this file, for "file not found".
  public let referencedAt: InputLocation?

  public var name: String { path }

  /// Bytes handed to libxml2 at a time. Chunks of 64 KiB, 256 KiB and 1 MiB
  /// parsed the 30-day benchmark track equally fast (within the machine's
  /// noise); libxml2 refuses to hold more than 10 MB of unparsed input, so a
  /// chunk must stay well below that.
  static let chunkSize = 256 * 1024

  public init(path: String, options: TrackReadingOptions = TrackReadingOptions(), referencedAt: InputLocation? = nil) {
    self.path = path
    self.options = options
    self.referencedAt = referencedAt
  }

  public func readSamples(_ consume: (TrackSample) throws -> Bool) throws {
    let file = try TrackMessages.openTrackFile(path, referencedAt: referencedAt)
    defer { close(file) }
    try readSamples(from: file, consume)
  }

  /// Reads the track from `file`, an open descriptor (the caller closes it).
  func readSamples(from file: Int32, _ consume: (TrackSample) throws -> Bool) throws {
    _ = libxml2Initialized
    var sax = GPXSAXHandler.saxHandler()
    // Without user data, libxml2 passes the context itself to every callback, which
    // its SAX2 entity functions need; the handler rides in the context's `_private`.
    guard let context = xmlCreatePushParserCtxt(&sax, nil, nil, 0, path) else {
      throw InputError(Diagnostic(at: InputLocation(file: path, line: 1, column: 1), "libxml2 could not start: out of memory"))
    }
    defer {
      if let document = context.pointee.myDoc { xmlFreeDoc(document) }
      xmlFreeParserCtxt(context)
    }
    xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue))
    let savedHandlers = trigsim_xml_capture_errors(GPXSAXHandler.threadError, UnsafeMutableRawPointer(context))
    defer { trigsim_xml_restore_errors(savedHandlers) }

    try withoutActuallyEscaping(consume) { consume in
      let handler = GPXSAXHandler(file: path, options: options, context: context, consume: consume)
      context.pointee._private = Unmanaged.passUnretained(handler).toOpaque()
      defer { context.pointee._private = nil }
      try withExtendedLifetime(handler) {
        try parse(file, context, handler)
        try finish(handler, consume)
      }
    }
  }

  /// Feeds the file to the parser until it ends, an error stops it, or the
  /// consumer stops reading.
  private func parse(_ file: Int32, _ context: xmlParserCtxtPtr, _ handler: GPXSAXHandler) throws {
    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Self.chunkSize)
    defer { buffer.deallocate() }
    while true {
      let count = read(file, buffer, Self.chunkSize)
      if count < 0 {
        if errno == EINTR { continue }
        throw TrackMessages.openError(path: path, errno: errno, referencedAt: referencedAt)
      }
      handler.bytesRead += count
      let status = xmlParseChunk(context, buffer, Int32(count), count == 0 ? 1 : 0)
      if handler.thrown != nil || handler.stoppedEarly { return }
      if status != 0 || count == 0 { handler.recordStop(status: status) }
      if handler.problem != nil || count == 0 { return }
    }
  }

  private func finish(_ handler: GPXSAXHandler, _ consume: (TrackSample) throws -> Bool) throws {
    if let thrown = handler.thrown { throw thrown }
    if handler.stoppedEarly { return }
    if handler.bytesRead == 0 {
      throw InputError(Diagnostic(at: InputLocation(file: path, line: 1, column: 1), GPXMessages.emptyFile))
    }
    if let (problem, line, column) = handler.problem {
      // A start tag cut short by the error can look like a point without
      // coordinates at the same place: the XML error is the real one.
      var kept = DiagnosticCollector()
      for diagnostic in handler.normalizer.diagnostics.diagnostics
      where (diagnostic.location.line, diagnostic.location.column) != (line, column) {
        kept.append(diagnostic)
      }
      let (message, notes) = GPXMessages.describe(problem)
      var diagnostic = Diagnostic(at: InputLocation(file: path, line: line, column: column), message, notes: notes)
      diagnostic.showsSourceLine = handler.rootStarted
      kept.append(diagnostic)
      handler.normalizer.diagnostics = kept
    } else {
      try handler.endOfDocument()
      if handler.stoppedEarly { return }
    }
    try handler.normalizer.finish(
      emptyLocation: InputLocation(file: path, line: 1, column: 1), emptyMessage: handler.emptyMessage,
      emptyNotes: handler.emptyNotes, consume)
  }
}

/// libxml2's global state is set up once per process, before any thread parses.
private let libxml2Initialized: Void = xmlInitParser()
