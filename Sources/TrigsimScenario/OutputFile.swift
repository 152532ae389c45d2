import CTrigsimCleanup
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
/// How a file is written:
/// - The destination must be a regular file or absent. A symbolic link, a
///   folder, a named pipe (FIFO), a socket or a device is refused before
///   anything is created (the link is not followed, the pipe never opened):
///   replacing it with a file would break it.
/// - The bytes go to a temporary file `.NAME.trigsim-XXXXXX` in the
///   destination's folder, created exclusively by mkostemp(3)
///   (`O_CREAT|O_EXCL|O_CLOEXEC`, mode 0600, an unpredictable name), through
///   a buffer of `bufferSize` bytes, so memory does not grow with the output.
/// - `commit()` gives the temporary file the replaced file's mode (and owner
///   and group when the process may), or `0666 & ~umask` for a new file,
///   fsyncs it, renames it over the destination and fsyncs the folder. Other
///   hard links to the replaced file keep its old content; extended
///   attributes and ACLs are not copied.
/// - `discard()`, a failure, or a writer dropped without `commit()` removes
///   the temporary file. So do SIGHUP, SIGINT and SIGTERM once the command
///   line has called `prepareProcessForWriting()` (SIGKILL cannot be caught:
///   it leaves the temporary file, recognisable by its name).
///
/// Standard output (`open(nil)` or `open("-")`) is written through the same
/// buffer with checked write(2) calls (`StandardStream.output`); `commit()`
/// writes what is still buffered, `discard()` drops it (what was written
/// stays written).
package final class OutputFile {
  /// A failure to write an output: the destination, why, and what to do (exit 73).
  package struct WriteError: LocalizedError, CustomStringConvertible, Sendable {
    /// The destination as given, nil for a standard stream.
    package var path: String?
    /// The standard stream that failed, nil for a file.
    package var stream: StandardStream?
    /// What went wrong and what to do, without the destination.
    package var reason: String
    /// The `errno` of the failed call; nil when trigsim refused the destination itself.
    package var code: Int32?

    package init(path: String, reason: String, code: Int32? = nil) {
      self.path = path
      self.reason = reason
      self.code = code
    }

    package init(stream: StandardStream, reason: String, code: Int32? = nil) {
      self.stream = stream
      self.reason = reason
      self.code = code
    }

    package var errorDescription: String? { reason }

    /// `cannot write 'PATH': REASON`, or `cannot write to standard output: REASON`.
    package var message: String {
      if let path { return "cannot write '\(path)': \(reason)" }
      return "cannot write to \((stream ?? .output).name): \(reason)"
    }

    package var description: String { message }
  }

  /// The path `open` takes for standard output, as most command-line tools
  /// do (`--output -`); write `./-` for a file of that name.
  package static let standardOutputPath = "-"

  /// The bytes held before they are written (64 KiB); a larger write goes
  /// straight to write(2).
  package static let bufferSize = 64 << 10

  /// The longest part of the destination's name kept in the temporary
  /// file's name (in UTF-8 bytes), so `.NAME.trigsim-XXXXXX` stays within
  /// the 255-byte limit of a file name.
  static let longestNameInTemporaryName = 200

  /// The destination's path, nil for standard output.
  package let path: String?
  private var target: Target
  private let buffer: UnsafeMutableRawBufferPointer
  private var bufferedCount = 0
  /// The failure that ended this writer; later writes and commits throw it.
  private var failure: WriteError?

  private enum Target {
    case standardOutput
    case temporary(TemporaryFile)
    /// Committed, discarded or failed.
    case finished
  }

  /// The exclusive temporary file a file output is written to.
  private struct TemporaryFile {
    var descriptor: Int32
    /// The registry's copy of the temporary file's path, which mkostemp
    /// filled in (see `trigsim_temporary_reserve`).
    var registeredPath: UnsafeMutablePointer<CChar>
    var path: String { String(cString: registeredPath) }
    var destination: String
    var folder: String
  }

  private init(path: String?, target: Target) {
    self.path = path
    self.target = target
    buffer = .allocate(byteCount: Self.bufferSize, alignment: 1)
  }

  deinit {
    discard()
    buffer.deallocate()
  }

  /// Opens `path` for writing, or standard output when `path` is nil or `-`.
  ///
  /// A file's destination is checked and its temporary file created now, so
  /// a destination that cannot be written fails before any work is done.
  /// With `creatingFolders`, missing folders of the path are created first
  /// (as `mkdir -p` does, mode `0777 & ~umask`); they stay even when the
  /// write later fails.
  package static func open(_ path: String?, creatingFolders: Bool = false) throws -> OutputFile {
    guard let path, path != standardOutputPath else { return OutputFile(path: nil, target: .standardOutput) }
    let (folder, name) = try folderAndName(of: path)
    if creatingFolders { try createFolders(folder, for: path) }
    _ = try existingRegularFile(at: path)
    let template = temporaryNameTemplate(folder: folder, name: name)
    guard let registered = trigsim_temporary_reserve(template) else {
      throw WriteError(path: path, reason: "out of memory", code: ENOMEM)
    }
    let descriptor = trigsim_create_temporary(registered)
    guard descriptor >= 0 else {
      let code = errno
      trigsim_temporary_release(registered)
      throw WriteError(path: path, reason: reason(forFailedCreationIn: folder, code: code), code: code)
    }
    let temporary = TemporaryFile(descriptor: descriptor, registeredPath: registered, destination: path, folder: folder)
    return OutputFile(path: path, target: .temporary(temporary))
  }

  package func write(_ text: String) throws {
    var text = text
    try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
  }

  package func write(_ bytes: UnsafeRawBufferPointer) throws {
    if let failure { throw failure }
    guard !isFinished else { preconditionFailure("OutputFile.write after commit() or discard()") }
    if bytes.count > buffer.count - bufferedCount {
      try flushBuffer()
      if bytes.count >= buffer.count {
        try send(bytes)
        return
      }
    }
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    (buffer.baseAddress! + bufferedCount).copyMemory(from: source, byteCount: bytes.count)
    bufferedCount += bytes.count
  }

  /// Makes everything written visible at the destination: the temporary
  /// file, synced and given its mode, replaces the destination; standard
  /// output gets what is still buffered.
  package func commit() throws {
    if let failure { throw failure }
    try flushBuffer()
    switch target {
    case .standardOutput:
      target = .finished
    case .temporary(var temporary):
      try replaceDestination(with: &temporary)
      target = .finished
    case .finished:
      preconditionFailure("OutputFile.commit after commit() or discard()")
    }
  }

  /// Drops everything written; the destination stays as it was (standard
  /// output keeps what was already written). Calling it again does nothing.
  package func discard() {
    bufferedCount = 0
    if case .temporary(let temporary) = target { Self.remove(temporary) }
    target = .finished
  }

  private var isFinished: Bool {
    if case .finished = target { return true }
    return false
  }

  // MARK: - Writing

  private func flushBuffer() throws {
    guard bufferedCount > 0 else { return }
    let count = bufferedCount
    bufferedCount = 0
    try send(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
  }

  private func send(_ bytes: UnsafeRawBufferPointer) throws {
    switch target {
    case .standardOutput:
      do {
        try StandardStream.output.write(bytes)
      } catch let error as WriteError {
        throw end(with: error)
      }
    case .temporary(let temporary):
      do throws(SystemCallError) {
        try writeAll(bytes, to: temporary.descriptor)
      } catch {
        throw end(with: WriteError(path: temporary.destination, reason: Self.reason(forFailedWrite: error.code), code: error.code))
      }
    case .finished:
      preconditionFailure("OutputFile written after commit() or discard()")
    }
  }

  /// Removes the temporary file and keeps `error` for later calls.
  private func end(with error: WriteError) -> WriteError {
    discard()
    failure = error
    return error
  }

  /// Gives the temporary file its mode, syncs it, renames it over the
  /// destination and syncs the folder.
  private func replaceDestination(with temporary: inout TemporaryFile) throws {
    let destination = temporary.destination
    func fail(_ reason: String, _ code: Int32?) -> WriteError {
      end(with: WriteError(path: destination, reason: reason, code: code))
    }
    // Checked again: the destination may have changed since `open`.
    let replaced: stat?
    do { replaced = try Self.existingRegularFile(at: destination) } catch let error as WriteError { throw end(with: error) }
    let mode: mode_t
    if let replaced {
      // Owner and group first: chown(2) may clear set-user-ID bits, which fchmod then restores. Refused without privilege: the file is then the writer's.
      _ = fchown(temporary.descriptor, replaced.st_uid, replaced.st_gid)
      mode = replaced.st_mode & 0o7777
    } else {
      mode = 0o666 & ~Self.fileCreationMask
    }
    guard fchmod(temporary.descriptor, mode) == 0 else { let code = errno; throw fail("cannot set its mode: \(Self.systemDescription(code))", code) }
    guard fsyncRetryingInterrupts(temporary.descriptor) == 0 else { let code = errno; throw fail(Self.reason(forFailedWrite: code), code) }
    let descriptor = temporary.descriptor
    temporary.descriptor = -1
    target = .temporary(temporary)  // closed below, whatever close returns
    guard close(descriptor) == 0 else { let code = errno; throw fail(Self.reason(forFailedWrite: code), code) }
    guard rename(temporary.registeredPath, destination) == 0 else {
      let code = errno
      throw fail("cannot rename the temporary file into place: \(Self.systemDescription(code))", code)
    }
    trigsim_temporary_release(temporary.registeredPath)
    target = .finished
    let code = syncFolder(temporary.folder)
    guard code == 0 else {
      throw end(with: WriteError(path: destination, reason: "it was replaced, but its folder could not be synced to disk: \(Self.systemDescription(code))", code: code))
    }
  }

  /// Closes and removes the temporary file and takes it out of the signal registry.
  private static func remove(_ temporary: TemporaryFile) {
    if temporary.descriptor >= 0 { _ = close(temporary.descriptor) }
    _ = unlink(temporary.registeredPath)
    trigsim_temporary_release(temporary.registeredPath)
  }

  // MARK: - Destinations

  /// Splits `path` into its folder (`.` when it has none) and its name.
  static func folderAndName(of path: String) throws -> (folder: String, name: String) {
    guard !path.isEmpty else { throw WriteError(path: path, reason: "the path is empty: name a file") }
    guard !path.hasSuffix("/") else { throw WriteError(path: path, reason: "it ends in '/', so it names a folder: name a file") }
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let folder = slash == path.startIndex ? "/" : String(path[..<slash])
    return (folder, String(path[path.index(after: slash)...]))
  }

  /// Creates `folder` and each missing folder above it; an existing folder
  /// is left as it is, and a file where a folder must be is refused.
  static func createFolders(_ folder: String, for path: String) throws {
    var prefix = folder.hasPrefix("/") ? "/" : ""
    for component in folder.split(separator: "/", omittingEmptySubsequences: true) {
      prefix += component
      if mkdir(prefix, 0o777) != 0 {
        let code = errno
        var status = stat()
        let isFolder = stat(prefix, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
        var linkStatus = stat()
        let isDanglingLink = !isFolder && lstat(prefix, &linkStatus) == 0 && linkStatus.st_mode & S_IFMT == S_IFLNK
        if !isFolder {
          let reason =
            switch code {
            case EEXIST where isDanglingLink:
              "'\(prefix)' is a symbolic link that leads nowhere: create the folder it names, or remove the link"
            case EEXIST, ENOTDIR:
              prefix == folder
                ? "'\(prefix)' is a file, not a folder: remove it or name a file in another folder"
                : "'\(prefix)' is a file, so the folder '\(folder)' cannot be created: remove it or name a file in another folder"
            case EACCES, EPERM: "trigsim may not create the folder '\(prefix)' (permission denied): write into a folder you may write to"
            case EROFS: "the folder '\(prefix)' cannot be created on a read-only file system: write to another disk"
            default: "cannot create the folder '\(prefix)': \(systemDescription(code))"
            }
          throw WriteError(path: path, reason: reason, code: code)
        }
      }
      prefix += "/"
    }
  }

  /// The destination's status when it is a regular file, nil when it does
  /// not exist; anything else is refused with what to do instead. lstat(2)
  /// does not follow a final symbolic link and opens nothing, so a FIFO
  /// cannot block the check.
  static func existingRegularFile(at path: String) throws -> stat? {
    var status = stat()
    guard lstat(path, &status) == 0 else {
      let code = errno
      switch code {
      case ENOENT: return nil
      case ENOTDIR: throw WriteError(path: path, reason: "a part of its folder path is a file, not a folder", code: code)
      case EACCES: throw WriteError(path: path, reason: "permission denied to look up its folder", code: code)
      default: throw WriteError(path: path, reason: systemDescription(code), code: code)
      }
    }
    let redirect = "trigsim writes only regular files, through a temporary file renamed into place; to write into it, send the output to standard output and redirect it (> \(path))"
    switch status.st_mode & S_IFMT {
    case S_IFREG:
      return status
    case S_IFLNK:
      throw WriteError(
        path: path,
        reason: "it is a symbolic link, which trigsim does not write through (the link would be replaced by a file): name the file it points to, or remove the link first")
    case S_IFDIR:
      throw WriteError(path: path, reason: "it is a folder: name a file inside it")
    case S_IFIFO:
      throw WriteError(path: path, reason: "it is a named pipe (FIFO); \(redirect)")
    case S_IFSOCK:
      throw WriteError(path: path, reason: "it is a socket; \(redirect)")
    case S_IFCHR, S_IFBLK:
      throw WriteError(path: path, reason: "it is a device; \(redirect)")
    default:
      throw WriteError(path: path, reason: "it is not a regular file; \(redirect)")
    }
  }

  /// `FOLDER/.NAME.trigsim-XXXXXX`, the template mkostemp fills in, with
  /// NAME cut to `longestNameInTemporaryName` bytes at a character boundary.
  static func temporaryNameTemplate(folder: String, name: String) -> String {
    var kept = ""
    var bytes = 0
    for character in name {
      bytes += character.utf8.count
      if bytes > longestNameInTemporaryName { break }
      kept.append(character)
    }
    let prefix = folder == "." ? "" : folder.hasSuffix("/") ? folder : folder + "/"
    return "\(prefix).\(kept).trigsim-XXXXXX"
  }

  // MARK: - Reasons

  /// What a failed write(2), fsync(2) or close(2) means, and what to do.
  package static func reason(forFailedWrite code: Int32) -> String {
    switch code {
    case ENOSPC: "no space left on the device: free some space, or write to another disk"
    case EDQUOT: "the disk quota is used up: free some space, or write to another disk"
    case EFBIG: "the file would be larger than the file system or the process's file size limit allows"
    case EIO: "input/output error: the disk or its connection failed"
    default: systemDescription(code)
    }
  }

  /// What a failed creation of the temporary file in `folder` means.
  static func reason(forFailedCreationIn folder: String, code: Int32) -> String {
    switch code {
    case ENOENT: "its folder '\(folder)' does not exist: create it first, or name a file in another folder"
    case ENOTDIR: "'\(folder)' is not a folder"
    case EACCES, EPERM: "trigsim may not create files in the folder '\(folder)' (permission denied): write into a folder you may write to"
    case EROFS: "the folder '\(folder)' is on a read-only file system: write to another disk"
    case ENAMETOOLONG: "the path is too long"
    default: "cannot create a temporary file in '\(folder)': \(reason(forFailedWrite: code))"
    }
  }

  static func systemDescription(_ code: Int32) -> String { String(cString: strerror(code)) }

  // MARK: - The process

  /// The process's file-creation mask. umask(2) can only be read by setting
  /// it, so it is set to 0 and back, once; every file trigsim creates gets
  /// an explicit mode (mkostemp's 0600, then fchmod), so nothing trigsim
  /// creates depends on that moment.
  static let fileCreationMask: mode_t = {
    let mask = umask(0)
    umask(mask)
    return mask
  }()

  /// Prepares a command-line process for writing; call it first in `main`,
  /// before any other thread starts:
  /// - SIGPIPE is ignored, so writing to a pipe whose reader has gone fails
  ///   with EPIPE, a `WriteError` (exit 73), instead of ending the process
  ///   silently; SIGXFSZ too, so a file-size limit (`ulimit -f`) fails the
  ///   write with EFBIG instead of ending the process;
  /// - SIGHUP, SIGINT and SIGTERM remove the temporary files being written
  ///   and then end the process by the same signal (exit status 129, 130,
  ///   143 in a shell); a signal the process ignores stays ignored;
  /// - a closed standard input, output or error is opened on `/dev/null`,
  ///   read-only: no file trigsim opens can then take its number (output
  ///   meant for a closed standard output would go into that file), and
  ///   writing to it still fails, with EBADF;
  /// - the file-creation mask is read (`fileCreationMask`).
  package static func prepareProcessForWriting() {
    signal(SIGPIPE, SIG_IGN)
    signal(SIGXFSZ, SIG_IGN)
    _ = trigsim_remove_temporaries_on_signals()
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      occupyWithNullDevice(descriptor)
    }
    _ = fileCreationMask
  }
}

/// Opens `/dev/null` read-only on the closed `descriptor`.
private func occupyWithNullDevice(_ descriptor: Int32) {
  let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
  guard null >= 0 else { return }
  if null != descriptor {
    _ = dup2(null, descriptor)  // dup2 clears FD_CLOEXEC on the copy, as a standard stream needs
    _ = close(null)
  } else {
    _ = fcntl(descriptor, F_SETFD, 0)
  }
}

/// fsync(2), repeated after EINTR.
private func fsyncRetryingInterrupts(_ descriptor: Int32) -> Int32 {
  while true {
    let result = fsync(descriptor)
    if result == 0 || errno != EINTR { return result }
  }
}

/// fsync(2) on `folder`, so a rename in it survives a crash. Returns 0, or
/// the errno of the failure; a file system that cannot sync folders
/// (EINVAL) counts as synced.
private func syncFolder(_ folder: String) -> Int32 {
  let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
  guard descriptor >= 0 else { return errno }
  let code = fsyncRetryingInterrupts(descriptor) == 0 ? 0 : errno
  _ = close(descriptor)
  return code == EINVAL ? 0 : code
}
