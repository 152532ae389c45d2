import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// One diagnostic an expected-timeline test pins: where (a `MarkedText`
/// marker), the exact message and the exact notes.
struct PinnedDiagnostic: Sendable {
  var marker: String
  var message: String
  var notes: [String]

  init(_ marker: String, _ message: String, notes: [String]) {
    self.marker = marker
    self.message = message
    self.notes = notes
  }
}

/// Reading expected timelines back: the round trip of both formats, what is
/// accepted, and every malformed case located at `file:line:column`.
@Suite struct ExpectedTimelineReaderTests {
  typealias Pinned = PinnedDiagnostic

  // MARK: - Helpers

  static let textFile = "e.timeline"
  static let jsonFile = "e.json"

  /// The format line and one header line.
  static let head = "# trigsim timeline 1\n# scenario: test\n"
  static let allKinds =
    "choose one of: scheduled, replaced, rescheduled, fired, enter, exit, detected, undetected, removed, dropped, warning, timezone, medicine, app, action, cleared, suppressed, gap, presented, held, looked, focus, power, network, settings, preferences, badge, sent, stored, discarded, received, filtered, regions, alarm, work, server, sms, email, inbox"
  static let instantNote = "write it like 2026-03-28T08:00:00.000+01:00"
  static let quoteNote =
    #"quote a value that holds spaces, quotes, '=', backslashes, tabs, line breaks or control characters, writing a quote inside it as \" and a backslash as \\: "Morning \"pills\"""#
  static let recordNote = "make an expected timeline with 'trigsim record scenario.yaml'"
  static let makeJSONNote = "make one with 'trigsim run scenario.yaml --format json --output NAME.json'"

  static func file(for format: ExpectedTimelineFormat) -> String { format == .json ? jsonFile : textFile }

  func read(_ text: String, _ format: ExpectedTimelineFormat = .text) throws -> ExpectedTimeline {
    try ExpectedTimelineReader().read(text: text, file: Self.file(for: format), format: format)
  }

  /// The diagnostics of marked text that must be rejected.
  func diagnostics(_ marked: String, _ format: ExpectedTimelineFormat, sourceLocation: SourceLocation = #_sourceLocation)
    -> (MarkedText, [Diagnostic])
  {
    let text = MarkedText(marked)
    do {
      _ = try read(text.text, format)
      Issue.record("expected the timeline to be rejected", sourceLocation: sourceLocation)
      return (text, [])
    } catch let error as InputError {
      return (text, error.diagnostics)
    } catch {
      Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
      return (text, [])
    }
  }

  /// The diagnostics of unmarked text that must be rejected (large inputs:
  /// `MarkedText` looks for markers at every character).
  func rejected(_ text: String, _ format: ExpectedTimelineFormat, sourceLocation: SourceLocation = #_sourceLocation) -> [Diagnostic] {
    do {
      _ = try read(text, format)
      Issue.record("expected the timeline to be rejected", sourceLocation: sourceLocation)
      return []
    } catch let error as InputError {
      return error.diagnostics
    } catch {
      Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
      return []
    }
  }

  /// The diagnostics are exactly `expected`, in order: location, message and notes.
  func assertDiagnostics(_ marked: String, _ expected: [Pinned], sourceLocation: SourceLocation = #_sourceLocation) {
    assertDiagnostics(marked, .text, expected, sourceLocation: sourceLocation)
  }

  func assertDiagnostics(
    _ marked: String, _ format: ExpectedTimelineFormat, _ expected: [Pinned], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let (text, found) = diagnostics(marked, format, sourceLocation: sourceLocation)
    #expect(found.count == expected.count, "found:\n\(found.map(\.description).joined(separator: "\n"))", sourceLocation: sourceLocation)
    for (diagnostic, expectation) in zip(found, expected) {
      #expect(
        diagnostic.location == text.location(expectation.marker, file: Self.file(for: format)), "\(expectation.marker): \(diagnostic)",
        sourceLocation: sourceLocation)
      #expect(diagnostic.message == expectation.message, sourceLocation: sourceLocation)
      #expect(diagnostic.notes == expectation.notes, "notes of '\(diagnostic.message)'", sourceLocation: sourceLocation)
      #expect(diagnostic.severity == .error, sourceLocation: sourceLocation)
    }
  }

  static func instant(_ text: String) -> SimulationInstant {
    var text = text
    guard case .success(let parsed) = text.withUTF8({ ISO8601DateTime.parse($0) }), let offset = parsed.offsetMilliseconds else {
      fatalError("bad test instant \(text)")
    }
    return SimulationInstant(millisecondsSinceEpoch: parsed.localMilliseconds - offset)
  }

  static let scenarioFolder = RepositoryPaths.scenarios

