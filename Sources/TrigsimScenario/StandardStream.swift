import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call, by its `errno` value.
package struct SystemCallError: Error, Equatable, Sendable {
  package var code: Int32

  package init(code: Int32) { self.code = code }

  /// The C library's wording of the error (strerror(3)).
  package var systemDescription: String { String(cString: strerror(code)) }
}

/// Writes all of `bytes` to `descriptor` with write(2).
///
/// The rule: the call is repeated after EINTR, the rest is written after a
/// short write, and a non-blocking descriptor (EAGAIN, possible when another
/// process shares standard output) is waited for with poll(2). Every other
/// failure (ENOSPC, EDQUOT, EIO, EPIPE, EBADF, ...) is thrown. Hand-written
/// because Foundation's `FileHandle.write(_:)` traps on these errors instead
/// of reporting them.
package func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(SystemCallError) {
  guard var next = bytes.baseAddress else { return }
  var remaining = bytes.count
  while remaining > 0 {
    let written = write(descriptor, next, remaining)
    if written > 0 {
      next += written
      remaining -= written
      continue
    }
    let code = written < 0 ? errno : EIO  // write(2) returns 0 for a non-empty write only on a broken device
    switch code {
    case EINTR:
      continue
    case EAGAIN, EWOULDBLOCK:
      var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
      if poll(&request, 1, -1) < 0 && errno != EINTR { throw SystemCallError(code: errno) }
    default:
      throw SystemCallError(code: code)
    }
  }
}

/// Standard output or standard error, written with checked write(2) calls
/// (`writeAll`).
///
/// The rule: every write either writes all of its bytes or throws a
/// `OutputFile.WriteError` (exit 73) that says why: a full disk or `/dev/full`
/// (ENOSPC), a reader that went away (EPIPE: trigsim ignores SIGPIPE, see
/// `OutputFile.prepareProcessForWriting()`), a closed stream (EBADF). The
/// first failure is kept: later writes to the same stream throw it again
/// without writing, so a reader never gets output with a hole in it, and the
/// command line can tell at exit that standard output failed (`failure`).
/// Writes are serialised, so concurrent writers never interleave inside one
/// write.
package enum StandardStream: Sendable {
  case output, error

  /// "standard output" or "standard error".
  package var name: String {
    switch self {
    case .output: "standard output"
    case .error: "standard error"
    }
  }

  var descriptor: Int32 {
    switch self {
    case .output: STDOUT_FILENO
    case .error: STDERR_FILENO
    }
  }

  /// The first failed write to this stream in this process, if any.
  package var failure: OutputFile.WriteError? {
    StandardStreamFailures.shared.withLock { $0[self] }
  }

  package func write(_ text: String) throws {
    var text = text
    try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
  }

  package func write(_ bytes: UnsafeRawBufferPointer) throws {
    try StandardStreamFailures.shared.withLock { failures in
      if let earlier = failures[self] { throw earlier }
      do throws(SystemCallError) {
        try writeAll(bytes, to: descriptor)
      } catch {
        let failure = OutputFile.WriteError(stream: self, reason: reason(for: error.code), code: error.code)
        failures[self] = failure
        throw failure
      }
    }
  }

  /// What the failure means for this stream, and what to do.
  private func reason(for code: Int32) -> String {
    switch code {
    case EBADF: "it is closed or not open for writing: start trigsim with \(name) open\(self == .output ? ", or use --output FILE" : "")"
    case EPIPE: "the program reading it has stopped (broken pipe)"
    default: OutputFile.reason(forFailedWrite: code)
    }
  }
}

/// The first failure of each standard stream, behind the lock that also
/// serialises their writes.
private final class StandardStreamFailures: @unchecked Sendable {
  static let shared = StandardStreamFailures()
  private let lock = NSLock()
  private var failures: [StandardStream: OutputFile.WriteError] = [:]

  func withLock<T>(_ body: (inout [StandardStream: OutputFile.WriteError]) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&failures)
  }
}
