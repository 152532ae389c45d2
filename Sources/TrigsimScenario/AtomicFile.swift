import Foundation

/// Whole-file writes that never leave a partial file behind.
package enum AtomicFile {
  private static let counterLock = NSLock()
  nonisolated(unsafe) private static var writes = 0

  private static func nextWriteNumber() -> Int {
    counterLock.lock()
    defer { counterLock.unlock() }
    writes += 1
    return writes
  }

  package struct WriteError: LocalizedError {
    package var errorDescription: String?
  }

  /// Writes `data` to a temporary file beside `path`, then renames it over
  /// `path`. On any failure the temporary file is removed and `path` is untouched.
  package static func write(_ data: Data, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent()
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw WriteError(errorDescription: "the folder '\(folder.path)' does not exist")
    }
    // Unique per write, so parallel writes of the same file (two scenarios naming one expected timeline) never share a temporary file.
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).trigsim-\(getpid())-\(nextWriteNumber()).tmp")
    guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
      throw WriteError(errorDescription: "cannot create a file in '\(folder.path)'")
    }
    if rename(temporary.path, url.path) != 0 {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw WriteError(errorDescription: reason)
    }
  }
}
