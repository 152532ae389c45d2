import Testing
import TrigsimCore

@Suite struct QuotedValueTests {
  @Test func aShortValueIsShownAsWritten() {
    #expect(QuotedValue.cut("Morning pills") == "Morning pills")
    #expect(QuotedValue.cut("") == "")
    #expect(QuotedValue.cut("é😀 Ω") == "é😀 Ω")
  }

  @Test func aValueOfExactlyTheLimitIsNotCut() {
    let exact = String(repeating: "x", count: QuotedValue.maximumCharacters)
    #expect(QuotedValue.cut(exact) == exact)
  }

  @Test func aLongerValueIsCutAtTheLimitWithAnEllipsis() {
    #expect(QuotedValue.maximumCharacters == 40)
    let long = String(repeating: "abcd", count: 20)
    #expect(QuotedValue.cut(long) == String(long.prefix(40)) + "…")
    #expect(QuotedValue.cut(long[...]) == String(long.prefix(40)) + "…")
  }

  @Test func controlCharactersAndLineSeparatorsAreEscaped() {
    #expect(QuotedValue.cut("a\nb\rc\td") == #"a\nb\rc\td"#)
    #expect(QuotedValue.cut("\u{1B}[31mred\u{7F}\u{85}\u{2028}") == #"\u{1B}[31mred\u{7F}\u{85}\u{2028}"#)
    #expect(QuotedValue.cut("\0") == #"\u{0}"#)
  }

  @Test func anEscapeCountsAsOneScalarTowardsTheLimit() {
    let value = String(repeating: "\n", count: 41)
    #expect(QuotedValue.cut(value) == String(repeating: #"\n"#, count: 40) + "…")
  }

  /// A 1 GB field must not reach standard error: the cut reads only what it
  /// shows. 50 MB here (built once) stands for it.
  @Test func aHugeValueIsCutToTheLimit() {
    let huge = String(repeating: "0123456789", count: 5_000_000)
    #expect(QuotedValue.cut(huge).unicodeScalars.count == 41)
  }
}
