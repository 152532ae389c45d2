import Foundation
import TrigsimCore
import TrigsimTracks

/// An expected timeline read from a file, with where each entry came from.
public struct ExpectedTimeline: Sendable {
  public var timeline: Timeline
  /// Where each entry was read (parallel to `timeline.entries`): in canonical text,
  /// the entry's line at column 1; in JSON, the position of the entry's object.
  public var entryLocations: [InputLocation]
  /// The file as named by the caller (used in every location).
  public var file: String

  public init(timeline: Timeline, entryLocations: [InputLocation], file: String) {
    self.timeline = timeline
    self.entryLocations = entryLocations
    self.file = file
  }
}

/// The two formats an expected timeline can be kept in.
public enum ExpectedTimelineFormat: Sendable {
  /// The canonical text (`Timeline.canonicalText`, `trigsim run` without `--format`).
  case text
  /// The JSON document (`Timeline.json`, `trigsim run --format json`).
  case json

  /// `.json` for a path ending in `.json` (in any letter case), else `.text`.
  public init(path: String) {
    self = path.lowercased().hasSuffix(".json") ? .json : .text
  }
}

/// Reads an expected timeline back from the canonical text or the JSON that
/// trigsim writes, reporting every problem at its `file:line:column`.
///
/// **Canonical text** (`*.timeline`):
/// - The first line is exactly `# trigsim timeline 1` (`Timeline.formatLine`);
///   otherwise the file is rejected at 1:1 with nothing else read.
/// - Then header lines `# key: value`, split at the first `: ` (a line ending in
///   `:` is a key with an empty value), with the escapes `canonicalText` applies
///   undone: `\\`, `\n`, `\r`; any other backslash is an error.
/// - Then entry lines, exactly as `TimelineEntry.canonicalLine` writes them:
///   `<instant> <kind> <subject> key=value ...`. Tokens are separated by one or
///   more spaces (trailing spaces are ignored); nothing else is loose.
///   - The instant follows `ISO8601DateTime`'s grammar, must carry an offset
///     (`Z`, `+01:00`, or `+00:19:32` as trigsim prints historic offsets) and at
///     most three fraction digits. The entry's `utcOffsetSeconds` is that offset.
///   - The kind is a `TimelineEntry.Kind` raw value.
///   - The subject and field values are either bare (not empty, and no `"`,
///     `\`, `=`, whitespace or control characters below U+0020) or
///     double-quoted with the escapes `\"`, `\\`, `\n`, `\r` and `\t`: the
///     inverse of `TimelineEntry.quoteIfNeeded`.
///     A closing quote is followed by a space or the end of the line.
///   - A field is `key=value` with a non-empty bare key.
///   - Entries are in non-decreasing instant order.
/// - A `#` line after the first entry is an error (one per run of such lines),
///   and `# summary` (the `run --summary` block) is an error that ends the
///   reading.
/// - After a malformed bare token that holds a `"`, the rest of its line is
///   not read (its spaces may be inside a quoted value), so one slip does not
///   produce a cascade of follow-on errors.
/// - Lines end with LF; blank lines are errors, but a missing final newline is
///   fine. CRLF line ends are reported once. A leading byte-order mark is skipped.
///
/// **JSON** (`*.json`), strict RFC 8259 read by `LocatedJSONReader` (no
/// comments, trailing commas, NaN, YAML anchors, aliases or tags; at most
/// `LocatedJSONReader.maximumDepth` levels of nesting), in time linear in the
/// file, so that every value has a position:
/// `{"format": "trigsim-timeline-2", "header": {...}, "entries": [{"instant",
/// "utc", "kind", "subject", "fields": {...}}], "summary": ...}`
/// (`"trigsim-timeline-1"` is read the same way). `summary` is
/// optional and ignored (but must be JSON); every other member is required,
/// every key and value (but the summary's) is a string, except that a field
/// `TimelineFieldType` types may be its typed value (a whole number, true or
/// false, `{"step": N, "of": M}`), read back as the text it stands for, in
/// either version; unknown keys are
/// errors, `instant` follows the text format's rule, `utc` must name the same
/// instant, and entries are in non-decreasing instant order. Header and fields
/// keep their order from the file; a key repeated in one object is an error,
/// reported at its first occurrence. Text that is not JSON is reported at the
/// first character that shows it, and nothing else is then reported.
///
/// **The quoting policy** (`ForeignFile`): a text file whose first line is
/// not `# trigsim timeline …`, or a JSON file that does not begin as an
/// object with a `"format": "trigsim-…"` member, is somebody else's file:
/// one diagnostic names it and says what its beginning should be, and
/// nothing of it is quoted or shown.
///
/// Problems are reported together, in file order: the first
/// `DiagnosticCollector.defaultLimit` by position, then a note with how many
/// more there are. Values quoted in messages are cut by `Diagnostic.excerpt`.
public struct ExpectedTimelineReader {
  public init() {}

  /// Reads the file at `path` (as given by the user; used in every location),
  /// in the format its name implies (`ExpectedTimelineFormat(path:)`), under
  /// the policy of every file a scenario implies (`ScenarioFileKind`).
  ///
  /// - Throws: `FileAccessError` when the file cannot be read or is not
  ///   UTF-8; `InputError` with every problem located when it is malformed,
  ///   or when `policy` or the size limit refuses it.
  public func read(path: String, policy: ScenarioPathPolicy = .unrestricted) throws -> ExpectedTimeline {
    let text = try ScenarioFileKind.expectedTimeline.readText(path, policy: policy)
    return try read(text: text, file: path, format: ExpectedTimelineFormat(path: path))
  }

