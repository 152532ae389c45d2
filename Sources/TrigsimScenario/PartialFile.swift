import Foundation
import TrigsimCore
import TrigsimTracks

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ScenarioFile {
  /// The identity of the scenario's run for a partial report: `sha256:` and
  /// the SHA-256 of one line per input, `ROLE SHA256\n`, for the scenario's
  /// text (role `scenario`) and then each file it names (`track`, `regions`,
  /// `places`), in reading order. Any change to any of those bytes is another
  /// digest; where the files lie (the scenario's path) is not part of it, so
  /// shards checked out in different folders agree. Files are read in
  /// 64 KiB pieces (bounded memory, whatever the track's size).
  ///
  /// - Throws: `FileAccessError` when a named file cannot be read now.
  public func inputDigest() throws(FileAccessError) -> String {
    var lines = SHA256Digest()
    var text = SHA256Digest()
    text.update(Array(yaml.utf8))
    lines.update(Array("scenario \(text.hexDigest())\n".utf8))
    for input in inputFiles {
      lines.update(Array("\(input.role) \(try Self.digest(ofFileAt: input.path))\n".utf8))
    }
    return "sha256:" + lines.hexDigest()
  }

  /// The SHA-256 of the regular file at `path`, read piece by piece.
  static func digest(ofFileAt path: String) throws(FileAccessError) -> String {
    let fd: Int32
    do {
      fd = try RegularFile.open(path)
    } catch {
      throw FileAccessError(path: path, reason: error.reason)
    }
    defer { close(fd) }
    var digest = SHA256Digest()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count == 0 { return digest.hexDigest() }
      if count < 0 {
        if errno == EINTR { continue }
        throw FileAccessError(path: path, reason: String(cString: strerror(errno)))
      }
      digest.update(chunk[0..<count])
    }
  }
}

