/// Input text shown inside a diagnostic message, so that a message never
/// echoes more of a file than a reader needs to find the mistake.
///
/// The rule, for every reader that quotes what it read (a value, a header
/// name, a time):
/// - at most `Diagnostic.quoteLimit` (40) Unicode scalars of the value are
///   shown, between single quotes; a longer value is cut there and ends with
///   `…` inside the quotes (`'xxxx…'`);
/// - control characters (Unicode category Cc: NUL, tab, line breaks, escape,
///   DEL, C1 controls), invisible format characters (category Cf, such as
///   the bidirectional overrides U+202E and U+2066–U+2069) and line or
///   paragraph separators are shown escaped: `\t`, `\n`, `\r`, `\0` or
///   `\u{1B}`; each escape counts as one scalar towards the limit;
/// - bytes that are not UTF-8 (with `quote(utf8:)`) are shown as `\xFF`,
///   one escape per byte, each counting as one scalar.
///
/// So a quoted value is at most 40 scalars of what the user wrote, never a
/// whole file, and it cannot move the terminal's cursor or reorder the text
/// around it.
extension Diagnostic {
  /// The most Unicode scalars of a value a message shows.
  public static let quoteLimit = 40

  /// The most Unicode scalars of a file path a message shows: a path a
  /// scenario names is shown whole up to this length (paths are longer than
  /// values and their end matters), and cut like a value beyond it.
  public static let pathQuoteLimit = 256

  /// `text` between single quotes, cut and escaped as the rule above says.
  public static func quote(_ text: some StringProtocol) -> String { "'" + excerpt(text) + "'" }

  /// A path a scenario names, between single quotes: escaped as the rule
  /// above says and cut after `pathQuoteLimit` scalars.
  public static func quotePath(_ path: some StringProtocol) -> String {
    var quoted = QuotedValueBuilder(limit: pathQuoteLimit)
    for scalar in path.unicodeScalars {
      if !quoted.append(scalar) { break }
    }
    return "'" + quoted.finish() + "'"
  }

  /// UTF-8 bytes between single quotes, cut and escaped as the rule above
  /// says; bytes that do not decode are escaped one by one (`\xC3`). Looks at
  /// no more bytes than the limit needs.
  public static func quote(utf8 bytes: some Collection<UInt8>) -> String { "'" + excerpt(utf8: bytes) + "'" }

  /// What `quote` puts between the quotes, for a value shown in other
  /// punctuation (inside backticks, say): cut and escaped the same way.
  public static func excerpt(_ text: some StringProtocol) -> String {
    var quoted = QuotedValueBuilder()
    for scalar in text.unicodeScalars {
      if !quoted.append(scalar) { break }
    }
    return quoted.finish()
  }

  /// What `quote(utf8:)` puts between the quotes.
  public static func excerpt(utf8 bytes: some Collection<UInt8>) -> String {
    var quoted = QuotedValueBuilder()
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    // The parser reports how many bytes an invalid sequence spans; those bytes
    // are replayed from a second iterator so that each is shown.
    var replay = bytes.makeIterator()
    parsing: while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        for _ in 0..<encoded.count { _ = replay.next() }
        if !quoted.append(Unicode.UTF8.decode(encoded)) { break parsing }
      case .error(let length):
        for _ in 0..<length {
          guard let byte = replay.next() else { break }
          if !quoted.appendInvalidByte(byte) { break parsing }
        }
      case .emptyInput:
        break parsing
      }
    }
    return quoted.finish()
  }
}

/// Builds a quoted value one scalar at a time (see `Diagnostic.quote`).
private struct QuotedValueBuilder {
  private let limit: Int
  private var text = ""
  private var shown = 0
  private var cut = false

  init(limit: Int = Diagnostic.quoteLimit) { self.limit = limit }

  /// Adds a scalar; false once the limit is reached (the value is then cut).
  mutating func append(_ scalar: Unicode.Scalar) -> Bool {
    guard reserve() else { return false }
    switch scalar {
    case "\t": text += "\\t"
    case "\n": text += "\\n"
    case "\r": text += "\\r"
    case "\0": text += "\\0"
    default:
      if ControlCharacterEscape.isEscaped(scalar) {
        text += ControlCharacterEscape.escape(scalar)
      } else {
        text.unicodeScalars.append(scalar)
      }
    }
    return true
  }

  /// Adds a byte that is not part of any UTF-8 sequence, as `\xHH`.
  mutating func appendInvalidByte(_ byte: UInt8) -> Bool {
    guard reserve() else { return false }
    let hex = String(byte, radix: 16, uppercase: true)
    text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
    return true
  }

  private mutating func reserve() -> Bool {
    if shown == limit {
      cut = true
      return false
    }
    shown += 1
    return true
  }

  func finish() -> String { cut ? text + "…" : text }
}
