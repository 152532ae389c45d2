import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// Version 2 JSON timelines (typed field values) and version 1 (strings)
/// read back as the same timeline; a typed value of the wrong type is located.
extension ExpectedTimelineReaderTests {
  static let timelineSchema: JSONSchemaValidator = {
    let path = RepositoryPaths.root.appendingPathComponent("Sources/TrigsimCore/TrigsimCore.docc/Resources/trigsim-timeline-2.schema.json")
    return JSONSchemaValidator(schema: try! JSONTree.parse(String(contentsOf: path, encoding: .utf8)))
  }()

  static func document(_ format: String, fields: String, kind: String = "scheduled") -> String {
    #"{"format": ""# + format + #"", "header": {"scenario": "s"}, "entries": [{"instant": "2026-05-04T08:00:00.000+02:00", "utc": "2026-05-04T06:00:00.000Z", "kind": ""#
      + kind + #"", "subject": "medicine_1_snooze_2", "fields": "# + fields + "}]}\n"
  }

  static let typedFields = #"{"repeats": false, "medicine": "1", "reminder": 0, "followup": {"step": 2, "of": 10}, "badge": 3}"#
  static let stringFields = #"{"repeats": "no", "medicine": "1", "reminder": "0", "followup": "2/10", "badge": "3"}"#

  @Test func typedAndStringFieldsReadAsTheSameTimelineInBothVersions() throws {
    let expected = [
      TimelineField("repeats", "no"), TimelineField("medicine", "1"), TimelineField("reminder", "0"), TimelineField("followup", "2/10"),
      TimelineField("badge", "3"),
    ]
    for format in ["trigsim-timeline-1", "trigsim-timeline-2"] {
      for fields in [Self.typedFields, Self.stringFields] {
        let read = try read(Self.document(format, fields: fields), .json)
        #expect(read.timeline.entries.map(\.fields) == [expected], "\(format) \(fields)")
        #expect(read.timeline.header == [TimelineField("scenario", "s")])
      }
    }
  }

  @Test func whatTheEncoderWritesReadsBack() throws {
    let entry = TimelineEntry(
      instant: Build.instant("2026-05-04T06:00:00Z"), utcOffsetSeconds: 7200, kind: .sent, subject: "p",
      fields: [TimelineField("content-available", "1"), TimelineField("priority", "10"), TimelineField("badge", "-2")])
    let timeline = Timeline(header: [], entries: [entry])
    #expect(timeline.json.contains(#""fields": {"content-available": true, "priority": 10, "badge": -2}"#))
    #expect(try read(timeline.json, .json).timeline == timeline)
  }

  @Test func typedValuesOfTheWrongTypeAreLocated() {
    assertDiagnostics(
      Self.document("trigsim-timeline-2", fields: #"{"reminder": 1️⃣1.5, "repeats": 2️⃣1, "followup": 3️⃣{"step": 2}, "title": 4️⃣5}"#), .json,
      [
        Pinned("1️⃣", "'reminder' of a 'scheduled' entry must be a whole number, not '1.5'", notes: ["write it like 3, without a fraction or exponent"]),
        Pinned("2️⃣", "'repeats' of a 'scheduled' entry must be true or false or a string, not '1'", notes: []),
        Pinned(
          "3️⃣", #"'followup' of a 'scheduled' entry must be {"step": N, "of": M} with whole numbers"#,
          notes: [#"write it like {"step": 2, "of": 10}, or as the string "2/10""#]),
        Pinned("4️⃣", "'title' in 'fields' must be a string, not '5'", notes: ["JSON strings are in double quotes"]),
      ])
  }

  /// A count is typed only where its kind says so: `visit` of a `scheduled` entry is a string.
  @Test func aTypedValueUnderAnotherKindIsAnError() {
    assertDiagnostics(
      Self.document("trigsim-timeline-2", fields: #"{"visit": 1️⃣1}"#), .json,
      [Pinned("1️⃣", "'visit' in 'fields' must be a string, not '1'", notes: ["JSON strings are in double quotes"])])
  }
}
