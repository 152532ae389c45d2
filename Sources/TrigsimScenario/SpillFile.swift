import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A temporary file that holds bytes written now and read back once, later:
/// what a streamed timeline writes before its header is known.
///
/// - It lives in `$TMPDIR` (or `/tmp`), made with `mkstemp` (mode 0600) and
///   unlinked at once: it has no name, so nothing is left behind however the
///   process ends, and the system frees its space when it is closed.
/// - Writes and reads go through C stdio with one buffer of `bufferSize`
///   bytes (`setvbuf`), and `readBack` reads in chunks of that size: memory
///   stays flat however much is written. (stdio rather than a hand-written
///   buffer: it is the C library's buffered file.)
/// - Every failure is an `OutputFile.WriteError` naming the folder (exit 73).
package final class SpillFile {
  /// The stdio buffer and the read-back chunk, in bytes.
  package static let bufferSize = 64 * 1024

  /// The folder the file is made in: `$TMPDIR` when set and not empty, else `/tmp`.
  package let folder: String
  private let stream: UnsafeMutablePointer<FILE>
  /// Bytes written so far.
  package private(set) var byteCount = 0

  package init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
    let folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    self.folder = folder
    let path = (folder.hasSuffix("/") ? folder : folder + "/") + "trigsim-spill-XXXXXX"
    var template = Array(path.utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw Self.failure("cannot create a temporary file in '\(folder)'", in: folder) }
    _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
    guard let stream = fdopen(descriptor, "w+") else {
      let error = Self.failure("cannot open a temporary file in '\(folder)'", in: folder)
      close(descriptor)
      throw error
    }
    setvbuf(stream, nil, _IOFBF, Self.bufferSize)
    self.stream = stream
  }

  deinit { fclose(stream) }

  /// Appends the text's UTF-8 bytes.
  package func write(_ text: String) throws {
    var text = text
    let written = text.withUTF8 { bytes in bytes.isEmpty ? 0 : fwrite(bytes.baseAddress, 1, bytes.count, stream) }
    guard written == text.utf8.count else { throw Self.failure("cannot write a temporary file in '\(folder)'", in: folder) }
    byteCount += written
  }

  /// Hands everything written, from the start, to `body` in chunks of at
  /// most `bufferSize` bytes. A chunk is valid only during its call.
  package func readBack(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    guard fflush(stream) == 0, fseek(stream, 0, SEEK_SET) == 0 else {
      throw Self.failure("cannot write a temporary file in '\(folder)'", in: folder)
    }
    var chunk = [UInt8](repeating: 0, count: Self.bufferSize)
    var remaining = byteCount
    while remaining > 0 {
      let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, min(Self.bufferSize, remaining), stream) }
      guard read > 0 else { throw Self.failure("cannot read back a temporary file in '\(folder)'", in: folder) }
      try chunk.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<read])) }
      remaining -= read
    }
  }

  /// The error for a failed call, with the system's reason and where to make room.
  private static func failure(_ what: String, in folder: String) -> OutputFile.WriteError {
    let code = errno
    let reason = String(cString: strerror(code))
    return OutputFile.WriteError(
      path: folder, reason: "\(what): \(reason) (a streamed timeline waits there for its header; set TMPDIR to a folder with room)",
      code: code)
  }
}
