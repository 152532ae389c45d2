/// The one rule by which every reader of trigsim (the scenario's YAML, a
/// GeoJSON file, a places CSV, a dosage) turns a number written in a file
/// into a `Double`.
///
/// The rule:
/// - the text is a decimal number: an optional sign, digits with an
///   optional fraction (`12`, `12.5`, `.5`, `12.`), and an optional
///   exponent (`1e3`, `2.5E-4`); nothing else, so `nan`, `inf`,
///   `infinity`, hexadecimal (`0x1p3`), `1_000` and surrounding spaces are
///   not numbers;
/// - its value must be finite: a decimal too large for a double (`1e400`,
///   which `Double("1e400")` turns into infinity) is refused as too large,
///   never passed on as infinity. A value too small to tell from zero
///   becomes zero (or the smallest subnormal), as a double does.
///
/// Range checks (a radius above 0 m, a latitude within ±90°) come after this
/// rule, each at its field.
public enum DecimalNumber {
  /// Why a text is not a usable number.
  public enum Problem: Error, Equatable, Sendable {
    /// The text is not a decimal number (`nan`, `inf`, `0x10`, `12 m`).
    case notADecimal
    /// A decimal whose value is beyond the largest double (about 1.8e308).
    case tooLarge
  }

  /// The value of `text` under the rule above.
  public static func parse(_ text: some StringProtocol) -> Result<Double, Problem> {
    guard isDecimal(text.utf8) else { return .failure(.notADecimal) }
    guard let value = Double(String(text)) else { return .failure(.notADecimal) }
    guard value.isFinite else { return .failure(.tooLarge) }
    return .success(value)
  }

  /// The value of `text`, or nil when `parse` finds a problem.
  public static func value(_ text: some StringProtocol) -> Double? { try? parse(text).get() }

  /// What a message says after "… must be a number, not '…'" when the
  /// problem is `tooLarge`: the note that tells what to do.
  public static let tooLargeNote = "numbers are at most about 1.8e308; use a value that fits the field"

  /// Whether `bytes` follow the decimal grammar: `[+-]? (D+ (. D*)? | . D+) ([eE] [+-]? D+)?`.
  static func isDecimal(_ bytes: some Collection<UInt8>) -> Bool {
    var index = bytes.startIndex
    func digits() -> Int {
      var count = 0
      while index != bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        count += 1
        index = bytes.index(after: index)
      }
      return count
    }
    func take(_ choices: UInt8...) -> Bool {
      guard index != bytes.endIndex, choices.contains(bytes[index]) else { return false }
      index = bytes.index(after: index)
      return true
    }
    _ = take(UInt8(ascii: "+"), UInt8(ascii: "-"))
    var mantissaDigits = digits()
    if take(UInt8(ascii: ".")) { mantissaDigits += digits() }
    guard mantissaDigits > 0 else { return false }
    if take(UInt8(ascii: "e"), UInt8(ascii: "E")) {
      _ = take(UInt8(ascii: "+"), UInt8(ascii: "-"))
      guard digits() > 0 else { return false }
    }
    return index == bytes.endIndex
  }
}
