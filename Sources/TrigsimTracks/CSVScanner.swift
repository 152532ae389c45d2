import Foundation
import TrigsimCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The CSV reader is hand-written rather than built on a CSV library because
// it must read tens of millions of rows a second without allocating, bound
// its memory on any input, and locate every problem at line and column in
// Unicode scalars; no Debian C library or listed Swift package does all of
// that. Rows are scanned twice at most: a fast path takes plain rows (no
// quotes, no spaces around values, every value readable), and anything else
// goes to the general path, which splits the row into fields, handles
// quoting, and reports problems.

/// The column index a role is read from; -1 when absent.
struct CSVColumnRoles {
  var time = -1, latitude = -1, longitude = -1, accuracy = -1
}

/// What the fast path does with a column.
private enum FastColumn: UInt8 {
  case skip, time, latitude, longitude, accuracy
}

/// A field's byte range in the buffer; `escaped` when it was quoted with `""` inside.
private struct FieldSlot {
  var start: Int
  var end: Int
  var quoted: Bool
  var escaped: Bool
}

private let quoteByte = UInt8(ascii: "\"")
private let newlineByte = UInt8(ascii: "\n")
private let returnByte = UInt8(ascii: "\r")

/// The byte-level state of one CSV read.
///
/// The buffer holds one read chunk plus the longest row allowed, so it never
/// grows: a row that is still unfinished when it is longer than
/// `CSVTrackReader.maximumLineBytes` ends the read with an error. After the
/// data sits a `\n` sentinel, so that the fast path's loops stop without
/// bounds checks.
struct CSVScanner {
  let file: String
  let fd: Int32
  let options: TrackReadingOptions
  var normalizer: TrackNormalizer
  var timeParser: TrackTimeParser

  let buffer: UnsafeMutablePointer<UInt8>
  /// Bytes of `buffer` that may hold file data.
  let dataCapacity: Int
  /// Bytes of `buffer` holding file data.
  var filled = 0
  var eof = false
  var atFileStart = true
  /// Set when the file cannot be read on (a line over the limit, not text).
  var stoppedReading = false

  var delimiter: UInt8 = UInt8(ascii: ",")
  var headerFieldCount = 0
  var roles = CSVColumnRoles()
  private var slots: UnsafeMutablePointer<FieldSlot>
  private var slotCapacity = 64
  var headerDone = false
  var headerLine = 0
  /// What the fast path does with each column; nil when rows always take the general path.
  private var fastColumns: UnsafeMutablePointer<FastColumn>?
  private let powers = PowersOfTen.allocate()
  private let timeFormat: CSVTimeFormat
  private let epochUnitIsMilliseconds: Bool?

  /// The 1-based line number of the row being scanned.
  var line = 1

  init(file: String, fd: Int32, options: TrackReadingOptions) {
    self.file = file
    self.fd = fd
    self.options = options
    self.normalizer = TrackNormalizer(file: file, options: options)
    self.timeParser = TrackTimeParser(naiveTimeZone: options.naiveTimeZone)
    self.timeFormat = options.csv.timeFormat
    self.epochUnitIsMilliseconds = options.csv.timeFormat.epochUnitIsMilliseconds
    // + 2: a row at the limit may still wait for its CR LF.
    self.dataCapacity = CSVTrackReader.chunkSize + CSVTrackReader.maximumLineBytes + 2
    self.buffer = .allocate(capacity: dataCapacity + 1)
    self.slots = .allocate(capacity: slotCapacity)
    if let given = options.csv.delimiter {
      if let byte = given.asciiValue, byte != quoteByte, byte != newlineByte, byte != returnByte {
        delimiter = byte
      } else {
        normalizer.report(line: 1, column: 1, CSVMessages.badDelimiter(given))
      }
    }
  }

  func deallocate() {
    buffer.deallocate()
    slots.deallocate()
    fastColumns?.deallocate()
    powers.deallocate()
  }

