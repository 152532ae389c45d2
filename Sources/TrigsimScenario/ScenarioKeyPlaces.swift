import Foundation
import Yams

/// Where each key of the scenario format is valid, read from the one
/// description of the format's shape: `Resources/scenario.schema.json`
/// (embedded at build time; `ScenarioSchemaTests` holds it to the loader's
/// key lists), never from a list kept by hand.
///
/// A place is the path of mappings from the document's root to the mapping
/// that accepts the key: a key name per mapping, `[]` for an item of a list,
/// `*` for a mapping whose keys the user names (a place set under `places:`).
///
/// The rule for an unknown key (`placement(of:writtenAt:)`): among the
/// places that accept it, the one sharing the longest path prefix with the
/// mapping it was written in, when exactly one does. So `exactAlarms` written
/// directly under `platform:` belongs under `platform: { android: … }`
/// (sharing `platform`), not under an `app:` item (sharing nothing). The
/// loader names that place unless it shares nothing with where the key was
/// written and the key is a near spelling of one the mapping accepts: `time`
/// in a medicine is `times` misspelt, not `track: { columns: { time } }`.
struct ScenarioKeyPlaces: Sendable {
  /// Each key's places, in the schema's order of first appearance.
  let places: [String: [[String]]]

  /// The places of the embedded schema, parsed once.
  static let scenario = ScenarioKeyPlaces(schemaJSON: PackageResources.scenario_schema_json)

  init(schemaJSON: [UInt8]) {
    guard let root = try? JSONSerialization.jsonObject(with: Data(schemaJSON)) as? [String: Any] else {
      places = [:]
      return
    }
    let definitions = root["definitions"] as? [String: Any] ?? [:]
    var found: [String: [[String]]] = [:]
    func walk(_ schema: Any?, _ path: [String], _ references: Set<String>) {
      guard let schema = schema as? [String: Any] else { return }
      if let reference = schema["$ref"] as? String, let name = reference.split(separator: "/").last.map(String.init),
        !references.contains(name)
      {
        walk(definitions[name], path, references.union([name]))
      }
      for keyword in ["anyOf", "oneOf", "allOf"] {
        for branch in schema[keyword] as? [Any] ?? [] { walk(branch, path, references) }
      }
      if let items = schema["items"] { walk(items, path + ["[]"], references) }
      if let properties = schema["properties"] as? [String: Any] {
        // Sorted: the schema's object order is not kept by JSONSerialization.
        for key in properties.keys.sorted() {
          if found[key]?.contains(path) != true { found[key, default: []].append(path) }
          walk(properties[key], path + [key], references)
        }
      }
      if let additional = schema["additionalProperties"] as? [String: Any] { walk(additional, path + ["*"], references) }
    }
    walk(root, [], [])
    places = found
  }

  /// The place `key` belongs at, for a key written in the mapping at
  /// `path` where it is not valid: see the type's rule. Nil when no place or
  /// more than one place fits.
  func placement(of key: String, writtenAt path: [String]) -> Placement? {
    guard let candidates = places[key], !candidates.isEmpty else { return nil }
    func shared(_ place: [String]) -> Int {
      zip(place, path).prefix { $0 == $1 || $0 == "*" }.count
    }
    let best = candidates.map(shared).max()!
    let nearest = candidates.filter { shared($0) == best }
    return nearest.count == 1 ? Placement(path: nearest[0], shared: best) : nil
  }

  /// Where a key belongs: the path of the mapping that accepts it, and how
  /// many of its steps it shares with the path where the key was written
  /// (0: another section altogether, where a near spelling of a key of the
  /// mapping it was written in is the likelier mistake).
  struct Placement: Equatable {
    var path: [String]
    var shared: Int
  }

  /// `platform: { android: { exactAlarms: … } }`; a list item is `[{ … }]`,
  /// a user-named key `<name>`.
  static func spelled(_ key: String, at place: [String]) -> String {
    var text = "\(key): …"
    for step in place.reversed() {
      switch step {
      case "[]": text = "[{ \(text) }]"
      case "*": text = "<name>: { \(text) }"
      default: text = "\(step): { \(text) }"
      }
    }
    // A list item directly under its key reads `medicines: [{ … }]`, not `medicines: { [{ … }] }`.
    return text.replacingOccurrences(of: ": { [{", with: ": [{").replacingOccurrences(of: "}] }", with: "}]")
  }

  /// The path of mapping keys (and `[]` for list items) from `root` to the
  /// mapping node that starts at `target`'s position; nil when none does.
  static func path(to target: Node, in root: Node) -> [String]? {
    guard let mark = target.mark else { return nil }
    func search(_ node: Node, _ path: [String]) -> [String]? {
      if let mapping = node.mapping {
        if node.mark?.line == mark.line && node.mark?.column == mark.column { return path }
        for (key, value) in mapping {
          if let found = search(value, path + [key.scalar?.string ?? "*"]) { return found }
        }
      } else if let sequence = node.sequence {
        for item in sequence {
          if let found = search(item, path + ["[]"]) { return found }
        }
      }
      return nil
    }
    return search(root, [])
  }
}