  /// Reads `text` in `format`; `file` names it in every location.
  ///
  /// - Throws: `InputError` with every problem located when it is malformed.
  public func read(text: String, file: String, format: ExpectedTimelineFormat) throws -> ExpectedTimeline {
    var problems = ExpectedTimelineProblems(file: file)
    let result: (Timeline, [InputLocation])?
    switch format {
    case .text:
      var parser = CanonicalTimelineParser(problems: problems)
      result = parser.parse(text)
      problems = parser.problems
    case .json:
      var parser = JSONTimelineParser(problems: problems)
      result = parser.parse(text)
      problems = parser.problems
    }
    try problems.throwIfAny()
    guard let (timeline, locations) = result else {
      throw InputError(Diagnostic(at: InputLocation(file: file, line: 1, column: 1), "the expected timeline could not be read"))
    }
    return ExpectedTimeline(timeline: timeline, entryLocations: locations, file: file)
  }
}

// MARK: - Shared rules

/// The diagnostics of one file, thrown in file order: at most
/// `DiagnosticCollector.defaultLimit`, the first by position, however many
/// problems the file has (the rest are counted in the last one's notes).
struct ExpectedTimelineProblems {
  let file: String
  private var collector = DiagnosticCollector(keepsFirstByLocation: true)

  init(file: String) { self.file = file }

  func location(line: Int, column: Int) -> InputLocation { InputLocation(file: file, line: line, column: column) }

  /// Records a problem. Its message and notes are only composed when it is
  /// kept: a file with a million bad lines costs a count for most of them.
  mutating func error(line: Int, column: Int, _ message: @autoclosure () -> String, notes: @autoclosure () -> [String] = []) {
    let location = location(line: line, column: column)
    collector.append(at: location) { Diagnostic(.error, at: location, message(), notes: notes()) }
  }

  /// Records a diagnostic made elsewhere (`ForeignFile`).
  mutating func append(_ diagnostic: Diagnostic) { collector.append(diagnostic) }

  /// The file is not the expected timeline's format (`ForeignFile`): named, never quoted.
  mutating func foreignFile(format: String, whyNot: String, notes: [String]) {
    append(ForeignFile.diagnostic(file: file, format: format, whyNot: whyNot, notes: notes))
  }

  /// Throws the diagnostics kept, if any.
  func throwIfAny() throws { try collector.throwIfAny() }
}

/// Rules both formats share.
enum ExpectedTimelineSyntax {
  /// A `\u{HEX}` escape (`ControlCharacterEscape`) whose `u` is at `index`:
  /// the scalar it names and how many scalars it spans from the `u` to the
  /// `}`; nil when it is not one.
  static func unicodeEscape(_ scalars: [Unicode.Scalar], at index: Int) -> (scalar: Unicode.Scalar, length: Int)? {
    guard index + 2 < scalars.count, scalars[index] == "u", scalars[index + 1] == "{" else { return nil }
    guard let close = scalars[(index + 2)...].prefix(7).firstIndex(of: "}") else { return nil }
    let digits = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
    guard let scalar = ControlCharacterEscape.scalar(hexDigits: digits) else { return nil }
    return (scalar, close - index + 1)
  }

  /// How to make an expected timeline, for notes.
  static let recordNote = "make an expected timeline with 'trigsim record scenario.yaml'"

  /// Notes for `unknown kind '...'`: a suggestion when one is close, then every kind.
  static func notesForUnknownKind(_ name: String) -> [String] {
    let names = TimelineEntry.Kind.allCases.map(\.rawValue)
    var notes: [String] = []
    if let suggestion = NameSuggestion.closest(to: name, among: names) { notes.append("did you mean '\(suggestion)'?") }
    notes.append("choose one of: \(names.joined(separator: ", "))")
    return notes
  }

  /// A readable name for one character in a message: `'='`, `a tab`, `a line
  /// break`, `the space character U+00A0`.
  static func describe(_ scalar: Unicode.Scalar) -> String {
    let code = String(scalar.value, radix: 16, uppercase: true)
    let codePoint = "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
    if scalar == "\t" { return "a tab" }
    if Character(scalar).isNewline { return "a line break" }
    if scalar.properties.isWhitespace { return "the space character \(codePoint)" }
    if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return "the control character \(codePoint)" }
    return "'\(scalar)'"
  }
}

/// Instants in an expected timeline: `ISO8601DateTime`'s grammar with a
/// required offset and at most three fraction digits. The offset may also be
/// `±hh:mm:ss`, as `InstantFormatter` prints offsets that are not whole minutes.
enum ExpectedInstant {
  enum Problem: Error, Equatable {
    case malformed, outOfRange, tooPrecise, noOffset

    /// Completes "instant '...' <message>".
    var message: String {
      switch self {
      case .malformed: ValueSyntax.InstantProblem.malformed.message
      case .outOfRange: ValueSyntax.InstantProblem.outOfRange.message
      case .tooPrecise: ValueSyntax.InstantProblem.tooPrecise.message
      case .noOffset: "has no UTC offset"
      }
    }

    var notes: [String] {
      switch self {
      case .noOffset: ["an expected timeline gives every instant with its offset: add 'Z' or one like '+01:00'"]
      default: ["write it like 2026-03-28T08:00:00.000+01:00"]
      }
    }
  }

