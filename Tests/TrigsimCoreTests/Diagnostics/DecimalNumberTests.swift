import Testing
import TrigsimCore

/// `DecimalNumber`: the one rule every reader turns written numbers into doubles by.
@Suite struct DecimalNumberTests {
  @Test(arguments: [
    ("12", 12.0), ("-12.5", -12.5), ("+0.5", 0.5), (".5", 0.5), ("12.", 12.0), ("1e3", 1000.0), ("2.5E-4", 0.00025),
    ("1.7976931348623157e308", 1.7976931348623157e308), ("1e-400", 0.0),
  ])
  func decimalsReadAsTheirValue(text: String, value: Double) {
    #expect(DecimalNumber.parse(text) == .success(value))
  }

  /// `Double(_:)` reads each of these as a number (infinity, NaN, hexadecimal) or
  /// they are no number at all; the rule reads none of them.
  @Test(arguments: ["nan", "NaN", "inf", "-inf", "infinity", "0x1p3", "0x10", "1_000", " 12", "12 ", "12m", "", ".", "-", "e5", "1e", "1e+", "1.2.3", "١٢"])
  func everythingElseIsNotADecimal(text: String) {
    #expect(DecimalNumber.parse(text) == .failure(.notADecimal))
  }

  /// Issue 27: `1e400` became infinity, passed `> 0` and trapped in a circle's precondition.
  @Test(arguments: ["1e400", "-1e400", "1.8e308", String(repeating: "9", count: 400)])
  func decimalsBeyondTheLargestDoubleAreTooLarge(text: String) {
    #expect(DecimalNumber.parse(text) == .failure(.tooLarge))
    #expect(DecimalNumber.value(text) == nil)
  }
}
