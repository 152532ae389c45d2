import ArgumentParser
import Foundation
import TrigsimCore

#if canImport(Glibc)
  import Glibc
  private let systemGlob = Glibc.glob
#elseif canImport(Darwin)
  import Darwin
  private let systemGlob = Darwin.glob
#endif

/// The scenario files named on a command line, in one deterministic order.
///
/// A path may be a scenario file, a folder (every `*.yaml` and `*.yml` in it
/// and its sub-folders, hidden folders skipped), or a glob (`*`, `?`, `[...]`,
/// expanded here for shells that pass it through quoted). The result is
/// sorted by path (byte order) without duplicates, so the same arguments give
/// the same list, and the same shards, on every machine.
enum ScenarioCollection {
  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  static func expand(_ arguments: [String]) throws -> [String] {
    var files = Set<String>()
    for argument in arguments {
      let matches: [String]
      if argument.contains(where: { "*?[".contains($0) }) && !FileManager.default.fileExists(atPath: argument) {
        matches = glob(argument)
        if matches.isEmpty { throw Problem(description: "'\(argument)' matches no file") }
      } else {
        matches = [argument]
      }
      for path in matches.map(normalized) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
          throw Problem(description: "'\(path)' does not exist")
        }
        if isDirectory.boolValue {
          let found = scenarios(in: path)
          if found.isEmpty { throw Problem(description: "no scenario files (*.yaml, *.yml) in '\(path)'") }
          files.formUnion(found)
        } else {
          files.insert(path)
        }
      }
    }
    return files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// The path without `.` components and repeated slashes (`./a//b.yaml` is
  /// `a/b.yaml`), so one file named two ways runs once. `..` is kept: resolving
  /// it would need the file system (symbolic links).
  static func normalized(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
    let joined = parts.joined(separator: "/")
    if absolute { return "/" + joined }
    return joined.isEmpty ? "." : joined
  }

  /// Every `*.yaml`/`*.yml` under `folder`, as `folder/...` paths.
  static func scenarios(in folder: String) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
    var found: [String] = []
    while let relative = enumerator.nextObject() as? String {
      let name = (relative as NSString).lastPathComponent
      if name.hasPrefix(".") {
        enumerator.skipDescendants()
        continue
      }
      guard relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") else { continue }
      found.append(normalized(folder + "/" + relative))
    }
    return found
  }

  static func glob(_ pattern: String) -> [String] {
    var result = glob_t()
    defer { globfree(&result) }
    guard systemGlob(pattern, 0, nil, &result) == 0 else { return [] }
    return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }
  }
}

/// `--shard I/K` (`Shard`, whose documentation states how trials and
/// scenarios are dealt): two whole numbers with 1 ≤ I ≤ K.
extension Shard: ExpressibleByArgument {
  public init?(argument: String) {
    let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
    self.init(index: index, count: count)
  }

  public static var defaultCompletionKind: CompletionKind { .default }
}
