import Foundation
import Testing
import TrigsimCore

@testable import TrigsimTracks

#if canImport(Glibc)
  import Glibc
#endif

/// `TrackMessages.openTrackFile`: only regular files are read; everything
/// else is refused before reading, at the scenario line that names the file.
@Suite struct TrackFileOpeningTests {
  let scenario = InputLocation(file: "s.yaml", line: 4, column: 16)

  func refusal(_ path: String, _ kind: String) -> [String] {
    ["4:16: track file '\(path)' is \(kind), not a regular file"]
  }

  @Test func aNamedPipeIsRefusedWithoutWaitingForAWriter() throws {
    let fifo = temporaryFolder().appendingPathComponent("track.csv").path
    try #require(mkfifo(fifo, 0o600) == 0)
    // Read on another thread: were the open to block, the test unblocks it by
    // opening the pipe's other end, and fails instead of hanging.
    nonisolated(unsafe) var found: [String] = []
    let done = DispatchSemaphore(value: 0)
    let location = scenario
    Thread {
      found = problems(of: CSVTrackReader(path: fifo, referencedAt: location))
      done.signal()
    }.start()
    if done.wait(timeout: .now() + 10) == .timedOut {
      Issue.record("reading a FIFO blocked")
      let writer = open(fifo, O_WRONLY | O_NONBLOCK)
      if writer >= 0 { close(writer) }
      done.wait()
    }
    #expect(found == refusal(fifo, "a named pipe (FIFO)"))
  }

  @Test(arguments: ["/dev/zero", "/dev/urandom", "/dev/null"])
  func aCharacterDeviceIsRefused(path: String) {
    #expect(problems(of: CSVTrackReader(path: path, referencedAt: scenario)) == refusal(path, "a character device"))
    #expect(problems(of: GPXTrackReader(path: path, referencedAt: scenario)) == refusal(path, "a character device"))
  }

  @Test func aSocketIsRefused() throws {
    let path = temporaryFolder().appendingPathComponent("track.csv").path
    let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(socketDescriptor >= 0)
    defer { close(socketDescriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0)
    #expect(problems(of: CSVTrackReader(path: path, referencedAt: scenario)) == refusal(path, "a socket"))
  }

  @Test func aProcFileIsRefusedAndItsContentIsNeverQuoted() throws {
    let secret = "trigsim-secret-7f3a9c"
    setenv("TRIGSIM_TRACK_TEST_SECRET", secret, 1)
    var options = TrackReadingOptions()
    options.format = .csv
    let found = problems(of: TrackFile(path: "/proc/self/environ", options: options, referencedAt: scenario), withNotes: true)
    #expect(found == [
      """
      4:16: track file '/proc/self/environ' is a file of the kernel's procfs (/proc) file system, not a regular file
      note: \(TrackMessages.notRegularFileNote)
      """
    ])
    #expect(!found.joined().contains(secret))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/sys/devices/system/cpu/online")))
  func aSysfsFileIsRefused() {
    let path = "/sys/devices/system/cpu/online"
    #expect(problems(of: CSVTrackReader(path: path, referencedAt: scenario))
      == refusal(path, "a file of the kernel's sysfs (/sys) file system"))
  }

  @Test func aFolderIsStillUnreadable() {
    let folder = temporaryFolder().path
    #expect(problems(of: TrackFile(path: folder + "/", options: TrackReadingOptions(format: .csv), referencedAt: scenario))
      == ["4:16: cannot read track file '\(folder)/': Is a directory"])
  }

  @Test func aRegularFileComesBackInBlockingModeAtItsStart() throws {
    let path = trackFile("time,lat,lon\n1774674000,1,2\n")
    let fd = try TrackMessages.openTrackFile(path, referencedAt: nil)
    defer { close(fd) }
    #expect(fcntl(fd, F_GETFL) & O_NONBLOCK == 0)
    #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
    #expect(lseek(fd, 0, SEEK_CUR) == 0)
  }

  @Test func aReadErrorIsReportedAsOneAtTheLineReached() throws {
    // Reading the write end of a pipe fails (EBADF): a read error after the open.
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    var scanner = CSVScanner(file: "t.csv", fd: ends[1], options: TrackReadingOptions())
    defer { scanner.deallocate() }
    #expect {
      try scanner.run { _ in true }
    } throws: { error in
      (error as? InputError)?.description == "t.csv:1:1: error: cannot read track file 't.csv': \(String(cString: strerror(EBADF)))"
    }
  }
}
