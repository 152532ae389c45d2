import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimFuzzTargets

/// Replays every input in `fixtures/fuzz/TARGET/` through its fuzz target, the
/// way the fuzzer runs it: no trap, every diagnostic located at line ≥ 1 and
/// column ≥ 1 with a bounded message (checked inside the target), and the
/// outcome the file's name promises: `reject-*` is refused with a located
/// diagnostic or as unreadable, `accept-*` is read without an error. These are
/// the inputs that once crashed, hung or misbehaved, and inputs fuzzing found.
@Suite struct FuzzRegressionTests {
  static let cases: [(FuzzTarget, String)] = FuzzTarget.allCases.flatMap { target in
    let folder = RepositoryPaths.fixtures.appendingPathComponent("fuzz/\(target.rawValue)").path
    return FuzzReplay.files(at: folder).map { (target, $0) }
  }

  @Test func everyTargetHasRegressionInputs() {
    for target in FuzzTarget.allCases {
      #expect(Self.cases.contains { $0.0 == target }, "fixtures/fuzz/\(target.rawValue) has no input")
    }
  }

  @Test(arguments: cases)
  func replayedInputKeepsItsOutcome(target: FuzzTarget, file: String) throws {
    let name = (file as NSString).lastPathComponent
    let data = try #require(FileManager.default.contents(atPath: file))
    let started = ContinuousClock.now
    let outcome = data.withUnsafeBytes { target.run($0) }
    let elapsed = ContinuousClock.now - started
    // A hang guard, not a speed figure: the inputs that once hung ran for minutes.
    #expect(elapsed < .seconds(30), "\(name) took \(elapsed)")
    if data.range(of: Data("SECRET-MARKER".utf8)) != nil {
      for text in Self.texts(of: outcome) {
        #expect(!text.contains("SECRET-MARKER"), "\(name): content echoed: \(text.prefix(200))")
      }
    }
    switch outcome {
    case .accepted:
      #expect(name.hasPrefix("accept-"), "\(target.rawValue)/\(name) was accepted")
    case .rejected(let diagnostics):
      #expect(name.hasPrefix("reject-"), "\(target.rawValue)/\(name) was rejected: \(diagnostics.first.map(String.init(describing:)) ?? "")")
    case .unreadable(let why):
      #expect(name.hasPrefix("reject-"), "\(target.rawValue)/\(name) was unreadable: \(why)")
    }
  }

  /// Every message and note of an outcome.
  static func texts(of outcome: FuzzTarget.Outcome) -> [String] {
    switch outcome {
    case .accepted: []
    case .rejected(let diagnostics): diagnostics.flatMap { [$0.message] + $0.notes }
    case .unreadable(let why): [why]
    }
  }
}
