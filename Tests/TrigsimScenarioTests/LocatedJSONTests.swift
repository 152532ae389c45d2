import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// The strict, located JSON reader: what it accepts, where it places each
/// value, and every slip it rejects at the character that shows it.
@Suite struct LocatedJSONTests {
  /// The whole document read, or the syntax error.
  static func read(_ text: String) -> Result<JSONValue, JSONSyntaxError> {
    LocatedJSONReader.readDocument(text)
  }

  /// The error of marked text that must be rejected, checked to sit at 1️⃣.
  static func rejection(_ marked: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONSyntaxError? {
    let text = MarkedText(marked)
    switch read(text.text) {
    case .success:
      Issue.record("accepted: \(text.text)", sourceLocation: sourceLocation)
      return nil
    case .failure(let error):
      let expected = text.positions["1️⃣"]!
      #expect(
        error.position == JSONPosition(line: expected.line, column: expected.column), "\(error.message)", sourceLocation: sourceLocation)
      return error
    }
  }

  // MARK: - Accepted

  @Test func everyKindOfValueIsReadWithItsPosition() throws {
    let marked = MarkedText(
      """
      1️⃣{"a": 2️⃣[3️⃣1, 4️⃣-0.5e+3, 5️⃣true, 6️⃣false, 7️⃣null],
       "b": 8️⃣"é\\u00e9\\ud83d\\ude00\\/\\b\\f\\n\\r\\t\\"\\\\", "c": 9️⃣{}}
      """)
    let value = try Self.read(marked.text).get()
    func at(_ marker: String) -> JSONPosition {
      let position = marked.positions[marker]!
      return JSONPosition(line: position.line, column: position.column)
    }
    #expect(value.position == at("1️⃣"))
    guard case .object(let members) = value.content else {
      Issue.record("not an object")
      return
    }
    #expect(members.map(\.key) == ["a", "b", "c"])
    #expect(members[0].keyPosition == JSONPosition(line: 1, column: 2))
    guard case .array(let elements) = members[0].value.content else {
      Issue.record("not an array")
      return
    }
    #expect(members[0].value.position == at("2️⃣"))
    #expect(elements.map(\.position) == [at("3️⃣"), at("4️⃣"), at("5️⃣"), at("6️⃣"), at("7️⃣")])
    #expect(elements.map(\.described) == ["'1'", "'-0.5e+3'", "'true'", "'false'", "'null'"])
    guard case .string(let text) = members[1].value.content else {
      Issue.record("not a string")
      return
    }
    #expect(members[1].value.position == at("8️⃣"))
    #expect(text == "éé😀/\u{08}\u{0C}\n\r\t\"\\")
    #expect(members[2].value.position == at("9️⃣"))
    #expect(members[2].value.described == "an object")
  }

  @Test func columnsCountUnicodeScalarsOnLongLines() throws {
    // Multi-byte characters before the value: the column counts scalars, not bytes.
    let prefix = String(repeating: "\"é😀\", ", count: 10_000)
    let marked = MarkedText("[" + prefix + "1️⃣{}]")
    guard case .array(let elements) = try Self.read(marked.text).get().content else {
      Issue.record("not an array")
      return
    }
    let expected = marked.positions["1️⃣"]!
    #expect(elements.last?.position == JSONPosition(line: expected.line, column: expected.column))
    #expect(expected.column == 1 + 10_000 * 6 + 1)
  }

  @Test func whitespaceIsSpaceTabLineFeedAndCarriageReturnAndAByteOrderMarkIsSkipped() throws {
    let value = try Self.read("\u{FEFF} \t\r\n [1,\r\n\t2] \r\n").get()
    #expect(value.position == JSONPosition(line: 2, column: 2))
  }

  @Test func aRepeatedKeyIsKeptForTheCallerToJudge() throws {
    guard case .object(let members) = try Self.read(#"{"a": 1, "a": 2}"#).get().content else {
      Issue.record("not an object")
      return
    }
    #expect(members.map(\.key) == ["a", "a"])
  }

  @Test func nestingUpToTheLimitIsRead() throws {
    let depth = LocatedJSONReader.maximumDepth
    _ = try Self.read(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).get()
  }

  // MARK: - Rejected, each at the character that shows it

  @Test func yamlAnchorsAliasesAndTagsAreNotJSON() {
    let note = "YAML anchors ('&'), aliases ('*') and tags ('!') are not JSON; write the value out"
    #expect(Self.rejection(#"{"a": 1️⃣&x [1], "b": *x}"#)?.notes == [note])
    #expect(Self.rejection(#"[1, 1️⃣*x]"#)?.notes == [note])
    #expect(Self.rejection(#"{"a": 1️⃣!!str 5}"#)?.notes == [note])
    #expect(Self.rejection(#"{1️⃣&k "a": 1}"#)?.message == "expected a member name in double quotes, found '&'")
  }

