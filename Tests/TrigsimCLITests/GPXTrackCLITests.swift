import Foundation
import Testing
import TrigsimTestSupport

/// Issue 10 through the binary: GPX tracks that are not GPX, or not UTF-8,
/// give a located error and exit 65, and neither the file's content nor
/// libxml2's own messages reach stderr.
@Suite struct GPXTrackCLITests {
  /// Runs `trigsim run` on a scenario whose track is `bytes`, read as GPX.
  static func run(track bytes: [UInt8]) throws -> TrigsimBinary.Result {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-gpx-cli")
    try Data(bytes).write(to: folder.appendingPathComponent("track.gpx"))
    try """
      trigsim: 1
      name: GPX track
      clock: { start: 2026-03-01T00:00:00Z, end: 2026-03-02T00:00:00Z, timezone: UTC }
      track: { file: track.gpx }
      regions:
        - { id: home, center: [55.6761, 12.5683] }
      notifications:
        - { id: home, title: Home, trigger: { region: home, on: [enter], repeats: true } }

      """.write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    return try TrigsimBinary.run(["run", "s.yaml"], in: folder)
  }

  @Test func aTrackThatIsNotXMLIsNotEchoed() throws {
    let result = try Self.run(track: Array("root:$6$s3cretHash:20228:0:99999:7:::\n".utf8))
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix(
      "track.gpx:1:1: error: the file is not well-formed XML: no root element: the file is empty or is not XML (libxml2 error 4)\n"))
    #expect(!result.stderr.contains("s3cret"))
  }

  @Test func aLatin1AttributeNameWithoutAnEncodingDeclarationIsALocatedError() throws {
    let result = try Self.run(track: Array("<gpx a".utf8) + [0xD3] + Array("=\"1\"/>".utf8))
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("track.gpx:1:7: error: the file is not well-formed XML: bytes that are not UTF-8"))
  }

  @Test func libxml2PrintsNothingOfItsOwn() throws {
    // Bytes windows-1252 lacks: libxml2's encoder would print "encoding error : …" on stderr.
    let result = try Self.run(
      track: Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<gpx><wpt lat=\"1\" lon=\"2\"><name>".utf8) + [0x81]
        + Array("</name></wpt></gpx>\n".utf8))
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix(
      "track.gpx:2:33: error: the file is not well-formed XML: bytes that are not valid in the file's declared encoding (libxml2 error 6003)\n"))
    // What libxml2 2.9 prints by default for this file.
    for message in ["encoding error :", "I/O error :", "xmlParseChunk: encoder error"] {
      #expect(!result.stderr.contains(message))
    }
  }
}
