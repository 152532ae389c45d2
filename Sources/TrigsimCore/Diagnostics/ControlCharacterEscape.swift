/// The one rule for control characters in the text trigsim writes: a
/// timeline (text, CSV), the dose table, a diagnostic's quoted value.
///
/// A name or title from a scenario may hold ESC, BEL or NUL (`"\e[2J"` in a
/// YAML double-quoted string), or a bidirectional override. Written raw it
/// would clear or recolour the reader's terminal, ring its bell or reorder
/// the text around it. So every scalar of category Cc (controls: NUL,
/// ESC, DEL, the C1 controls), Cf (invisible format characters such as
/// U+202E and U+2066–U+2069), Zl and Zp (line and paragraph separators) is
/// written as `\u{HEX}` (upper-case hexadecimal, `\u{1B}`), except where a
/// format has a shorter escape of its own (`\n`, `\r`, `\t`). The canonical
/// timeline reader reads `\u{HEX}` back, so an escaped value round-trips.
/// JSON escapes controls by its own rule (`\u001b`), and XML by `XMLText`.
public enum ControlCharacterEscape {
  /// Whether `scalar` is written as an escape (see the rule above).
  @inline(__always)
  public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value < 0x20 || scalar.value == 0x7F { return true }
    if scalar.value < 0xA0 { return scalar.value >= 0x80 }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: return true
    default: return false
    }
  }

  /// `\u{1B}`: the scalar's escape.
  public static func escape(_ scalar: Unicode.Scalar) -> String {
    "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
  }

  /// `text` with every scalar the rule escapes written as `\u{HEX}` (tab,
  /// LF and CR included); `text` itself when it has none.
  public static func escaping(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isEscaped) else { return text }
    var escaped = ""
    for scalar in text.unicodeScalars {
      if isEscaped(scalar) { escaped += escape(scalar) } else { escaped.unicodeScalars.append(scalar) }
    }
    return escaped
  }

  /// The scalar of an escape's hexadecimal digits (`1B` in `\u{1B}`): one to
  /// six digits naming a valid scalar; nil otherwise.
  public static func scalar(hexDigits: some StringProtocol) -> Unicode.Scalar? {
    guard (1...6).contains(hexDigits.count), let value = UInt32(hexDigits, radix: 16) else { return nil }
    return Unicode.Scalar(value)
  }
}