  @Test func commentsAreNotJSON() {
    #expect(Self.rejection("{\"a\": 1 1️⃣// note\n}")?.message == "expected ',' or '}' after a member of an object, found '/'")
    #expect(Self.rejection("[1️⃣/* note */ 1]")?.notes == ["JSON has no comments; remove it"])
    #expect(Self.rejection("{1️⃣# note\n\"a\": 1}")?.notes == ["JSON has no comments; remove it"])
  }

  @Test func trailingCommasAreRejected() {
    #expect(Self.rejection(#"{"a": 1, 1️⃣}"#)?.message == "a trailing comma before '}'")
    #expect(Self.rejection("[1, 2,\n  1️⃣]")?.message == "a trailing comma before ']'")
    #expect(Self.rejection("[1, 1️⃣, 2]")?.message == "expected a value, found ','")
  }

  @Test func numbersFollowJSONsGrammar() {
    #expect(Self.rejection("[1️⃣NaN]")?.message == "'NaN' is not a JSON number")
    #expect(Self.rejection("[1️⃣Infinity]")?.message == "'Infinity' is not a JSON number")
    #expect(Self.rejection("[1️⃣-Infinity]")?.message == "'-Infinity' is not a JSON number")
    #expect(Self.rejection("[1️⃣007]")?.message == "a number starts with a zero")
    #expect(Self.rejection("[1️⃣+1]")?.message == "expected a value, found '+'")
    #expect(Self.rejection("[1️⃣.5]")?.message == "expected a value, found '.'")
    #expect(Self.rejection("[1.1️⃣]")?.message == "expected a digit after the decimal point, found ']'")
    #expect(Self.rejection("[1e1️⃣]")?.message == "expected a digit in the exponent, found ']'")
    #expect(Self.rejection("[-1️⃣a]")?.message == "expected a digit after '-', found 'a'")
  }

  @Test func wordsOtherThanTrueFalseAndNullAreRejected() {
    #expect(Self.rejection("[1️⃣yes]")?.message == "unexpected word 'yes'")
    #expect(Self.rejection("[1️⃣True]")?.message == "unexpected word 'True'")
    #expect(Self.rejection("{1️⃣key: 1}")?.message == "expected a member name in double quotes, found 'k'")
    #expect(Self.rejection("[1️⃣'single']")?.notes == ["JSON strings are in double quotes"])
  }

  @Test func stringsHoldNoRawControlCharactersAndOnlyJSONsEscapes() {
    #expect(Self.rejection("[\"a1️⃣\nb\"]")?.message == "a line break inside a string")
    #expect(Self.rejection("[\"a1️⃣\tb\"]")?.message == "a tab inside a string")
    #expect(Self.rejection("[\"a1️⃣\u{1}b\"]")?.message == "the control character U+0001 inside a string")
    #expect(Self.rejection(#"["a1️⃣\x41"]"#)?.message == "unknown escape: a backslash before 'x'")
    #expect(Self.rejection(#"["a1️⃣\u00g1"]"#)?.message == #"'\u' is not followed by four hex digits"#)
    #expect(Self.rejection(#"["1️⃣\ud83d"]"#)?.message == "a high surrogate escape without a low one after it")
    #expect(Self.rejection(#"["1️⃣\ud83d\u0041"]"#)?.message == "a high surrogate escape without a low one after it")
    #expect(Self.rejection(#"["1️⃣\ude00"]"#)?.message == "a low surrogate escape without a high one before it")
    #expect(Self.rejection("[1️⃣\"open]")?.message == "unterminated string")
  }

  @Test func oneValuePerDocument() {
    #expect(Self.rejection("{} 1️⃣{}")?.message == "unexpected '{' after the end of the document")
    #expect(Self.rejection("1 1️⃣2")?.message == "unexpected '2' after the end of the document")
    #expect(Self.rejection("[1] \n1️⃣---")?.message == "unexpected '-' after the end of the document")
    #expect(Self.rejection("[1, 2 1️⃣")?.message == "expected ',' or ']' after an element of an array, found the end of the file")
    #expect(Self.rejection("  1️⃣")?.message == "expected a value, found the end of the file")
  }

  @Test func nestingDeeperThanTheLimitIsRejectedAtTheFirstBracketTooDeep() {
    let depth = LocatedJSONReader.maximumDepth
    let marked = String(repeating: "[", count: depth) + "1️⃣[" + String(repeating: "]", count: depth + 1)
    #expect(Self.rejection(marked)?.message == "arrays and objects are nested more than 64 levels deep")
    // A deep document is refused in time and stack proportional to the limit, not to its depth.
    let deep = String(repeating: "[", count: 1_000_000)
    guard case .failure(let error) = Self.read(deep) else {
      Issue.record("accepted")
      return
    }
    #expect(error.position == JSONPosition(line: 1, column: depth + 1))
  }

  @Test func aLongWordIsQuotedCut() {
    let word = String(repeating: "z", count: 1000)
    #expect(Self.rejection("[1️⃣\(word)]")?.message == "unexpected word '\(String(repeating: "z", count: 40))…'")
  }
}
