import Foundation
import Testing

@testable import TrigsimScenario

/// The spill file behind a streamed timeline: nameless from the start,
/// read back whole in chunks of its fixed buffer, failures are write errors.
@Suite struct SpillFileTests {
  func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("trigsim-spill-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func whatIsWrittenIsReadBackWholeInChunksOfTheBuffer() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let spill = try SpillFile(environment: ["TMPDIR": folder.path])
    var written = ""
    for index in 0..<20_000 {
      let line = "entry \(index) – Åbenrå \(String(repeating: "x", count: index % 37))\n"
      try spill.write(line)
      written += line
    }
    #expect(written.utf8.count > 5 * SpillFile.bufferSize)
    var read: [UInt8] = []
    var largestChunk = 0
    try spill.readBack { chunk in
      largestChunk = max(largestChunk, chunk.count)
      read.append(contentsOf: chunk)
    }
    #expect(read == Array(written.utf8))
    #expect(largestChunk == SpillFile.bufferSize)
    #expect(spill.byteCount == written.utf8.count)
  }

  @Test func theFileHasNoNameInItsFolder() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let spill = try SpillFile(environment: ["TMPDIR": folder.path])
    try spill.write(String(repeating: "spilled\n", count: 50_000))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    #expect(spill.folder == folder.path)
  }

  @Test func anEmptySpillReadsBackNothing() throws {
    let spill = try SpillFile()
    var chunks = 0
    try spill.readBack { _ in chunks += 1 }
    #expect(chunks == 0)
  }

  @Test func aFolderThatCannotHoldTheFileIsAWriteErrorNamingIt() throws {
    let missing = FileManager.default.temporaryDirectory.appendingPathComponent("trigsim-no-such-folder-\(UUID().uuidString)").path
    let error = try #require(throws: OutputFile.WriteError.self) { try SpillFile(environment: ["TMPDIR": missing]) }
    #expect(error.localizedDescription.contains("cannot create a temporary file in '\(missing)': No such file or directory"))
    #expect(error.localizedDescription.contains("set TMPDIR"))
  }
}
