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

// MARK: - Scanner

/// The column index a role is read from; -1 when absent.
private struct ColumnRoles {
  var time = -1, latitude = -1, longitude = -1, accuracy = -1
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
private struct CSVScanner {
  let file: String
  let fd: Int32
  let options: TrackReadingOptions
  var normalizer: TrackNormalizer
  var timeParser: TrackTimeParser

  var buffer: UnsafeMutablePointer<UInt8>
  var capacity: Int
  /// Bytes of `buffer` holding file data.
  var filled = 0
  var eof = false
  var atFileStart = true

  var delimiter: UInt8 = UInt8(ascii: ",")
  var headerFieldCount = 0
  var roles = ColumnRoles()
  var slots: UnsafeMutablePointer<FieldSlot>
  var slotCapacity = 64
  var headerDone = false
  var headerLine = 0

  /// The 1-based line number of the row being scanned.
  var line = 1

  init(file: String, fd: Int32, options: TrackReadingOptions) {
    self.file = file
    self.fd = fd
    self.options = options
    self.normalizer = TrackNormalizer(file: file, options: options)
    self.timeParser = TrackTimeParser(naiveTimeZone: options.naiveTimeZone)
    self.capacity = CSVTrackReader.chunkSize
    self.buffer = .allocate(capacity: capacity)
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
      if filled == capacity {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
        bigger.update(from: buffer, count: filled)
        buffer.deallocate()
        buffer = bigger
        capacity *= 2
      }
      if !eof {
        let count = read(fd, buffer + filled, capacity - filled)
        if count < 0 {
          if errno == EINTR { continue }
          throw InputError(
            Diagnostic(
              at: InputLocation(file: file, line: line, column: 1),
              TrackMessages.fileUnreadable(file, String(cString: strerror(errno)))))
        }
        if count == 0 { eof = true } else { filled += count }
      }
      if atFileStart {
        if filled < 3 && !eof { continue }
        atFileStart = false
        if filled >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { start = 3 }
      }
      // Every complete row in the buffer; at end of file every row is complete.
      while start < filled {
        guard let next = try scanRow(from: start, consume) else { break }
        start = next
        if !normalizer.wantsMore { break readLoop }
      }
      if eof { break }
    }
    let endLocation = InputLocation(file: file, line: headerDone ? headerLine : 1, column: 1)
    if !headerDone {
      normalizer.diagnostics.append(
        Diagnostic(at: endLocation, CSVMessages.emptyFile, notes: [CSVMessages.emptyFileNote]))
    }
    try normalizer.finish(
      emptyLocation: endLocation, emptyMessage: CSVMessages.noFixes, emptyNotes: [CSVMessages.noFixesNote], consume)
  }

  /// Splits the row starting at `start` into `slots`. Returns the offset
  /// after the row, or nil when the buffer holds no complete row yet.
  /// Has no effect besides filling `slots` and `fieldCount`.
  @inline(__always)
  mutating func split(from start: Int, fieldCount: inout Int, newlinesInside: inout Int, quoteError: inout Int)
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

