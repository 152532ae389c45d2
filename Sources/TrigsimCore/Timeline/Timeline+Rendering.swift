import Foundation

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
  public var canonicalText: String {
    var text = Self.formatLine + "\n"
    for field in header {
      // A header value never ends its line early: newlines are escaped.
      let value = field.value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
        .replacingOccurrences(of: "\r", with: "\\r")
      text += "# \(field.key): \(value)\n"
    }
    for entry in entries { text += entry.canonicalLine + "\n" }
    return text
  }
}

extension TimelineEntry {
  /// The width of the kind column: the longest kind, `rescheduled`.
  static let kindColumnWidth = Kind.allCases.map(\.rawValue.count).max()!

  /// This entry as one line of canonical text (no newline).
  public var canonicalLine: String {
    var line = localInstant + " " + kind.rawValue.padding(toLength: TimelineEntry.kindColumnWidth, withPad: " ", startingAt: 0) + " "
      + TimelineEntry.quoteIfNeeded(subject)
    for field in fields { line += " \(field.key)=\(TimelineEntry.quoteIfNeeded(field.value))" }
    return line
  }

  /// The value as written in canonical text: bare when it is a plain word,
  /// else double-quoted with `\"`, `\\`, `\n`, `\r` and `\t` escapes, so a
  /// value never spans lines. Works on Unicode scalars, so a `\r\n` pair (one
  /// `Character`) is escaped like any other newline.
  static func quoteIfNeeded(_ value: String) -> String {
    let needsQuotes = value.isEmpty || value.unicodeScalars.contains {
      $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\\" || $0 == "\t" || $0.properties.isWhitespace && $0 != " " || $0.value < 0x20
    }
    guard needsQuotes else { return value }
    var quoted = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      case "\r": quoted += "\\r"
      case "\t": quoted += "\\t"
      default: quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted + "\""
  }
}

// MARK: - JSON

extension Timeline {
  /// A JSON document: `{"header": {...}, "entries": [{"instant": ..., "utc": ..., "kind": ..., "subject": ..., "fields": {...}}]}`.
  ///
  /// Keys keep a fixed order (header and fields in their timeline order), so
  /// identical runs give byte-identical documents.
  public var json: String { json(summary: nil) }

  /// The JSON document, with a `summary` member after `entries` when given.
  func json(summary: String?) -> String {
    var text = "{\n  \"format\": \"trigsim-timeline-1\",\n  \"header\": " + JSONText.object(header) + ",\n  \"entries\": ["
    for (index, entry) in entries.enumerated() {
      text += (index == 0 ? "\n    " : ",\n    ") + entry.json
    }
    text += entries.isEmpty ? "]" : "\n  ]"
    if let summary { text += ",\n  \"summary\": " + summary }
    return text + "\n}\n"
  }

  /// JSON Lines: one entry object per line, no header.
  public var jsonLines: String { entries.map { $0.json + "\n" }.joined() }
}

extension TimelineEntry {
  /// This entry as one JSON object on one line.
  public var json: String {
    "{\"instant\": \(JSONText.string(localInstant)), \"utc\": \(JSONText.string(instant.description)), "
      + "\"kind\": \(JSONText.string(kind.rawValue)), \"subject\": \(JSONText.string(subject)), "
      + "\"fields\": \(JSONText.object(fields))}"
  }
}

enum JSONText {
  static func string(_ value: String) -> String {
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
  public var csv: String {
    var text = "instant,utc,kind,subject,fields\r\n"
    for entry in entries {
      let fields = entry.fields.map { "\($0.key)=\(TimelineEntry.quoteIfNeeded($0.value))" }.joined(separator: " ")
      text += [entry.localInstant, entry.instant.description, entry.kind.rawValue, entry.subject, fields]
        .map(Self.csvField).joined(separator: ",") + "\r\n"
    }
    return text
  }

  static func csvField(_ value: String) -> String {
    guard value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return value }
    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