  static func scenarioFiles(_ suffix: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: scenarioFolder.path)) ?? []
    return names.filter { $0.hasSuffix(suffix) }.sorted()
  }

  // MARK: - Round trip

  @Test(arguments: scenarioFiles(".timeline"))
  func everyReviewedTimelineReadsBackToTheSameBytes(_ name: String) throws {
    let text = try String(contentsOf: Self.scenarioFolder.appendingPathComponent(name), encoding: .utf8)
    let expected = try ExpectedTimelineReader().read(text: text, file: name, format: .text)
    let rendered = expected.timeline.canonicalText
    #expect(rendered == text, "differences (- file, + read back):\n\(TextDiff.lines(expected: text, actual: rendered))")
    // Each entry's location is its own line, at column 1.
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(expected.entryLocations.count == expected.timeline.entries.count)
    for (entry, location) in zip(expected.timeline.entries, expected.entryLocations) {
      #expect(location.file == name && location.column == 1)
      #expect(String(lines[location.line - 1]) == entry.canonicalLine)
    }
  }

  @Test func thereAreReviewedTimelinesToReadBack() {
    #expect(Self.scenarioFiles(".timeline").count >= 5)
    #expect(Self.scenarioFiles(".yaml").count >= 5)
  }

  @Test(arguments: scenarioFiles(".yaml"))
  func everyScenarioRunReadsBackEqualFromJSONAndFromText(_ name: String) throws {
    let scenario: Scenario
    do {
      scenario = try ScenarioLoader().load(path: Self.scenarioFolder.appendingPathComponent(name).path)
    } catch is ScenarioSkipped {
      return  // its track is not checked out here; ScenarioRegressionTests reports it
    }
    let report = try Simulation(scenario).report()

    let fromJSON = try read(report.json, .json)
    #expect(fromJSON.timeline == report.timeline)
    #expect(fromJSON.entryLocations.count == report.timeline.entries.count)
    // The typed JSON is what its schema says.
    #expect(Self.timelineSchema.problems(try JSONTree.parse(report.json)) == [])

    let fromText = try read(report.timeline.canonicalText, .text)
    #expect(fromText.timeline == report.timeline)
  }

  /// Values `quoteIfNeeded` has to quote and escape, header values with line
  /// breaks, and offsets of every shape `InstantFormatter` prints.
  static let trickyTimeline = Timeline(
    header: [
      TimelineField("scenario", "two\nlines and a \\ backslash"),
      TimelineField("carriage", "a\rb"),
      TimelineField("colon", "key: value: more"),
      TimelineField("empty", ""),
      TimelineField("spaces", "  padded  "),
      TimelineField("controls", "\u{1B}[2J bell\u{7} nul\0 override\u{202E} tab\t"),
    ],
    entries: [
      TimelineEntry(instant: instant("1969-12-31T23:59:59.999Z"), utcOffsetSeconds: 0, kind: .timezone, subject: "UTC"),
      TimelineEntry(
        instant: instant("2026-03-28T08:00:00.000+01:00"), utcOffsetSeconds: 3600, kind: .fired, subject: "with space",
        fields: [
          TimelineField("title", "say \"hi\""), TimelineField("path", #"C:\meds\a.txt"#), TimelineField("equation", "a=b"),
          TimelineField("empty", ""), TimelineField("lines", "one\ntwo"), TimelineField("tab", "a\tb"),
          TimelineField("unicode", "café 😀 e\u{301}"), TimelineField("nel", "a\u{85}b"), TimelineField("separator", "a\u{2028}b"),
          TimelineField("control", "a\u{7F}b\u{1}c"), TimelineField("quote-only", "\""), TimelineField("backslash-end", "ends\\"),
          TimelineField("crlf", "a\r\nb"), TimelineField("cr", "a\rb"), TimelineField("no-break", "a\u{A0}b"),
          TimelineField("escape", "\u{1B}[31mred\u{7}\0"), TimelineField("literal", #"\u{1B} as written"#),
        ]),
      // Same instant again: equal instants keep their order.
      TimelineEntry(instant: instant("2026-03-28T08:00:00.000+01:00"), utcOffsetSeconds: -12_600, kind: .enter, subject: ""),
      TimelineEntry(
        instant: instant("2026-03-28T09:00:00.000Z"), utcOffsetSeconds: 1172, kind: .warning, subject: "\"quoted\"",
        fields: [TimelineField("k", "v"), TimelineField("k", "duplicate key")]),
      TimelineEntry(instant: instant("2026-03-28T09:00:00.001Z"), utcOffsetSeconds: -36_000, kind: .gap, subject: "=\\="),
    ])

  @Test func trickyValuesRoundTripThroughText() throws {
    let text = Self.trickyTimeline.canonicalText
    let expected = try read(text, .text)
    #expect(expected.timeline == Self.trickyTimeline)
    #expect(expected.timeline.canonicalText == text)
    #expect(expected.entryLocations.map(\.line) == [8, 9, 10, 11, 12])
    // No raw control character but the line ends reaches the text.
    #expect(!text.unicodeScalars.contains { $0 != "\n" && $0 != "\t" && ControlCharacterEscape.isEscaped($0) })
  }

  @Test func trickyValuesRoundTripThroughJSONExceptDuplicateKeys() throws {
    var timeline = Self.trickyTimeline
    // A JSON object cannot hold a key twice (the reader rejects it), so fields with a repeated key do not survive JSON.
    timeline.entries[3].fields = [TimelineField("k", "v")]
    let expected = try read(timeline.json, .json)
    #expect(expected.timeline == timeline)
    // Each entry object sits on its own line after `"entries": [`, at column 5.
    #expect(expected.entryLocations.map(\.line) == [5, 6, 7, 8, 9])
    #expect(expected.entryLocations.allSatisfy { $0.column == 5 && $0.file == Self.jsonFile })
  }

  // MARK: - What the text reader accepts

  @Test func runsOfSpacesBetweenTokensAndTrailingSpacesAreAccepted() throws {
    let expected = try read(Self.head + "2026-03-28T08:00:00.000+01:00   fired pills     title=\"Morning pills\"   next=x  \n")
    let entry = try #require(expected.timeline.entries.first)
    #expect(entry.kind == .fired && entry.subject == "pills")
    #expect(entry.fields == [TimelineField("title", "Morning pills"), TimelineField("next", "x")])
  }

  @Test func instantOffsetsBecomeTheEntryOffset() throws {
    let expected = try read(
      Self.head + """
        2026-03-28T07:00:00Z fired a
        2026-03-28T08:00:00.5+01:00 fired b
        2026-03-28T03:30:00.500-03:30 fired c
        2026-03-28T07:19:32.500+00:19:32 fired d
        """)
    #expect(expected.timeline.entries.map(\.utcOffsetSeconds) == [0, 3600, -12_600, 1172])
    #expect(
      expected.timeline.entries.map(\.instant) == [
        Self.instant("2026-03-28T07:00:00Z"), Self.instant("2026-03-28T07:00:00.500Z"), Self.instant("2026-03-28T07:00:00.500Z"),
        Self.instant("2026-03-28T07:00:00.500Z"),
      ])
    // Printed back in the canonical form: milliseconds and a numeric offset.
    #expect(expected.timeline.entries[0].localInstant == "2026-03-28T07:00:00.000+00:00")
  }

  @Test func headerValuesAreSplitAtTheFirstColonSpaceAndUnescaped() throws {
    let expected = try read(#"# trigsim timeline 1\#n# clock: 08:00: later\#n# note: a\\b\nc\rd\#n# empty:\#n# blank: \#n"#)
    #expect(
      expected.timeline.header == [
        TimelineField("clock", "08:00: later"), TimelineField("note", "a\\b\nc\rd"), TimelineField("empty", ""), TimelineField("blank", ""),
      ])
    #expect(expected.timeline.entries.isEmpty && expected.entryLocations.isEmpty)
  }

  @Test func missingFinalNewlineAndAByteOrderMarkAreAccepted() throws {
    let expected = try read("\u{FEFF}" + Self.head + "2026-03-28T08:00:00.000+01:00 fired pills")
    #expect(expected.timeline.entries.map(\.subject) == ["pills"])
    #expect(expected.timeline.header == [TimelineField("scenario", "test")])
  }

  @Test func formatFollowsTheFileName() {
    #expect(ExpectedTimelineFormat(path: "scenarios/a.json") == .json)
    #expect(ExpectedTimelineFormat(path: "A.JSON") == .json)
    #expect(ExpectedTimelineFormat(path: "scenarios/a.timeline") == .text)
    #expect(ExpectedTimelineFormat(path: "expected") == .text)
    #expect(ExpectedTimelineFormat(path: "a.json.timeline") == .text)
  }

  // MARK: - Text: the format line

  static let notATimeline = "the file is not a trigsim timeline: its first line is not '# trigsim timeline 1'"
  static let notAJSONTimeline = #"the file is not a trigsim JSON timeline: it does not begin as an object with "format": "trigsim-timeline-2""#

  /// The quoting policy (`ForeignFile`): a file whose first line is not the
  /// format line is named, never quoted, and none of its lines is shown.
  @Test func fileThatIsNotATimelineIsRejectedAtItsFirstLineUnquoted() {
    assertDiagnostics("1️⃣trigsim: 1\nclock: {}\n", [Pinned("1️⃣", Self.notATimeline, notes: [Self.recordNote])])
    let found = rejected("root:x:0:0:SECRET-MARKER:/root:/bin/bash\n", .text)
    #expect(found.map(\.showsSourceLine) == [false])
    #expect(!found.map(\.description).joined().contains("SECRET-MARKER"))
  }

  @Test func jsonInATimelineFileIsRecognised() {
    assertDiagnostics(
      "1️⃣{\"format\": \"trigsim-timeline-1\"}\n",
      [
        Pinned(
          "1️⃣", Self.notATimeline,
          notes: [
            Self.recordNote, "if it is a JSON timeline, name it '*.json'",
          ])
      ])
  }

  @Test func otherFormatVersionIsUnsupported() {
    assertDiagnostics(
      "1️⃣# trigsim timeline 2\n2026-03-28T08:00:00.000+01:00 fird pills\n",
      [
        Pinned(
          "1️⃣", "unsupported timeline format version '2'",
          notes: ["this trigsim reads '# trigsim timeline 1'", "re-record it with 'trigsim record scenario.yaml'"])
      ])
  }

  @Test func emptyFileIsRejected() {
    assertDiagnostics("1️⃣", [Pinned("1️⃣", "the timeline file is empty", notes: [Self.recordNote])])
  }

  // MARK: - Text: lines

  @Test func crlfLineEndsAreReportedOnce() {
    assertDiagnostics(
      "# trigsim timeline 11️⃣\r\n# scenario: test\r\n2026-03-28T08:00:00.000+01:00 fired pills\r\n",
      [
        Pinned(
          "1️⃣", "line ends with a carriage return (CRLF line ends)",
          notes: ["save the file with LF line ends (in git: '*.timeline text eol=lf' in .gitattributes)"])
      ])
  }

  @Test func blankLinesAreErrorsButAMissingFinalNewlineIsNot() {
    assertDiagnostics(
      Self.head + "2026-03-28T08:00:00.000+01:00 fired a\n1️⃣\n2026-03-28T08:00:00.000+01:00 fired b\n2️⃣   \n3️⃣\n",
      [
        Pinned("1️⃣", "blank line", notes: ["an expected timeline has no blank lines; remove it"]),
        Pinned("2️⃣", "blank line", notes: ["an expected timeline has no blank lines; remove it"]),
        Pinned("3️⃣", "blank line", notes: ["an expected timeline has no blank lines; remove it"]),
      ])
  }

  @Test func headerLinesAfterTheEntriesAreReportedOncePerBlock() {
    let notes = [
      "header lines come first, before the first entry; move it up or remove it",
      "a '# summary' block is 'run --summary' output and not part of an expected timeline",
    ]
    assertDiagnostics(
      Self.head + """
        2026-03-28T08:00:00.000+01:00 fired a
        1️⃣# late: header
        # and: another
        2026-03-28T08:00:00.000+01:00 fired b
        2️⃣# again: here
        """,
      [Pinned("1️⃣", "header line after the entries", notes: notes), Pinned("2️⃣", "header line after the entries", notes: notes)])
  }

  @Test func summaryBlockIsReportedOnceAndEndsTheReading() {
    assertDiagnostics(
      Self.head + """
        2026-03-28T08:00:00.000+01:00 fired a
        1️⃣# summary
        # pending peak: 11 at 2026-03-28T07:00:00.000+01:00
        medicine  name       reminder  day         outcome
        1         Metformin  08:00     2026-03-28  unanswered

        """,
      [
        Pinned(
          "1️⃣", "a summary is not part of an expected timeline",
          notes: [
            "'# summary' starts the dose table that 'run --summary' prints after the timeline; remove it and every line after it",
            "an expected timeline holds only the header and the entries",
          ])
      ])
  }

  // MARK: - Text: header lines

  @Test func malformedHeaderLinesPointAtTheirFault() {
    let shape = ["header lines are '# key: value'"]
    assertDiagnostics(
      #"""
      # trigsim timeline 1
      #1️⃣scenario: test
      # 2️⃣scenario=test
      # 3️⃣: test
      # note: a\\b 4️⃣\q c5️⃣\
      """#,
      [
        Pinned("1️⃣", "expected a space after '#' in a header line", notes: shape),
        Pinned("2️⃣", "header line has no ': ' between its key and value", notes: shape),
        Pinned("3️⃣", "header line has an empty key", notes: shape),
        Pinned(
          "4️⃣", #"unknown escape '\q' in a header value"#,
          notes: [#"header values escape a backslash as '\\', a newline as '\n', a carriage return as '\r' and another control character as '\u{1B}'"#]),
        Pinned(
          "5️⃣", #"unknown escape '\' at the end of the line in a header value"#,
          notes: [#"header values escape a backslash as '\\', a newline as '\n', a carriage return as '\r' and another control character as '\u{1B}'"#]),
      ])
  }

  // MARK: - Text: instants

  @Test func instantsMustBeExactAndCarryAnOffset() {
    assertDiagnostics(
      Self.head + """
        1️⃣2026-03-28T08:00:00.000 fired a
        2️⃣2026-03-28T08:00:00.0001+01:00 fired b
        3️⃣2026-02-30T08:00:00.000+01:00 fired c
        4️⃣yesterday fired d
        """,
      [
        Pinned(
          "1️⃣", "instant '2026-03-28T08:00:00.000' has no UTC offset",
          notes: ["an expected timeline gives every instant with its offset: add 'Z' or one like '+01:00'"]),
        Pinned(
          "2️⃣", "instant '2026-03-28T08:00:00.0001+01:00' has more than three fractional-second digits (instants are exact to the millisecond)",
          notes: [Self.instantNote]),
        Pinned("3️⃣", "instant '2026-02-30T08:00:00.000+01:00' is not a valid date and time", notes: [Self.instantNote]),
        Pinned("4️⃣", "instant 'yesterday' is not an ISO 8601 date-time", notes: [Self.instantNote]),
      ])
  }

  @Test func entryThatGoesBackInTimeIsReportedWithThePreviousInstant() {
    assertDiagnostics(
      Self.head + """
        2026-03-28T08:00:00.000+01:00 fired a
        2026-03-28T07:30:00.000Z fired b
        1️⃣2026-03-28T08:29:59.999+02:00 fired c
        """,
      [
        Pinned(
          "1️⃣", "entry at '2026-03-28T08:29:59.999+02:00' is earlier than the entry before it at '2026-03-28T07:30:00.000Z' (line 4)",
          notes: ["entries are in the order they happened: move this line up, or correct its instant"])
      ])
  }

  @Test func entryLineStartingWithASpaceIsRejected() {
    assertDiagnostics(
      Self.head + "1️⃣ 2026-03-28T08:00:00.000+01:00 fired a\n",
      [Pinned("1️⃣", "entry line starts with a space", notes: ["an entry line starts with its instant at column 1"])])
  }

  // MARK: - Text: kind and subject

  @Test func unknownKindIsReportedAtItsColumnWithASuggestion() {
    assertDiagnostics(
      Self.head + "2026-03-28T08:00:00.000+01:00 1️⃣fird        pills\n2026-03-28T08:00:00.000+01:00   2️⃣zzz pills\n",
      [
        Pinned("1️⃣", "unknown kind 'fird'", notes: ["did you mean 'fired'?", Self.allKinds]),
        Pinned("2️⃣", "unknown kind 'zzz'", notes: [Self.allKinds]),
      ])
  }

  @Test func missingKindAndSubjectArePointedAtTheEndOfTheLine() {
    assertDiagnostics(
      Self.head + "2026-03-28T08:00:00.000+01:001️⃣\n2026-03-28T08:00:00.000+01:00 fired   2️⃣\n",
      [
        Pinned("1️⃣", "missing kind after the instant", notes: ["an entry is '<instant> <kind> <subject> key=value ...'"]),
        Pinned(
          "2️⃣", "missing subject after the kind",
          notes: ["an entry is '<instant> <kind> <subject> key=value ...'; the subject is a notification, region, time zone or 'track'"]),
      ])
  }

  @Test func fieldInThePlaceOfTheSubjectIsReported() {
    assertDiagnostics(
      Self.head + "2026-03-28T08:00:00.000+01:00 fired       title1️⃣=\"Morning pills\"\n",
      [
        Pinned(
          "1️⃣", #"'=' inside the unquoted subject 'title="Morning'"#,
          notes: ["the subject comes right after the kind, before the fields", Self.quoteNote])
      ])
  }

  // MARK: - Text: quoting and fields

  @Test func unterminatedQuotesPointAtTheOpeningQuote() {
    let notes = [#"close the value with '"'; write a quote inside it as \""#]
    assertDiagnostics(
      Self.head + """
        2026-03-28T08:00:00.000+01:00 fired 1️⃣"pills
        2026-03-28T08:00:00.000+01:00 fired pills title=2️⃣"Morning pills
        2026-03-28T08:00:00.000+01:00 fired pills title=3️⃣"ends with an escaped quote\\"
        """,
      [
        Pinned("1️⃣", "unterminated quote in the subject", notes: notes),
        Pinned("2️⃣", "unterminated quote in the value of field 'title'", notes: notes),
        Pinned("3️⃣", "unterminated quote in the value of field 'title'", notes: notes),
      ])
  }

  @Test func malformedFieldsPointAtTheirColumn() {
    assertDiagnostics(
      Self.head + """
        2026-03-28T08:00:00.000+01:00 fired pills 1️⃣repeats title=x
        2026-03-28T08:00:00.000+01:00 fired pills 2️⃣="x" title=x
        2026-03-28T08:00:00.000+01:00 fired pills title=3️⃣
        2026-03-28T08:00:00.000+01:00 fired pills ti4️⃣"tle=x
        """,
      [
        Pinned(
          "1️⃣", "field 'repeats' has no '='",
          notes: [#"fields are key=value, separated by spaces; quote a value that holds spaces: title="Morning pills""#]),
        Pinned("2️⃣", "field has an empty key", notes: ["fields are key=value with a name before '='"]),
        Pinned("3️⃣", "field 'title' has no value", notes: [#"write an empty value as title="""#]),
        Pinned(
          "4️⃣", #"'"' inside the field key 'ti"tle'"#,
          notes: [#"a field is key=value with a bare key and the value quoted when needed: title="Morning pills""#]),
      ])
  }

  @Test func quotedValuesAreCheckedCharacterByCharacter() {
    assertDiagnostics(
      Self.head + #"""
        2026-03-28T08:00:00.000+01:00 fired pills title="Morning pills"1️⃣x next=1
        2026-03-28T08:00:00.000+01:00 fired pills title="a 2️⃣\q b"
        2026-03-28T08:00:00.000+01:00 fired pills title=a3️⃣"b"
        2026-03-28T08:00:00.000+01:00 fired "pills"4️⃣"x"
        2026-03-28T08:00:00.000+01:00 fired pills path=C:5️⃣\meds
        """#,
      [
        Pinned(
          "1️⃣", "unexpected 'x' after the closing quote of the value of field 'title'",
          notes: [#"a closing quote ends the value: put a space before the next field, or write a quote inside the value as \""#]),
        Pinned(
          "2️⃣", #"unknown escape '\q' in the value of field 'title'"#,
          notes: [#"inside quotes write \" for a quote, \\ for a backslash, \n for a newline, \r for a carriage return, \t for a tab and \u{1B} for another control character"#]),
        Pinned("3️⃣", #"'"' inside the unquoted value 'a"b"' of field 'title'"#, notes: [Self.quoteNote]),
        Pinned(
          "4️⃣", #"unexpected '"' after the closing quote of the subject"#,
          notes: [#"a closing quote ends the value: put a space before the next field, or write a quote inside the value as \""#]),
        Pinned("5️⃣", #"'\' inside the unquoted value 'C:\meds' of field 'path'"#, notes: [Self.quoteNote]),
      ])
  }

  @Test func tabsInsideBareValuesAreRejected() {
    assertDiagnostics(
      Self.head + "2026-03-28T08:00:00.000+01:00 fired pills1️⃣\ttitle=x\n",
      // The quoted subject shows the tab as an escape (Diagnostic.excerpt).
      [Pinned("1️⃣", #"a tab inside the unquoted subject 'pills\ttitle=x'"#, notes: [Self.quoteNote])])
  }

  @Test func columnsCountUnicodeScalars() {
    // "é" as e + U+0301 is two scalars, "😀" one scalar (two UTF-16 units, four UTF-8 bytes).
    assertDiagnostics(
      Self.head + "2026-03-28T08:00:00.000+01:00 fired \"cafe\u{301} 😀\" title=\"😀\"1️⃣x\n",
      [
        Pinned(
          "1️⃣", "unexpected 'x' after the closing quote of the value of field 'title'",
          notes: [#"a closing quote ends the value: put a space before the next field, or write a quote inside the value as \""#])
      ])
  }

  // MARK: - Text: many problems

  @Test func everyProblemInTheFileIsReportedInFileOrder() {
    let (text, found) = diagnostics(
      Self.head + """
        2026-03-28T08:00:00.000+01:00 fired pills
        1️⃣2026-03-28T08:00:00 fired pills
        2026-03-28T08:00:00.000+01:00 2️⃣fird pills 3️⃣title
        2026-03-28T08:00:00.000+01:00 fired pills title=4️⃣"Morning
        5️⃣
        6️⃣2026-03-28T06:00:00.000+01:00 fired pills
        7️⃣# late: header
        """, .text)
    #expect(found.map(\.message) == [
      "instant '2026-03-28T08:00:00' has no UTC offset",
      "unknown kind 'fird'",
      "field 'title' has no '='",
      "unterminated quote in the value of field 'title'",
      "blank line",
      "entry at '2026-03-28T06:00:00.000+01:00' is earlier than the entry before it at '2026-03-28T08:00:00.000+01:00' (line 6)",
      "header line after the entries",
    ])
    #expect(found.map(\.location) == ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣"].map { text.location($0, file: Self.textFile) })
  }

  @Test func reportsStopAtTheCollectorLimitAndSayHowManyMore() {
    let badLines = (0..<110).map { _ in "2026-03-28T08:00:00.000+01:00 fird pills\n" }.joined()
    let (_, found) = diagnostics(Self.head + badLines, .text)
    #expect(DiagnosticCollector.defaultLimit == 100)
    #expect(found.count == 100)
    #expect(found.last?.location.line == 2 + 100)
    #expect(found.last?.notes.last == "… and 10 more problems in this file (only the first 100 are listed)")
  }

  // MARK: - JSON

  static let jsonEntry =
    #"{"instant": "2026-03-28T08:00:00.000+01:00", "utc": "2026-03-28T07:00:00.000Z", "kind": "fired", "subject": "pills", "fields": {}}"#

  @Test func jsonKeepsHeaderAndFieldOrderAndIgnoresTheSummary() throws {
    let expected = try read(
      """
      {
        "format": "trigsim-timeline-1",
        "header": {"zeta": "1", "alpha": "2", "mid": "3"},
        "entries": [
          {"instant": "2026-03-28T08:00:00.000+01:00", "utc": "2026-03-28T07:00:00.000Z", "kind": "fired", "subject": "pills",
           "fields": {"z": "1", "a": "2", "title": "Morning \\"pills\\"\\n\\u00e9\\ud83d\\ude00"}}
        ],
        "summary": {"pending": {"peak": 4, "peakAt": null}, "doses": [1, true, {"x": []}]}
      }
      """, .json)
    #expect(expected.timeline.header == [TimelineField("zeta", "1"), TimelineField("alpha", "2"), TimelineField("mid", "3")])
    #expect(
      expected.timeline.entries.first?.fields == [TimelineField("z", "1"), TimelineField("a", "2"), TimelineField("title", "Morning \"pills\"\né😀")])
    #expect(expected.entryLocations == [InputLocation(file: Self.jsonFile, line: 5, column: 5)])
  }

  @Test func compactJSONIsRead() throws {
    let marked = MarkedText(#"{"format":"trigsim-timeline-1","header":{},"entries":[1️⃣\#(Self.jsonEntry)]}"#)
    let expected = try read(marked.text, .json)
    #expect(expected.timeline.entries.map(\.subject) == ["pills"])
    #expect(expected.entryLocations == [marked.location("1️⃣", file: Self.jsonFile)])
  }

  @Test func jsonWithUnknownMissingAndWrongMembersIsReportedAtEachNode() {
    assertDiagnostics(
      #"""
      1️⃣{
        "format": 2️⃣"trigsim-timeline-3",
        3️⃣"entires": [],
        "summary": {}
      }
      """#, .json,
      [
        Pinned("1️⃣", "missing 'header'", notes: [#"add "header": {} (the run's description, as 'trigsim run --format json' writes it)"#]),
        Pinned("1️⃣", "missing 'entries'", notes: [#"add "entries": [] with one object per entry"#]),
        Pinned(
          "2️⃣", "unsupported timeline format 'trigsim-timeline-3'",
          notes: [#"this trigsim reads '"format": "trigsim-timeline-2"' (and '"trigsim-timeline-1"')"#, Self.makeJSONNote]),
        Pinned(
          "3️⃣", "unknown key 'entires' in the timeline",
          notes: ["did you mean 'entries'?", "the timeline has: format, header, entries, summary"]),
      ])
  }

  @Test func jsonWithoutFormatIsRejected() {
    assertDiagnostics(
      #"1️⃣{"header": {}, "entries": []}"#, .json,
      [
        Pinned("1️⃣", Self.notAJSONTimeline, notes: [Self.makeJSONNote])
      ])
    // A credentials file is somebody else's JSON: named, not quoted, no line shown.
    let found = rejected(#"{"type": "service_account", "private_key": "SECRET-MARKER"}"#, .json)
    #expect(found.map(\.message) == [Self.notAJSONTimeline])
    #expect(found.map(\.showsSourceLine) == [false])
  }

  @Test func jsonEntryMembersAreCheckedAtTheirValues() {
    assertDiagnostics(
      #"""
      {"format": "trigsim-timeline-1", "header": {"scenario": 1️⃣5}, "entries": [
        2️⃣{"instant": "2026-03-28T08:00:00.000+01:00", "utc": "2026-03-28T07:00:00.000Z", "kind": "fired", "subject": "pills"},
        {"instant": "2026-03-28T08:00:00.000+01:00", "utc": 3️⃣"2026-03-28T08:00:00.000Z", "kind": 4️⃣"fird", "subject": 5️⃣null, "fields": {}},
        {"instant": "2026-03-28T08:00:00.000+01:00", "utc": "2026-03-28T07:00:00.000Z", "kind": "fired", "subject": "a", "fields": 6️⃣["x"]},
        {"instant": "2026-03-28T08:00:00.000+01:00", "utc": "2026-03-28T07:00:00.000Z", "kind": "fired", "subject": "a", "fields": {"k": 7️⃣true}, 8️⃣"subjct": "b"},
        9️⃣"not an object"
      ]}
      """#, .json,
      [
        Pinned("1️⃣", "'scenario' in 'header' must be a string, not '5'", notes: ["JSON strings are in double quotes"]),
        Pinned("2️⃣", "missing 'fields' in an entry", notes: ["each entry has 'instant', 'utc', 'kind', 'subject', 'fields'"]),
        Pinned(
          "3️⃣", "'utc' '2026-03-28T08:00:00.000Z' is not the same instant as 'instant' '2026-03-28T08:00:00.000+01:00'",
          notes: ["'instant' in UTC is '2026-03-28T07:00:00.000Z'; correct one of them"]),
        Pinned("4️⃣", "unknown kind 'fird'", notes: ["did you mean 'fired'?", Self.allKinds]),
        Pinned("5️⃣", "'subject' must be a string, not 'null'", notes: ["JSON strings are in double quotes"]),
        Pinned("6️⃣", "'fields' must be an object of strings, not an array", notes: []),
        Pinned("7️⃣", "'k' in 'fields' must be a string, not 'true'", notes: ["JSON strings are in double quotes"]),
        Pinned(
          "8️⃣", "unknown key 'subjct' in an entry", notes: ["did you mean 'subject'?", "an entry has: instant, utc, kind, subject, fields"]),
        Pinned("9️⃣", "an entry must be an object, not 'not an object'", notes: []),
      ])
  }

  @Test func jsonInstantsFollowTheTextRulesAndMustNotGoBackInTime() {
    assertDiagnostics(
      #"""
      {"format": "trigsim-timeline-1", "header": {}, "entries": [
        {"instant": "2026-03-28T08:00:00.000+01:00", "utc": "2026-03-28T07:00:00.000Z", "kind": "fired", "subject": "a", "fields": {}},
        {"instant": 1️⃣"2026-03-28T08:00:00.000", "utc": 2️⃣"tomorrow", "kind": "fired", "subject": "b", "fields": {}},
        {"instant": 3️⃣"2026-03-28T07:59:59.999+01:00", "utc": "2026-03-28T06:59:59.999Z", "kind": "fired", "subject": "c", "fields": {}}
      ]}
      """#, .json,
      [
        Pinned(
          "1️⃣", "'instant' '2026-03-28T08:00:00.000' has no UTC offset",
          notes: ["an expected timeline gives every instant with its offset: add 'Z' or one like '+01:00'"]),
        Pinned("2️⃣", "'utc' 'tomorrow' is not an ISO 8601 date-time", notes: [Self.instantNote]),
        Pinned(
          "3️⃣", "entry at '2026-03-28T07:59:59.999+01:00' is earlier than the entry before it at '2026-03-28T08:00:00.000+01:00' (line 2)",
          notes: ["entries are in the order they happened: move this entry up, or correct its instant"]),
      ])
  }

  @Test func jsonThatIsNotATimelineObjectIsRejected() {
    assertDiagnostics(
      "1️⃣[\"a\"]\n", .json,
      [
        Pinned("1️⃣", Self.notAJSONTimeline, notes: [Self.makeJSONNote])
      ])
    assertDiagnostics("1️⃣\n  \n", .json, [Pinned("1️⃣", "the timeline file is empty", notes: [Self.makeJSONNote])])
  }

  @Test func jsonSyntaxErrorIsLocated() {
    let (text, found) = diagnostics(#"{"format": "trigsim-timeline-1", "header": {} 1️⃣"entries": []}"#, .json)
    #expect(found.count == 1)
    #expect(found.first?.location == text.location("1️⃣", file: Self.jsonFile))
    #expect(found.first?.message.hasPrefix("invalid JSON: ") == true, "\(found)")
  }

  @Test func jsonKeyRepeatedInAnObjectIsRejected() {
    assertDiagnostics(
      #"{"format": "trigsim-timeline-1", "header": {1️⃣"a": "1", "a": "2"}, "entries": []}"#, .json,
      [
        Pinned(
          "1️⃣", "key 'a' appears more than once in an object",
          notes: ["a JSON object holds each key once; remove or rename the repeated one"])
      ])
  }

  @Test func jsonColumnsStayTheFilesOwnAroundCharactersLibYAMLReadsDifferently() throws {
    // A surrogate-pair escape, a raw DEL, a raw U+2028 and a raw NEL are rewritten
    // for libyaml; positions after them on the line are still the file's.
    let (text, found) = diagnostics(
      #"{"format": "trigsim-timeline-1", "header": {"e": "\ud83d\ude00 \#u{7F} \#u{2028} \#u{85}", "x": 1️⃣1}, "entries": []}"#, .json)
    #expect(found.map(\.location) == [text.location("1️⃣", file: Self.jsonFile)])

    let marked = MarkedText(
      #"{"format":"trigsim-timeline-1","header":{"e":"\ud83d\ude00\#u{7F}\#u{2028}\#u{85}"},"entries":[1️⃣\#(Self.jsonEntry)]}"#)
    let expected = try read(marked.text, .json)
    #expect(expected.timeline.header == [TimelineField("e", "😀\u{7F}\u{2028}\u{85}")])
    #expect(expected.entryLocations == [marked.location("1️⃣", file: Self.jsonFile)])
  }

  /// Issue 10: a YAML "billion laughs" in a `.json` file hung the reader (it
  /// was read with the YAML parser). It is not JSON: refused at the first '&'.
  @Test func yamlAliasesInAJSONTimelineAreRefusedAtTheFirstAnchor() {
    var laughs = #"{"format": "trigsim-timeline-1", "header": {"a": 1️⃣&a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#
    for level in 1..<10 { laughs += ", \"l\(level)\": &l\(level) [" + Array(repeating: level == 1 ? "*a" : "*l\(level - 1)", count: 9).joined(separator: ",") + "]" }
    laughs += #"}, "entries": [{*l9: 1}]}"#
    assertDiagnostics(
      laughs, .json,
      [
        Pinned(
          "1️⃣", "invalid JSON: expected a value, found '&'",
          notes: ["YAML anchors ('&'), aliases ('*') and tags ('!') are not JSON; write the value out"])
      ])
  }

  @Test func commentsAndTrailingCommasInAJSONTimelineAreSyntaxErrorsAndNothingElseIsReported() {
    assertDiagnostics(
      """
      {"format": "trigsim-timeline-9", "header": {}, "entries": [
        {"instant": "2026-03-28T08:00:00.000+01:00", "utc": "2026-03-28T07:00:00.000Z", "kind": "fird", "subject": "a", "fields": {}},
      1️⃣]}
      """, .json,
      [Pinned("1️⃣", "invalid JSON: a trailing comma before ']'", notes: ["remove the comma after the last element"])])
    assertDiagnostics(
      #"{"format": "trigsim-timeline-1", 1️⃣// recorded by hand"# + "\n" + #""header": {}, "entries": []}"#, .json,
      [Pinned("1️⃣", "invalid JSON: expected a member name in double quotes, found '/'", notes: ["JSON has no comments; remove it"])])
    assertDiagnostics(
      #"{"format": "trigsim-timeline-1", "header": {"peak": 1️⃣NaN}, "entries": []}"#, .json,
      [Pinned("1️⃣", "invalid JSON: 'NaN' is not a JSON number", notes: ["JSON has no NaN or Infinity; write a finite number or null"])])
  }

  @Test func aKeyRepeatedInAnEntryOrAtTheTopIsReportedAtItsFirstOccurrence() {
    assertDiagnostics(
      #"""
      {"format": "trigsim-timeline-1", 1️⃣"header": {}, "header": {}, "entries": [
        {2️⃣"instant": "2026-03-28T08:00:00.000+01:00", "instant": "2026-03-28T08:00:00.000+01:00", "utc": "2026-03-28T07:00:00.000Z", "kind": "fired", "subject": "a", "fields": {}}
      ]}
      """#, .json,
      [
        Pinned("1️⃣", "key 'header' appears more than once in an object", notes: ["a JSON object holds each key once; remove or rename the repeated one"]),
        Pinned("2️⃣", "key 'instant' appears more than once in an object", notes: ["a JSON object holds each key once; remove or rename the repeated one"]),
      ])
  }

  /// A 7-day 1 Hz scenario's JSON timeline (2.1 MB) did not finish in 120 s
  /// with the YAML parser. This one has 13,000 entries on one line each.
  @Test func aLargeJSONTimelineReadsBackEqual() throws {
    var timeline = Timeline(header: [TimelineField("scenario", "large")])
    for index in 0..<13_000 {
      timeline.entries.append(
        TimelineEntry(
          instant: SimulationInstant(millisecondsSinceEpoch: 1_772_323_200_000 + Int64(index) * 1000), utcOffsetSeconds: 3600,
          kind: index % 2 == 0 ? .enter : .exit, subject: "desk", fields: [TimelineField("visit", "\(index / 2 + 1)")]))
    }
    let expected = try read(timeline.json, .json)
    #expect(expected.timeline == timeline)
    #expect(expected.entryLocations.last == InputLocation(file: Self.jsonFile, line: 13_004, column: 5))
  }

  // MARK: - Bounds

  /// Issue 10: 1 M bad lines kept every diagnostic (1.08 GB). Only the first
  /// `DiagnosticCollector.defaultLimit` are kept, then how many more (100,000
  /// lines keep a debug test run short; the Benchmarks article gives 1 M's memory).
  @Test func aHundredThousandBadLinesKeepTheFirstHundredProblems() {
    let badLines = String(repeating: "2026-03-28T08:00:00.000+01:00 fird pills\n", count: 100_000)
    let found = rejected(Self.head + badLines, .text)
    #expect(found.count == 100)
    #expect(found.map(\.location.line) == Array(3...102))
    #expect(found.last?.notes.last == "… and 99900 more problems in this file (only the first 100 are listed)")
  }

  @Test func badJSONEntriesKeepTheFirstHundredProblemsInFileOrder() {
    let entry = #"{"instant": "2026-03-28T08:00:00.000+01:00", "utc": "2026-03-28T07:00:00.000Z", "kind": "fird", "subject": "a", "fields": {}}"#
    let text = #"{"format": "trigsim-timeline-1", "entries": ["# + "\n" + Array(repeating: entry, count: 300).joined(separator: ",\n") + "\n]}"
    let found = rejected(text, .json)
    #expect(found.count == 100)
    // "missing 'header'" sits at the root, 1:1, so it is kept first though it is found last.
    #expect(found.first?.message == "missing 'header'")
    #expect(found.dropFirst().allSatisfy { $0.message == "unknown kind 'fird'" })
    #expect(found.last?.location.line == 100)
    #expect(found.last?.notes.last == "… and 201 more problems in this file (only the first 100 are listed)")
  }

  @Test func longValuesAreQuotedCutInMessages() {
    let long = String(repeating: "x", count: 1_000_000)
    let cut = String(repeating: "x", count: 40) + "…"
    let fromText = rejected(Self.head + "2026-03-28T08:00:00.000+01:00 \(long) pills\n", .text)
    #expect(fromText.map(\.message) == ["unknown kind '\(cut)'"])
    let json = #"{"format": "trigsim-timeline-1", "header": {}, "entries": [{"instant": "2026-03-28T08:00:00.000+01:00", "utc": "2026-03-28T07:00:00.000Z", "kind": "\#(long)", "subject": "a", "fields": {}}]}"#
    let fromJSON = rejected(json, .json)
    #expect(fromJSON.map(\.message) == ["unknown kind '\(cut)'"])
    #expect(fromJSON.allSatisfy { $0.description.utf8.count < 1000 })
  }

  // MARK: - Files

  @Test func missingFileIsAFileAccessError() {
    let path = NSTemporaryDirectory() + "trigsim-no-such-expected-\(UUID().uuidString).timeline"
    #expect {
      try ExpectedTimelineReader().read(path: path)
    } throws: { error in
      guard let error = error as? FileAccessError else { return false }
      return error.path == path && error.reason == "no such file"
    }
  }

  @Test func fileThatIsNotUTF8IsAFileAccessError() throws {
    let path = NSTemporaryDirectory() + "trigsim-latin1-\(UUID().uuidString).timeline"
    try Data([0x23, 0x20, 0xE9, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect {
      try ExpectedTimelineReader().read(path: path)
    } throws: { error in
      (error as? FileAccessError)?.reason == "the file is not UTF-8 text"
    }
  }

  @Test func reviewedTimelineIsReadByPathAndNamedAsGiven() throws {
    let path = Self.scenarioFolder.appendingPathComponent("morning-walk.timeline").path
    let expected = try ExpectedTimelineReader().read(path: path)
    #expect(expected.file == path)
    #expect(expected.timeline.entries.count == expected.entryLocations.count && !expected.timeline.entries.isEmpty)
    #expect(expected.entryLocations.allSatisfy { $0.file == path })
  }

  @Test(arguments: ["timeline", "json"])
  func brokenFilesOnDiskReportEveryProblemAtTheirPath(_ fileExtension: String) throws {
    let path = RepositoryPaths.fixtures.appendingPathComponent("invalid/expected-brokenFilesOnDiskReportEveryProblemAtTheirPath.\(fileExtension)").path
    let error = try #require(throws: InputError.self) { try ExpectedTimelineReader().read(path: path) }
    let found = error.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message)" }
    if fileExtension == "json" {
      #expect(found == [
        "5:93 unknown kind 'fird'",
        "6:17 entry at '2026-03-28T07:00:00.000+01:00' is earlier than the entry before it at '2026-03-28T08:00:00.000+01:00' (line 5)",
      ])
    } else {
      #expect(found == [
        "4:31 unknown kind 'fird'",
        "5:1 entry at '2026-03-28T07:00:00.000+01:00' is earlier than the entry before it at '2026-03-28T08:00:00.000+01:00' (line 4)",
        "5:55 unterminated quote in the value of field 'title'",
      ])
    }
    #expect(error.diagnostics.allSatisfy { $0.location.file == path })
  }
}
