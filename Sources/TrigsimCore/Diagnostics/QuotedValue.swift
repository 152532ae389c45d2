/// A user's value as a message quotes it: short, on one line, and shown as
/// written, so a 1 GB field or a value full of control characters can never
/// flood or garble standard error.
public enum QuotedValue {
  /// The most Unicode scalars of a value a message shows (columns count
  /// scalars too); a longer value is cut there and ends with "…".
  public static let maximumCharacters = 40

  /// `value` cut after `maximumCharacters` Unicode scalars with "…"
  /// appended when it was longer, and every control character (U+0000–U+001F,
  /// U+007F–U+009F, and the line and paragraph separators U+2028, U+2029)
  /// written as an escape: `\n`, `\r`, `\t`, or `\u{1B}`. An escape counts as
  /// one scalar. Only the scalars shown are read, so a 1 GB value costs no
  /// more than a short one.
  public static func cut(_ value: some StringProtocol) -> String {
    var result = String.UnicodeScalarView()
    var shown = 0
    for scalar in value.unicodeScalars {
      if shown == maximumCharacters {
        result.append("…")
        break
      }
      shown += 1
      if isControl(scalar) { result.append(contentsOf: escaped(scalar).unicodeScalars) } else { result.append(scalar) }
    }
    return String(result)
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
  }

  private static func escaped(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    default:
      return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
  }
}