  /// The instant and its offset from UTC in seconds.
  static func parse(_ text: String) -> Result<(instant: SimulationInstant, offsetSeconds: Int), Problem> {
    var body = Substring(text)
    var extraOffsetSeconds: Int64 = 0
    // `+hh:mm:ss`: take the seconds off and parse the rest as `+hh:mm`.
    let tail = Array(text.unicodeScalars.suffix(9))
    if tail.count == 9, tail[0] == "+" || tail[0] == "-", tail[3] == ":", tail[6] == ":",
      [1, 2, 4, 5, 7, 8].allSatisfy({ ("0"..."9").contains(tail[$0]) })
    {
      let seconds = Int64(tail[7].value - 48) * 10 + Int64(tail[8].value - 48)
      guard seconds <= 59 else { return .failure(.malformed) }
      extraOffsetSeconds = tail[0] == "-" ? -seconds : seconds
      body = body.dropLast(3)
    }
    var bodyText = String(body)
    let parsed = bodyText.withUTF8 { ISO8601DateTime.parse($0) }
    switch parsed {
    case .failure(.malformed): return .failure(.malformed)
    case .failure(.outOfRange): return .failure(.outOfRange)
    case .success(let time):
      guard time.fractionDigits <= 3 else { return .failure(.tooPrecise) }
      guard let offsetMilliseconds = time.offsetMilliseconds else { return .failure(.noOffset) }
      let offset = offsetMilliseconds + extraOffsetSeconds * 1000
      return .success((SimulationInstant(millisecondsSinceEpoch: time.localMilliseconds - offset), Int(offset / 1000)))
    }
  }
}

// MARK: - Canonical text

/// Parses the canonical text form line by line. Columns are 1-based and count
/// Unicode scalars (as `InputLocation` documents).
struct CanonicalTimelineParser {
  var problems: ExpectedTimelineProblems

  /// The previous entry read, for the order check.
  private var previous: (instant: SimulationInstant, text: String, line: Int)?

  init(problems: ExpectedTimelineProblems) { self.problems = problems }

  mutating func parse(_ text: String) -> (Timeline, [InputLocation])? {
    var scalars = Substring(text).unicodeScalars
    if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
    guard !scalars.isEmpty else {
      problems.error(line: 1, column: 1, "the timeline file is empty", notes: [ExpectedTimelineSyntax.recordNote])
      return nil
    }
    // Lines are taken one at a time (a file of a million lines is never held
    // as a million arrays); a final newline does not start another line.
    var nextLineStart = scalars.startIndex
    var lineNumber = 0
    func nextLine() -> [Unicode.Scalar]? {
      guard nextLineStart < scalars.endIndex else { return nil }
      let end = scalars[nextLineStart...].firstIndex(of: "\n") ?? scalars.endIndex
      let line = Array(scalars[nextLineStart..<end])
      nextLineStart = end < scalars.endIndex ? scalars.index(after: end) : end
      lineNumber += 1
      return line
    }
    // CRLF line ends: reported once, then read as LF.
    var reportedCarriageReturn = false
    func withoutCarriageReturn(_ line: [Unicode.Scalar]) -> [Unicode.Scalar] {
      guard line.last == "\r" else { return line }
      if !reportedCarriageReturn {
        reportedCarriageReturn = true
        problems.error(
          line: lineNumber, column: line.count, "line ends with a carriage return (CRLF line ends)",
          notes: ["save the file with LF line ends (in git: '*.timeline text eol=lf' in .gitattributes)"])
      }
      return Array(line.dropLast())
    }

    // The first line decides whether this is a timeline at all; nothing else
    // is reported when it is not.
    guard let firstLine = nextLine() else { return nil }
    guard checkFormatLine(firstLine.last == "\r" ? Array(firstLine.dropLast()) : firstLine) else { return nil }
    _ = withoutCarriageReturn(firstLine)

    var timeline = Timeline()
    var locations: [InputLocation] = []
    var readEntries = false
    var previousLineWasMisplacedHeader = false
    while let rawLine = nextLine() {
      let line = withoutCarriageReturn(rawLine)
      let isHeaderLine = line.first == "#"
      defer { previousLineWasMisplacedHeader = isHeaderLine && readEntries }
      if line.allSatisfy({ $0 == " " }) {
        problems.error(line: lineNumber, column: 1, "blank line", notes: ["an expected timeline has no blank lines; remove it"])
        continue
      }
      if isHeaderLine {
        if String(String.UnicodeScalarView(line)) == "# summary" {
          problems.error(
            line: lineNumber, column: 1, "a summary is not part of an expected timeline",
            notes: [
              "'# summary' starts the dose table that 'run --summary' prints after the timeline; remove it and every line after it",
              "an expected timeline holds only the header and the entries",
            ])
          break
        }
        if readEntries {
          if !previousLineWasMisplacedHeader {
            problems.error(
              line: lineNumber, column: 1, "header line after the entries",
              notes: [
                "header lines come first, before the first entry; move it up or remove it",
                "a '# summary' block is 'run --summary' output and not part of an expected timeline",
              ])
          }
          continue
        }
        if let field = headerField(line, lineNumber: lineNumber) { timeline.header.append(field) }
        continue
      }
      readEntries = true
      if let entry = entry(line, lineNumber: lineNumber) {
        timeline.entries.append(entry)
        locations.append(problems.location(line: lineNumber, column: 1))
      }
    }
    return (timeline, locations)
  }

