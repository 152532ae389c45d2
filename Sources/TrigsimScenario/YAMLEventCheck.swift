// CYaml is the libyaml that Yams builds and uses. Yams composes aliases into
// nodes without a hook, and hashes every mapping key while composing (to find
// repeated keys), so a "billion laughs" built from aliases in keys hangs inside
// `Yams.compose` before any of our code sees a node. The check below therefore
// reads libyaml's events itself, from the same parser Yams uses (so the same
// grammar and the same marks), before Yams composes anything. SwiftPM puts the
// C modules of dependencies on the import path; should Yams rename its copy of
// libyaml, this import fails at build time, never silently.
internal import CYaml
import TrigsimCore

/// Refuses YAML that could make a small file expand into a huge tree or
/// huge values, before anything composes, hashes or walks it:
///
/// - A value (a scalar, key or value) longer than `TextLimit.value` Unicode
///   scalars is an error at its start: nothing in a scenario needs more, and
///   every reader may then assume its values are bounded.
/// - An alias inside a mapping key (as the key, or anywhere within a key that
///   is itself a list or mapping) is always an error: a key is hashed and
///   compared whole, and trigsim's keys are plain names anyway.
/// - All aliases of a document together may expand to at most
///   `expansionBudget` nodes (each alias counts every node of its anchor's
///   value, aliases within it expanded). The alias that crosses the budget is
///   reported, and the check stops there.
///
/// Counting happens on libyaml's event stream, in time linear in the text and
/// memory proportional to the nesting depth and the number of anchors. A
/// syntax error ends the check without a problem: composing reports it.
enum YAMLEventCheck {
  /// The most nodes the aliases of one document may add to it (the manual's
  /// "YAML aliases"). Reusing a region list or a calendar a few times stays
  /// far below it; a "billion laughs" crosses it within a few aliases.
  static let expansionBudget = 10_000

  struct Problem: Equatable {
    /// 1-based, as Yams' marks.
    var line: Int
    var column: Int
    var message: String
    var notes: [String]
  }

  /// The problems of `text`'s aliases, in file order.
  static func problems(in text: String) -> [Problem] {
    var text = text
    return text.withUTF8 { bytes in scan(bytes) }
  }

  /// A list or mapping whose end has not been read yet.
  private struct OpenCollection {
    var isMapping: Bool
    /// In a mapping: whether the next node is a key.
    var expectsKey = true
    /// Whether the collection is itself (inside) a mapping key.
    var isInsideKey: Bool
    /// Nodes so far, itself included, aliases expanded.
    var nodeCount = 1
    var anchor: String?
  }

  private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> [Problem] {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else { return [] }
    defer { yaml_parser_delete(&parser) }
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
    yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)

    var problems: [Problem] = []
    var open: [OpenCollection] = []
    var anchorSizes: [String: Int] = [:]
    var expandedByAliases = 0

    /// Whether a node starting now is (inside) a mapping key.
    func startsInsideKey() -> Bool {
      guard let top = open.last else { return false }
      return top.isInsideKey || (top.isMapping && top.expectsKey)
    }
    /// Counts a finished node into the collection that holds it.
    func finish(nodeCount: Int) {
      guard !open.isEmpty else { return }
      open[open.count - 1].nodeCount += nodeCount
      if open[open.count - 1].isMapping { open[open.count - 1].expectsKey.toggle() }
    }
    func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
      pointer.map { String(cString: $0) }
    }
    /// Unicode scalars in `byteCount` bytes of UTF-8 (libyaml has checked
    /// the encoding): the bytes that do not continue a scalar.
    func scalarCount(_ bytes: UnsafeMutablePointer<yaml_char_t>?, byteCount: Int) -> Int {
      guard let bytes else { return 0 }
      var count = 0
      for index in 0..<byteCount where bytes[index] & 0xC0 != 0x80 { count += 1 }
      return count
    }

    while true {
      var event = yaml_event_t()
      guard yaml_parser_parse(&parser, &event) == 1 else { return problems }
      defer { yaml_event_delete(&event) }
      let line = Int(event.start_mark.line) + 1
      let column = Int(event.start_mark.column) + 1
      switch event.type {
      case YAML_STREAM_END_EVENT:
        return problems
      case YAML_DOCUMENT_START_EVENT:
        open = []
        anchorSizes = [:]
        expandedByAliases = 0
      case YAML_SCALAR_EVENT:
        let length = scalarCount(event.data.scalar.value, byteCount: event.data.scalar.length)
        if length > TextLimit.value {
          problems.append(
            Problem(
              line: line, column: column, message: "this value is \(length) characters long, more than the \(TextLimit.value) a scenario value may have",
              notes: ["a scenario holds names, times and short texts; shorten it (a notification's body is at most \(TextLimit.body) characters)"]))
        }
        if let anchor = name(event.data.scalar.anchor) { anchorSizes[anchor] = 1 }
        finish(nodeCount: 1)
      case YAML_SEQUENCE_START_EVENT:
        open.append(OpenCollection(isMapping: false, isInsideKey: startsInsideKey(), anchor: name(event.data.sequence_start.anchor)))
      case YAML_MAPPING_START_EVENT:
        open.append(OpenCollection(isMapping: true, isInsideKey: startsInsideKey(), anchor: name(event.data.mapping_start.anchor)))
      case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
        guard let closed = open.popLast() else { break }
        if let anchor = closed.anchor { anchorSizes[anchor] = closed.nodeCount }
        finish(nodeCount: closed.nodeCount)
      case YAML_ALIAS_EVENT:
        let anchor = name(event.data.alias.anchor) ?? ""
        let shown = Diagnostic.excerpt(anchor)
        if startsInsideKey() {
          problems.append(
            Problem(
              line: line, column: column, message: "alias '*\(shown)' in a mapping key",
              notes: [
                "aliases are not allowed in keys (a key is compared whole, so an alias there can make a small file take hours); write the key out"
              ]))
        }
        // An undefined alias counts as one node; composing reports it.
        let nodeCount = anchorSizes[anchor] ?? 1
        expandedByAliases += nodeCount
        if expandedByAliases > expansionBudget {
          problems.append(
            Problem(
              line: line, column: column,
              message: "alias '*\(shown)' makes the aliases of this document expand to more than \(expansionBudget) nodes",
              notes: [
                "an alias repeats its anchor's whole value (aliases within it included); all aliases of a scenario may add at most \(expansionBudget) nodes",
                "write the repeated values out, or alias smaller parts",
              ]))
          return problems
        }
        finish(nodeCount: nodeCount)
      default:
        break
      }
    }
  }
}
