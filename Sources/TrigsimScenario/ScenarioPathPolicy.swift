import Foundation
import TrigsimCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which files a scenario may name: any file, or only files inside one root
/// folder (`--root DIR`, for scenarios from untrusted pull requests).
///
/// The rule, when confined: every path the loader would open or write for a
/// scenario (the scenario file itself, its track, its expected timeline and
/// its expected trial report, whether named or implied by default) must
/// resolve inside the root **after following symbolic links**, the root
/// itself resolved the same way. A path to a file that does not exist yet (a
/// baseline `record` will write) is resolved through its nearest existing
/// folder. A symbolic link that leads nowhere is refused, since where it
/// would lead cannot be checked.
///
/// A regular file with more than one hard link is refused too: a hard link
/// has no direction, so a name inside the root may be the same file as
/// `~/.ssh/id_rsa`, and nothing can tell which name came first.
///
/// The check is made when the scenario is loaded; it guards against what a
/// scenario says, not against files changing while trigsim runs.
public struct ScenarioPathPolicy: Sendable, Equatable {
  /// The root folder as the user gave it (for messages); nil allows any path.
  public let root: String?
  /// The root with every symbolic link followed; nil when it does not resolve.
  let resolvedRoot: String?

  private init(root: String?) {
    self.root = root
    self.resolvedRoot = root.flatMap(Self.realPath)
  }

  /// Any path is allowed (the default).
  public static let unrestricted = ScenarioPathPolicy(root: nil)

  /// Only paths that resolve inside `root` (relative to the working folder).
  public static func confined(to root: String) -> ScenarioPathPolicy { ScenarioPathPolicy(root: root) }

  /// How a path leaves the root.
  public enum Escape: Sendable, Equatable {
    /// It is spelled outside the root: an absolute path elsewhere, or `..` past the root.
    case byName
    /// It is spelled inside the root, but a symbolic link on the way leads out.
    case throughSymbolicLink
    /// A symbolic link on the way leads to nothing, so where it leads cannot be checked.
    case danglingSymbolicLink
    /// The root itself does not exist.
    case missingRoot
    /// A regular file inside the root with more than one hard link (the count):
    /// another of its names may lie outside.
    case hardLinked(Int)
  }

  /// How `path` (absolute, or relative to the working folder) leaves the
  /// root; nil when it stays inside, or when any path is allowed.
  public func escape(of path: String) -> Escape? {
    guard let root else { return nil }
    guard let resolvedRoot else { return .missingRoot }
    let resolution = Self.resolve(path)
    switch resolution {
    case .dangling: return .danglingSymbolicLink
    case .unresolvable: return .byName
    case .resolved(let real):
      if Self.isInside(real, resolvedRoot) {
        let links = Self.hardLinkCount(real)
        return links > 1 ? .hardLinked(links) : nil
      }
      let spelled = Self.lexicallyAbsolute(path)
      let inside = Self.isInside(spelled, Self.lexicallyAbsolute(root)) || Self.isInside(spelled, resolvedRoot)
      return inside ? .throughSymbolicLink : .byName
    }
  }

  /// The problem in words: `'<path>' leaves the root folder '<root>' (--root)`.
  public func message(what: String, path: String, escape: Escape) -> String {
    let root = self.root ?? "/"
    switch escape {
    case .byName: return "\(what) \(Diagnostic.quotePath(path)) leaves the root folder '\(root)' (--root)"
    case .throughSymbolicLink: return "\(what) \(Diagnostic.quotePath(path)) leads outside the root folder '\(root)' (--root) through a symbolic link"
    case .danglingSymbolicLink: return "\(what) \(Diagnostic.quotePath(path)) goes through a symbolic link that leads nowhere, so it cannot be checked against the root folder '\(root)' (--root)"
    case .missingRoot: return "the root folder '\(root)' (--root) does not exist, so \(what) \(Diagnostic.quotePath(path)) cannot be checked"
    case .hardLinked(let count):
      return "\(what) \(Diagnostic.quotePath(path)) has \(count) hard links, so it may be a file outside the root folder '\(root)' (--root) under another name"
    }
  }

  /// What to do about it.
  public static let note =
    "with --root, every file a scenario names must lie inside the root folder after following symbolic links, and be a file of its own (one hard link); keep a copy of the file inside it"

  // MARK: - Resolution

  enum Resolution: Equatable {
    case resolved(String)
    case dangling
    case unresolvable
  }

  /// The path with every symbolic link followed. A path that does not exist
  /// is resolved through its nearest existing ancestor and the remaining
  /// names appended (`..` among them taken lexically: no link can hide in a
  /// folder that does not exist); a remaining name that is a symbolic link
  /// makes it `.dangling`.
  static func resolve(_ path: String) -> Resolution {
    var head = path
    var rest: [String] = []  // names after `head`, last first
    while true {
      let candidate = head.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : head
      if let real = realPath(candidate) {
        var parts = real.split(separator: "/").map(String.init)
        for name in rest.reversed() {
          switch name {
          case "", ".": continue
          case "..": if !parts.isEmpty { parts.removeLast() }
          default: parts.append(name)
          }
        }
        return .resolved("/" + parts.joined(separator: "/"))
      }
      if head.isEmpty { return .unresolvable }  // the working folder itself is gone
      if isSymbolicLink(candidate) { return .dangling }
      if let slash = head.lastIndex(of: "/") {
        rest.append(String(head[head.index(after: slash)...]))
        head = String(head[..<slash])
      } else {
        rest.append(head)
        head = ""
      }
    }
  }

  /// `realpath(3)`: the canonical absolute path, or nil when it does not resolve.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The hard links of a regular file at `path` (1 for anything else, or when it cannot be checked).
  static func hardLinkCount(_ path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return 1 }
    return Int(status.st_nlink)
  }

  static func isSymbolicLink(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
  }

  /// The path made absolute against the working folder, with `.` and `..`
  /// taken by name (no file-system look-up): how the path is spelled.
  static func lexicallyAbsolute(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    var parts: [Substring] = []
    for name in absolute.split(separator: "/") {
      switch name {
      case ".": continue
      case "..": if !parts.isEmpty { parts.removeLast() }
      default: parts.append(name)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// The path with `.`, empty names and each `NAME/..` pair taken out by
  /// name (no file-system look-up), and otherwise as spelled: a relative
  /// path stays relative to the working folder (keeping the `..` that lead
  /// out of it), an absolute one stays absolute (`/..` is `/`); nothing
  /// left is `.`. `scenarios/corpus/../../../shared/t.gpx` →
  /// `../shared/t.gpx`. How messages name a file the user named relatively.
  package static func lexicallyNormalized(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for name in path.split(separator: "/") {
      switch name {
      case ".": continue
      case "..":
        if let last = parts.last, last != ".." { parts.removeLast() } else if !absolute { parts.append(name) }
      default: parts.append(name)
      }
    }
    let joined = parts.joined(separator: "/")
    return absolute ? "/" + joined : joined.isEmpty ? "." : joined
  }

  /// Whether `path` is `root` or lies below it (both absolute and normalized).
  static func isInside(_ path: String, _ root: String) -> Bool {
    root == "/" || path == root || path.hasPrefix(root + "/")
  }
}

/// A scenario file named on the command line leaves the `--root` folder
/// (exit 65). It is not read, so it has no line to point at.
public struct ScenarioOutsideRoot: Error, CustomStringConvertible, Sendable {
  public var path: String
  public var message: String

  public var description: String { "error: \(message)\nnote: \(ScenarioPathPolicy.note)" }
}
