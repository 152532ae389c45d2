import TrigsimCore
import Yams

/// Reads a YAML document as located nodes and collects diagnostics about it.
///
/// Every helper takes the node it reads from, so a problem is reported at the
/// line and column of the value (or key) the user has to change.
final class YAMLDocument {
  let file: String
  let text: String
  var diagnostics = DiagnosticCollector(keepsFirstByLocation: true)
  /// The document's root once composed: where an unknown key was written (`ScenarioKeyPlaces`).
  private(set) var rootNode: Node?

  init(file: String, text: String) {
    self.file = file
    self.text = text
  }

  func location(_ node: Node) -> InputLocation {
    let mark = node.mark
    return InputLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
  }

  func error(_ node: Node, _ message: String, notes: [String] = []) {
    diagnostics.append(Diagnostic(.error, at: location(node), message, notes: notes))
  }

  func error(at location: InputLocation, _ message: String, notes: [String] = []) {
    diagnostics.append(Diagnostic(.error, at: location, message, notes: notes))
  }

  /// The root node, or nil after reporting a syntax error or aliases that
  /// could expand the document too far (`YAMLEventCheck`, checked before
  /// Yams composes the tree).
  func root() -> Node? {
    let aliasProblems = YAMLEventCheck.problems(in: text)
    guard aliasProblems.isEmpty else {
      for problem in aliasProblems {
        error(at: InputLocation(file: file, line: problem.line, column: problem.column), problem.message, notes: problem.notes)
      }
      return nil
    }
    do {
      rootNode = try Yams.compose(yaml: text)
      guard let node = rootNode else {
        error(at: InputLocation(file: file, line: 1, column: 1), "the scenario file is empty",
              notes: ["start with 'trigsim: 1' and a 'clock:' section; see the manual's \"Scenario format\" article (Sources/TrigsimScenario/TrigsimScenario.docc/ScenarioFormat.md)"])
        return nil
      }
      return node
    } catch let yamlError as YamlError {
      let (position, message) = Self.describe(yamlError)
      error(at: InputLocation(file: file, line: position?.line ?? 1, column: position?.column ?? 1), "invalid YAML: \(message)")
      return nil
    } catch {
      self.error(at: InputLocation(file: file, line: 1, column: 1), "invalid YAML: \(error)")
      return nil
    }
  }

