import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// JSON and JSON Lines write counts as numbers, flags as booleans and a
/// follow-up's place as an object, by kind and key; the schema in the DocC
/// catalog says the same and validates what is written.
@Suite struct TimelineFieldTypeTests {
  static func entry(_ kind: TimelineEntry.Kind, _ subject: String, _ fields: [(String, String)]) -> TimelineEntry {
    TimelineEntry(
      instant: Build.instant("2026-05-04T06:00:00Z"), utcOffsetSeconds: 7200, kind: kind, subject: subject,
      fields: fields.map { TimelineField($0.0, $0.1) })
  }

  /// A small timeline with every typed field kind, an identifier that looks
  /// like a number (`medicine=1`, a string), and a value not in its type's form.
  static let timeline = Timeline(
    header: [TimelineField("scenario", "typed"), TimelineField("regions", "2")],
    entries: [
      entry(.enter, "home", [("visit", "2")]),
      entry(
        .scheduled, "medicine_1_snooze_2",
        [("trigger", "calendar hour=8 minute=20"), ("repeats", "no"), ("badge", "3"), ("medicine", "1"), ("reminder", "0"), ("followup", "2/10"), ("dosage", "500")]),
      entry(.action, "medicine_1_reminder_0", [("action", "dismiss"), ("reported", "no")]),
      entry(.sent, "p1", [("content-available", "1"), ("priority", "10")]),
      entry(.badge, "app", [("to", "1"), ("from", "0"), ("by", "+1")]),
      entry(.fired, "odd", [("visit", "2"), ("reminder", "007"), ("followup", "2 of 10"), ("repeats", "maybe")]),
    ])