  mutating func run(_ consume: (TrackSample) throws -> Bool) throws {
    var start = 0
    readLoop: while true {
      // Keep any unfinished row, refill.
      if start > 0 {
        let rest = filled - start
        if rest > 0 { memmove(buffer, buffer + start, rest) }
        filled = rest
        start = 0
      }
      if !eof {
        let count = read(fd, buffer + filled, dataCapacity - filled)
        if count < 0 {
          if errno == EINTR { continue }
          throw TrackMessages.readError(path: file, errno: errno, at: InputLocation(file: file, line: line, column: 1))
        }
        if count == 0 { eof = true } else { filled += count }
      }
      buffer[filled] = newlineByte  // the sentinel
      if atFileStart {
        if filled < 3 && !eof { continue }
        atFileStart = false
        if filled >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { start = 3 }
      }
      // Every complete row in the buffer; at end of file every row is complete.
      while start < filled {
        guard let next = try scanRow(from: start, consume) else { break }
        start = next
        if !normalizer.wantsMore || stoppedReading { break readLoop }
      }
      if eof { break }
      if filled - start > CSVTrackReader.maximumLineBytes + 2 {
        // The unfinished row is already over the limit: it cannot be held.
        reportUnreadableRow(from: start, end: filled, rowLine: line)
        break
      }
    }
    let endLocation = InputLocation(file: file, line: headerDone ? headerLine : 1, column: 1)
    if !headerDone && !stoppedReading {
      normalizer.diagnostics.append(
        Diagnostic(at: endLocation, CSVMessages.emptyFile, notes: [CSVMessages.emptyFileNote]))
    }
    try normalizer.finish(
      emptyLocation: endLocation, emptyMessage: CSVMessages.noFixes, emptyNotes: [CSVMessages.noFixesNote], consume)
  }

  /// Reports a row over the line limit, or, before the header is read, a
  /// file that is not text (which is the likelier reason), and stops reading.
  mutating func reportUnreadableRow(from start: Int, end: Int, rowLine: Int) {
    stoppedReading = true
    if !headerDone, let problem = CSVScanner.textProblem(UnsafeBufferPointer(start: buffer + start, count: end - start)) {
      normalizer.diagnostics.append(CSVMessages.notACSVTrack(file: normalizer.file, line: rowLine, whyNot: CSVMessages.notText(problem), notes: [CSVMessages.notTextNote]))
      return
    }
    if !headerDone {
      normalizer.diagnostics.append(
        CSVMessages.notACSVTrack(
          file: normalizer.file, line: rowLine, whyNot: "its first line is longer than \(CSVTrackReader.maximumLineBytes) bytes",
          notes: [CSVMessages.lineTooLongNote]))
      return
    }
    normalizer.report(line: rowLine, column: 1, CSVMessages.lineTooLong, notes: [CSVMessages.lineTooLongNote])
  }

