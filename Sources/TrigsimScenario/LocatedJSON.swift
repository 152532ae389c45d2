import TrigsimCore

// A small hand-written JSON reader. Foundation's JSONSerialization and
// JSONDecoder report no positions (an expected timeline's problems must be
// located at file:line:column), and reading JSON through Yams (libyaml) accepts
// YAML that is not JSON (anchors, aliases, tags, comments) and costs quadratic
// time on large documents. This reader is strict RFC 8259, linear in the size
// of the text, and bounded in nesting depth.

/// Where a JSON value starts: a 1-based line, and a 1-based column counted in
/// Unicode scalars (as `InputLocation` counts). Lines end at LF.
struct JSONPosition: Equatable, Sendable {
  var line: Int
  var column: Int
}

/// A JSON value and the position of its first character.
struct JSONValue: Sendable {
  enum Content: Sendable {
    /// The members in the file's order; a repeated key is kept each time.
    case object([JSONMember])
    case array([JSONValue])
    case string(String)
    /// The number as written (JSON's grammar; never NaN or Infinity).
    case number(String)
    case bool(Bool)
    case null
  }

  var content: Content
  var position: JSONPosition

  /// `'5'`, `'null'`, `'text'` (cut to `Diagnostic.quoteLimit`),
  /// `an object`, `an array`: what a message says was found.
  var described: String {
    switch content {
    case .object: "an object"
    case .array: "an array"
    case .string(let text): "'\(Diagnostic.excerpt(text))'"
    case .number(let text): "'\(Diagnostic.excerpt(text))'"
    case .bool(let value): "'\(value)'"
    case .null: "'null'"
    }
  }
}

/// One `"key": value` member of an object.
struct JSONMember: Sendable {
  var key: String
  var keyPosition: JSONPosition
  var value: JSONValue
}

/// Text that is not JSON, at the position of the first character that shows it.
struct JSONSyntaxError: Error, Sendable {
  var position: JSONPosition
  /// Completes "invalid JSON: ...".
  var message: String
  var notes: [String] = []
}

/// Reads strict RFC 8259 JSON from UTF-8 bytes, knowing the position of every
/// value. A document can be read whole (`readValue`) or member by member and
/// element by element (`openObject`/`nextMember`, `openArray`/`nextElement`),
/// so that a large array is turned into results one element at a time.
///
/// Rules:
/// - Whitespace is space, tab, LF and CR; a leading byte-order mark is skipped.
/// - Strings are in double quotes, without raw control characters (U+0000 to
///   U+001F), with the escapes `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`
///   and `\uXXXX`; a UTF-16 surrogate escape must be a high one followed by
///   a low one.
/// - Numbers follow JSON's grammar (no leading zeros, `+`, `.5`, `NaN` or
///   `Infinity`); literals are `true`, `false` and `null`.
/// - No comments, trailing commas, single quotes, or YAML anchors, aliases
///   and tags; one value per document.
/// - Arrays and objects nest at most `maximumDepth` levels.
///
/// Every byte is looked at a bounded number of times, so reading costs time
/// linear in the text.
struct LocatedJSONReader {
  /// The deepest nesting of arrays and objects read (a trigsim timeline has 4).
  static let maximumDepth = 64

  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  private var line = 1
  /// A byte offset on the current line whose column is known, so columns are
  /// counted once however many positions are asked for.
  private var knownColumnIndex = 0
  private var knownColumn = 1
  private var lineStart = 0

