/// The JSON type of a timeline field's value in the typed JSON and JSON
/// Lines outputs (`trigsim-timeline-2`).
///
/// Every field is text in the timeline (and in the canonical text and CSV).
/// The JSON outputs write a field as a number, a boolean or an object when
/// its key and its entry's kind say which (`TimelineFieldType.of(kind:key:)`),
/// never by looking at the text alone: `medicine=1` is an identifier and
/// stays a string, `visit=1` is a count and becomes `1`. A value that is not
/// in its type's canonical form (a scripted user-info field reusing a key)
/// is written as a string, so no text is lost; `decode` turns a typed value
/// back into exactly the text it came from.
public enum TimelineFieldType: Hashable, Sendable {
  /// A whole number written in decimal (`-?[1-9][0-9]*` or `0`), as a JSON integer.
  case integer
  /// A yes/no flag, written in the timeline as `trueText` or `falseText`, as a JSON boolean.
  case boolean(trueText: String, falseText: String)
  /// A follow-up's place in its chain, `STEP/OF` in the timeline, as `{"step": STEP, "of": OF}`.
  case followUp

  /// `yes` / `no`.
  public static let yesNo = TimelineFieldType.boolean(trueText: "yes", falseText: "no")

  /// The typed fields, by entry kind and key. Every other field is a string.
  ///
  /// - `visit` of `enter`, `exit`, `detected`, `undetected`: the visit's number.
  /// - `scheduled` and `fired`: `repeats` (yes/no), `badge` (the badge number
  ///   the request sets), and the medicine app's `reminder` (the daily time's
  ///   index), `snoozed` (snoozes so far) and `followup` (step of count).
  /// - `badge`: `to` and `from` (badge numbers; `by` is a description).
  /// - `sent`: `badge`, `priority` (APNs priority), `content-available` (`1` when set).
  /// - `filtered`: `priority`. `received`: `background` (yes/no).
  /// - `action`: `reported` (yes/no). `regions`: `added`, `removed`, `nearest` (counts).
  static let table: [TimelineEntry.Kind: [String: TimelineFieldType]] = {
    let visit: [String: TimelineFieldType] = ["visit": .integer]
    let request: [String: TimelineFieldType] = [
      "repeats": .yesNo, "badge": .integer, "reminder": .integer, "snoozed": .integer, "followup": .followUp,
    ]
    return [
      .enter: visit, .exit: visit, .detected: visit, .undetected: visit,
      .scheduled: request, .fired: request,
      .badge: ["to": .integer, "from": .integer],
      .sent: ["badge": .integer, "priority": .integer, "content-available": .boolean(trueText: "1", falseText: "0")],
      .filtered: ["priority": .integer],
      .received: ["background": .yesNo],
      .action: ["reported": .yesNo],
      .regions: ["added": .integer, "removed": .integer, "nearest": .integer],
    ]
  }()

  /// The type of field `key` in an entry of `kind`; nil for a string.
  public static func of(kind: TimelineEntry.Kind, key: String) -> TimelineFieldType? { table[kind]?[key] }

  /// Every typed field: kind, key and type, in kind order then key order (for the schema and documentation).
  public static var all: [(kind: TimelineEntry.Kind, key: String, type: TimelineFieldType)] {
    TimelineEntry.Kind.allCases.flatMap { kind in
      (table[kind] ?? [:]).keys.sorted().map { (kind, $0, table[kind]![$0]!) }
    }
  }

  /// The JSON text of `value` under this type, or nil when `value` is not in
  /// the type's canonical form (the caller then writes it as a string).
  public func json(_ value: String) -> String? {
    switch self {
    case .integer:
      return Self.canonicalInteger(value) != nil ? value : nil
    case .boolean(let trueText, let falseText):
      return value == trueText ? "true" : value == falseText ? "false" : nil
    case .followUp:
      let parts = value.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, let step = Self.canonicalInteger(String(parts[0])), let count = Self.canonicalInteger(String(parts[1])) else {
        return nil
      }
      return "{\"step\": \(step), \"of\": \(count)}"
    }
  }

  /// The timeline text of a boolean under this type (nil when it is not a boolean type).
  public func text(of flag: Bool) -> String? {
    guard case .boolean(let trueText, let falseText) = self else { return nil }
    return flag ? trueText : falseText
  }

  /// The integer `text` spells canonically (no sign but `-`, no leading zero, no `-0`), or nil.
  public static func canonicalInteger(_ text: String) -> Int? {
    guard let number = Int(text), String(number) == text else { return nil }
    return number
  }
}