  /// Whether the first line names this format; reports it at 1:1 when not.
  private mutating func checkFormatLine(_ line: [Unicode.Scalar]) -> Bool {
    let text = String(String.UnicodeScalarView(line))
    if text == Timeline.formatLine { return true }
    let versionPrefix = "# trigsim timeline "
    if text.hasPrefix(versionPrefix) {
      let version = String(text.dropFirst(versionPrefix.count))
      problems.error(
        line: 1, column: 1, "unsupported timeline format version '\(Diagnostic.excerpt(version))'",
        notes: ["this trigsim reads '\(Timeline.formatLine)'", "re-record it with 'trigsim record scenario.yaml'"])
    } else {
      var notes = [ExpectedTimelineSyntax.recordNote]
      if text.hasPrefix("{") { notes.append("if it is a JSON timeline, name it '*.json'") }
      problems.foreignFile(format: "a trigsim timeline", whyNot: "its first line is not '\(Timeline.formatLine)'", notes: notes)
    }
    return false
  }

  // MARK: Header

  /// `# key: value` with the value's escapes undone.
  private mutating func headerField(_ line: [Unicode.Scalar], lineNumber: Int) -> TimelineField? {
    let shape = "header lines are '# key: value'"
    guard line.count >= 2, line[1] == " " else {
      problems.error(line: lineNumber, column: 2, "expected a space after '#' in a header line", notes: [shape])
      return nil
    }
    // The key runs to the first ": "; a line ending in ":" has an empty value.
    var separator: Int?
    for index in 2..<line.count where line[index] == ":" && (index + 1 == line.count || line[index + 1] == " ") {
      separator = index
      break
    }
    guard let separator else {
      problems.error(line: lineNumber, column: 3, "header line has no ': ' between its key and value", notes: [shape])
      return nil
    }
    guard separator > 2 else {
      problems.error(line: lineNumber, column: 3, "header line has an empty key", notes: [shape])
      return nil
    }
    let key = String(String.UnicodeScalarView(line[2..<separator]))
    var value = String.UnicodeScalarView()
    var index = min(separator + 2, line.count)
    var valid = true
    while index < line.count {
      let scalar = line[index]
      guard scalar == "\\" else {
        value.append(scalar)
        index += 1
        continue
      }
      let escaped: Unicode.Scalar? = index + 1 < line.count ? line[index + 1] : nil
      if escaped == "u", let (scalar, length) = ExpectedTimelineSyntax.unicodeEscape(line, at: index + 1) {
        value.append(scalar)
        index += 1 + length
        continue
      }
      switch escaped {
      case "\\": value.append("\\")
      case "n": value.append("\n")
      case "r": value.append("\r")
      default:
        valid = false
        let shown = escaped.map { "'\\\($0)'" } ?? "'\\' at the end of the line"
        problems.error(
          line: lineNumber, column: index + 1, "unknown escape \(shown) in a header value",
          notes: ["header values escape a backslash as '\\\\', a newline as '\\n', a carriage return as '\\r' and another control character as '\\u{1B}'"])
      }
      index += 2
    }
    return valid ? TimelineField(key, String(value)) : nil
  }

  // MARK: Entries

  /// One entry line; nil after reporting its problems.
  private mutating func entry(_ line: [Unicode.Scalar], lineNumber: Int) -> TimelineEntry? {
    var scanner = LineScanner(scalars: line)
    var valid = true
    if line.first == " " {
      problems.error(
        line: lineNumber, column: 1, "entry line starts with a space",
        notes: ["an entry line starts with its instant at column 1"])
      valid = false
      scanner.skipSpaces()
    }

    // Instant.
    let instantColumn = scanner.column
    let instantText = scanner.bareToken()
    var instant: (instant: SimulationInstant, offsetSeconds: Int)?
    switch ExpectedInstant.parse(instantText) {
    case .success(let parsed):
      instant = parsed
    case .failure(let problem):
      problems.error(line: lineNumber, column: instantColumn, "instant '\(Diagnostic.excerpt(instantText))' \(problem.message)", notes: problem.notes)
      valid = false
    }
    if let instant {
      if let previous, instant.instant < previous.instant {
        problems.error(
          line: lineNumber, column: instantColumn,
          "entry at '\(Diagnostic.excerpt(instantText))' is earlier than the entry before it at '\(Diagnostic.excerpt(previous.text))' (line \(previous.line))",
          notes: ["entries are in the order they happened: move this line up, or correct its instant"])
        valid = false
      }
      previous = (instant.instant, instantText, lineNumber)
    }

    // Kind.
    scanner.skipSpaces()
    guard !scanner.atEnd else {
      problems.error(
        line: lineNumber, column: scanner.column, "missing kind after the instant",
        notes: ["an entry is '<instant> <kind> <subject> key=value ...'"])
      return nil
    }
    let kindColumn = scanner.column
    let kindText = scanner.bareToken()
    let kind = TimelineEntry.Kind(rawValue: kindText)
    if kind == nil {
      problems.error(line: lineNumber, column: kindColumn, "unknown kind '\(Diagnostic.excerpt(kindText))'", notes: ExpectedTimelineSyntax.notesForUnknownKind(kindText))
      valid = false
    }

    // Subject.
    scanner.skipSpaces()
    guard !scanner.atEnd else {
      problems.error(
        line: lineNumber, column: scanner.column, "missing subject after the kind",
        notes: ["an entry is '<instant> <kind> <subject> key=value ...'; the subject is a notification, region, time zone or 'track'"])
      return nil
    }
    let subject = value(&scanner, lineNumber: lineNumber, role: .subject)
    if subject == nil { valid = false }

    // Fields.
    var fields: [TimelineField] = []
    while true {
      scanner.skipSpaces()
      if scanner.atEnd { break }
      if let field = field(&scanner, lineNumber: lineNumber) { fields.append(field) } else { valid = false }
    }

    guard valid, let instant, let kind, let subject else { return nil }
    return TimelineEntry(instant: instant.instant, utcOffsetSeconds: instant.offsetSeconds, kind: kind, subject: subject, fields: fields)
  }

