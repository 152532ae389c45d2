import Foundation

// MARK: - Encodings

/// A timeline output format, as the pieces every rendering of it is made
/// of, in order: `opening(header:)`, `entry(_:at:)` for each entry, then
/// `closing(entryCount:summary:)`.
///
/// The in-memory renderings (`Timeline.canonicalText`, `json`, `jsonLines`,
/// `csv`, `SimulationReport.json`) and the output `trigsim run` streams as
/// the run goes are both these pieces concatenated, so they are
/// byte-identical by construction: no format is written by two pieces of code.
public enum TimelineEncoding: String, Sendable, CaseIterable {
  /// The canonical text: `# ` header lines, one line per entry; a summary
  /// follows the entries as `# summary` lines and the dose table.
  case text
  /// One JSON document; a summary is its `summary` member after `entries`.
  case json
  /// JSON Lines: one entry object per line; no header, no summary.
  case jsonl
  /// RFC 4180 CSV: a column-name row, one row per entry; no header, no summary.
  case csv

  /// What comes before the first entry: the format line and the header
  /// (text, json), or the column names (csv).
  public func opening(header: [TimelineField]) -> String {
    switch self {
    case .text:
      var text = Timeline.formatLine + "\n"
      for field in header {
        // A header value never ends its line early: newlines are escaped,
        // and so are other control characters (`ControlCharacterEscape`).
        let value = TimelineEntry.escapedHeaderValue(field.value)
        text += "# \(field.key): \(value)\n"
      }
      return text
    case .json:
      return "{\n  \"format\": \"\(Timeline.jsonFormatName)\",\n  \"header\": " + JSONText.object(header) + ",\n  \"entries\": ["
    case .jsonl:
      return ""
    case .csv:
      return "instant,utc,kind,subject,fields\r\n"
    }
  }

  /// The entry numbered `index` (from 0) in this format, with its line end
  /// (json: the separator before it).
  public func entry(_ entry: TimelineEntry, at index: Int) -> String {
    switch self {
    case .text: entry.canonicalLine + "\n"
    case .json: (index == 0 ? "\n    " : ",\n    ") + entry.json
    case .jsonl: entry.json + "\n"
    case .csv: entry.csvRow + "\r\n"
    }
  }

  /// What comes after the last of `entryCount` entries: the summary, when
  /// given and the format carries one (text, json), and the document's end.
  public func closing(entryCount: Int, summary: RunSummary? = nil) -> String {
    switch self {
    case .text:
      return summary?.text ?? ""
    case .json:
      var text = entryCount == 0 ? "]" : "\n  ]"
      if let summary { text += ",\n  \"summary\": " + summary.json }
      return text + "\n}\n"
    case .jsonl, .csv:
      return ""
    }
  }

  /// The whole document: the opening, every entry, the closing.
  public func document(_ timeline: Timeline, summary: RunSummary? = nil) -> String {
    var text = opening(header: timeline.header)
    for (index, entry) in timeline.entries.enumerated() { text += self.entry(entry, at: index) }
    return text + closing(entryCount: timeline.entries.count, summary: summary)
  }
}

// MARK: - Canonical text

extension Timeline {
  /// The first line of every canonical-text timeline.
  public static let formatLine = "# trigsim timeline 1"

  /// The canonical text form: header lines starting with `#`, then one line per entry:
  ///
  ///     2026-03-28T08:00:00.000+01:00 fired     pills trigger="calendar hour=8 minute=0" title="Morning pills" next=2026-03-29T08:00:00.000+01:00
  ///
  /// Fields are `key=value`; a value is double-quoted when it is empty or holds
  /// a space, a quote, `=` or a backslash, with `\"` and `\\` escapes. The kind
  /// is padded to 11 characters (the longest kind) so columns line up. Lines end with `\n`.
  public var canonicalText: String { TimelineEncoding.text.document(self) }
}

extension TimelineEntry {
  /// The width of the kind column: the longest kind, `rescheduled`.
  static let kindColumnWidth = Kind.allCases.map(\.rawValue.count).max()!

  /// This entry as one line of canonical text (no newline).
  public var canonicalLine: String {
    // The kind is padded by appending spaces (every kind fits the column):
    // the same bytes as `padding(toLength:withPad:startingAt:)`, without its NSString bridge.
    var line = localInstant + " " + kind.rawValue
    line += String(repeating: " ", count: TimelineEntry.kindColumnWidth - kind.rawValue.count)
    line += " " + TimelineEntry.quoteIfNeeded(subject)
    for field in fields { line += " \(field.key)=\(TimelineEntry.quoteIfNeeded(field.value))" }
    return line
  }

  /// The value as written in canonical text: bare when it is a plain word,
  /// else double-quoted with `\"`, `\\`, `\n`, `\r` and `\t` escapes, so a
  /// value never spans lines. Works on Unicode scalars, so a `\r\n` pair (one
  /// `Character`) is escaped like any other newline.
  ///
  /// A value needs quotes when it is empty or holds a space, `"`, `=`, `\\`,
  /// a control character or any other Unicode whitespace. Control characters
  /// other than those three are written `\u{HEX}` (`ControlCharacterEscape`).
  static func quoteIfNeeded(_ value: String) -> String {
    let needsQuotes = value.isEmpty || value.unicodeScalars.contains { scalar in
      // ASCII is decided without the Unicode property tables (the only
      // ASCII whitespace is the space and control characters below U+0020).
      if scalar.value < 0x80 {
        return scalar.value <= 0x20 || scalar == "\"" || scalar == "=" || scalar == "\\" || scalar.value == 0x7F
      }
      return scalar.properties.isWhitespace || ControlCharacterEscape.isEscaped(scalar)
    }
    guard needsQuotes else { return value }
    var quoted = "\""
    appendEscaped(value, to: &quoted) { scalar in
      switch scalar {
      case "\"": "\\\""
      case "\\": "\\\\"
      case "\n": "\\n"
      case "\r": "\\r"
      case "\t": "\\t"
      default: nil
      }
    }
    return quoted + "\""
  }