  @Test func jsonLinesCarryNumbersBooleansAndFollowUpsTyped() {
    let lines = Self.timeline.jsonLines.split(separator: "\n").map(String.init)
    let head = #"{"instant": "2026-05-04T08:00:00.000+02:00", "utc": "2026-05-04T06:00:00.000Z", "kind": "#
    #expect(
      lines == [
        head + #""enter", "subject": "home", "fields": {"visit": 2}}"#,
        head
          + #""scheduled", "subject": "medicine_1_snooze_2", "fields": {"trigger": "calendar hour=8 minute=20", "repeats": false, "badge": 3, "medicine": "1", "reminder": 0, "followup": {"step": 2, "of": 10}, "dosage": "500"}}"#,
        head + #""action", "subject": "medicine_1_reminder_0", "fields": {"action": "dismiss", "reported": false}}"#,
        head + #""sent", "subject": "p1", "fields": {"content-available": true, "priority": 10}}"#,
        head + #""badge", "subject": "app", "fields": {"to": 1, "from": 0, "by": "+1"}}"#,
        // `visit` is a string in a `fired` entry; text not in its type's form stays a string.
        head + #""fired", "subject": "odd", "fields": {"visit": "2", "reminder": "007", "followup": "2 of 10", "repeats": "maybe"}}"#,
      ])
  }

  @Test func theJSONDocumentIsVersionTwoWithStringHeaderValues() {
    #expect(Self.timeline.json.hasPrefix("{\n  \"format\": \"trigsim-timeline-2\",\n  \"header\": {\"scenario\": \"typed\", \"regions\": \"2\"},\n  \"entries\": [\n    {"))
  }

  @Test func canonicalTextAndCSVKeepTheText() {
    let scheduled = Self.timeline.entries[1]
    #expect(scheduled.canonicalLine.hasSuffix(#" repeats=no badge=3 medicine=1 reminder=0 followup=2/10 dosage=500"#))
    #expect(Self.timeline.csv.contains(",sent,p1,content-available=1 priority=10\r\n"))
  }

  @Test(arguments: ["0", "12", "-1"]) func canonicalIntegersAreNumbers(text: String) {
    #expect(TimelineFieldType.integer.json(text) == text)
  }

  @Test(arguments: ["", "+1", "01", "-0", "1.0", "1e3", "x", "99999999999999999999"]) func otherTextIsNotAnInteger(text: String) {
    #expect(TimelineFieldType.integer.json(text) == nil)
  }

  // MARK: - The schema

  static let schemaPath = RepositoryPaths.root.appendingPathComponent("Sources/TrigsimCore/TrigsimCore.docc/Resources/trigsim-timeline-2.schema.json")

  static func schema() throws -> JSONTree { try JSONTree.parse(String(contentsOf: schemaPath, encoding: .utf8)) }

  /// What a run writes validates; text not in its type's form (only a
  /// timeline built in Swift can hold it) is written as a string, which the
  /// schema does not allow, so it is seen.
  @Test func theSchemaValidatesTheDocumentAndEachJSONLine() throws {
    let validator = JSONSchemaValidator(schema: try Self.schema())
    var runLike = Self.timeline
    let odd = runLike.entries.removeLast()
    #expect(validator.problems(try JSONTree.parse(runLike.json)) == [])
    let entry = try #require(try Self.schema()["$defs"]?["entry"])
    for line in runLike.jsonLines.split(separator: "\n") {
      #expect(validator.problems(try JSONTree.parse(String(line)), schema: entry) == [], "\(line)")
    }
    #expect(
      validator.problems(try JSONTree.parse(odd.json), schema: entry) == [
        "$.fields.followup: '2 of 10' is not of type object",
        "$.fields.reminder: '007' is not of type integer",
        "$.fields.repeats: 'maybe' is not of type boolean",
      ])
  }

  /// The validator is not vacuous: version 1's strings, a wrong format and unknown keys fail.
  @Test func theSchemaRejectsStringCountsAndUnknownMembers() throws {
    let validator = JSONSchemaValidator(schema: try Self.schema())
    let old = try JSONTree.parse(
      #"{"format": "trigsim-timeline-1", "header": {}, "entries": [{"instant": "2026-05-04T08:00:00.000+02:00", "utc": "2026-05-04T06:00:00.000Z", "kind": "enter", "subject": "home", "fields": {"visit": "2"}, "extra": 1}]}"#)
    #expect(
      validator.problems(old) == [
        "$.entries[0]: unexpected 'extra'",
        "$.entries[0].fields.visit: '2' is not of type integer",
        "$.format: 'trigsim-timeline-1' is not the constant",
      ])
  }

  /// Every typed field of `TimelineFieldType` is in the schema with its JSON
  /// type, under its kind, and nothing else is typed there.
  @Test func theSchemaTypesExactlyTheFieldsTheEncoderTypes() throws {
    let clauses = try #require(try Self.schema()["$defs"]?["entry"]?["allOf"])
    guard case .array(let list) = clauses else { Issue.record("allOf is not an array"); return }
    var inSchema: [String] = []
    for clause in list {
      guard case .string(let kind) = clause["if"]?["properties"]?["kind"]?["const"],
        case .object(let properties) = clause["then"]?["properties"]?["fields"]?["properties"]
      else { continue }
      for (key, rule) in properties {
        let type: String
        if case .string(let name) = rule["type"] { type = name } else if case .string(let reference) = rule["$ref"] { type = reference } else { type = "?" }
        inSchema.append("\(kind).\(key): \(type)")
      }
    }
    let inEncoder = TimelineFieldType.all.map { field -> String in
      let type: String
      switch field.type {
      case .integer: type = "integer"
      case .boolean: type = "boolean"
      case .followUp: type = "#/$defs/followUp"
      }
      return "\(field.kind.rawValue).\(field.key): \(type)"
    }
    #expect(inSchema.sorted() == inEncoder.sorted())
    #expect(inEncoder.contains("enter.visit: integer"))
    #expect(inEncoder.contains("scheduled.followup: #/$defs/followUp"))
  }

  @Test func theSchemaListsEveryKind() throws {
    let kinds = try #require(try Self.schema()["$defs"]?["entry"]?["properties"]?["kind"]?["enum"])
    #expect(kinds == .array(TimelineEntry.Kind.allCases.map { .string($0.rawValue) }))
  }
}