  /// Why `bytes` are not UTF-8 text without NUL, or nil when they are. A
  /// sequence cut short at the very end counts as text (the bytes may stop
  /// mid-character when they are the start of an over-long line). Bytes
  /// that are not UTF-8 are named first: a UTF-16 file holds NULs too.
  static func textProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> CSVMessages.NotTextReason? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    parsing: while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded): offset += encoded.count
      case .error(let length):
        if offset + length == bytes.count && length < 4 { break parsing }
        return .notUTF8
      case .emptyInput: break parsing
      }
    }
    if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil { return .nul }
    return nil
  }

  // MARK: Rows

  /// Splits the row starting at `start` into `slots`. Returns the offset
  /// after the row, or nil when the buffer holds no complete row yet.
  /// Has no effect besides filling `slots` and `fieldCount`.
  @inline(__always)
  private mutating func split(from start: Int, fieldCount: inout Int, newlinesInside: inout Int, quoteError: inout Int)
    -> Int?
  {
    let buffer = self.buffer
    let limit = filled
    let delimiter = self.delimiter
    var p = start
    var count = 0
    while true {
      let fieldStart = p
      var slot = FieldSlot(start: p, end: p, quoted: false, escaped: false)
      if p < limit && buffer[p] == quoteByte {
        var q = p + 1
        while true {
          if q >= limit {
            if !eof { return nil }
            if quoteError < 0 { quoteError = fieldStart }
            break
          }
          let c = buffer[q]
          if c == quoteByte {
            if q + 1 < limit && buffer[q + 1] == quoteByte {
              slot.escaped = true
              q += 2
              continue
            }
            if q + 1 >= limit && !eof { return nil }
            break
          }
          if c == newlineByte { newlinesInside += 1 }
          q += 1
        }
        slot.quoted = true
        slot.start = p + 1
        slot.end = min(q, limit)
        p = min(q + 1, limit)
        // Anything between the closing quote and the delimiter is an error.
        while p < limit {
          let c = buffer[p]
          if c == delimiter || c == newlineByte || c == returnByte { break }
          if quoteError < 0 { quoteError = p }
          p += 1
        }
        if p >= limit && !eof { return nil }
      } else {
        while p < limit {
          let c = buffer[p]
          if c == delimiter || c == newlineByte || c == returnByte { break }
          p += 1
        }
        if p >= limit && !eof { return nil }
        slot.end = p
      }
      if count < slotCapacity { slots[count] = slot }
      count += 1
      if p >= limit {
        fieldCount = count
        return p
      }
      let c = buffer[p]
      if c == delimiter {
        p += 1
        continue
      }
      if c == returnByte {
        if p + 1 >= limit && !eof { return nil }
        p += 1
        if p < limit && buffer[p] == newlineByte { p += 1 }
      } else {
        p += 1
      }
      fieldCount = count
      return p
    }
  }

  /// Scans one row (header or data) and hands its fix on. Returns the offset
  /// after the row, or nil when the buffer holds no complete row yet.
  @inline(__always)
  mutating func scanRow(from start: Int, _ consume: (TrackSample) throws -> Bool) throws -> Int? {
    if fastColumns != nil {
      let next = try fastRow(from: start, consume)
      if next >= 0 { return next }
    }
    return try scanRowInFields(from: start, consume)
  }

  /// The general path: any row, with quoting, spaces and problems.
  private mutating func scanRowInFields(from start: Int, _ consume: (TrackSample) throws -> Bool) throws -> Int? {
    var fieldCount = 0
    var newlinesInside = 0
    var quoteError = -1
    if !headerDone {
      // Decide the delimiter from the header line before splitting it.
      if options.csv.delimiter == nil {
        var p = start
        var commas = 0
        var semicolons = 0
        while p < filled && buffer[p] != newlineByte {
          if buffer[p] == UInt8(ascii: ",") { commas += 1 } else if buffer[p] == UInt8(ascii: ";") { semicolons += 1 }
          p += 1
        }
        if p >= filled && !eof { return nil }
        delimiter = semicolons > commas ? UInt8(ascii: ";") : UInt8(ascii: ",")
      }
    }
    guard let next = split(from: start, fieldCount: &fieldCount, newlinesInside: &newlinesInside, quoteError: &quoteError)
    else { return nil }
    let rowLine = line
    line += 1 + newlinesInside

    if rowEnd(next: next, start: start) - start > CSVTrackReader.maximumLineBytes {
      reportUnreadableRow(from: start, end: next, rowLine: rowLine)
      return next
    }

    // Blank line: one empty (or all-blank) field.
    if fieldCount == 1 && newlinesInside == 0 {
      let slot = slots[0]
      var blank = true
      var q = slot.start
      while q < slot.end {
        if buffer[q] != UInt8(ascii: " ") && buffer[q] != UInt8(ascii: "\t") {
          blank = false
          break
        }
        q += 1
      }
      if blank { return next }
    }

    if !headerDone, let problem = CSVScanner.textProblem(UnsafeBufferPointer(start: buffer + start, count: next - start)) {
      normalizer.diagnostics.append(CSVMessages.notACSVTrack(file: normalizer.file, line: rowLine, whyNot: CSVMessages.notText(problem), notes: [CSVMessages.notTextNote]))
      stoppedReading = true
      return next
    }

    if quoteError >= 0, !headerDone {
      // A header that cannot be split is not recognisably one (`ForeignFile`).
      normalizer.diagnostics.append(CSVMessages.notACSVTrack(file: normalizer.file, line: rowLine, whyNot: "its first line has a badly quoted field"))
      stoppedReading = true
      return next
    }

    if quoteError >= 0 {
      let column = columnOf(quoteError, rowStart: start, rowLine: rowLine)
      normalizer.report(line: column.line, column: column.column, CSVMessages.badQuote)
      return next
    }

    if !headerDone {
      headerDone = true
      headerLine = rowLine
      readHeader(fieldCount: fieldCount, rowStart: start, rowLine: rowLine)
      return next
    }

    if fieldCount != headerFieldCount {
      let offset: Int
      if fieldCount > headerFieldCount && headerFieldCount < slotCapacity {
        offset = slots[headerFieldCount].start - (slots[headerFieldCount].quoted ? 1 : 0)
      } else {
        offset = rowEnd(next: next, start: start)
      }
      let at = columnOf(offset, rowStart: start, rowLine: rowLine)
      normalizer.report(
        line: at.line, column: at.column, CSVMessages.fieldCount(fieldCount, headerFieldCount),
        notes: [CSVMessages.fieldCountNote(delimiter)])
      return next
    }
    if roles.latitude < 0 || roles.longitude < 0 || roles.time < 0 { return next }

    try readFix(rowStart: start, rowLine: rowLine, consume)
    return next
  }

  /// Offset of the row's line end (before CR/LF), for "too few fields".
  func rowEnd(next: Int, start: Int) -> Int {
    var end = next
    while end > start && (buffer[end - 1] == newlineByte || buffer[end - 1] == returnByte) { end -= 1 }
    return end
  }

  /// Line and 1-based column (Unicode scalars) of a byte offset in the row.
  func columnOf(_ offset: Int, rowStart: Int, rowLine: Int) -> (line: Int, column: Int) {
    CSVScanner.position(of: offset, in: buffer, rowStart: rowStart, rowLine: rowLine)
  }

  static func position(of offset: Int, in buffer: UnsafeMutablePointer<UInt8>, rowStart: Int, rowLine: Int)
    -> (line: Int, column: Int)
  {
    var line = rowLine
    var lineStart = rowStart
    var p = rowStart
    while p < offset {
      if buffer[p] == newlineByte {
        line += 1
        lineStart = p + 1
      }
      p += 1
    }
    var column = 1
    p = lineStart
    while p < offset {
      if buffer[p] & 0xC0 != 0x80 { column += 1 }
      p += 1
    }
    return (line, column)
  }

  /// The column of a field's first character (its opening quote when quoted).
  private func fieldColumn(_ index: Int, rowStart: Int, rowLine: Int) -> (line: Int, column: Int) {
    let slot = slots[index]
    return columnOf(slot.quoted ? slot.start - 1 : slot.start, rowStart: rowStart, rowLine: rowLine)
  }

  /// The field's bytes with `""` unescaped, as far as a quote in a message
  /// shows them (`Diagnostic.quote`): the rest is never decoded.
  private func fieldBytes(_ index: Int, limit: Int) -> [UInt8] {
    let slot = slots[index]
    var bytes: [UInt8] = []
    var p = slot.start
    while p < slot.end && bytes.count < limit {
      bytes.append(buffer[p])
      p += slot.escaped && buffer[p] == quoteByte && p + 1 < slot.end && buffer[p + 1] == quoteByte ? 2 : 1
    }
    return bytes
  }

  /// The field as it appears in a message: quoted, cut and escaped by `Diagnostic.quote(utf8:)`.
  private func quotedField(_ index: Int) -> String {
    // 4 bytes per scalar at most, and one more scalar to know whether to cut.
    Diagnostic.quote(utf8: fieldBytes(index, limit: 4 * (Diagnostic.quoteLimit + 1)))
  }

  /// The field as text, for header names (a header line is short and checked to be UTF-8).
  private func fieldText(_ index: Int) -> String {
    String(decoding: fieldBytes(index, limit: .max), as: UTF8.self)
  }

  /// Calls `body` with the field's bytes, trimmed of spaces, `""` unescaped.
  @inline(__always)
  private func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let slot = slots[index]
    var s = slot.start
    var e = slot.end
    while s < e && (buffer[s] == 0x20 || buffer[s] == 0x09) { s += 1 }
    while e > s && (buffer[e - 1] == 0x20 || buffer[e - 1] == 0x09) { e -= 1 }
    if !slot.escaped { return body(UnsafeBufferPointer(start: buffer + s, count: e - s)) }
    var bytes: [UInt8] = []
    var p = s
    while p < e {
      bytes.append(buffer[p])
      p += buffer[p] == quoteByte && p + 1 < e && buffer[p + 1] == quoteByte ? 2 : 1
    }
    return bytes.withUnsafeBufferPointer(body)
  }

  // MARK: Header

  private mutating func readHeader(fieldCount: Int, rowStart: Int, rowLine: Int) {
    headerFieldCount = fieldCount
    if fieldCount > slotCapacity {
      // Only needed for the header's names; data rows use the first slotCapacity.
      slots.deallocate()
      slotCapacity = fieldCount
      slots = .allocate(capacity: slotCapacity)
      // Re-split now that every field fits.
      var count = 0
      var inside = 0
      var quoteError = -1
      _ = split(from: rowStart, fieldCount: &count, newlinesInside: &inside, quoteError: &quoteError)
    }
    let names = (0..<fieldCount).map { fieldText($0) }
    let keys = names.map(CSVField.normalize)
    // The quoting policy (`ForeignFile`): a first line that names no column
    // trigsim knows, nor one the scenario maps, is not a CSV track's header;
    // nothing of it is quoted or shown.
    let known = Set(CSVField.allCases.flatMap(CSVField.builtInNames)).union(options.csv.columns.values.map(CSVField.normalize))
    guard keys.contains(where: known.contains) else {
      normalizer.diagnostics.append(CSVMessages.notACSVTrack(file: normalizer.file, line: rowLine))
      stoppedReading = true
      return
    }
    let shownNames = names.map { name -> String in
      var trimmed = Substring(name)
      while let first = trimmed.first, first == " " || first == "\u{FEFF}" { trimmed = trimmed.dropFirst() }
      while trimmed.last == " " { trimmed = trimmed.dropLast() }
      return String(trimmed)
    }
    let headerNote = CSVMessages.headerColumns(shownNames)

    func column(for field: CSVField, required: Bool) -> Int {
      if let explicit = options.csv.columns[field] {
        let key = CSVField.normalize(explicit)
        if let index = keys.firstIndex(of: key) { return index }
        var notes = [headerNote]
        if let guess = NameSuggestion.closest(to: explicit, among: shownNames) {
          notes.append(CSVMessages.didYouMean(guess))
        }
        normalizer.report(line: rowLine, column: 1, CSVMessages.mappedColumnMissing(field, explicit), notes: notes)
        return -1
      }
      for candidate in CSVField.builtInNames(field) {
        if let index = keys.firstIndex(of: candidate) { return index }
      }
      if required {
        var notes = [headerNote]
        let suggestions = shownNames.compactMap { name -> (String, Int)? in
          let key = CSVField.normalize(name)
          if field == .time && key.contains("gps") { return nil }  // never suggest a GPS-epoch column
          let best = CSVField.builtInNames(field).map {
            NameSuggestion.editDistance(Array(key), Array($0))
          }.min() ?? Int.max
          return best <= 2 ? (name, best) : nil  // a likely typo of a built-in name
        }.sorted { $0.1 < $1.1 }
        if let guess = suggestions.first?.0 { notes.append(CSVMessages.didYouMean(guess)) }
        if field == .time, let gps = shownNames.first(where: { CSVField.normalize($0).contains("gpsepoch") }) {
          notes.append(CSVMessages.gpsEpochNote(gps))
        }
        notes.append(CSVMessages.nameTheColumnNote(field, example: suggestions.first?.0))
        normalizer.report(line: rowLine, column: 1, CSVMessages.missingColumn(field), notes: notes)
      }
      return -1
    }
    roles.time = column(for: .time, required: true)
    roles.latitude = column(for: .latitude, required: true)
    roles.longitude = column(for: .longitude, required: true)
    roles.accuracy = column(for: .accuracy, required: false)
    // Elevation and speed are not read, but a mapping that names a missing column is still wrong.
    for field in [CSVField.elevation, .speed] where options.csv.columns[field] != nil {
      _ = column(for: field, required: false)
    }
    planFastPath()
  }

  /// Enables the fast path when the header names every column it needs, each
  /// once, and the delimiter cannot be part of a number or a time.
  private mutating func planFastPath() {
    let used = [roles.time, roles.latitude, roles.longitude, roles.accuracy].filter { $0 >= 0 }
    guard roles.time >= 0, roles.latitude >= 0, roles.longitude >= 0, Set(used).count == used.count,
      delimiter == UInt8(ascii: ",") || delimiter == UInt8(ascii: ";") || delimiter == UInt8(ascii: "\t")
    else { return }
    let columns = UnsafeMutablePointer<FastColumn>.allocate(capacity: headerFieldCount)
    columns.initialize(repeating: .skip, count: headerFieldCount)
    columns[roles.time] = .time
    columns[roles.latitude] = .latitude
    columns[roles.longitude] = .longitude
    if roles.accuracy >= 0 { columns[roles.accuracy] = .accuracy }
    fastColumns = columns
  }

  // MARK: Fast path

  /// Reads a plain data row: no quote, no space around a value, as many
  /// fields as the header, a readable time (`timeFormat`'s rule), coordinates
  /// in range and a valid or empty accuracy, ending in LF or CR LF before
  /// the end of the buffered data. Returns the offset after the row, or -1
  /// (having changed nothing) when the row must take the general path, which
  /// then gives the same fix or reports the problem.
  @inline(__always)
  private mutating func fastRow(from start: Int, _ consume: (TrackSample) throws -> Bool) throws -> Int {
    let b = UnsafePointer(buffer)
    let columns = fastColumns.unsafelyUnwrapped
    let delimiter = self.delimiter
    let count = headerFieldCount
    var p = start
    var latitude = 0.0
    var longitude = 0.0
    var accuracy: Double?
    var milliseconds: Int64 = 0
    var timeStart = start
    var index = 0
    while true {
      switch columns[index] {
      case .skip:
        while true {
          let c = b[p]
          if c == delimiter || c == newlineByte || c == returnByte { break }
          if c == quoteByte { return -1 }
          p += 1
        }
      case .time:
        timeStart = p
        guard let value = fastTime(b, &p, delimiter: delimiter) else { return -1 }
        milliseconds = value
      case .latitude:
        guard let value = fastDecimal(b, &p, powers), value >= -90, value <= 90 else { return -1 }
        latitude = value
      case .longitude:
        guard let value = fastDecimal(b, &p, powers), value >= -180, value <= 180 else { return -1 }
        longitude = value
      case .accuracy:
        let c = b[p]
        if c != delimiter && c != newlineByte && c != returnByte {
          guard let value = fastDecimal(b, &p, powers), value >= 0 else { return -1 }
          accuracy = value
        }
      }
      index += 1
      let c = b[p]
      if index == count {
        if c == newlineByte {
          p += 1
        } else if c == returnByte && b[p + 1] == newlineByte {
          p += 2
        } else {
          return -1
        }
        break
      }
      guard c == delimiter else { return -1 }
      p += 1
    }
    // A row ending at the sentinel is not complete yet; a long row is the general path's to report.
    guard p <= filled, p - start <= CSVTrackReader.maximumLineBytes else { return -1 }
    let rowLine = line
    line += 1
    let fix = RawFix(
      instant: SimulationInstant(millisecondsSinceEpoch: milliseconds),
      coordinate: Coordinate(latitude: latitude, longitude: longitude), horizontalAccuracy: accuracy, line: rowLine,
      startsSegment: false)
    let buffer = self.buffer
    _ = try normalizer.add(fix, consume) {
      CSVScanner.position(of: timeStart, in: buffer, rowStart: start, rowLine: rowLine)
    }
    return p
  }

  /// The time field at `p` as `TrackTimeParser.parseCSVTime` reads it, or nil
  /// (with `p` anywhere) when the general path must read it. Moves `p` to the
  /// byte after the field.
  @inline(__always)
  private mutating func fastTime(_ b: UnsafePointer<UInt8>, _ p: inout Int, delimiter: UInt8) -> Int64? {
    let start = p
    if let epoch = fastEpoch(b, &p, milliseconds: epochUnitIsMilliseconds, powers),
      b[p] == delimiter || b[p] == newlineByte || b[p] == returnByte, timeFormat != .iso8601
    {
      return epoch
    }
    return fastTextTime(b, &p, from: start, delimiter: delimiter)
  }

  /// `fastTime` for a field that is not a plain epoch number: ISO 8601 text.
  @inline(never)
  private mutating func fastTextTime(_ b: UnsafePointer<UInt8>, _ p: inout Int, from start: Int, delimiter: UInt8)
    -> Int64?
  {
    let format = timeFormat
    if format == .epochSeconds || format == .epochMilliseconds { return nil }
    // Find the field's end, then parse it as the general path does.
    p = start
    while true {
      let c = b[p]
      if c == delimiter || c == newlineByte || c == returnByte { break }
      if c == quoteByte { return nil }
      p += 1
    }
    guard p > start else { return nil }
    let field = UnsafeBufferPointer(start: b + start, count: p - start)
    guard case .success(let value) = timeParser.parseCSVTime(field, format: format) else { return nil }
    return value
  }
}