/// Reads the partial files `trigsim merge` combines (`PartialTrialReport`,
/// and `test`'s partial results), with every problem located at
/// `file:line:column`.
///
/// **The quoting policy** (`ForeignFile`): a file that does not begin as a
/// JSON object with a `"format": "trigsim-…"` member is somebody else's
/// file: one diagnostic names it, quoting nothing. A file that does is
/// trigsim's, and its problems are located at the value: invalid JSON where
/// it stops being JSON; a member of the wrong type, missing or out of range at
/// that member (or at its object when it is missing).
package enum PartialFile {
  /// What every partial problem adds.
  package static let rewriteNote = "partial files are written by 'trigsim run --shard' and 'trigsim test --partial'; write it again rather than editing it"

  /// The `format` member of the file at `path`.
  ///
  /// - Throws: `FileAccessError` when it cannot be read or is not UTF-8;
  ///   `InputError` when it is larger than a partial may be
  ///   (`ScenarioFileKind.partial`), or (`ForeignFile`) when it does not
  ///   begin as an object with a `"format": "trigsim-…"` member.
  package static func format(ofFileAt path: String) throws -> (format: String, text: String) {
    let text = try ScenarioFileKind.partial.readText(path)
    var format: String?
    _ = LocatedJSONReader.beginsAsObject(text, signature: "format") { value in
      guard value.hasPrefix("trigsim-") else { return false }
      format = value
      return true
    }
    guard let format else {
      throw InputError(ForeignFile.diagnostic(
        file: path, format: "a trigsim partial report", whyNot: "it does not begin as an object with a \"format\": \"trigsim-…-partial-1\" member",
        notes: [rewriteNote]))
    }
    return (format, text)
  }

  /// Decodes `text`, the file at `path`, as `Partial`. A key given twice in
  /// one object is refused (as in a JSON timeline), at its first occurrence.
  /// `allowedValues` names, by member name, the values a member of a fixed
  /// set of words may have (`status`: `passed`, `failed`, …), for the message
  /// about one that is none of them.
  ///
  /// - Throws: `InputError` with the problem located.
  package static func decode<Partial: Decodable>(
    _ type: Partial.Type, text: String, path: String, allowedValues: [String: [String]] = [:]
  ) throws -> Partial {
    if case .success(let root) = LocatedJSONReader.readDocument(text), let (key, position) = firstRepeatedKey(in: root) {
      throw InputError(Diagnostic(
        at: InputLocation(file: path, line: position.line, column: position.column), "key \(Diagnostic.quote(key)) appears more than once in an object",
        notes: ["a JSON object holds each key once; remove or rename the repeated one", rewriteNote]))
    }
    do {
      return try JSONDecoder().decode(Partial.self, from: Data(text.utf8))
    } catch let error as DecodingError {
      throw located(problem(error), text: text, path: path, allowedValues: allowedValues)
    }
  }

  /// The first key (in the file's order of objects) that an object holds
  /// twice, at its first occurrence; nil when none is.
  static func firstRepeatedKey(in root: JSONValue) -> (key: String, position: JSONPosition)? {
    var pending = [root]
    while let value = pending.popLast() {
      switch value.content {
      case .object(let members):
        var seen: [String: JSONPosition] = [:]
        for member in members {
          if let first = seen[member.key] { return (member.key, first) }
          seen[member.key] = member.keyPosition
        }
        pending += members.reversed().map(\.value)
      case .array(let elements):
        pending += elements.reversed()
      default:
        continue
      }
    }
    return nil
  }

  /// The words for a number JSON allows but a partial cannot hold.
  static let numberRangeNote = "a partial's whole numbers are at most 18446744073709551615 (a seed) or 9223372036854775807, and its other numbers are finite"

  /// The first number in `value` that Foundation's decoder cannot hold (a
  /// whole number past 64 bits, `1e400`), with its position.
  static func firstUnrepresentableNumber(in root: JSONValue) -> (text: String, position: JSONPosition)? {
    var pending = [root]
    while let value = pending.popLast() {
      switch value.content {
      case .object(let members): pending += members.reversed().map(\.value)
      case .array(let elements): pending += elements.reversed()
      case .number(let text):
        let isWhole = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        let fits = isWhole ? (Int64(text) != nil || UInt64(text) != nil) : (Double(text)?.isFinite ?? false)
        if !fits { return (text, value.position) }
      default: continue
      }
    }
    return nil
  }

  /// A problem located in `text`, the file at `path`: at the value its steps
  /// lead to (or the nearest one found). A value of a member in
  /// `allowedValues` that the decoder refused is named with the values allowed;
  /// a number out of range, as that.
  package static func located(
    _ problem: PartialReportProblem, text: String, path: String, allowedValues: [String: [String]] = [:]
  ) -> InputError {
    guard case .success(let root) = LocatedJSONReader.readDocument(text) else {
      if case .failure(let syntax) = LocatedJSONReader.readDocument(text) {
        return InputError(Diagnostic(
          at: InputLocation(file: path, line: syntax.position.line, column: syntax.position.column), "invalid JSON: \(syntax.message)",
          notes: syntax.notes + [rewriteNote]))
      }
      return InputError(Diagnostic(at: InputLocation(file: path, line: 1, column: 1), problem.message, notes: problem.notes + [rewriteNote]))
    }
    if problem.path.isEmpty, problem.message == notJSONMessage, let number = firstUnrepresentableNumber(in: root) {
      // Foundation's decoder refuses such a number before it knows the member: name it where it is.
      return InputError(Diagnostic(
        at: InputLocation(file: path, line: number.position.line, column: number.position.column),
        "the number \(Diagnostic.quote(number.text)) is out of range", notes: [numberRangeNote, rewriteNote]))
    }
    var value = root
    for step in problem.path {
      switch (step, value.content) {
      case (.member(let name), .object(let members)):
        guard let member = members.first(where: { $0.key == name }) else { break }
        value = member.value
        continue
      case (.element(let index), .array(let elements)) where elements.indices.contains(index):
        value = elements[index]
        continue
      default:
        break
      }
      break
    }
    var problem = problem
    if problem.message.hasSuffix(notAValueOfItsType) {
      let name = String(problem.message.dropLast(notAValueOfItsType.count))
      if case .number(let text) = value.content {
        problem = PartialReportProblem(problem.path, "\(name) is \(Diagnostic.quote(text)), a number out of range", notes: [numberRangeNote])
      } else if case .string(let text) = value.content, case .member(let member)? = problem.path.last(where: { if case .member = $0 { true } else { false } }),
        let allowed = allowedValues[member]
      {
        problem = PartialReportProblem(
          problem.path, "\(name) is \(Diagnostic.quote(text)), not one of its values", notes: ["\(member) is one of: \(allowed.joined(separator: ", "))"])
      } else {
        problem = PartialReportProblem(problem.path, "\(name) is \(value.described), not a value it can have")
      }
    }
    return InputError(Diagnostic(
      at: InputLocation(file: path, line: value.position.line, column: value.position.column), problem.message, notes: problem.notes + [rewriteNote]))
  }

  /// The message of a document the decoder could not read at all.
  static let notJSONMessage = "the file is not valid JSON"
  /// The end of the message of a value the decoder refused (`located` says which and why).
  static let notAValueOfItsType = " is not a value of its type"

  /// The location of the value at `steps` in the file at `path` (re-read; 1:1 when it cannot be).
  package static func location(of steps: [PartialReportProblem.Step], inFileAt path: String) -> InputLocation {
    guard let text = try? ScenarioFileKind.partial.readText(path) else { return InputLocation(file: path, line: 1, column: 1) }
    return located(PartialReportProblem(steps, ""), text: text, path: path).diagnostics[0].location
  }

  /// A decoding error as a problem at its member, in words that quote nothing of the file.
  static func problem(_ error: DecodingError) -> PartialReportProblem {
    func steps(_ path: [any CodingKey]) -> [PartialReportProblem.Step] {
      path.map { key in key.intValue.map { .element($0) } ?? .member(key.stringValue) }
    }
    func name(_ path: [any CodingKey]) -> String {
      guard let last = path.last(where: { $0.intValue == nil }) else { return "the document" }
      let index = path.last?.intValue.map { " element \($0)" } ?? ""
      return "'\(last.stringValue)'\(index)"
    }
    func kind(_ type: Any.Type) -> String {
      switch type {
      case is String.Type: "a string"
      case is Int.Type, is Int64.Type, is UInt64.Type: "a whole number"
      case is Double.Type: "a number"
      case is Bool.Type: "true or false"
      default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
      }
    }
    switch error {
    case .typeMismatch(let type, let context):
      return PartialReportProblem(steps(context.codingPath), "\(name(context.codingPath)) is not \(kind(type))")
    case .valueNotFound(let type, let context):
      return PartialReportProblem(steps(context.codingPath), "\(name(context.codingPath)) is null, not \(kind(type))")
    case .keyNotFound(let key, let context):
      return PartialReportProblem(steps(context.codingPath), "the member '\(key.stringValue)' is missing")
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty { return PartialReportProblem([], notJSONMessage) }
      return PartialReportProblem(steps(context.codingPath), name(context.codingPath) + notAValueOfItsType)
    @unknown default:
      return PartialReportProblem([], "the file cannot be read as a partial report")
    }
  }
}

