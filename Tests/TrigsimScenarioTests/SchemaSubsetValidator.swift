import Foundation
import Yams

/// A JSON value for schema checks: a parsed schema, or a YAML document read the way the YAML
/// language server reads it (YAML 1.2 core schema).
enum SchemaValue: Equatable, Decodable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([SchemaValue])
  case object([String: SchemaValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([SchemaValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: SchemaValue].self))
    }
  }

  /// The value of a YAML node. Quoted and block scalars are strings; a plain
  /// scalar is null, a boolean, an integer or a float when it matches the
  /// YAML 1.2 core schema's forms for them, else a string (so `off`, `yes`,
  /// `08:00` and `2026-03-28T09:00:00` are strings, as editors read them).
  init(yaml node: Node) {
    switch node {
    case .scalar(let scalar):
      self = scalar.style == .plain ? Self.coreSchemaValue(scalar.string) : .string(scalar.string)
    case .sequence(let sequence):
      self = .array(sequence.map(SchemaValue.init(yaml:)))
    case .mapping(let mapping):
      var members: [String: SchemaValue] = [:]
      for (key, value) in mapping { members[key.scalar?.string ?? "\(key)"] = SchemaValue(yaml: value) }
      self = .object(members)
    case .alias:
      self = .null  // Yams.compose resolves aliases; the bundled scenarios use none.
    }
  }

  /// The YAML 1.2 core schema's resolution of a plain scalar (YAML 1.2.2, 10.3.2).
  static func coreSchemaValue(_ text: String) -> SchemaValue {
    if ["", "~", "null", "Null", "NULL"].contains(text) { return .null }
    if ["true", "True", "TRUE"].contains(text) { return .bool(true) }
    if ["false", "False", "FALSE"].contains(text) { return .bool(false) }
    if text.wholeMatch(of: /[-+]?[0-9]+/) != nil, let value = Int(text) { return .integer(value) }
    if text.wholeMatch(of: /0o[0-7]+/) != nil, let value = Int(text.dropFirst(2), radix: 8) { return .integer(value) }
    if text.wholeMatch(of: /0x[0-9a-fA-F]+/) != nil, let value = Int(text.dropFirst(2), radix: 16) { return .integer(value) }
    if text.wholeMatch(of: /[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?/) != nil, let value = Double(text) { return .number(value) }
    if text.wholeMatch(of: /[-+]?\.(inf|Inf|INF)/) != nil { return .number(text.hasPrefix("-") ? -.infinity : .infinity) }
    if text.wholeMatch(of: /\.(nan|NaN|NAN)/) != nil { return .number(.nan) }
    return .string(text)
  }

  var objectMembers: [String: SchemaValue]? {
    if case .object(let members) = self { return members }
    return nil
  }
}

/// Checks a value against the subset of JSON Schema that
/// `scenario.schema.json` uses: `type`, `properties`, `additionalProperties`
/// (false or a schema), `required`, `enum`, `items`, `minItems`, `maxItems`,
/// `minimum`, `maximum`, `oneOf`, `anyOf` and `$ref` to a JSON pointer in the
/// same document. Any other keyword is reported as unsupported, so the schema
/// cannot rely on a rule this validator would skip.
struct SchemaSubsetValidator {
  /// Keywords that only annotate.
  static let annotations: Set<String> = ["$schema", "$comment", "title", "description"]
  static let assertions: Set<String> = [
    "type", "properties", "additionalProperties", "required", "enum", "items", "minItems", "maxItems", "minimum", "maximum",
    "oneOf", "anyOf", "$ref", "definitions",
  ]

  let root: SchemaValue

  /// Every problem of `value` against the root schema, as `path: message`, in document order of the schema's checks.
  func problems(of value: SchemaValue) -> [String] {
    problems(of: value, against: root, at: "$")
  }

  /// The schema a `$ref` such as `#/definitions/duration` points at.
  func resolve(_ reference: String) -> SchemaValue? {
    guard reference.hasPrefix("#") else { return nil }
    var node = root
    for token in reference.dropFirst().split(separator: "/") {
      let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
      switch node {
      case .object(let members):
        guard let next = members[key] else { return nil }
        node = next
      case .array(let items):
        guard let index = Int(key), items.indices.contains(index) else { return nil }
        node = items[index]
      default:
        return nil
      }
    }
    return node
  }