// MARK: - General path: values

extension CSVScanner {
  @inline(__always)
  fileprivate mutating func readFix(rowStart: Int, rowLine: Int, _ consume: (TrackSample) throws -> Bool) throws {
    let latIndex = roles.latitude
    let lonIndex = roles.longitude
    let latEmpty = isEmptyField(latIndex)
    let lonEmpty = isEmptyField(lonIndex)
    if latEmpty && lonEmpty {
      let at = fieldColumn(latIndex, rowStart: rowStart, rowLine: rowLine)
      normalizer.report(line: at.line, column: at.column, CSVMessages.noPosition, notes: [CSVMessages.noPositionNote])
      return
    }
    var ok = true
    let latitude = readCoordinate(latIndex, isLatitude: true, rowStart: rowStart, rowLine: rowLine, ok: &ok)
    let longitude = readCoordinate(lonIndex, isLatitude: false, rowStart: rowStart, rowLine: rowLine, ok: &ok)

    var accuracy: Double?
    if roles.accuracy >= 0 && !isEmptyField(roles.accuracy) {
      let value = withField(roles.accuracy) { parseDecimal($0) }
      if let value, value.isFinite, value >= 0 {
        accuracy = value
      } else {
        let at = fieldColumn(roles.accuracy, rowStart: rowStart, rowLine: rowLine)
        normalizer.report(line: at.line, column: at.column, CSVMessages.badAccuracy(quoted: quotedField(roles.accuracy)))
        ok = false
      }
    }

    var instant: SimulationInstant?
    let timeIndex = roles.time
    if !isEmptyField(timeIndex) {
      let format = options.csv.timeFormat
      let result = withField(timeIndex) { timeParser.parseCSVTime($0, format: format) }
      switch result {
      case .success(let milliseconds): instant = SimulationInstant(millisecondsSinceEpoch: milliseconds)
      case .failure(let problem):
        let at = fieldColumn(timeIndex, rowStart: rowStart, rowLine: rowLine)
        normalizer.report(
          line: at.line, column: at.column, problem.message(quoted: quotedField(timeIndex), format: format),
          notes: problem.notes(format: format))
        ok = false
      }
    }
    guard ok else { return }
    let fix = RawFix(
      instant: instant, coordinate: Coordinate(latitude: latitude, longitude: longitude),
      horizontalAccuracy: accuracy, line: rowLine, startsSegment: false)
    // The time field's position, worked out only when a diagnostic needs it.
    let buffer = self.buffer
    let slot = slots[timeIndex]
    let timeOffset = slot.quoted ? slot.start - 1 : slot.start
    _ = try normalizer.add(fix, consume) {
      CSVScanner.position(of: timeOffset, in: buffer, rowStart: rowStart, rowLine: rowLine)
    }
  }

