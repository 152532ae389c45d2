/// Text as it goes into XML (the JUnit report) and into HTML and SVG (the
/// report): one escaping rule for every writer of markup.
public enum XMLText {
  /// Text safe in XML 1.0 content and attribute values: the five markup
  /// characters escaped, and characters XML 1.0 forbids (controls other than
  /// tab, newline and carriage return; U+FFFE and U+FFFF) replaced by U+FFFD.
  public static func escaped(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&apos;"
      case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        escaped += "\u{FFFD}"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}