  /// `key=value`: a non-empty bare key, `=`, then a value.
  mutating func field(_ scanner: inout LineScanner, lineNumber: Int) -> TimelineField? {
    let start = scanner.position
    let startColumn = scanner.column
    while !scanner.atEnd, scanner.current != "=", scanner.current != " " { scanner.advance() }
    guard !scanner.atEnd, scanner.current == "=" else {
      let token = scanner.text(from: start)
      problems.error(
        line: lineNumber, column: startColumn, "field '\(Diagnostic.excerpt(token))' has no '='",
        notes: ["fields are key=value, separated by spaces; quote a value that holds spaces: title=\"Morning pills\""])
      scanner.skipPastStrayQuote(in: token)
      return nil
    }
    let key = scanner.text(from: start)
    guard !key.isEmpty else {
      problems.error(line: lineNumber, column: startColumn, "field has an empty key", notes: ["fields are key=value with a name before '='"])
      scanner.skipToSpace()
      return nil
    }
    if let (offset, scalar) = key.unicodeScalars.enumerated().first(where: { Self.needsQuoting($0.element) }) {
      problems.error(
        line: lineNumber, column: startColumn + offset, "\(ExpectedTimelineSyntax.describe(scalar)) inside the field key '\(Diagnostic.excerpt(key))'",
        notes: ["a field is key=value with a bare key and the value quoted when needed: title=\"Morning pills\""])
      scanner.skipToSpace()
      scanner.skipPastStrayQuote(in: key)
      return nil
    }
    scanner.advance()  // "="
    guard !scanner.atEnd, scanner.current != " " else {
      problems.error(
        line: lineNumber, column: scanner.column, "field '\(Diagnostic.excerpt(key))' has no value", notes: ["write an empty value as \(Diagnostic.excerpt(key))=\"\""])
      return nil
    }
    guard let value = value(&scanner, lineNumber: lineNumber, role: .fieldValue(key: key)) else { return nil }
    return TimelineField(key, value)
  }

  /// What a value is, for messages.
  enum ValueRole {
    case subject
    case fieldValue(key: String)

    /// `subject`, `value of field 'title'`.
    var name: String {
      switch self {
      case .subject: "subject"
      case .fieldValue(let key): "value of field '\(Diagnostic.excerpt(key))'"
      }
    }

    /// `unquoted subject 'a=b'`, `unquoted value 'a"b' of field 'title'`.
    func unquoted(_ text: String) -> String {
      switch self {
      case .subject: "unquoted subject '\(Diagnostic.excerpt(text))'"
      case .fieldValue(let key): "unquoted value '\(Diagnostic.excerpt(text))' of field '\(Diagnostic.excerpt(key))'"
      }
    }
  }

  /// A subject or field value: bare, or double-quoted with `\"`, `\\`, `\n`, `\r`, `\t`.
  /// Leaves the scanner at the space after it (or the end of the line).
  private mutating func value(_ scanner: inout LineScanner, lineNumber: Int, role: ValueRole) -> String? {
    guard scanner.current == "\"" else {
      let startColumn = scanner.column
      let start = scanner.position
      scanner.skipToSpace()
      let text = scanner.text(from: start)
      guard let (offset, scalar) = text.unicodeScalars.enumerated().first(where: { Self.needsQuoting($0.element) }) else {
        return text
      }
      var notes: [String] = []
      if case .subject = role, scalar == "=" { notes.append("the subject comes right after the kind, before the fields") }
      notes.append(
        "quote a value that holds spaces, quotes, '=', backslashes, tabs, line breaks or control characters, writing a quote inside it as \\\" "
          + "and a backslash as \\\\: \"Morning \\\"pills\\\"\"")
      problems.error(
        line: lineNumber, column: startColumn + offset,
        "\(ExpectedTimelineSyntax.describe(scalar)) inside the \(role.unquoted(text))", notes: notes)
      scanner.skipPastStrayQuote(in: text)
      return nil
    }
    let openingColumn = scanner.column
    scanner.advance()
    var value = String.UnicodeScalarView()
    var valid = true
    while !scanner.atEnd {
      let scalar = scanner.current
      if scalar == "\"" {
        scanner.advance()
        if !scanner.atEnd, scanner.current != " " {
          problems.error(
            line: lineNumber, column: scanner.column,
            "unexpected \(ExpectedTimelineSyntax.describe(scanner.current)) after the closing quote of the \(role.name)",
            notes: ["a closing quote ends the value: put a space before the next field, or write a quote inside the value as \\\""])
          scanner.skipToSpace()
          return nil
        }
        return valid ? String(value) : nil
      }
      if scalar == "\\" {
        let escapeColumn = scanner.column
        scanner.advance()
        guard !scanner.atEnd else { break }
        if let (scalar, length) = ExpectedTimelineSyntax.unicodeEscape(scanner.scalars, at: scanner.position) {
          value.append(scalar)
          scanner.advance(by: length)
          continue
        }
        switch scanner.current {
        case "\"": value.append("\"")
        case "\\": value.append("\\")
        case "n": value.append("\n")
        case "r": value.append("\r")
        case "t": value.append("\t")
        default:
          valid = false
          problems.error(
            line: lineNumber, column: escapeColumn, "unknown escape '\\\(scanner.current)' in the \(role.name)",
            notes: [
              "inside quotes write \\\" for a quote, \\\\ for a backslash, \\n for a newline, \\r for a carriage return, \\t for a tab and \\u{1B} for another control character"
            ])
        }
        scanner.advance()
        continue
      }
      value.append(scalar)
      scanner.advance()
    }
    problems.error(
      line: lineNumber, column: openingColumn, "unterminated quote in the \(role.name)",
      notes: ["close the value with '\"'; write a quote inside it as \\\""])
    return nil
  }

