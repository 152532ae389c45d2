import ArgumentParser
import Foundation
import TrigsimCore
import TrigsimScenario

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension TrigsimCommand {
  /// Parses the command line and runs the command, as ArgumentParser's
  /// `main()` does, but with every byte written through `StandardStream`'s
  /// checked writes and the exit status decided by `exitStatus(deciding:)`.
  /// The process is first prepared for writing (SIGPIPE ignored, temporary
  /// files removed on SIGHUP, SIGINT and SIGTERM; see
  /// `OutputFile.prepareProcessForWriting()`), and an argument that is not
  /// UTF-8 is refused (`firstArgumentNotUTF8()`, exit 66).
  static func main() {
    OutputFile.prepareProcessForWriting()
    if let (position, bytes) = firstArgumentNotUTF8() {
      printError(
        "error: argument \(position), \(Diagnostic.quote(utf8: bytes)), is not UTF-8\nnote: trigsim reads file names and options as UTF-8; rename the file to a UTF-8 name")
      Foundation.exit(exitStatus(deciding: TrigsimExitCode.cannotReadInput))
    }
    var decided = TrigsimExitCode.success
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      // Help, usage errors and `ExitCode`s, as ArgumentParser's `exit(withError:)` reports them.
      decided = exitCode(for: error).rawValue
      let message = fullMessage(for: error)
      if !message.isEmpty {
        if decided == TrigsimExitCode.success { writeToStandardOutput(message + "\n") } else { printError(message) }
      }
    }
    Foundation.exit(exitStatus(deciding: decided))
  }
}

/// The process's exit status, given the code the command decided.
///
/// The rule: a failed write to standard output (a full disk, `/dev/full`, a
/// closed stream, a reader that went away) is reported once, here, and makes
/// the status 73, unless the decided code is more serious (64, 70, 65, 66:
/// see `moreSerious`). A failed write to standard error never changes the
/// status: standard error only explains an outcome the status already
/// tells (65 stays 65, 0 stays 0), and there is nowhere left to report it.
func exitStatus(deciding decided: Int32) -> Int32 {
  // Anything printed through C's stdio (Swift's `print`) is written now, and checked like the rest.
  if fflush(nil) != 0, StandardStream.output.failure == nil {
    printError("error: cannot write to standard output: \(String(cString: strerror(errno)))")
    return moreSerious(decided, TrigsimExitCode.cannotWriteOutput)
  }
  guard let failure = StandardStream.output.failure else { return decided }
  printError("error: \(failure.message)")
  return moreSerious(decided, TrigsimExitCode.cannotWriteOutput)
}

/// Writes `text` to standard output. A failure does not stop the command:
/// it is kept by `StandardStream.output`, reported at exit and makes the
/// exit status 73 (see `exitStatus(deciding:)`).
func writeToStandardOutput(_ text: String) {
  try? StandardStream.output.write(text)
}

/// Writes `text` to standard error; a failure changes nothing (see
/// `exitStatus(deciding:)`).
func writeToStandardError(_ text: String) {
  try? StandardStream.error.write(text)
}
