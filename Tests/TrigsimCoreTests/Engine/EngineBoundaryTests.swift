import Foundation
import Testing

/// The engine's boundary, read from the sources: the engine knows no layer
/// by role, holds few values of its own, and no other folder adds to it.
@Suite struct EngineBoundaryTests {
  static let core = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/TrigsimCore")

  static func swiftFiles(under folder: URL) -> [URL] {
    let names = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    return names.filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0) }
  }

  @Test func noFileInEngineNamesAPlatformAChannelThePatientOrAMedicineRule() throws {
    let engine = Self.swiftFiles(under: Self.core.appendingPathComponent("Engine"))
    #expect(engine.count >= 5)
    let words = ["android", "iphone", "ios", "fcm", "apns", "push", "sms", "email", "inbox", "patient", "medicine", "dose", "ledger"]
    for file in engine {
      let text = try String(contentsOf: file, encoding: .utf8).lowercased()
      let tokens = Set(text.split { !$0.isLetter }.map(String.init))
      for word in words where tokens.contains(word) || tokens.contains(where: { $0.hasPrefix(word) && word.count > 3 }) {
        Issue.record("\(file.lastPathComponent) names '\(word)'")
      }
    }
  }

  @Test func nothingOutsideEngineExtendsTheRun() throws {
    let all = Self.swiftFiles(under: Self.core)
    #expect(all.count > 100)
    for file in all where !file.path.contains("/Engine/") {
      let text = try String(contentsOf: file, encoding: .utf8)
      #expect(!text.contains("extension SimulationRun"), "\(file.lastPathComponent) extends SimulationRun")
    }
  }

  @Test func theRunHoldsAtMostFifteenStoredProperties() throws {
    let text = try String(contentsOf: Self.core.appendingPathComponent("Engine/SimulationRun.swift"), encoding: .utf8)
    let body = try #require(text.range(of: "struct SimulationRun {")).upperBound
    let end = try #require(text.range(of: "\n  init(", range: body..<text.endIndex)).lowerBound
    let stored = text[body..<end].split(separator: "\n").filter { line in
      ["  var ", "  let ", "  private(set) var "].contains { line.hasPrefix($0) } && !line.contains("{")
    }
    #expect(stored.count <= 15, "\(stored.count) stored properties:\n\(stored.joined(separator: "\n"))")
    #expect(stored.count >= 5)
  }
}