  /// The characters a bare subject, key or value cannot hold (`quoteIfNeeded` quotes them).
  static func needsQuoting(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "\"" || scalar == "\\" || scalar == "=" || scalar.value < 0x20 || scalar.properties.isWhitespace
  }
}

extension CanonicalTimelineParser {
  /// A position in one line of Unicode scalars.
  struct LineScanner {
    let scalars: [Unicode.Scalar]
    private(set) var position = 0

    init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var atEnd: Bool { position >= scalars.count }
    /// The scalar at the position; only when not `atEnd`.
    var current: Unicode.Scalar { scalars[position] }
    /// The 1-based column of the position.
    var column: Int { position + 1 }

    mutating func advance() { position += 1 }
    mutating func advance(by count: Int) { position += count }
    mutating func skipSpaces() { while !atEnd, current == " " { position += 1 } }
    mutating func skipToSpace() { while !atEnd, current != " " { position += 1 } }

    /// After a bad bare token holding a `"`: the spaces after it may be inside
    /// a quoted value, so the rest of the line cannot be split into tokens
    /// reliably, and reading it would only report follow-on errors.
    mutating func skipPastStrayQuote(in token: String) {
      if token.unicodeScalars.contains("\"") { position = scalars.count }
    }

    /// Everything up to the next space.
    mutating func bareToken() -> String {
      let start = position
      skipToSpace()
      return text(from: start)
    }

    func text(from start: Int) -> String { String(String.UnicodeScalarView(scalars[start..<position])) }
  }
}

// MARK: - JSON

/// Reads the JSON document with `LocatedJSONReader`, so every value has a line
/// and column. The entries are read one at a time: only the timeline being
/// built is kept, never the whole document's tree.
struct JSONTimelineParser {
  var problems: ExpectedTimelineProblems

  /// The format trigsim writes (typed field values).
  static let formatName = Timeline.jsonFormatName
  /// Every format read: version 1 (every value a string) and version 2.
  static let formatNames = ["trigsim-timeline-1", Timeline.jsonFormatName]
  static let topLevelKeys = ["format", "header", "entries", "summary"]
  static let entryKeys = ["instant", "utc", "kind", "subject", "fields"]
  static let makeJSONNote = "make one with 'trigsim run scenario.yaml --format json --output NAME.json'"

  init(problems: ExpectedTimelineProblems) { self.problems = problems }

  private mutating func error(at position: JSONPosition, _ message: String, notes: [String] = []) {
    problems.error(line: position.line, column: position.column, message, notes: notes)
  }

  private func location(_ position: JSONPosition) -> InputLocation {
    problems.location(line: position.line, column: position.column)
  }

