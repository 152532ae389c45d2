import Foundation

/// Whole-file writes that never leave a partial file behind: a thin wrapper
/// over `OutputFile`, trigsim's one writer (see its rules).
package enum AtomicFile {
  package typealias WriteError = OutputFile.WriteError

  /// Writes `data` to `path` through an `OutputFile`: a temporary file
  /// beside `path`, renamed over it. On any failure `path` is untouched and
  /// no temporary file is left.
  package static func write(_ data: Data, to path: String) throws {
    let file = try OutputFile.open(path)
    try data.withUnsafeBytes { try file.write($0) }
    try file.commit()
  }
}
