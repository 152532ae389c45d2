import TrigsimCore

/// Text and numbers as they go into SVG and HTML: escaped, and in one fixed
/// form so that identical runs give identical bytes.
enum Markup {
  /// `text` safe inside an element or a quoted attribute (`XMLText.escaped`:
  /// the same rule as every markup trigsim writes).
  static func escaped(_ text: String) -> String { XMLText.escaped(text) }

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
