import Foundation
import Testing

@testable import TrigsimScenario

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `OutputFile`: atomic replacement through an exclusive temporary file,
/// modes kept, non-regular destinations refused, nothing left behind.
@Suite struct OutputFileTests {
  /// A new empty folder, removed by the caller.
  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("trigsim-outputfile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func names(in folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }

  static func mode(of path: String) -> mode_t {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
  }

  static func temporaryNames(in folder: URL) throws -> [String] {
    try names(in: folder).filter { $0.contains(".trigsim-") }
  }

  @Test func committedFileHoldsEveryByteWrittenAndNoTemporaryRemains() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("out.txt").path
    let file = try OutputFile.open(path)
    try file.write("head\n")
    // Larger than the buffer: written straight through.
    let large = [UInt8](repeating: UInt8(ascii: "x"), count: OutputFile.bufferSize * 3 + 17)
    try large.withUnsafeBytes { try file.write($0) }
    try file.write("tail\n")
    try file.commit()
    let expected = Data("head\n".utf8) + Data(large) + Data("tail\n".utf8)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected)
    #expect(try Self.names(in: folder) == ["out.txt"])
  }

  @Test func nothingReachesTheDestinationBeforeCommitAndTheTemporaryIsPrivate() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("out.txt").path
    try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
    let file = try OutputFile.open(path)
    try file.write(String(repeating: "new line\n", count: 20_000))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    let temporaries = try Self.temporaryNames(in: folder)
    #expect(temporaries.count == 1)
    #expect(temporaries.first?.hasPrefix(".out.txt.trigsim-") == true)
    #expect(temporaries.first?.count == ".out.txt.trigsim-".count + 6)
    #expect(Self.mode(of: folder.appendingPathComponent(temporaries[0]).path) == 0o600)
    try file.commit()
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("new line\n"))
  }

  @Test func discardLeavesTheDestinationAsItWasAndRemovesTheTemporary() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("out.txt").path
    try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
    let file = try OutputFile.open(path)
    try file.write(String(repeating: "new\n", count: 50_000))
    file.discard()
    file.discard()  // a second discard does nothing
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    #expect(try Self.names(in: folder) == ["out.txt"])
  }

  @Test func aWriterDroppedWithoutCommitLeavesNothing() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("out.txt").path
    do {
      let file = try OutputFile.open(path)
      try file.write("never committed\n")
      #expect(try Self.temporaryNames(in: folder).count == 1)
    }
    #expect(try Self.names(in: folder).isEmpty)
  }

  @Test(arguments: [0o600, 0o640, 0o444, 0o755] as [mode_t])
  func aReplacedFileKeepsItsMode(mode: mode_t) throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("out.txt").path
    try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(chmod(path, mode) == 0)
    let file = try OutputFile.open(path)
    try file.write("new\n")
    try file.commit()
    #expect(Self.mode(of: path) == mode)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
  }

  @Test func aNewFileGetsTheModeTheFileCreationMaskAllows() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("new.txt").path
    let file = try OutputFile.open(path)
    try file.write("new\n")
    try file.commit()
    // Read from /proc, not with umask(2), which would change it for the tests running beside this one.
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
    let mask = try #require(mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
    #expect(Self.mode(of: path) == 0o666 & ~mask)
  }

  @Test func twoWritersOfOneDestinationUseDifferentTemporariesAndTheLastCommitWins() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("out.txt").path
    let first = try OutputFile.open(path)
    let second = try OutputFile.open(path)
    #expect(try Self.temporaryNames(in: folder).count == 2)
    try first.write("first\n")
    try second.write("second\n")
    try first.commit()
    try second.commit()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "second\n")
    #expect(try Self.names(in: folder) == ["out.txt"])
  }

  @Test func aLongNameIsCutInTheTemporaryNameOnly() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let name = String(repeating: "é", count: 120) + ".txt"  // 244 bytes: the temporary's full name would pass 255
    let path = folder.appendingPathComponent(name).path
    let file = try OutputFile.open(path)
    let temporary = try #require(try Self.temporaryNames(in: folder).first)
    #expect(temporary.utf8.count <= 255)
    #expect(temporary.hasPrefix("." + String(repeating: "é", count: 100) + ".trigsim-"))
    try file.write("x\n")
    try file.commit()
    #expect(try Self.names(in: folder) == [name].sorted())
  }

  @Test func standardOutputIsNilOrDash() throws {
    #expect(try OutputFile.open(nil).path == nil)
    #expect(try OutputFile.open("-").path == nil)
  }

  // MARK: - Refused destinations

  /// Runs `OutputFile.open` on a destination that must be refused, and
  /// returns the error; should it open, the writer is discarded, so even a
  /// regression never replaces the destination.
  static func refusal(_ path: String) -> OutputFile.WriteError? {
    do {
      let file = try OutputFile.open(path)
      file.discard()
      return nil
    } catch {
      return error as? OutputFile.WriteError
    }
  }

  @Test func aSymbolicLinkIsRefusedAndNeitherItNorItsTargetChanges() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("target.txt").path
    let link = folder.appendingPathComponent("link.txt").path
    try "target\n".write(toFile: target, atomically: false, encoding: .utf8)
    #expect(symlink("target.txt", link) == 0)
    let error = try #require(Self.refusal(link))
    #expect(error.message == "cannot write '\(link)': it is a symbolic link, which trigsim does not write through (the link would be replaced by a file): name the file it points to, or remove the link first")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.txt")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "target\n")
    #expect(try Self.names(in: folder) == ["link.txt", "target.txt"])
  }

  @Test func aDanglingSymbolicLinkIsRefused() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let link = folder.appendingPathComponent("link.txt").path
    #expect(symlink("nowhere.txt", link) == 0)
    #expect(Self.refusal(link)?.reason.hasPrefix("it is a symbolic link") == true)
    #expect(try Self.names(in: folder) == ["link.txt"])
  }

  @Test func aNamedPipeIsRefusedWithoutOpeningIt() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("pipe").path
    #expect(mkfifo(fifo, 0o600) == 0)
    // Opening a FIFO with no reader would block this test forever; lstat does not open it.
    let error = try #require(Self.refusal(fifo))
    #expect(error.reason.hasPrefix("it is a named pipe (FIFO); trigsim writes only regular files"))
    #expect(error.reason.hasSuffix("redirect it (> \(fifo))"))
    #expect(try Self.names(in: folder) == ["pipe"])
  }

  @Test func aSocketIsRefused() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("socket").path
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    try #require(bound == 0, "bind: \(String(cString: strerror(errno)))")
    #expect(Self.refusal(path)?.reason.hasPrefix("it is a socket;") == true)
    #expect(try Self.names(in: folder) == ["socket"])
  }

  @Test func aDeviceIsRefused() throws {
    // `open` refuses before it creates anything, and `refusal` discards what a regression would open.
    let error = try #require(Self.refusal("/dev/null"))
    #expect(error.reason.hasPrefix("it is a device;"))
    var status = stat()
    #expect(lstat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
  }

  @Test func aFolderIsRefused() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(Self.refusal(folder.path)?.reason == "it is a folder: name a file inside it")
    #expect(Self.refusal(folder.path + "/")?.reason == "it ends in '/', so it names a folder: name a file")
    #expect(Self.refusal("")?.reason == "the path is empty: name a file")
    #expect(try Self.names(in: folder).isEmpty)
  }

  @Test func aMissingFolderIsNamedInTheError() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("missing").path
    let error = try #require(Self.refusal(missing + "/out.txt"))
    #expect(error.reason == "its folder '\(missing)' does not exist: create it first, or name a file in another folder")
    #expect(error.code == ENOENT)
  }

  @Test func creatingFoldersMakesEveryMissingFolderAndLeavesOnlyTheFile() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("build/reports/junit.xml").path
    let file = try OutputFile.open(path, creatingFolders: true)
    try file.write("<testsuites/>\n")
    try file.commit()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "<testsuites/>\n")
    #expect(try Self.names(in: folder) == ["build"])
    #expect(try Self.names(in: folder.appendingPathComponent("build/reports")) == ["junit.xml"])
    // Existing folders are fine the second time.
    let again = try OutputFile.open(path, creatingFolders: true)
    again.discard()
  }

  /// Issue 27: a dangling `--reports` link was called "a file, not a folder".
  @Test func creatingFoldersNamesADanglingLinkWhereAFolderMustBe() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let link = folder.appendingPathComponent("reports").path
    #expect(symlink("nowhere", link) == 0)
    let error = #expect(throws: OutputFile.WriteError.self) { try OutputFile.open(link + "/a.html", creatingFolders: true) }
    #expect(error?.reason == "'\(link)' is a symbolic link that leads nowhere: create the folder it names, or remove the link")
    #expect(try Self.names(in: folder) == ["reports"])
  }

  @Test func creatingFoldersRefusesAFileWhereAFolderMustBe() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let blocker = folder.appendingPathComponent("build").path
    try "not a folder".write(toFile: blocker, atomically: false, encoding: .utf8)
    let error = #expect(throws: OutputFile.WriteError.self) { try OutputFile.open(blocker + "/reports/junit.xml", creatingFolders: true) }
    #expect(error?.reason == "'\(blocker)' is a file, so the folder '\(blocker)/reports' cannot be created: remove it or name a file in another folder")
    #expect(try String(contentsOfFile: blocker, encoding: .utf8) == "not a folder")
  }

  // MARK: - Descriptor writes

  @Test func writingToAFullDeviceIsAnErrorNotATrap() throws {
    let descriptor = open("/dev/full", O_WRONLY | O_CLOEXEC)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 10, alignment: 1)
    defer { bytes.deallocate() }
    bytes.initializeMemory(as: UInt8.self, repeating: 1)
    #expect(throws: SystemCallError(code: ENOSPC)) { try writeAll(UnsafeRawBufferPointer(bytes), to: descriptor) }
  }

  @Test func failureReasonsSayWhatToDo() {
    #expect(OutputFile.reason(forFailedWrite: ENOSPC) == "no space left on the device: free some space, or write to another disk")
    #expect(OutputFile.reason(forFailedCreationIn: "/ro", code: EACCES) == "trigsim may not create files in the folder '/ro' (permission denied): write into a folder you may write to")
    #expect(OutputFile.reason(forFailedCreationIn: "/ro", code: EROFS) == "the folder '/ro' is on a read-only file system: write to another disk")
  }
}