  /// Where a Yams error is (1-based) and what it says, without the file's
  /// text that Yams' own descriptions quote.
  private static func describe(_ error: YamlError) -> ((line: Int, column: Int)?, String) {
    switch error {
    case .scanner(let context, let problem, let mark, _):
      return ((mark.line, mark.column), [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": "))
    case .parser(let context, let problem, let mark, _):
      return ((mark.line, mark.column), [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": "))
    case .composer(let context, let problem, let mark, _):
      return ((mark.line, mark.column), [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": "))
    case .reader(let problem, let offset, let value, let text):
      // Yams' own description quotes the line as it is (control characters
      // included); give its position and the character's code instead.
      let code = String(value, radix: 16, uppercase: true)
      let shown = value >= 0 ? " (U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code + ")" : ""
      return (offset.map { position(ofCharacter: $0, in: text) }, problem + shown)
    case .duplicatedKeysInMapping(let duplicates, let context):
      // Yams' own description quotes the whole file; name the keys only.
      let keys = MessageList.joined(duplicates.lazy.map { Diagnostic.quote($0) }, limit: 5)
      return ((context.mark.line, context.mark.column), "key \(keys) appears more than once in a mapping")
    default:
      return (nil, "\(error)")
    }
  }

  /// The most names a note lists (`nameList`).
  static let longestNameList = 20

  /// Names the user declared, for a note: each cut by `Diagnostic.excerpt`, at
  /// most `longestNameList` of them, then how many more (`MessageList`).
  static func nameList(_ names: [String]) -> String {
    MessageList.joined(names.lazy.map { Diagnostic.excerpt($0) }, limit: longestNameList)
  }

  /// The 1-based line and column (in Unicode scalars) of the character
  /// `offset` characters into `text`.
  private static func position(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for character in text.prefix(offset) {
      if character == "\n" || character == "\r\n" {
        line += 1
        column = 1
      } else {
        column += character.unicodeScalars.count
      }
    }
    return (line, column)
  }

  // MARK: - Shapes

  /// The node's key/value pairs after reporting unknown and repeated keys.
  func mapping(_ node: Node, what: String, keys allowed: [String]) -> MappingFields? {
    guard let mapping = node.mapping else {
      error(node, "\(what) must be a mapping of keys to values", notes: [Self.mappingExample(keys: allowed), "expected keys: \(allowed.joined(separator: ", "))"])
      return nil
    }
    var fields = MappingFields(node: node)
    for (keyNode, value) in mapping {
      guard let key = keyNode.scalar?.string else {
        error(keyNode, "keys in \(what) must be plain names")
        continue
      }
      if !allowed.contains(key) {
        let suggestion = NameSuggestion.closest(to: key, among: allowed)
        // A key valid elsewhere in the format is placed there, not listed among these (`ScenarioKeyPlaces`'s rule).
        if let rootNode, let path = ScenarioKeyPlaces.path(to: node, in: rootNode),
          let place = ScenarioKeyPlaces.scenario.placement(of: key, writtenAt: path), place.shared > 0 || suggestion == nil
        {
          error(keyNode, "unknown key '\(Diagnostic.excerpt(key))' in \(what): it belongs under '\(ScenarioKeyPlaces.spelled(key, at: place.path))'",
                notes: ["move it there"])
          continue
        }
        var notes: [String] = []
        if let suggestion { notes.append("did you mean '\(suggestion)'?") }
        notes.append("\(what) accepts: \(allowed.joined(separator: ", "))")
        error(keyNode, "unknown key '\(Diagnostic.excerpt(key))' in \(what)", notes: notes)
        continue
      }
      if fields.values[key] != nil {
        error(keyNode, "key '\(Diagnostic.excerpt(key))' appears twice in \(what)", notes: ["remove one of them"])
        continue
      }
      fields.values[key] = value
      fields.keyNodes[key] = keyNode
    }
    return fields
  }

  /// The items of a list; when the node is not a list, reports it with an
  /// example of the list's form (`example`, else `listExamples[what]`, else a
  /// form built from the key's name).
  func sequence(_ node: Node, what: String, example: String? = nil) -> [Node]? {
    guard let sequence = node.sequence else {
      error(node, "\(what) must be a list", notes: [Self.listExample(what: what, example: example)])
      return nil
    }
    return Array(sequence)
  }

  /// A single value; a list or mapping is reported with an example of the form.
  /// The node's text; nil, with a diagnostic, when it is a list or mapping,
  /// or longer than `limit` allows (`TextLimit`; every value is already at
  /// most `TextLimit.value`).
  func string(_ node: Node, what: String, limit: TextLimit.Kind? = nil) -> String? {
    guard let scalar = node.scalar else {
      let key = Self.keyName(what)
      let example = key.map { "e.g. '\($0): value', with one value after the colon" } ?? "write one value, not '- ' items or 'key: value' lines"
      error(node, "\(what) must be a single value, not a list or mapping", notes: [example])
      return nil
    }
    if let limit, let problem = TextLimit.problem(scalar.string, limit, what: what) {
      error(node, problem.message, notes: problem.notes)
      return nil
    }
    return scalar.string
  }

  // MARK: - Examples of the expected form

  /// Examples for the lists the scenario format has, by the `what` that names them.
  static let listExamples: [String: String] = [
    "'medicines'": "e.g. medicines: [{ id: 1, name: Metformin, dosage: 500, unit: mg, times: [\"08:00\"] }], or one '- id: ...' item per medicine",
    "'times'": "e.g. times: [\"08:00\", \"20:00\"]",
    "'regions'": "e.g. regions: [{ id: home, center: [55.68, 12.57], radius: 100 }], or one '- id: ...' item per region",
    "'notifications'": "e.g. notifications: [{ id: water, trigger: { interval: 2h } }], or one '- id: ...' item per notification",
    "'on'": "e.g. on: [enter] or on: [enter, exit]",
    "'edits'": "e.g. edits: [{ at: 2026-03-28T12:00:00, times: [\"09:00\"] }]",
    "'app'": "e.g. app: [{ at: 2026-03-28T09:00:00, state: background }]",
    "'actions'": "e.g. actions: [{ at: 2026-03-28T08:02:00, notification: medicine_1_reminder_0, action: snooze 15m }]",
    "'respond'": "e.g. respond: [{ to: \"medicine_1_*\", after: 2m, actions: [snooze 15m, complete] }]",
    "'assert'": "e.g. assert: [{ dosesNotified: { within: 5m } }, { noPendingLimitDrops: true }]",
    "polygon": "e.g. polygon: [[55.68, 12.57], [55.69, 12.57], [55.69, 12.58]] (latitude, longitude pairs)",
    "'changes'": "e.g. changes: [{ at: 2026-03-29T10:00:00, timezone: America/New_York }]",
    "'snoozeOptions'": "e.g. snoozeOptions: [5m, 15m, 30m]",
    "'ignoreFields'": "e.g. ignoreFields: [trigger, next]",
    "'ignoreKinds'": "e.g. ignoreKinds: [scheduled, removed]",
    "'ignoreHeader'": "e.g. ignoreHeader: [track, platform]",
    "'days'": "e.g. days: [mon, tue, wed]",
    "'settings'": "e.g. settings: [{ at: 2026-03-28T09:00:00, alerts: off }]",
    "'focus'": "e.g. focus: [{ name: Sleep, from: \"22:00\", to: \"07:00\" }]",
    "'power'": "e.g. power: [{ at: 2026-03-28T13:00:00, event: off }]",
    "'network'": "e.g. network: [{ at: 2026-03-28T13:00:00, state: offline }]",
    "'send'": "e.g. send: [{ at: 2026-03-28T09:00:00, id: c1, title: New comment }]",
    "'preferences'": "e.g. preferences: [{ at: 2026-03-28T09:00:00, types: { new_comment: off } }]",
  ]

  /// A note with an example of a list: `example` when given, else the
  /// catalogued one for `what`, else the two list forms with the key's name.
  static func listExample(what: String, example: String?) -> String {
    if let example { return example.hasPrefix("e.g.") ? example : "e.g. \(example)" }
    if let known = listExamples[what] { return known }
    let key = keyName(what) ?? "key"
    return "e.g. '\(key): [first, second]', or one '- item' per line under '\(key):'"
  }

  /// A note with an example of a mapping: its first allowed keys in flow form.
  static func mappingExample(keys: [String]) -> String {
    let shown = keys.prefix(2).map { "\($0): …" }.joined(separator: ", ")
    return "e.g. { \(shown) }, or one 'key: value' line per key, indented under it"
  }

  /// The key a `what` names when it is a quoted key ("'times'" → times), else nil.
  static func keyName(_ what: String) -> String? {
    guard what.count > 2, what.hasPrefix("'"), what.hasSuffix("'"), !what.dropFirst().dropLast().contains("'") else { return nil }
    return String(what.dropFirst().dropLast())
  }

  func double(_ node: Node, what: String) -> Double? {
    guard let text = string(node, what: what) else { return nil }
    switch DecimalNumber.parse(text) {
    case .success(let value):
      return value
    case .failure(.notADecimal):
      error(node, "\(what) must be a number, not '\(Diagnostic.excerpt(text))'", notes: ["e.g. 100 or 55.676 (digits, '.' for decimals, no unit)"])
    case .failure(.tooLarge):
      error(node, "\(what) '\(Diagnostic.excerpt(text))' is too large for a number", notes: [DecimalNumber.tooLargeNote])
    }
    return nil
  }

  func integer(_ node: Node, what: String, range: ClosedRange<Int>) -> Int? {
    guard let text = string(node, what: what) else { return nil }
    guard let value = Int(text) else {
      // All digits, but beyond Int: the range is what the user needs to know.
      let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
      if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
        error(node, "\(what) must be between \(range.lowerBound) and \(range.upperBound), not \(Diagnostic.excerpt(text))")
      } else {
        error(node, "\(what) must be a whole number, not '\(Diagnostic.excerpt(text))'", notes: ["e.g. \(range.contains(3) ? 3 : range.lowerBound) (digits only, no unit)"])
      }
      return nil
    }
    guard range.contains(value) else {
      error(node, "\(what) must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
      return nil
    }
    return value
  }

  func bool(_ node: Node, what: String) -> Bool? {
    guard let text = string(node, what: what) else { return nil }
    switch text {
    case "true", "yes": return true
    case "false", "no": return false
    default:
      var notes: [String] = []
      if let suggestion = NameSuggestion.closest(to: text.lowercased(), among: ["true", "false"]) { notes.append("did you mean '\(suggestion)'?") }
      error(node, "\(what) must be true or false, not '\(Diagnostic.excerpt(text))'", notes: notes + ["e.g. true (yes and no work too)"])
      return nil
    }
  }

  /// One of a fixed set of words, with a suggestion when it is close to one.
  func choice<T>(_ node: Node, what: String, _ options: [(String, T)]) -> T? {
    guard let text = string(node, what: what) else { return nil }
    if let match = options.first(where: { $0.0 == text }) { return match.1 }
    let names = options.map(\.0)
    var notes: [String] = []
    if let suggestion = NameSuggestion.closest(to: text, among: names) { notes.append("did you mean '\(suggestion)'?") }
    notes.append("choose one of: \(names.joined(separator: ", "))")
    error(node, "unknown \(what) '\(Diagnostic.excerpt(text))'", notes: notes)
    return nil
  }
}

/// The values of one YAML mapping, by key, with the key nodes for locations.
struct MappingFields {
  let node: Node
  var values: [String: Node] = [:]
  var keyNodes: [String: Node] = [:]

  subscript(_ key: String) -> Node? { values[key] }
}