/// One part given to `trigsim merge`: its file, its shard, and the values
/// every part of one run shares, each with where it is in the file.
package struct ShardedPart {
  package struct Shared {
    /// Where it is, for the message.
    package var steps: [PartialReportProblem.Step]
    /// Its name in messages: `seed`, `scenario digest`.
    package var name: String
    package var value: String

    package init(_ steps: [PartialReportProblem.Step], _ name: String, _ value: String) {
      self.steps = steps
      self.name = name
      self.value = value
    }
  }

  package var file: String
  package var shard: Shard
  package var shared: [Shared]

  package init(file: String, shard: Shard, shared: [Shared]) {
    self.file = file
    self.shard = shard
    self.shared = shared
  }

  /// Checks that `parts` are the shards 1…K of one run, each once: every
  /// shared value (the format, the trigsim version, the shard count and the
  /// kind's own: scenario, seed, trial count) as in the first part, no shard
  /// twice, none missing.
  ///
  /// - Throws: `InputError` at the first part that differs, or is a shard
  ///   given before (naming both files); `MissingShards` when some are missing.
  package static func checkComplete(_ parts: [ShardedPart]) throws {
    guard let first = parts.first else { return }
    var seen: [Int: String] = [:]
    for part in parts {
      for (mine, theirs) in zip(part.shared, first.shared) where mine.value != theirs.value {
        throw InputError(Diagnostic(
          at: PartialFile.location(of: mine.steps, inFileAt: part.file),
          "\(mine.name) is \(mine.value), but the first part, \(Diagnostic.quotePath(first.file)), has \(theirs.value)",
          notes: ["the parts of one merge are the shards of one run: the same scenario files, seed, trial count, shard count and trigsim version"]))
      }
      if let earlier = seen[part.shard.index] {
        throw InputError(Diagnostic(
          at: PartialFile.location(of: [.member("shard")], inFileAt: part.file),
          "shard \(part.shard) is given twice: \(Diagnostic.quotePath(earlier)) and \(Diagnostic.quotePath(part.file))", notes: ["give each shard's partial file once"]))
      }
      seen[part.shard.index] = part.file
    }
    let given = seen.keys.sorted()
    if given.count < first.shard.count {
      throw MissingShards(count: first.shard.count, given: parts.map { ($0.shard.index, $0.file) }.sorted { $0.index < $1.index })
    }
  }
}

