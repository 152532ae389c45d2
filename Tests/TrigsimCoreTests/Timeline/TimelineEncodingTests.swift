import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// Every format is its opening, each entry, and its closing: the pieces a
/// streamed output writes one by one make the in-memory document.
@Suite struct TimelineEncodingTests {
  static let entry = TimelineEntry(
    instant: Build.instant("2026-03-28T07:00:00Z"), utcOffsetSeconds: 3600, kind: .fired, subject: "pills",
    fields: [TimelineField("title", "Morning pills")])

  @Test func theDocumentIsTheOpeningTheEntriesAndTheClosing() {
    let timeline = Timeline(header: [TimelineField("scenario", "s")], entries: [Self.entry, Self.entry])
    var summary = RunSummary()
    summary.pendingPeak = 2
    for encoding in TimelineEncoding.allCases {
      let pieces = encoding.opening(header: timeline.header) + encoding.entry(Self.entry, at: 0) + encoding.entry(Self.entry, at: 1)
        + encoding.closing(entryCount: 2, summary: summary)
      #expect(encoding.document(timeline, summary: summary) == pieces, "\(encoding)")
    }
  }

  @Test func theInMemoryRenderingsAreTheEncodingsDocuments() {
    let timeline = Timeline(header: [TimelineField("scenario", "s")], entries: [Self.entry])
    #expect(timeline.canonicalText == "# trigsim timeline 1\n# scenario: s\n2026-03-28T08:00:00.000+01:00 fired       pills title=\"Morning pills\"\n")
    #expect(timeline.jsonLines == Self.entry.json + "\n")
    #expect(timeline.csv == "instant,utc,kind,subject,fields\r\n2026-03-28T08:00:00.000+01:00,2026-03-28T07:00:00.000Z,fired,pills,\"title=\"\"Morning pills\"\"\"\r\n")
    #expect(TimelineEncoding.json.document(Timeline()) == "{\n  \"format\": \"trigsim-timeline-2\",\n  \"header\": {},\n  \"entries\": []\n}\n")
  }

  @Test func entriesInJSONAreSeparatedByTheirIndex() {
    #expect(TimelineEncoding.json.entry(Self.entry, at: 0) == "\n    " + Self.entry.json)
    #expect(TimelineEncoding.json.entry(Self.entry, at: 1) == ",\n    " + Self.entry.json)
    #expect(Self.entry.json.contains("\"utc\": \"2026-03-28T07:00:00.000Z\""))
  }

  /// The quoting rule: quotes for a space, `"`, `=`, `\`, control characters
  /// and any Unicode whitespace; none for other characters. Control and
  /// format characters but tab, LF and CR are written `\u{HEX}`
  /// (`ControlCharacterEscape`; issue 27: ESC, BEL and NUL reached the
  /// timeline raw).
  @Test(arguments: [
    ("plain", "plain"), ("", "\"\""), ("a b", "\"a b\""), ("a=b", "\"a=b\""), ("a\"b", "\"a\\\"b\""), ("a\\b", "\"a\\\\b\""),
    ("a\tb", "\"a\\tb\""), ("a\u{1}b", "\"a\\u{1}b\""), ("a\u{7F}b", "\"a\\u{7F}b\""), ("a\u{A0}b", "\"a\u{A0}b\""),
    ("a\u{2028}b", "\"a\\u{2028}b\""), ("a\u{3000}b", "\"a\u{3000}b\""), ("Åbenrå", "Åbenrå"), ("a\r\nb", "\"a\\r\\nb\""),
    ("\u{1B}[2J\u{7}\0", "\"\\u{1B}[2J\\u{7}\\u{0}\""), ("a\u{202E}b", "\"a\\u{202E}b\""),
  ])
  func valuesAreQuotedByTheRule(value: String, written: String) {
    #expect(TimelineEntry.quoteIfNeeded(value) == written)
  }

  /// JSON strings escape `"`, `\` and control characters, and copy everything else.
  @Test(arguments: [
    ("plain", "\"plain\""), ("", "\"\""), ("a\"b", "\"a\\\"b\""), ("a\\b", "\"a\\\\b\""), ("a\nb\r\t", "\"a\\nb\\r\\t\""),
    ("a\u{1}b", "\"a\\u0001b\""), ("a\u{1F}", "\"a\\u001f\""), ("Åbenrå ✓", "\"Åbenrå ✓\""), ("Å\"", "\"Å\\\"\""),
  ])
  func jsonStringsEscapeByTheRule(value: String, written: String) {
    #expect(JSONText.string(value) == written)
  }

  /// CSV fields are quoted for a comma, a quote or any line break, and only then.
  @Test(arguments: [
    ("plain text", "plain text"), ("a,b", "\"a,b\""), ("a\"b", "\"a\"\"b\""), ("a\nb", "\"a\nb\""), ("a\r\nb", "\"a\r\nb\""),
    ("a\u{2028}b", "\"a\u{2028}b\""), ("a\u{85}b", "\"a\u{85}b\""), ("a\tb", "a\tb"), ("Åbenrå", "Åbenrå"),
  ])
  func csvFieldsAreQuotedByTheRule(value: String, written: String) {
    #expect(Timeline.csvField(value) == written)
  }
}
