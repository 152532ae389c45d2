/// Text and numbers as they go into SVG and HTML: escaped, and in one fixed
/// form so that identical runs give identical bytes.
enum Markup {
  /// `text` safe inside an element or a double-quoted attribute: `&`, `<`,
  /// `>`, `"` and `'` as entities; control characters other than tab and
  /// line feed (which XML 1.0 forbids) as U+FFFD.
  static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      case "\t", "\n": result.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
          result += "\u{FFFD}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

  /// A pixel value to one decimal place, without a trailing `.0` and without
  /// a negative zero: `12`, `12.5`, `-3.2`. Values beyond ±1e9 are clamped
  /// (never reached by a drawing, but never a non-number either).
  static func px(_ value: Double) -> String {
    let clamped = value.isFinite ? min(max(value, -1e9), 1e9) : 0
    let tenths = Int((clamped * 10).rounded())
    if tenths == 0 { return "0" }
    let sign = tenths < 0 ? "-" : ""
    let magnitude = abs(tenths)
    let whole = magnitude / 10, fraction = magnitude % 10
    return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
  }
}