  /// Appends `value` to `text`, each scalar `short` gives an escape for as
  /// that escape, every other scalar `ControlCharacterEscape` escapes as
  /// `\u{HEX}`, and the rest as it is.
  @inline(__always)
  private static func appendEscaped(_ value: String, to text: inout String, short: (Unicode.Scalar) -> String?) {
    for scalar in value.unicodeScalars {
      if let escape = short(scalar) {
        text += escape
      } else if ControlCharacterEscape.isEscaped(scalar) {
        text += ControlCharacterEscape.escape(scalar)
      } else {
        text.unicodeScalars.append(scalar)
      }
    }
  }

  /// A header value as written after `# key: `: `\\`, `\n`, `\r` and
  /// `\u{HEX}` escapes, so it never ends its line early nor holds a control.
  static func escapedHeaderValue(_ value: String) -> String {
    var escaped = ""
    appendEscaped(value, to: &escaped) { scalar in
      switch scalar {
      case "\\": "\\\\"
      case "\n": "\\n"
      case "\r": "\\r"
      case "\t": "\t"  // kept as it is: a tab cannot end the line
      default: nil
      }
    }
    return escaped
  }
}

// MARK: - JSON

extension Timeline {
  /// The `format` member of a JSON timeline: version 2 has typed field values
  /// (`TimelineFieldType`); version 1, `trigsim-timeline-1`, had strings only.
  public static let jsonFormatName = "trigsim-timeline-2"

  /// A JSON document: `{"format": "trigsim-timeline-2", "header": {...}, "entries": [{"instant": ..., "utc": ..., "kind": ..., "subject": ..., "fields": {...}}]}`.
  /// Header values are strings; field values are typed as `TimelineFieldType.of(kind:key:)` says.
  ///
  /// Keys keep a fixed order (header and fields in their timeline order), so
  /// identical runs give byte-identical documents.
  public var json: String { TimelineEncoding.json.document(self) }

  /// JSON Lines: one entry object per line, no header.
  public var jsonLines: String { TimelineEncoding.jsonl.document(self) }
}

extension TimelineEntry {
  /// This entry as one JSON object on one line, its field values typed
  /// (`TimelineFieldType`): a number, a boolean or an object where the kind
  /// and key say so and the text is in that type's form, else a string.
  public var json: String {
    let typedFields = fields.map { field in
      let value = TimelineFieldType.of(kind: kind, key: field.key)?.json(field.value) ?? JSONText.string(field.value)
      return "\(JSONText.string(field.key)): \(value)"
    }
    return "{\"instant\": \(JSONText.string(localInstant)), \"utc\": \(JSONText.string(utcInstant)), "
      + "\"kind\": \(JSONText.string(kind.rawValue)), \"subject\": \(JSONText.string(subject)), "
      + "\"fields\": {" + typedFields.joined(separator: ", ") + "}}"
  }

  /// `2026-03-28T07:00:00.000Z`: the same text as `instant.description`,
  /// formatted at offset zero without asking the UTC time zone for it.
  var utcInstant: String { InstantFormatter.format(instant, offsetSeconds: 0, zulu: true) }
}

enum JSONText {
  /// The value as a JSON string: `"`, `\` and control characters escaped.
  static func string(_ value: String) -> String {
    // Every character that is escaped is ASCII: a value without one is copied whole.
    if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
      return "\"" + value + "\""
    }
    var text = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    return text + "\""
  }

  static func object(_ fields: [TimelineField]) -> String {
    "{" + fields.map { "\(string($0.key)): \(string($0.value))" }.joined(separator: ", ") + "}"
  }
}

// MARK: - CSV

extension Timeline {
  /// RFC 4180 CSV: `instant,utc,kind,subject,fields` with the fields column
  /// holding the entry's `key=value` pairs as in the canonical text.
  public var csv: String { TimelineEncoding.csv.document(self) }

  /// The value as an RFC 4180 field: double-quoted, with `""` for a quote,
  /// when it holds a comma, a quote or a line break.
  static func csvField(_ value: String) -> String {
    // Printable ASCII without a comma or quote is bare, decided on bytes; anything else by `Character`.
    if value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "\"") }) { return value }
    guard value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return value }
    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}

extension TimelineEntry {
  /// This entry as one CSV row (no line end): instant, utc, kind, subject,
  /// and its fields as `key=value` pairs as in the canonical text.
  var csvRow: String {
    let fields = fields.map { "\($0.key)=\(TimelineEntry.quoteIfNeeded($0.value))" }.joined(separator: " ")
    return [localInstant, utcInstant, kind.rawValue, ControlCharacterEscape.escaping(subject), fields].map(Timeline.csvField).joined(separator: ",")
  }
}