  func problems(of value: SchemaValue, against schema: SchemaValue, at path: String) -> [String] {
    guard let rules = schema.objectMembers else { return ["\(path): the schema here is not an object"] }
    var found: [String] = []
    for keyword in rules.keys.sorted() where !Self.annotations.contains(keyword) && !Self.assertions.contains(keyword) {
      found.append("\(path): unsupported schema keyword '\(keyword)'")
    }
    if case .string(let reference)? = rules["$ref"] {
      guard let target = resolve(reference) else { return found + ["\(path): unresolved $ref '\(reference)'"] }
      found += problems(of: value, against: target, at: path)
    }
    if let type = rules["type"], !Self.value(value, hasType: type) {
      return found + ["\(path): \(Self.describe(value)) is not of type \(Self.describe(type))"]
    }
    if case .array(let allowed)? = rules["enum"], !allowed.contains(where: { Self.equal($0, value) }) {
      found.append("\(path): \(Self.describe(value)) is not one of \(allowed.map(Self.describe).joined(separator: ", "))")
    }
    if let minimum = rules["minimum"].flatMap(Self.double), let number = Self.double(value), number < minimum {
      found.append("\(path): \(Self.describe(value)) is below the minimum \(Self.describe(rules["minimum"]!))")
    }
    if let maximum = rules["maximum"].flatMap(Self.double), let number = Self.double(value), number > maximum {
      found.append("\(path): \(Self.describe(value)) is above the maximum \(Self.describe(rules["maximum"]!))")
    }
    if case .object(let members) = value {
      let properties = rules["properties"]?.objectMembers ?? [:]
      for name in members.keys.sorted() {
        let member = members[name]!
        if let propertySchema = properties[name] {
          found += problems(of: member, against: propertySchema, at: "\(path).\(name)")
        } else if let additional = rules["additionalProperties"] {
          if additional == .bool(false) {
            found.append("\(path): unknown key '\(name)'")
          } else if additional != .bool(true) {
            found += problems(of: member, against: additional, at: "\(path).\(name)")
          }
        }
      }
      if case .array(let required)? = rules["required"] {
        for case .string(let name) in required where members[name] == nil {
          found.append("\(path): missing required key '\(name)'")
        }
      }
    }
    if case .array(let items) = value {
      if let itemSchema = rules["items"] {
        for (index, item) in items.enumerated() { found += problems(of: item, against: itemSchema, at: "\(path)[\(index)]") }
      }
      if case .integer(let least)? = rules["minItems"], items.count < least { found.append("\(path): fewer than \(least) items") }
      if case .integer(let most)? = rules["maxItems"], items.count > most { found.append("\(path): more than \(most) items") }
    }
    if case .array(let branches)? = rules["anyOf"] {
      let results = branches.map { problems(of: value, against: $0, at: path) }
      if !results.contains(where: \.isEmpty) {
        found.append("\(path): matches none of anyOf: " + results.map { $0.first ?? "" }.joined(separator: " | "))
      }
    }
    if case .array(let branches)? = rules["oneOf"] {
      let results = branches.map { problems(of: value, against: $0, at: path) }
      let matching = results.filter(\.isEmpty).count
      if matching != 1 { found.append("\(path): matches \(matching) of the \(branches.count) branches of oneOf") }
    }
    return found
  }

  static func value(_ value: SchemaValue, hasType type: SchemaValue) -> Bool {
    switch type {
    case .string(let name): return Self.value(value, hasTypeNamed: name)
    case .array(let names): return names.contains { if case .string(let name) = $0 { Self.value(value, hasTypeNamed: name) } else { false } }
    default: return false
    }
  }

  static func value(_ value: SchemaValue, hasTypeNamed name: String) -> Bool {
    switch (name, value) {
    case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): return true
    case ("integer", .integer), ("number", .integer), ("number", .number): return true
    case ("integer", .number(let number)): return number.rounded() == number
    default: return false
    }
  }

  static func double(_ value: SchemaValue) -> Double? {
    switch value {
    case .integer(let number): Double(number)
    case .number(let number): number
    default: nil
    }
  }

  /// JSON Schema equality: 1 and 1.0 are equal.
  static func equal(_ left: SchemaValue, _ right: SchemaValue) -> Bool {
    if let a = double(left), let b = double(right) { return a == b }
    return left == right
  }

  static func describe(_ value: SchemaValue) -> String {
    switch value {
    case .null: "null"
    case .bool(let flag): "\(flag)"
    case .integer(let number): "\(number)"
    case .number(let number): "\(number)"
    case .string(let text): "'\(text)'"
    case .array(let items): "[" + items.map(describe).joined(separator: ", ") + "]"
    case .object: "an object"
    }
  }
}
