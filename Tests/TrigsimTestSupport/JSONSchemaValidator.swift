import Foundation

/// A JSON value as decoded, keeping booleans, integers and other numbers apart.
public indirect enum JSONTree: Decodable, Equatable, Sendable {
  case null
  case boolean(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([JSONTree])
  case object([String: JSONTree])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() { self = .null } else if let flag = try? container.decode(Bool.self) {
      self = .boolean(flag)
    } else if let whole = try? container.decode(Int.self) {
      self = .integer(whole)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let array = try? container.decode([JSONTree].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: JSONTree].self))
    }
  }

  /// Decodes one JSON text.
  public static func parse(_ text: String) throws -> JSONTree { try JSONDecoder().decode(JSONTree.self, from: Data(text.utf8)) }

  public subscript(key: String) -> JSONTree? {
    guard case .object(let members) = self else { return nil }
    return members[key]
  }
}

/// A small JSON Schema (2020-12) validator for trigsim's own schemas: it
/// knows `type`, `const`, `enum`, `pattern`, `minimum`, `required`,
/// `properties`, `additionalProperties`, `items`, `$ref` to `#/$defs/NAME`,
/// `allOf` and `if`/`then`; annotations (`description`, `title`) are
/// ignored, and any other keyword is a failure of the schema itself, so a
/// schema never silently checks less than it says.
public struct JSONSchemaValidator: Sendable {
  public let root: JSONTree

  public init(schema: JSONTree) { root = schema }

  static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs"]
  static let keywords: Set<String> = [
    "type", "const", "enum", "pattern", "minimum", "required", "properties", "additionalProperties", "items", "$ref", "allOf", "if", "then",
  ]

  /// Every violation of the schema by `value`, as `PATH: what is wrong`, in document order; empty when it validates.
  public func problems(_ value: JSONTree, schema: JSONTree? = nil, path: String = "$") -> [String] {
    guard case .object(let rules) = schema ?? root else { return ["\(path): the schema is not an object"] }
    var problems: [String] = []
    for key in rules.keys.sorted() where !Self.keywords.contains(key) && !Self.annotations.contains(key) {
      problems.append("\(path): unsupported schema keyword '\(key)'")
    }
    if case .string(let reference) = rules["$ref"] {
      let name = reference.replacingOccurrences(of: "#/$defs/", with: "")
      guard let target = root["$defs"]?[name] else { return problems + ["\(path): unknown $ref '\(reference)'"] }
      problems += self.problems(value, schema: target, path: path)
    }
    if case .string(let type) = rules["type"], !Self.has(value, type: type) {
      problems.append("\(path): \(Self.describe(value)) is not of type \(type)")
    }
    if let constant = rules["const"], constant != value { problems.append("\(path): \(Self.describe(value)) is not the constant") }
    if case .array(let choices) = rules["enum"], !choices.contains(value) { problems.append("\(path): \(Self.describe(value)) is not in the enum") }
    if case .string(let pattern) = rules["pattern"], case .string(let text) = value,
      text.range(of: pattern, options: .regularExpression) == nil
    {
      problems.append("\(path): '\(text)' does not match \(pattern)")
    }
    if case .integer(let minimum) = rules["minimum"], case .integer(let number) = value, number < minimum {
      problems.append("\(path): \(number) is less than \(minimum)")
    }
    if case .object(let members) = value {
      if case .array(let required) = rules["required"] {
        for case .string(let key) in required where members[key] == nil { problems.append("\(path): missing '\(key)'") }
      }
      let properties: [String: JSONTree]
      if case .object(let declared) = rules["properties"] { properties = declared } else { properties = [:] }
      for key in members.keys.sorted() {
        if let property = properties[key] {
          problems += self.problems(members[key]!, schema: property, path: "\(path).\(key)")
        } else if let additional = rules["additionalProperties"] {
          if additional == .boolean(false) {
            problems.append("\(path): unexpected '\(key)'")
          } else if additional != .boolean(true) {
            problems += self.problems(members[key]!, schema: additional, path: "\(path).\(key)")
          }
        }
      }
    }
    if case .array(let elements) = value, let items = rules["items"] {
      for (index, element) in elements.enumerated() { problems += self.problems(element, schema: items, path: "\(path)[\(index)]") }
    }
    if case .array(let all) = rules["allOf"] {
      for schema in all { problems += self.problems(value, schema: schema, path: path) }
    }
    if let condition = rules["if"], self.problems(value, schema: condition, path: path).isEmpty, let then = rules["then"] {
      problems += self.problems(value, schema: then, path: path)
    }
    return problems
  }

  static func has(_ value: JSONTree, type: String) -> Bool {
    switch (type, value) {
    case ("null", .null), ("boolean", .boolean), ("integer", .integer), ("number", .integer), ("number", .number),
      ("string", .string), ("array", .array), ("object", .object):
      true
    default: false
    }
  }

  static func describe(_ value: JSONTree) -> String {
    switch value {
    case .null: "null"
    case .boolean(let flag): "\(flag)"
    case .integer(let number): "\(number)"
    case .number(let number): "\(number)"
    case .string(let text): "'\(text)'"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