/// Some shards of a run were not given to `trigsim merge`.
///
/// The missing shards are ranges between the given ones, computed from the
/// given shards alone (never one number per missing shard: a run of
/// `--shard 1/10000000` has 9,999,999 of them), and the message names them
/// by `MessageList`'s rule.
package struct MissingShards: Error, CustomStringConvertible {
  /// The run's shard count.
  package var count: Int
  /// The shards given, each with its file, by shard.
  package var given: [(index: Int, file: String)]

  package init(count: Int, given: [(index: Int, file: String)]) {
    self.count = count
    self.given = given
  }

  /// The missing shards as ranges, in order: the gaps of `1...count` between the given shards.
  package var missingRanges: [ClosedRange<Int>] {
    var ranges: [ClosedRange<Int>] = []
    var next = 1
    for index in given.map(\.index) where index >= next {
      if index > next { ranges.append(next...(index - 1)) }
      next = index + 1
    }
    if next <= count { ranges.append(next...count) }
    return ranges
  }

  /// `shards 2 and 4 of 4 are missing (given: shard 1 in 'a.json', shard 3 in 'b.json')`;
  /// `shards 2–10000000 of 10000000 are missing (9999999 shards; given: shard 1 in 'a.json')`:
  /// the missing ranges and the given files each named by `MessageList`'s rule, and the
  /// number of missing shards whenever the list does not show each one.
  package var description: String {
    let ranges = missingRanges
    let missingCount = ranges.reduce(0) { $0 + $1.count }
    let named = ranges.lazy.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
    let list = missingCount == 1 ? "shard \(named[0]) of \(count) is" : "shards \(MessageList.joined(named, limit: 5, lastSeparator: " and ")) of \(count) are"
    let showsEach = ranges.count <= 5 && ranges.allSatisfy { $0.count == 1 }
    let parts = MessageList.joined(given.lazy.map { "shard \($0.index) in \(Diagnostic.quotePath($0.file))" }, limit: 5)
    return "\(list) missing (\(showsEach ? "" : "\(missingCount) shards; ")given: \(parts))"
  }
}
