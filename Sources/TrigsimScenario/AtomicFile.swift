import Foundation

/// Whole-file writes that never leave a partial file behind.
package enum AtomicFile {
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
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).trigsim-\(getpid()).tmp")
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
