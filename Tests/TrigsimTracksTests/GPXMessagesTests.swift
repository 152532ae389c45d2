import Testing
import TrigsimCore

@testable import TrigsimTracks

@Suite struct GPXMessagesTests {
  func quote(_ bytes: [UInt8], cut: Bool = false) -> String {
    bytes.withUnsafeBufferPointer { GPXMessages.quote($0, cut: cut) }
  }

  @Test func shortValuesAreQuotedWhole() {
    #expect(quote(Array("  12.5 \n".utf8)) == "12.5")
  }

  @Test func longValuesAreCutToTheLimitWithAnEllipsis() {
    let text = String(repeating: "é", count: 100)
    #expect(quote(Array(text.utf8)) == String(repeating: "é", count: Diagnostic.quoteLimit) + "…")
  }

  @Test func aValueKnownToBeCutEndsInAnEllipsisAndNoBrokenCharacter() {
    // "é" is two bytes: the last one is cut in half.
    var bytes = Array("ab".utf8) + Array("é".utf8)
    bytes.removeLast()
    #expect(quote(bytes, cut: true) == "ab…")
  }

  @Test func controlCharactersAreEscapedAsEveryReaderQuotes() {
    #expect(quote(Array("a\nb\tc".utf8) + [0x01]) == #"a\nb\tc\u{1}"#)
  }

  @Test func bytesThatAreNotUTF8AreNeverQuotedRaw() {
    let quoted = quote([0x61, 0xD3, 0x62])
    #expect(quoted == #"a\xD3b"#)
  }

  @Test func commonLibxml2ErrorsAreNamedInWords() {
    let error = LibXML2Error(code: 76, domain: 1, message: "Opening and ending tag mismatch: trkpt line 3 and trkseg")
    #expect(GPXMessages.describe(.libxml2(error)).message
      == "the file is not well-formed XML: closing tag does not match the opening tag (libxml2 error 76)")
  }

  @Test func otherLibxml2ErrorsQuoteLibxml2sMessage() {
    let error = LibXML2Error(code: 74, domain: 1, message: "expected '</'")
    #expect(GPXMessages.describe(.libxml2(error)).message == "the file is not well-formed XML: expected '</' (libxml2 error 74)")
  }
}