  mutating func parse(_ text: String) -> (Timeline, [InputLocation])? {
    // The quoting policy (`ForeignFile`): text that does not begin as an
    // object with a trigsim "format" member is named, never quoted.
    let isBlank = text.unicodeScalars.allSatisfy { $0 == "\u{FEFF}" || $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
    guard isBlank || LocatedJSONReader.beginsAsObject(text, signature: "format", accepts: { $0.hasPrefix("trigsim-") }) else {
      problems.foreignFile(
        format: "a trigsim JSON timeline", whyNot: "it does not begin as an object with \"format\": \"\(Self.formatName)\"",
        notes: [Self.makeJSONNote])
      return nil
    }
    var text = text
    let before = problems
    let result = text.withUTF8 { bytes -> Result<(Timeline, [InputLocation])?, JSONSyntaxError> in
      var reader = LocatedJSONReader(bytes)
      do throws(JSONSyntaxError) {
        return .success(try parseDocument(&reader))
      } catch {
        return .failure(error)
      }
    }
    switch result {
    case .success(let value):
      return value
    case .failure(let syntaxError):
      // Text that is not JSON: only where it stops being JSON is reported,
      // as the rest cannot be read reliably.
      problems = before
      error(at: syntaxError.position, "invalid JSON: \(syntaxError.message)", notes: syntaxError.notes)
      return nil
    }
  }

  private mutating func parseDocument(_ reader: inout LocatedJSONReader) throws(JSONSyntaxError) -> (Timeline, [InputLocation])? {
    if reader.isAtEndAfterWhitespace() {
      problems.error(line: 1, column: 1, "the timeline file is empty", notes: [Self.makeJSONNote])
      return nil
    }

    // `parse` has checked that the text begins as an object with a "format".
    guard let rootPosition = reader.openObject() else { return nil }
    var timeline = Timeline()
    var locations: [InputLocation] = []
    var seen: [String: JSONPosition] = [:]
    var first = true
    while let (key, keyPosition) = try reader.nextMember(first: &first) {
      if let earlier = seen[key], Self.topLevelKeys.contains(key) {
        reportRepeatedKey(key, at: earlier)
        try reader.skipValue(depth: 2)
        continue
      }
      seen[key] = keyPosition
      switch key {
      case "format":
        let format = try reader.readValue(depth: 2)
        if let name = string(format, what: "'format'"), !Self.formatNames.contains(name) {
          error(
            at: format.position, "unsupported timeline format '\(Diagnostic.excerpt(name))'",
            notes: ["this trigsim reads '\"format\": \"\(Self.formatName)\"' (and '\"trigsim-timeline-1\"')", Self.makeJSONNote])
        }
      case "header":
        let header = try reader.readValue(depth: 2)
        timeline.header = fields(header, what: "'header'") ?? []
      case "entries":
        try readEntries(&reader, into: &timeline, locations: &locations)
      case "summary":
        try reader.skipValue(depth: 2)
      default:
        error(at: keyPosition, "unknown key '\(Diagnostic.excerpt(key))' in the timeline", notes: Self.notesForUnknownKey(key, in: "the timeline", allowed: Self.topLevelKeys))
        try reader.skipValue(depth: 2)
      }
    }
    try reader.finish()
    if seen["header"] == nil {
      error(at: rootPosition, "missing 'header'", notes: ["add \"header\": {} (the run's description, as 'trigsim run --format json' writes it)"])
    }
    if seen["entries"] == nil {
      error(at: rootPosition, "missing 'entries'", notes: ["add \"entries\": [] with one object per entry"])
    }
    return (timeline, locations)
  }

  /// The `entries` array, one entry object at a time.
  private mutating func readEntries(
    _ reader: inout LocatedJSONReader, into timeline: inout Timeline, locations: inout [InputLocation]
  ) throws(JSONSyntaxError) {
    guard reader.openArray() != nil else {
      let value = try reader.readValue(depth: 2)
      error(at: value.position, "'entries' must be an array, not \(value.described)")
      return
    }
    var previous: ReadInstant?
    var first = true
    while try reader.nextElement(first: &first) {
      let entryValue = try reader.readValue(depth: 3)
      let (entry, instant) = entry(entryValue)
      if let instant {
        if let previous, instant.instant < previous.instant {
          error(
            at: instant.position,
            "entry at '\(Diagnostic.excerpt(instant.text))' is earlier than the entry before it at '\(Diagnostic.excerpt(previous.text))' (line \(previous.position.line))",
            notes: ["entries are in the order they happened: move this entry up, or correct its instant"])
        }
        previous = instant
      }
      guard let entry else { continue }
      timeline.entries.append(entry)
      locations.append(location(entryValue.position))
    }
  }

  /// An entry's instant as written, read, and where.
  struct ReadInstant {
    var text: String
    var position: JSONPosition
    var instant: SimulationInstant
    var offsetSeconds: Int
  }

  /// One entry object (nil after reporting its problems), and its instant
  /// whenever that could be read, for the order check.
  private mutating func entry(_ value: JSONValue) -> (TimelineEntry?, ReadInstant?) {
    guard let members = members(value, what: "an entry", allowed: Self.entryKeys) else { return (nil, nil) }
    var valid = true
    for key in Self.entryKeys where members[key] == nil {
      error(at: value.position, "missing '\(key)' in an entry", notes: ["each entry has \(Self.entryKeys.map { "'\($0)'" }.joined(separator: ", "))"])
      valid = false
    }
    var instant: ReadInstant?
    if let instantValue = members["instant"], let text = string(instantValue, what: "'instant'"),
      let parsed = parseInstant(text, at: instantValue.position, what: "'instant'")
    {
      instant = ReadInstant(text: text, position: instantValue.position, instant: parsed.instant, offsetSeconds: parsed.offsetSeconds)
    }
    if let utcValue = members["utc"], let text = string(utcValue, what: "'utc'") {
      if let utc = parseInstant(text, at: utcValue.position, what: "'utc'") {
        if let instant, utc.instant != instant.instant {
          error(
            at: utcValue.position, "'utc' '\(Diagnostic.excerpt(text))' is not the same instant as 'instant' '\(Diagnostic.excerpt(instant.text))'",
            notes: ["'instant' in UTC is '\(instant.instant)'; correct one of them"])
          valid = false
        }
      } else {
        valid = false
      }
    } else {
      valid = false
    }
    var kind: TimelineEntry.Kind?
    if let kindValue = members["kind"], let text = string(kindValue, what: "'kind'") {
      kind = TimelineEntry.Kind(rawValue: text)
      if kind == nil {
        error(at: kindValue.position, "unknown kind '\(Diagnostic.excerpt(text))'", notes: ExpectedTimelineSyntax.notesForUnknownKind(text))
      }
    }
    let subject = members["subject"].flatMap { string($0, what: "'subject'") }
    let fields = members["fields"].flatMap { self.fields($0, what: "'fields'", kind: kind) }
    guard valid, let instant, let kind, let subject, let fields else { return (nil, instant) }
    let entry = TimelineEntry(instant: instant.instant, utcOffsetSeconds: instant.offsetSeconds, kind: kind, subject: subject, fields: fields)
    return (entry, instant)
  }

  private mutating func parseInstant(_ text: String, at position: JSONPosition, what: String) -> (instant: SimulationInstant, offsetSeconds: Int)? {
    switch ExpectedInstant.parse(text) {
    case .success(let value): return value
    case .failure(let problem):
      error(at: position, "\(what) '\(Diagnostic.excerpt(text))' \(problem.message)", notes: problem.notes)
      return nil
    }
  }

  /// An object's members by key after reporting unknown and repeated keys
  /// (the first of repeated members is used).
  private mutating func members(_ value: JSONValue, what: String, allowed: [String]) -> [String: JSONValue]? {
    guard case .object(let list) = value.content else {
      error(at: value.position, "\(what) must be an object, not \(value.described)")
      return nil
    }
    var members: [String: JSONValue] = [:]
    var positions: [String: JSONPosition] = [:]
    for member in list {
      guard allowed.contains(member.key) else {
        error(
          at: member.keyPosition, "unknown key '\(Diagnostic.excerpt(member.key))' in \(what)",
          notes: Self.notesForUnknownKey(member.key, in: what, allowed: allowed))
        continue
      }
      if let earlier = positions[member.key] {
        reportRepeatedKey(member.key, at: earlier)
        continue
      }
      members[member.key] = member.value
      positions[member.key] = member.keyPosition
    }
    return members
  }

  /// An object of string values, in the file's order (header and fields).
  /// With the entry's `kind`, a field `TimelineFieldType` types may also be
  /// its typed JSON value, read back as the timeline text it stands for.
  private mutating func fields(_ value: JSONValue, what: String, kind: TimelineEntry.Kind? = nil) -> [TimelineField]? {
    guard case .object(let list) = value.content else {
      error(at: value.position, "\(what) must be an object of strings, not \(value.described)")
      return nil
    }
    var fields: [TimelineField] = []
    var positions: [String: JSONPosition] = [:]
    var valid = true
    for member in list {
      if let earlier = positions[member.key] {
        reportRepeatedKey(member.key, at: earlier)
        valid = false
        continue
      }
      positions[member.key] = member.keyPosition
      if let kind, let type = TimelineFieldType.of(kind: kind, key: member.key) {
        if case .string(let text) = member.value.content {
          fields.append(TimelineField(member.key, text))
        } else if let text = typedText(member.value, type: type, kind: kind, key: member.key) {
          fields.append(TimelineField(member.key, text))
        } else {
          valid = false
        }
        continue
      }
      guard let text = string(member.value, what: "'\(Diagnostic.excerpt(member.key))' in \(what)") else {
        valid = false
        continue
      }
      fields.append(TimelineField(member.key, text))
    }
    return valid ? fields : nil
  }

  /// The timeline text a typed field value stands for (`TimelineFieldType`),
  /// after reporting a value of another type.
  private mutating func typedText(_ value: JSONValue, type: TimelineFieldType, kind: TimelineEntry.Kind, key: String) -> String? {
    let field = "'\(key)' of a '\(kind.rawValue)' entry"
    switch (type, value.content) {
    case (.integer, .number(let text)):
      if TimelineFieldType.canonicalInteger(text) != nil { return text }
      error(at: value.position, "\(field) must be a whole number, not \(value.described)", notes: ["write it like 3, without a fraction or exponent"])
      return nil
    case (.boolean, .bool(let flag)):
      return type.text(of: flag)
    case (.followUp, .object(let members)):
      var numbers: [String: String] = [:]
      for member in members {
        guard member.key == "step" || member.key == "of", numbers[member.key] == nil,
          case .number(let text) = member.value.content, TimelineFieldType.canonicalInteger(text) != nil
        else { break }
        numbers[member.key] = text
      }
      if let step = numbers["step"], let count = numbers["of"], members.count == 2 { return "\(step)/\(count)" }
      error(at: value.position, "\(field) must be {\"step\": N, \"of\": M} with whole numbers", notes: ["write it like {\"step\": 2, \"of\": 10}, or as the string \"2/10\""])
      return nil
    default:
      let expected: String
      switch type {
      case .integer: expected = "a whole number"
      case .boolean: expected = "true or false"
      case .followUp: expected = "{\"step\": N, \"of\": M}"
      }
      error(at: value.position, "\(field) must be \(expected) or a string, not \(value.described)")
      return nil
    }
  }

  /// A key written twice in one object: reported at its first occurrence.
  private mutating func reportRepeatedKey(_ key: String, at first: JSONPosition) {
    error(
      at: first, "key '\(Diagnostic.excerpt(key))' appears more than once in an object",
      notes: ["a JSON object holds each key once; remove or rename the repeated one"])
  }

  /// A JSON string's text, after reporting any other value.
  private mutating func string(_ value: JSONValue, what: String) -> String? {
    guard case .string(let text) = value.content else {
      error(at: value.position, "\(what) must be a string, not \(value.described)", notes: ["JSON strings are in double quotes"])
      return nil
    }
    return text
  }

  /// "did you mean" when a key is close to one allowed, then every allowed key.
  static func notesForUnknownKey(_ key: String, in what: String, allowed: [String]) -> [String] {
    var notes: [String] = []
    if let suggestion = NameSuggestion.closest(to: key, among: allowed) { notes.append("did you mean '\(suggestion)'?") }
    notes.append("\(what) has: \(allowed.joined(separator: ", "))")
    return notes
  }
}
