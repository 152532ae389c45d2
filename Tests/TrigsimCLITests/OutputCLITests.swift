import Foundation
import Testing
import TrigsimTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How the built binary writes: failed standard output and error, refused
/// destinations, modes, read-only folders, signals (issue 10's reproducers).
@Suite(.serialized) struct OutputCLITests {
  typealias Result = TrigsimBinary.Result

  static let walk = RepositoryPaths.scenarios.appendingPathComponent("morning-walk.yaml").path

  /// Runs `/bin/sh -c script` in `directory`, with `$TRIGSIM` the built
  /// binary and `$WALK` the morning-walk scenario, so a test can redirect or
  /// close the binary's standard streams. `timeout` ends a binary that would
  /// block (exit 124) instead of hanging the suite.
  static func shell(_ script: String, in directory: URL) throws -> Result {
    try TrigsimBinary.runProcess(
      URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: directory,
      environment: ["TRIGSIM": TrigsimBinary.url.path, "WALK": walk])
  }

  func folder() throws -> URL { try TrigsimBinary.temporaryDirectory(prefix: "trigsim-output") }

  func names(in folder: URL) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }

  func mode(of path: String) -> mode_t {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
  }

  /// A trap prints "Fatal error" and a backtrace; none may appear.
  func expectNoCrash(_ result: Result, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)", sourceLocation: sourceLocation)
    #expect(!result.stderr.contains("crashed"), "\(result.stderr)", sourceLocation: sourceLocation)
  }

  // MARK: - Standard output and standard error

  @Test func runToAFullStandardOutputExitsSeventyThree() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try Self.shell(#""$TRIGSIM" run "$WALK" > /dev/full"#, in: folder)
    #expect(result.status == 73)
    #expect(result.stderr == "error: cannot write to standard output: no space left on the device: free some space, or write to another disk\n")
    expectNoCrash(result)
  }

  @Test func verifyToAFullStandardOutputExitsSeventyThree() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try Self.shell(#""$TRIGSIM" verify "$WALK" > /dev/full"#, in: folder)
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("error: cannot write to standard output: no space left"))
  }

  @Test func helpToAFullStandardOutputExitsSeventyThree() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try Self.shell(#""$TRIGSIM" --help > /dev/full"#, in: folder)
    #expect(result.status == 73)
  }

  @Test func invalidInputStaysSixtyFiveWhenStandardErrorIsFull() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try "trigsim: 2\n".write(to: folder.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
    let result = try Self.shell(#""$TRIGSIM" run bad.yaml 2> /dev/full; echo "status $?""#, in: folder)
    #expect(result.stdout == "status 65\n")
    #expect(result.stderr.isEmpty)
  }

  @Test func invalidInputStaysSixtyFiveWhenStandardOutputIsFullToo() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try "trigsim: 2\n".write(to: folder.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
    let result = try Self.shell(#""$TRIGSIM" run bad.yaml > /dev/full"#, in: folder)
    #expect(result.status == 65)
    #expect(result.stderr.contains("bad.yaml:1:10: error: unsupported scenario format version"))
  }

  @Test func aSuccessfulRunStaysZeroWhenOnlyStandardErrorFails() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try Self.shell(#""$TRIGSIM" run "$WALK" 2> /dev/full > out.txt; echo "status $?""#, in: folder)
    #expect(result.stdout == "status 0\n")
    #expect(try String(contentsOf: folder.appendingPathComponent("out.txt"), encoding: .utf8).hasPrefix("# trigsim timeline 1\n"))
  }

  @Test func aClosedStandardOutputExitsSeventyThree() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try Self.shell(#""$TRIGSIM" run "$WALK" >&-"#, in: folder)
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("error: cannot write to standard output: it is closed or not open for writing"))
    expectNoCrash(result)
  }

  @Test func aClosedStandardOutputNeverLandsInAnOutputFile() throws {
    // With standard output closed, the temporary file could have taken descriptor 1.
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try Self.shell(#""$TRIGSIM" run "$WALK" --output out.txt >&-"#, in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let expected = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent("morning-walk.timeline"), encoding: .utf8)
    #expect(try String(contentsOf: folder.appendingPathComponent("out.txt"), encoding: .utf8) == expected)
  }

  @Test func aReaderThatHasGoneExitsSeventyThreeInsteadOfDyingOfSIGPIPE() throws {
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()  // no reader: every write fails with EPIPE
    let process = Process()
    process.executableURL = TrigsimBinary.url
    process.arguments = ["run", Self.walk]
    process.standardOutput = pipe.fileHandleForWriting
    let err = Pipe()
    process.standardError = err
    try process.run()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 73)
    #expect(stderr == "error: cannot write to standard output: the program reading it has stopped (broken pipe)\n")
  }

  @Test func dashIsStandardOutput() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try TrigsimBinary.run(["run", Self.walk, "--output", "-"], in: folder)
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("# trigsim timeline 1\n"))
    #expect(try names(in: folder).isEmpty)
  }

  // MARK: - Destinations

  @Test func outputOntoASymbolicLinkIsRefusedAndNothingChanges() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try "target\n".write(to: folder.appendingPathComponent("target.txt"), atomically: true, encoding: .utf8)
    #expect(symlink("target.txt", folder.appendingPathComponent("link.txt").path) == 0)
    let result = try TrigsimBinary.run(["run", Self.walk, "--output", "link.txt"], in: folder)
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("error: cannot write 'link.txt': it is a symbolic link"))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("link.txt").path) == "target.txt")
    #expect(try String(contentsOf: folder.appendingPathComponent("target.txt"), encoding: .utf8) == "target\n")
    #expect(try names(in: folder) == ["link.txt", "target.txt"])
  }

  @Test func outputOntoANamedPipeIsRefusedWithoutBlocking() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(mkfifo(folder.appendingPathComponent("pipe").path, 0o600) == 0)
    let result = try Self.shell(#"timeout 60 "$TRIGSIM" run "$WALK" --output pipe"#, in: folder)
    #expect(result.status == 73)  // 124 had it blocked opening the pipe
    #expect(result.stderr.hasPrefix("error: cannot write 'pipe': it is a named pipe (FIFO)"))
    var status = stat()
    #expect(lstat(folder.appendingPathComponent("pipe").path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    #expect(try names(in: folder) == ["pipe"])
  }

  @Test(.enabled(if: geteuid() == 0, "creating a device node needs root"))
  func outputOntoADeviceIsRefusedAndTheDeviceStays() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let device = folder.appendingPathComponent("null").path
    // A /dev/null-like node of this test's own: the real /dev/null is never a target, even if the check regressed.
    let nullDeviceNumber = dev_t(1 << 8 | 3)  // major 1, minor 3 in Linux's encoding (glibc's makedev macro is not imported)
    try #require(mknod(device, S_IFCHR | 0o666, nullDeviceNumber) == 0, "mknod: \(String(cString: strerror(errno)))")
    let result = try TrigsimBinary.run(["run", Self.walk, "--output", "null"], in: folder)
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("error: cannot write 'null': it is a device;"))
    var status = stat()
    #expect(lstat(device, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    #expect(try names(in: folder) == ["null"])
  }

  /// Every way `run` and `report` write, with a destination that will be
  /// refused: the refusal comes before the scenario is read, so it is the
  /// only message (the scenario below is invalid) and costs no run.
  @Test(arguments: [
    ["run"], ["run", "--format", "json"], ["run", "--format", "geojson"], ["run", "--trials", "3"], ["run", "--trial", "1"],
    ["run", "--expect", "expected.timeline"], ["report"], ["report", "--format", "svg", "--picture", "chart"],
  ])
  func aRefusedOutputIsReportedBeforeTheScenarioIsLoaded(command: [String]) throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try "trigsim: 1\nclock: { start: not-an-instant }\n".write(
      to: folder.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: false)
    let intoFolder = try TrigsimBinary.run([command[0], "bad.yaml"] + command.dropFirst() + ["--output", "out"], in: folder)
    #expect(intoFolder.status == 73, "\(intoFolder.stderr)")
    #expect(intoFolder.stderr == "error: cannot write 'out': it is a folder: name a file inside it\n")
    let intoMissingFolder = try TrigsimBinary.run([command[0], "bad.yaml"] + command.dropFirst() + ["--output", "missing/t.txt"], in: folder)
    #expect(intoMissingFolder.status == 73, "\(intoMissingFolder.stderr)")
    #expect(
      intoMissingFolder.stderr
        == "error: cannot write 'missing/t.txt': its folder 'missing' does not exist: create it first, or name a file in another folder\n")
    #expect(try names(in: folder) == ["bad.yaml", "out"])
    // The same scenario with standard output: the scenario's own error, exit 65.
    let toStandardOutput = try TrigsimBinary.run([command[0], "bad.yaml"] + command.dropFirst(), in: folder)
    #expect(toStandardOutput.status == 65, "\(toStandardOutput.stderr)")
    #expect(toStandardOutput.stderr.hasPrefix("bad.yaml:2:"))
  }

  @Test func outputOntoDevNullIsRefusedBeforeTheScenarioIsLoaded() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try "trigsim: 1\nclock: { start: not-an-instant }\n".write(
      to: folder.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
    let result = try TrigsimBinary.run(["run", "bad.yaml", "--output", "/dev/null"], in: folder)
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("error: cannot write '/dev/null': it is a device;"))
    #expect(!result.stderr.contains("bad.yaml"))
  }

  @Test func anExistingPrivateFileKeepsModeSixHundred() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("private.txt").path
    try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(chmod(path, 0o600) == 0)
    let result = try TrigsimBinary.run(["run", Self.walk, "--output", "private.txt"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(mode(of: path) == 0o600)
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("# trigsim timeline 1\n"))
  }

  @Test func aNewFileFollowsTheUmask() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try Self.shell(#"umask 027 && "$TRIGSIM" run "$WALK" --output new.txt"#, in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(mode(of: folder.appendingPathComponent("new.txt").path) == 0o640)
  }

  /// Makes `folder` read-only for this process even as root (chattr +i
  /// there; chmod 0555 otherwise) and returns how to undo it, or nil when
  /// that is not possible here.
  func makeReadOnly(_ folder: URL) -> (() -> Void)? {
    if geteuid() != 0 {
      guard chmod(folder.path, 0o555) == 0 else { return nil }
      return { _ = chmod(folder.path, 0o755) }
    }
    func chattr(_ flag: String) -> Bool {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
      process.arguments = [flag, folder.path]
      process.standardError = FileHandle.nullDevice
      guard (try? process.run()) != nil else { return false }
      process.waitUntilExit()
      return process.terminationStatus == 0
    }
    guard chattr("+i") else { return nil }
    return { _ = chattr("-i") }
  }

  @Test func aReadOnlyFolderExitsSeventyThreeAndLeavesNothing() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try "old\n".write(to: folder.appendingPathComponent("out.txt"), atomically: true, encoding: .utf8)
    let undo = try #require(makeReadOnly(folder), "cannot make a read-only folder on this machine")
    let result = try TrigsimBinary.run(["run", Self.walk, "--output", "out.txt"], in: folder)
    undo()
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("error: cannot write 'out.txt': trigsim may not create files in the folder '.'"))
    #expect(try names(in: folder) == ["out.txt"])
    #expect(try String(contentsOf: folder.appendingPathComponent("out.txt"), encoding: .utf8) == "old\n")
  }

  // MARK: - generate-track

  @Test func generateTrackRefusesAHugeDayCountWithAUsageError() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try TrigsimBinary.run(["generate-track", "--days", "9223372036854775807", "--output", "x.csv"], in: folder)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: --days takes 1 to 36500 days (about 100 years), not 9223372036854775807\n"))
    expectNoCrash(result)
    #expect(try names(in: folder).isEmpty)
  }

  @Test func generateTrackOverAFileSizeLimitExitsSeventyThreeAndLeavesTheDestination() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try "original\n".write(to: folder.appendingPathComponent("day.csv"), atomically: true, encoding: .utf8)
    // 1 MB at most (ulimit counts 512- or 1024-byte blocks); a day at 1 Hz is 3.5 MB.
    let result = try Self.shell(#"ulimit -f 1000 && "$TRIGSIM" generate-track --days 1 --output day.csv"#, in: folder)
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("error: cannot write 'day.csv': the file would be larger than"))
    #expect(try names(in: folder) == ["day.csv"])
    #expect(try String(contentsOf: folder.appendingPathComponent("day.csv"), encoding: .utf8) == "original\n")
  }

  /// The signals whose handler removes the temporary file, as `kill` sends
  /// them. The test's own threads block signals, and the child inherits that
  /// mask: trigsim unblocks the three itself.
  @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
  func aSignalDuringAWriteRemovesTheTemporaryAndLeavesTheDestination(signal: Int32) throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let destination = folder.appendingPathComponent("year.csv")
    try "original\n".write(to: destination, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = TrigsimBinary.url
    process.arguments = ["generate-track", "--days", "365", "--output", "year.csv"]  // 1.3 GB: still writing when the signal comes
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
    }
    // Wait until the temporary file holds data: the signal then arrives mid-write.
    var temporary: String?
    for _ in 0..<3000 where temporary == nil {
      if let name = try names(in: folder).first(where: { $0.hasPrefix(".year.csv.trigsim-") }),
        let size = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int, size > 0
      {
        temporary = name
      } else {
        usleep(10_000)
      }
    }
    try #require(temporary != nil, "no temporary file appeared within 30 s")
    #expect(kill(process.processIdentifier, signal) == 0)
    for _ in 0..<3000 where process.isRunning { usleep(10_000) }
    try #require(!process.isRunning, "still running 30 s after the signal")
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == signal)
    #expect(try names(in: folder) == ["year.csv"])
    #expect(try String(contentsOf: destination, encoding: .utf8) == "original\n")
  }

  /// GeoJSON and the report say what the track does not cover on standard error, as the timeline does.
  @Test(arguments: [["run", "scenarios/morning-walk.yaml", "--format", "geojson"], ["report", "scenarios/morning-walk.yaml", "--format", "svg"]])
  func everyWriterOfARunSaysWhatTheTrackDoesNotCover(_ arguments: [String]) throws {
    let written = try TrigsimBinary.run(arguments)
    let text = try TrigsimBinary.run(["run", "scenarios/morning-walk.yaml"])
    #expect(written.status == 0)
    #expect(written.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("warning: scenarios/morning-walk.yaml: ") }.count == 2)
    #expect(written.stderr == text.stderr)
  }
}
