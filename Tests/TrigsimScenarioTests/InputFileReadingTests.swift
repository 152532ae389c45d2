import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimScenario

/// Scenarios and expected timelines are read only from regular files: a
/// device, a named pipe or a /proc file is refused before any byte is read
/// (issue 10: `/dev/zero` read forever, a FIFO blocked in open).
@Suite struct InputFileReadingTests {
  func reason(_ path: String) -> String? {
    do {
      _ = try ScenarioFileKind.scenario.readText(path)
      return nil
    } catch {
      return (error as? FileAccessError)?.reason
    }
  }

  @Test func devicesAndProcFilesAreRefusedBeforeReading() {
    #expect(reason("/dev/zero") == "is a character device, not a regular file")
    #expect(reason("/dev/urandom") == "is a character device, not a regular file")
    #expect(reason("/proc/self/environ") == "is a file of the kernel's procfs (/proc) file system, not a regular file")
    #expect(reason("/nonexistent/s.yaml") == "no such file")
  }

  @Test func aNamedPipeIsRefusedWithoutWaitingForAWriter() throws {
    let fifo = NSTemporaryDirectory() + "trigsim-fifo-\(UUID().uuidString).timeline"
    try #require(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    // Would block in open(2) forever if it were opened for reading.
    #expect(reason(fifo) == "is a named pipe (FIFO), not a regular file")
    #expect(throws: FileAccessError.self) { try ExpectedTimelineReader().read(path: fifo) }
    #expect(throws: FileAccessError.self) { try ScenarioLoader().loadFile(path: fifo) }
  }
}