  @inline(__always)
  fileprivate func isEmptyField(_ index: Int) -> Bool {
    let slot = slots[index]
    var p = slot.start
    while p < slot.end {
      if buffer[p] != 0x20 && buffer[p] != 0x09 { return false }
      p += 1
    }
    return true
  }

  fileprivate mutating func readCoordinate(_ index: Int, isLatitude: Bool, rowStart: Int, rowLine: Int, ok: inout Bool)
    -> Double
  {
    let value = withField(index) { parseDecimal($0) }
    if let value, value.isFinite, isLatitude ? (-90...90).contains(value) : (-180...180).contains(value) {
      return value
    }
    let at = fieldColumn(index, rowStart: rowStart, rowLine: rowLine)
    let text = quotedField(index)
    let message: String
    var notes: [String] = []
    if let value {
      if !value.isFinite {
        message = CSVMessages.notFinite(isLatitude, quoted: text)
      } else {
        message = CoordinateMessages.outOfRange(isLatitude, quoted: text)
        if roles.latitude >= 0, roles.longitude >= 0, !isLatitude || (-180...180).contains(value) {
          notes.append(CoordinateMessages.swappedNote)
        }
      }
    } else {
      message = CoordinateMessages.notANumber(isLatitude, quoted: text)
    }
    normalizer.report(line: at.line, column: at.column, message, notes: notes)
    ok = false
    return 0
  }
}

extension CSVTimeFormat {
  /// The `milliseconds` argument of `TrackTimeParser.parseEpoch` for this format.
  fileprivate var epochUnitIsMilliseconds: Bool? {
    switch self {
    case .epochSeconds: false
    case .epochMilliseconds: true
    case .auto, .iso8601: nil
    }
  }
}
