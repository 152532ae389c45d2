import Testing
import TrigsimCore

@Suite struct QuotedValueTests {
  @Test func aShortValueIsQuotedAsItIs() {
    #expect(Diagnostic.quote("abc") == "'abc'")
    #expect(Diagnostic.quote("") == "''")
    #expect(Diagnostic.quote("smørrebrød") == "'smørrebrød'")
  }

  @Test func fortyScalarsAreShownWholeAndFortyOneAreCut() {
    let forty = String(repeating: "a", count: Diagnostic.quoteLimit)
    #expect(Diagnostic.quote(forty) == "'\(forty)'")
    #expect(Diagnostic.quote(forty + "b") == "'\(forty)…'")
    #expect(Diagnostic.quote(String(repeating: "ø", count: 1_000_000)) == "'\(String(repeating: "ø", count: 40))…'")
  }

  @Test func controlAndFormatCharactersAreEscaped() {
    #expect(Diagnostic.quote("a\tb\nc\rd\0e") == "'a\\tb\\nc\\rd\\0e'")
    #expect(Diagnostic.quote("\u{1B}[31mred\u{7F}\u{85}") == "'\\u{1B}[31mred\\u{7F}\\u{85}'")
    #expect(Diagnostic.quote("abc\u{202E}def\u{2066}\u{2028}") == "'abc\\u{202E}def\\u{2066}\\u{2028}'")
  }

  @Test func anEscapeCountsAsOneScalar() {
    let value = String(repeating: "\n", count: 41)
    #expect(Diagnostic.quote(value) == "'\(String(repeating: "\\n", count: 40))…'")
  }

  @Test func bytesThatAreNotUTF8AreEscapedOneByOne() {
    #expect(Diagnostic.quote(utf8: [0x61, 0xFF, 0xC3, 0xA9, 0xC3, 0x62, 0x00]) == "'a\\xFFé\\xC3b\\0'")
    #expect(Diagnostic.quote(utf8: [0xE2, 0x82]) == "'\\xE2\\x82'")
    #expect(Diagnostic.quote(utf8: [UInt8](repeating: 0xFF, count: 100)) == "'\(String(repeating: "\\xFF", count: 40))…'")
  }

  @Test func anExcerptIsTheQuoteWithoutItsQuotes() {
    #expect(Diagnostic.excerpt(String(repeating: "z", count: 50)) == String(repeating: "z", count: 40) + "…")
    #expect(Diagnostic.excerpt(utf8: Array("x\u{1B}".utf8)) == "x\\u{1B}")
  }

  /// A 1 GB field must not reach standard error, nor cost its size: the cut
  /// reads only what it shows. 50 MB here (built once) stands for it.
  @Test func aHugeValueIsCutToTheLimit() {
    let huge = String(repeating: "0123456789", count: 5_000_000)
    #expect(Diagnostic.excerpt(huge).unicodeScalars.count == Diagnostic.quoteLimit + 1)
  }

  @Test func aPathIsShownWholeUpTo256ScalarsAndCutBeyond() {
    let path = "/home/ci/" + String(repeating: "d", count: 247)
    #expect(path.unicodeScalars.count == Diagnostic.pathQuoteLimit)
    #expect(Diagnostic.quotePath(path) == "'" + path + "'")
    #expect(Diagnostic.quotePath(path + "x") == "'" + path + "…'")
    #expect(Diagnostic.quotePath("a\nb") == #"'a\nb'"#)
  }
}
