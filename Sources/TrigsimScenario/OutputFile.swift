import Foundation

/// Where a command's output goes, written as it is produced: a file named
/// by `--output` (or a baseline `record` writes), or standard output.
///
/// The contract every writer of trigsim keeps:
/// - `write` appends bytes; nothing is visible at the destination until
///   `commit()` (files) — standard output is written through.
/// - `commit()` makes the whole output visible at once; `discard()` leaves
///   the destination as it was. A writer that is neither committed nor
///   discarded leaves the destination as it was.
/// - Every failure is a `WriteError` (exit 73).
///
/// (Skeleton: buffers in memory and commits with `AtomicFile.write`; the
/// streaming, exclusive-temporary-file implementation replaces it.)
package final class OutputFile {
  package typealias WriteError = AtomicFile.WriteError

  /// The destination's path, nil for standard output.
  package let path: String?
  private var buffer: [UInt8] = []

  private init(path: String?) { self.path = path }

  /// Opens `path` for writing, or standard output when `path` is nil.
  package static func open(_ path: String?) throws -> OutputFile {
    OutputFile(path: path)
  }

  package func write(_ text: String) throws {
    buffer.append(contentsOf: text.utf8)
  }

  package func write(_ bytes: UnsafeRawBufferPointer) throws {
    buffer.append(contentsOf: bytes)
  }

  /// Makes everything written visible at the destination.
  package func commit() throws {
    if let path {
      try AtomicFile.write(Data(buffer), to: path)
    } else {
      FileHandle.standardOutput.write(Data(buffer))
    }
    buffer = []
  }

  /// Drops everything written; the destination stays as it was.
  package func discard() {
    buffer = []
  }
}