  /// Whether `text` begins as a document of the format a reader expects:
  /// an object (after a byte-order mark and whitespace) with a member
  /// `signature` whose value is a string `accepts` takes, found among its
  /// top-level members read in order, before any syntax error. The members
  /// before it are skipped (checked, not kept). This is the "first bytes"
  /// test of the quoting policy (`ForeignFile`): a file that fails it is
  /// named, never quoted.
  static func beginsAsObject(_ text: String, signature: String, accepts: (String) -> Bool) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var reader = LocatedJSONReader(bytes)
      guard reader.openObject() != nil else { return false }
      var first = true
      do throws(JSONSyntaxError) {
        while let (key, _) = try reader.nextMember(first: &first) {
          guard key == signature else {
            try reader.skipValue(depth: 2)
            continue
          }
          guard case .string(let value) = try reader.readValue(depth: 2).content else { return false }
          return accepts(value)
        }
      } catch {
        return false
      }
      return false
    }
  }

  /// The whole of `text` as one JSON value (nothing but whitespace after it), or the first syntax error.
  static func readDocument(_ text: String) -> Result<JSONValue, JSONSyntaxError> {
    var text = text
    return text.withUTF8 { bytes in
      var reader = LocatedJSONReader(bytes)
      do throws(JSONSyntaxError) {
        let value = try reader.readValue(depth: 1)
        try reader.finish()
        return .success(value)
      } catch {
        return .failure(error)
      }
    }
  }

  /// Reads `bytes`, which must stay valid while the reader is used (valid
  /// UTF-8, as a Swift string's are).
  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      index = 3
      knownColumnIndex = 3
      lineStart = 3
    }
  }

  // MARK: - Positions

  /// The position of byte `offset` (on the current line).
  private mutating func position(at offset: Int) -> JSONPosition {
    if offset < knownColumnIndex {
      knownColumnIndex = lineStart
      knownColumn = 1
    }
    var column = knownColumn
    var scan = knownColumnIndex
    while scan < offset {
      if bytes[scan] & 0xC0 != 0x80 { column += 1 }  // not a UTF-8 continuation byte: a new scalar
      scan += 1
    }
    knownColumnIndex = offset
    knownColumn = column
    return JSONPosition(line: line, column: column)
  }

  /// The position of the next byte to read.
  mutating func currentPosition() -> JSONPosition { position(at: index) }

  private var isAtEnd: Bool { index >= bytes.count }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0D: index += 1
      case 0x0A:
        index += 1
        line += 1
        lineStart = index
        knownColumnIndex = index
        knownColumn = 1
      default: return
      }
    }
  }

  /// Whether only whitespace is left.
  mutating func isAtEndAfterWhitespace() -> Bool {
    skipWhitespace()
    return isAtEnd
  }

  /// Checks that nothing but whitespace follows the document's value.
  mutating func finish() throws(JSONSyntaxError) {
    skipWhitespace()
    guard isAtEnd else {
      throw error("unexpected \(describeNext()) after the end of the document", notes: ["a JSON file holds one value; remove what follows it"])
    }
  }

  // MARK: - Streaming

  /// Consumes `{` and returns its position, or returns nil (consuming
  /// nothing) when the next value is not an object.
  mutating func openObject() -> JSONPosition? {
    skipWhitespace()
    guard !isAtEnd, bytes[index] == UInt8(ascii: "{") else { return nil }
    let start = currentPosition()
    index += 1
    return start
  }

  /// Consumes `[` and returns its position, or returns nil (consuming
  /// nothing) when the next value is not an array.
  mutating func openArray() -> JSONPosition? {
    skipWhitespace()
    guard !isAtEnd, bytes[index] == UInt8(ascii: "[") else { return nil }
    let start = currentPosition()
    index += 1
    return start
  }

  /// The next member's key and its position, after its `:` (its value is
  /// next); nil after the object's closing `}`. `first` is true for the first
  /// call on an object and is then set to false.
  mutating func nextMember(first: inout Bool) throws(JSONSyntaxError) -> (key: String, position: JSONPosition)? {
    skipWhitespace()
    if !isAtEnd, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return nil
    }
    if !first {
      guard !isAtEnd, bytes[index] == UInt8(ascii: ",") else {
        throw error("expected ',' or '}' after a member of an object, found \(describeNext())")
      }
      index += 1
      skipWhitespace()
      if !isAtEnd, bytes[index] == UInt8(ascii: "}") {
        throw error("a trailing comma before '}'", notes: ["remove the comma after the last member"])
      }
    }
    first = false
    guard !isAtEnd, bytes[index] == UInt8(ascii: "\"") else {
      throw error("expected a member name in double quotes, found \(describeNext())", notes: notesForUnexpected())
    }
    let keyPosition = currentPosition()
    let key = try readString(keep: true)
    skipWhitespace()
    guard !isAtEnd, bytes[index] == UInt8(ascii: ":") else {
      throw error("expected ':' after the member name, found \(describeNext())")
    }
    index += 1
    return (key, keyPosition)
  }

  /// Whether another element follows (consuming the `,` before it); false
  /// after the array's closing `]`. `first` works as in `nextMember`.
  mutating func nextElement(first: inout Bool) throws(JSONSyntaxError) -> Bool {
    skipWhitespace()
    if !isAtEnd, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return false
    }
    if !first {
      guard !isAtEnd, bytes[index] == UInt8(ascii: ",") else {
        throw error("expected ',' or ']' after an element of an array, found \(describeNext())")
      }
      index += 1
      skipWhitespace()
      if !isAtEnd, bytes[index] == UInt8(ascii: "]") {
        throw error("a trailing comma before ']'", notes: ["remove the comma after the last element"])
      }
    }
    first = false
    return true
  }

  // MARK: - Values

  /// The next value, whole. `depth` is the nesting level it sits at (the
  /// document's value is at 1).
  mutating func readValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    try value(depth: depth, keep: true)!
  }

  /// Checks the next value's syntax without keeping it.
  mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
    _ = try value(depth: depth, keep: false)
  }

  private mutating func value(depth: Int, keep: Bool) throws(JSONSyntaxError) -> JSONValue? {
    skipWhitespace()
    guard !isAtEnd else { throw error("expected a value, found the end of the file") }
    let start = currentPosition()
    switch bytes[index] {
    case UInt8(ascii: "{"):
      try checkDepth(depth)
      index += 1
      var members: [JSONMember] = []
      var first = true
      while let (key, keyPosition) = try nextMember(first: &first) {
        let member = try value(depth: depth + 1, keep: keep)
        if let member { members.append(JSONMember(key: key, keyPosition: keyPosition, value: member)) }
      }
      return keep ? JSONValue(content: .object(members), position: start) : nil
    case UInt8(ascii: "["):
      try checkDepth(depth)
      index += 1
      var elements: [JSONValue] = []
      var first = true
      while try nextElement(first: &first) {
        if let element = try value(depth: depth + 1, keep: keep) { elements.append(element) }
      }
      return keep ? JSONValue(content: .array(elements), position: start) : nil
    case UInt8(ascii: "\""):
      let text = try readString(keep: keep)
      return keep ? JSONValue(content: .string(text), position: start) : nil
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      let text = try readNumber(keep: keep)
      return keep ? JSONValue(content: .number(text), position: start) : nil
    default:
      let word = readWord()
      switch word {
      case "true": return JSONValue(content: .bool(true), position: start)
      case "false": return JSONValue(content: .bool(false), position: start)
      case "null": return JSONValue(content: .null, position: start)
      case "":
        throw JSONSyntaxError(position: start, message: "expected a value, found \(describeNext())", notes: notesForUnexpected())
      case "NaN", "Infinity":
        throw JSONSyntaxError(position: start, message: "'\(word)' is not a JSON number", notes: ["JSON has no NaN or Infinity; write a finite number or null"])
      default:
        throw JSONSyntaxError(
          position: start, message: "unexpected word '\(Diagnostic.excerpt(word))'",
          notes: ["JSON's words are true, false and null (lower case); put text in double quotes"])
      }
    }
  }

  private mutating func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
    guard depth <= Self.maximumDepth else {
      throw error(
        "arrays and objects are nested more than \(Self.maximumDepth) levels deep",
        notes: ["a trigsim timeline nests 4 levels; this is not one"])
    }
  }

  /// Letters and digits from here (a literal, or a mistake such as `yes`), at most 64.
  private mutating func readWord() -> String {
    let start = index
    while index < bytes.count, index - start < 64 {
      let byte = bytes[index]
      guard (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x5F else { break }
      index += 1
    }
    let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    if word != "true" && word != "false" && word != "null" { index = start }  // errors point at the word's start
    return word
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as written.
  private mutating func readNumber(keep: Bool) throws(JSONSyntaxError) -> String {
    let start = index
    func isDigit(_ offset: Int) -> Bool { offset < bytes.count && (0x30...0x39).contains(bytes[offset]) }
    if bytes[index] == UInt8(ascii: "-") {
      index += 1
      if readWordIsInfinity() {
        throw JSONSyntaxError(position: position(at: start), message: "'-Infinity' is not a JSON number", notes: ["JSON has no NaN or Infinity; write a finite number or null"])
      }
      guard isDigit(index) else { throw error("expected a digit after '-', found \(describeNext())") }
    }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if isDigit(index) {
        throw JSONSyntaxError(position: position(at: start), message: "a number starts with a zero", notes: ["JSON numbers have no leading zeros; write 7, not 07"])
      }
    } else {
      while isDigit(index) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard isDigit(index) else { throw error("expected a digit after the decimal point, found \(describeNext())") }
      while isDigit(index) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard isDigit(index) else { throw error("expected a digit in the exponent, found \(describeNext())") }
      while isDigit(index) { index += 1 }
    }
    return keep ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self) : ""
  }

  private func readWordIsInfinity() -> Bool {
    let word = Array("Infinity".utf8)
    guard index + word.count <= bytes.count else { return false }
    return (0..<word.count).allSatisfy { bytes[index + $0] == word[$0] }
  }

  /// A string from its opening quote to its closing quote, with its escapes
  /// undone (nothing is built when `keep` is false).
  private mutating func readString(keep: Bool) throws(JSONSyntaxError) -> String {
    let opening = index
    index += 1
    // Fast path: no escape. The text between the quotes is valid UTF-8 as it is.
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return keep ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self) : ""
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      index += 1
    }
    var text: [UInt8] = keep ? Array(UnsafeBufferPointer(rebasing: bytes[start..<index])) : []
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return keep ? String(decoding: text, as: UTF8.self) : ""
      case UInt8(ascii: "\\"):
        let scalar = try readEscape()
        if keep { text.append(contentsOf: String(scalar).utf8) }
      case 0x0A:
        throw error("a line break inside a string", notes: ["a JSON string ends on its line: close it with '\"', or write a line break inside it as \\n"])
      case ..<0x20:
        throw error(
          "\(ExpectedTimelineSyntax.describe(Unicode.Scalar(byte))) inside a string", notes: ["write it as an escape: \\t, \\r, or \\u followed by four hex digits"])
      default:
        if keep { text.append(byte) }
        index += 1
      }
    }
    throw JSONSyntaxError(position: position(at: opening), message: "unterminated string", notes: ["close the string with '\"'"])
  }

  /// One escape from its backslash on.
  private mutating func readEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
    let backslash = index
    index += 1
    guard index < bytes.count else { throw error("unterminated string", notes: ["close the string with '\"'"]) }
    let letter = bytes[index]
    index += 1
    switch letter {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let unit = try readHexUnit(escapeStart: backslash)
      if let scalar = Unicode.Scalar(unit) { return scalar }
      guard (0xD800...0xDBFF).contains(unit) else {
        throw JSONSyntaxError(
          position: position(at: backslash), message: "a low surrogate escape without a high one before it",
          notes: ["a character beyond U+FFFF is written as a pair: \\ud83d\\ude00"])
      }
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
        throw JSONSyntaxError(
          position: position(at: backslash), message: "a high surrogate escape without a low one after it",
          notes: ["a character beyond U+FFFF is written as a pair: \\ud83d\\ude00"])
      }
      let lowStart = index
      index += 2
      let low = try readHexUnit(escapeStart: lowStart)
      guard (0xDC00...0xDFFF).contains(low) else {
        throw JSONSyntaxError(
          position: position(at: backslash), message: "a high surrogate escape without a low one after it",
          notes: ["a character beyond U+FFFF is written as a pair: \\ud83d\\ude00"])
      }
      return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
    default:
      index = backslash
      let shown = ExpectedTimelineSyntax.describe(scalar(at: backslash + 1) ?? "?")
      throw error(
        "unknown escape: a backslash before \(shown)",
        notes: ["JSON's escapes are \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\u followed by four hex digits"])
    }
  }

  /// The four hex digits after `\u` (the reader is just past the `u`).
  private mutating func readHexUnit(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
    var unit: UInt32 = 0
    for _ in 0..<4 {
      guard index < bytes.count, let digit = Self.hexValue(bytes[index]) else {
        throw JSONSyntaxError(position: position(at: escapeStart), message: "'\\u' is not followed by four hex digits", notes: ["write a character as \\u00e9"])
      }
      unit = unit << 4 | digit
      index += 1
    }
    return unit
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case 0x30...0x39: UInt32(byte - 0x30)
    case 0x41...0x46: UInt32(byte - 0x41 + 10)
    case 0x61...0x66: UInt32(byte - 0x61 + 10)
    default: nil
    }
  }

  // MARK: - Errors

  private mutating func error(_ message: String, notes: [String] = []) -> JSONSyntaxError {
    JSONSyntaxError(position: currentPosition(), message: message, notes: notes)
  }

  /// The scalar starting at byte `offset`.
  private func scalar(at offset: Int) -> Unicode.Scalar? {
    guard offset < bytes.count else { return nil }
    let end = min(bytes.count, offset + 4)
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self).unicodeScalars.first
  }

  /// What comes next, for messages: `'x'`, `a tab`, `the end of the file`.
  private func describeNext() -> String {
    guard let next = scalar(at: index) else { return "the end of the file" }
    return ExpectedTimelineSyntax.describe(next)
  }

  /// Why the next character cannot start a value or a member name, when it
  /// is a known slip: YAML syntax, a comment, a single quote.
  private func notesForUnexpected() -> [String] {
    guard index < bytes.count else { return [] }
    switch bytes[index] {
    case UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"):
      return ["YAML anchors ('&'), aliases ('*') and tags ('!') are not JSON; write the value out"]
    case UInt8(ascii: "/"), UInt8(ascii: "#"):
      return ["JSON has no comments; remove it"]
    case UInt8(ascii: "'"):
      return ["JSON strings are in double quotes"]
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      return ["remove the comma before it, or add the missing value"]
    default:
      return []
    }
  }
}