  /// Scans one row (header or data) and hands its fix on.
  mutating func scanRow(from start: Int, _ consume: (TrackSample) throws -> Bool) throws -> Int? {
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

    if quoteError >= 0 {
      let column = columnOf(quoteError, rowStart: start, rowLine: rowLine)
      normalizer.report(line: column.line, column: column.column, CSVMessages.badQuote)
      if !headerDone { headerDone = true; headerLine = rowLine; headerFieldCount = fieldCount }
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
  func fieldColumn(_ index: Int, rowStart: Int, rowLine: Int) -> (line: Int, column: Int) {
    let slot = slots[index]
    return columnOf(slot.quoted ? slot.start - 1 : slot.start, rowStart: rowStart, rowLine: rowLine)
  }

  func fieldText(_ index: Int) -> String {
    let slot = slots[index]
    let text = String(decoding: UnsafeBufferPointer(start: buffer + slot.start, count: slot.end - slot.start), as: UTF8.self)
    return slot.escaped ? text.replacingOccurrences(of: "\"\"", with: "\"") : text
  }

  /// Calls `body` with the field's bytes, trimmed of spaces, `""` unescaped.
  @inline(__always)
  func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
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

  mutating func readHeader(fieldCount: Int, rowStart: Int, rowLine: Int) {
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
    let shownNames = names.map { name -> String in
      var trimmed = Substring(name)
      while let first = trimmed.first, first == " " || first == "\u{FEFF}" { trimmed = trimmed.dropFirst() }
      while trimmed.last == " " { trimmed = trimmed.dropLast() }
      return String(trimmed)
    }
    let headerList = shownNames.map { "'\($0)'" }.joined(separator: ", ")

    func column(for field: CSVField, required: Bool) -> Int {
      if let explicit = options.csv.columns[field] {
        let key = CSVField.normalize(explicit)
        if let index = keys.firstIndex(of: key) { return index }
        var notes = ["the header's columns are \(headerList)"]
        if let guess = NameSuggestion.closest(to: explicit, among: shownNames) { notes.append("did you mean '\(guess)'?") }
        normalizer.report(line: rowLine, column: 1, CSVMessages.mappedColumnMissing(field, explicit), notes: notes)
        return -1
      }
      for candidate in CSVField.builtInNames(field) {
        if let index = keys.firstIndex(of: candidate) { return index }
      }
      if required {
        var notes = ["the header's columns are \(headerList)"]
        let suggestions = shownNames.compactMap { name -> (String, Int)? in
          let key = CSVField.normalize(name)
          if field == .time && key.contains("gps") { return nil }  // never suggest a GPS-epoch column
          let best = CSVField.builtInNames(field).map {
            NameSuggestion.editDistance(Array(key), Array($0))
          }.min() ?? Int.max
          return best <= 2 ? (name, best) : nil  // a likely typo of a built-in name
        }.sorted { $0.1 < $1.1 }
        if let guess = suggestions.first?.0 { notes.append("did you mean '\(guess)'?") }
        if field == .time, let gps = shownNames.first(where: { CSVField.normalize($0).contains("gpsepoch") }) {
          notes.append(CSVMessages.gpsEpochNote(gps))
        }
        let example = suggestions.first?.0 ?? "<column>"
        notes.append("name the column under `columns:` in the scenario's track, e.g. `columns: {\(field.rawValue): \(example)}`")
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
  }

  @inline(__always)
  mutating func readFix(rowStart: Int, rowLine: Int, _ consume: (TrackSample) throws -> Bool) throws {
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
        normalizer.report(line: at.line, column: at.column, CSVMessages.badAccuracy(fieldText(roles.accuracy)))
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
        let text = fieldText(timeIndex)
        normalizer.report(
          line: at.line, column: at.column, problem.message(text, format: format), notes: problem.notes(format: format))
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
  func isEmptyField(_ index: Int) -> Bool {
    let slot = slots[index]
    var p = slot.start
    while p < slot.end {
      if buffer[p] != 0x20 && buffer[p] != 0x09 { return false }
      p += 1
    }
    return true
  }

  @inline(__always)
  mutating func readCoordinate(_ index: Int, isLatitude: Bool, rowStart: Int, rowLine: Int, ok: inout Bool) -> Double {
    let value = withField(index) { parseDecimal($0) }
    if let value, value.isFinite, isLatitude ? (-90...90).contains(value) : (-180...180).contains(value) {
      return value
    }
    let at = fieldColumn(index, rowStart: rowStart, rowLine: rowLine)
    let text = fieldText(index)
    let message: String
    var notes: [String] = []
    if let value {
      if !value.isFinite {
        message = CSVMessages.notFinite(isLatitude, text)
      } else {
        message = CoordinateMessages.outOfRange(isLatitude, text)
        if roles.latitude >= 0, roles.longitude >= 0, !isLatitude || (-180...180).contains(value) {
          notes.append(CoordinateMessages.swappedNote)
        }
      }
    } else {
      message = CoordinateMessages.notANumber(isLatitude, text)
    }
    normalizer.report(line: at.line, column: at.column, message, notes: notes)
    ok = false
    return 0
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
    "'\(column)' counts from the GPS epoch (1980-01-06) and runs ahead of UTC by the leap seconds, so it is not read as a time; add a Unix-time column (Unix ms = GPS ms + 315964800000 - 18000 since 2017)"
  }
  static func missingColumn(_ field: CSVField) -> String { "the header has no \(field.rawValue) column" }
  static func mappedColumnMissing(_ field: CSVField, _ name: String) -> String {
    "the header has no column '\(name)' (named for \(field.rawValue) under `columns:`)"
  }
  static func notFinite(_ isLatitude: Bool, _ text: String) -> String {
    "\(isLatitude ? "latitude" : "longitude") '\(text)' is not a finite number"
  }
  static func badAccuracy(_ text: String) -> String {
    "accuracy '\(text)' is not a number of metres ≥ 0"
  }
}

/// Coordinate messages shared by the CSV and GPX readers.
enum CoordinateMessages {
  static func notANumber(_ isLatitude: Bool, _ text: String) -> String {
    "\(isLatitude ? "latitude" : "longitude") '\(text)' is not a number"
  }
  static func outOfRange(_ isLatitude: Bool, _ text: String) -> String {
    isLatitude ? "latitude '\(text)' is outside -90...90" : "longitude '\(text)' is outside -180...180"
  }
  static let swappedNote = "latitude comes first in the name lists; check that the latitude and longitude columns are not swapped"
}

// MARK: - Numbers

/// 10^k for k in 0...22, all exact doubles. A switch rather than a global
/// array: a global is initialised lazily, and the check for that showed up as
/// 2.5 % of a 30-day benchmark run (`swift_once` on every coordinate).
@inline(__always)
private func powerOfTen(_ k: Int) -> Double {
  switch k {
  case 0: 1
  case 1: 1e1
  case 2: 1e2
  case 3: 1e3
  case 4: 1e4
  case 5: 1e5
  case 6: 1e6
  case 7: 1e7
  case 8: 1e8
  case 9: 1e9
  case 10: 1e10
  case 11: 1e11
  case 12: 1e12
  case 13: 1e13
  case 14: 1e14
  case 15: 1e15
  case 16: 1e16
  case 17: 1e17
  case 18: 1e18
  case 19: 1e19
  case 20: 1e20
  case 21: 1e21
  default: 1e22
  }
}

/// Reads a plain decimal (`-12.5683`, `+3`, `.5`) without allocating; other
/// spellings (exponents, `nan`, `inf`, very long mantissas) go to `strtod`.
@inline(__always)
func parseDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
  let count = bytes.count
  if count == 0 { return nil }
  var p = 0
  var negative = false
  let first = bytes[0]
  if first == UInt8(ascii: "-") {
    negative = true
    p = 1
  } else if first == UInt8(ascii: "+") {
    p = 1
  }
  var mantissa: UInt64 = 0
  var fractionDigits = 0
  var digits = 0
  var seenDot = false
  while p < count {
    let c = bytes[p]
    let d = c &- 48
    if d < 10 {
      if mantissa >= 900_719_925_474_099 { return parseDecimalSlow(bytes) }  // keep below 2^53
      mantissa = mantissa &* 10 &+ UInt64(d)
      digits += 1
      if seenDot { fractionDigits += 1 }
    } else if c == UInt8(ascii: ".") && !seenDot {
      seenDot = true
    } else {
      return parseDecimalSlow(bytes)
    }
    p += 1
  }
  if digits == 0 || fractionDigits > 22 { return parseDecimalSlow(bytes) }
  // Exact: mantissa < 2^53 and 10^k ≤ 10^22 are both exact doubles, so one
  // division is correctly rounded (Clinger's fast path).
  let value = Double(mantissa) / powerOfTen(fractionDigits)
  return negative ? -value : value
}

private func parseDecimalSlow(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
  if bytes.count > 120 { return nil }
  return withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { text -> Double? in
    for i in 0..<bytes.count {
      let c = bytes[i]
      if c == 0 || c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { return nil }  // strtod would skip or stop
      text[i] = CChar(bitPattern: c)
    }
    text[bytes.count] = 0
    var end: UnsafeMutablePointer<CChar>?
    let value = strtod(text.baseAddress!, &end)
    guard let end, end == text.baseAddress! + bytes.count else { return nil }
    return value
  }
}

// MARK: - Times

/// Why a time value could not be read.
enum TimeProblem: Error {
  case unreadable
  case exponent(significantDigits: Int)
  case outOfRange

  func message(_ text: String, format: CSVTimeFormat) -> String {
    switch self {
    case .unreadable:
      switch format {
      case .auto: return "cannot read time '\(text)'"
      case .iso8601: return "time '\(text)' is not an ISO 8601 date and time"
      case .epochSeconds: return "time '\(text)' is not a number of seconds since 1970"
      case .epochMilliseconds: return "time '\(text)' is not a number of milliseconds since 1970"
      }
    case .exponent(let digits):
      return "time '\(text)' is in exponent notation, which keeps only \(digits) significant digit\(digits == 1 ? "" : "s")"
    case .outOfRange: return "time '\(text)' is out of range"
    }
  }

  func notes(format: CSVTimeFormat) -> [String] {
    switch self {
    case .unreadable:
      return [
        "write times as ISO 8601 ('2026-03-28T07:00:00Z', '2026-03-28 08:00:00.250+01:00') or as epoch seconds or milliseconds ('1774681200', '1774681200250')"
      ]
    case .exponent:
      return [
        "spreadsheets write long numbers this way and round them; re-export the column as whole numbers (format the cells as Number with 0 decimal places)"
      ]
    case .outOfRange: return []
    }
  }
}

/// Parses ISO 8601 and epoch times from bytes, resolving offset-less
/// (naive) times in one zone. Holds a small cache, so it is a mutable value.
///
/// Naive times are resolved like this: a local time that exists once maps to
/// that instant; one that exists twice (the hour repeated when daylight
/// saving ends) maps to the earlier instant; one that does not exist (the
/// hour skipped when it starts) is moved forward by the length of the gap
/// (02:30 becomes 03:30).
struct TrackTimeParser {
  let naiveTimeZone: TimeZone
  let naiveIsUTC: Bool
  private var cachedMinute: Int64 = .min
  private var cachedOffsetMilliseconds: Int64 = 0

  init(naiveTimeZone: TimeZone) {
    self.naiveTimeZone = naiveTimeZone
    self.naiveIsUTC = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "GMT+0", "GMT-0", "UTC+0"].contains(naiveTimeZone.identifier)
  }

  @inline(__always)
  mutating func parseCSVTime(_ bytes: UnsafeBufferPointer<UInt8>, format: CSVTimeFormat) -> Result<Int64, TimeProblem> {
    switch format {
    case .iso8601:
      return parseISO8601(bytes).map { .success($0) } ?? .failure(.unreadable)
    case .epochSeconds: return parseEpoch(bytes, milliseconds: false)
    case .epochMilliseconds: return parseEpoch(bytes, milliseconds: true)
    case .auto:
      // Numeric first: digits with an optional sign and one dot.
      var p = 0
      let count = bytes.count
      if count > 0 && (bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+")) { p = 1 }
      var numeric = p < count
      var dots = 0
      var hasExponent = false
      while p < count {
        let c = bytes[p]
        if c &- 48 < 10 {
        } else if c == UInt8(ascii: ".") {
          dots += 1
        } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
          hasExponent = true
          numeric = false
          break
        } else {
          numeric = false
          break
        }
        p += 1
      }
      if numeric && dots <= 1 { return parseEpoch(bytes, milliseconds: nil) }
      if hasExponent, let problem = exponentProblem(bytes) { return .failure(problem) }
      for i in 0..<count {
        let c = bytes[i]
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "T") || c == UInt8(ascii: ":") {
          return parseISO8601(bytes).map { .success($0) } ?? .failure(.unreadable)
        }
      }
      return .failure(.unreadable)
    }
  }

  /// `.exponent` when `bytes` is a number in exponent notation.
  private func exponentProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> TimeProblem? {
    guard parseDecimal(bytes) != nil else { return nil }
    var significant = 0
    var leading = true
    for c in bytes {
      if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { break }
      if c &- 48 < 10 {
        if c == UInt8(ascii: "0") && leading { continue }
        leading = false
        significant += 1
      }
    }
    return .exponent(significantDigits: significant)
  }

  /// Epoch seconds or milliseconds; `milliseconds == nil` picks milliseconds
  /// when the magnitude is at least 1e11. Fractions are truncated to the ms.
  @inline(__always)
  func parseEpoch(_ bytes: UnsafeBufferPointer<UInt8>, milliseconds: Bool?) -> Result<Int64, TimeProblem> {
    let count = bytes.count
    var p = 0
    var negative = false
    if count > 0 && bytes[0] == UInt8(ascii: "-") {
      negative = true
      p = 1
    } else if count > 0 && bytes[0] == UInt8(ascii: "+") {
      p = 1
    }
    var whole: Int64 = 0
    var wholeDigits = 0
    while p < count {
      let d = bytes[p] &- 48
      if d >= 10 { break }
      if whole > 92_233_720_368_547 { return .failure(.outOfRange) }  // keeps whole * 1000 + 999 in range
      whole = whole * 10 + Int64(d)
      wholeDigits += 1
      p += 1
    }
    var fraction: Int64 = 0  // milliseconds of a seconds value, truncated
    var fractionDigits = 0
    if p < count && bytes[p] == UInt8(ascii: ".") {
      p += 1
      while p < count {
        let d = bytes[p] &- 48
        if d >= 10 { break }
        if fractionDigits < 3 { fraction = fraction * 10 + Int64(d) }
        fractionDigits += 1
        p += 1
      }
    }
    if p != count || (wholeDigits == 0 && fractionDigits == 0) {
      if let problem = exponentProblem(bytes) { return .failure(problem) }
      return .failure(.unreadable)
    }
    for _ in min(fractionDigits, 3)..<3 { fraction *= 10 }
    let isMilliseconds = milliseconds ?? (whole >= 100_000_000_000)
    let value: Int64 = isMilliseconds ? whole : whole * 1000 + fraction
    return .success(negative ? -value : value)
  }

  /// An ISO 8601 date-time (`ISO8601DateTime`'s grammar) to milliseconds since
  /// the epoch; without an offset it is local time in the naive zone.
  @inline(__always)
  mutating func parseISO8601(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard case .success(let time) = ISO8601DateTime.parse(bytes) else { return nil }
    if let offset = time.offsetMilliseconds { return time.localMilliseconds - offset }
    return time.localMilliseconds - naiveOffsetMilliseconds(time.localMilliseconds)
  }

  /// The zone's offset for a local (wall-clock) time, in milliseconds.
  @inline(__always)
  mutating func naiveOffsetMilliseconds(_ local: Int64) -> Int64 {
    if naiveIsUTC { return 0 }
    let minute = local >= 0 ? local / 60_000 : (local - 59_999) / 60_000
    if minute == cachedMinute { return cachedOffsetMilliseconds }
    let localSeconds = Double(minute * 60)
    func offset(at utcSeconds: Double) -> Int64 {
      Int64(naiveTimeZone.secondsFromGMT(for: Date(timeIntervalSince1970: utcSeconds)))
    }
    let before = offset(at: localSeconds - 86_400)
    let after = offset(at: localSeconds + 86_400)
    let valid = Set([before, after]).filter { offset(at: localSeconds - Double($0)) == $0 }
    let chosen: Int64
    if valid.isEmpty {
      chosen = before  // in a gap: keep the offset from before it, which moves the time forward
    } else {
      chosen = valid.max()!  // in an overlap, the larger offset is the earlier instant
    }
    cachedMinute = minute
    cachedOffsetMilliseconds = chosen * 1000
    return cachedOffsetMilliseconds
  }
}
