import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// One diagnostic a test expects: where (a `MarkedText` marker), the exact
/// message, and optionally one of its notes.
struct ExpectedDiagnostic: Sendable {
  var marker: String
  var message: String
  var note: String? = nil
}

/// Loads marked YAML that must be rejected and compares its diagnostics.
protocol LoaderDiagnosticAssertions {}

extension LoaderDiagnosticAssertions {
  typealias Expected = ExpectedDiagnostic

  /// The diagnostics of a scenario that must not load (by `loader`), with its marker positions.
  func diagnostics(
    _ marked: String, loader: ScenarioLoader = ScenarioLoader(), sourceLocation: SourceLocation = #_sourceLocation
  ) -> (MarkedText, [Diagnostic]) {
    let text = MarkedText(marked)
    do {
      _ = try loader.load(yaml: text.text, file: "s.yaml")
      Issue.record("expected the scenario to be rejected", sourceLocation: sourceLocation)
      return (text, [])
    } catch let error as InputError {
      return (text, error.diagnostics)
    } catch {
      Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
      return (text, [])
    }
  }

  /// The file's diagnostics are exactly `expected`, in order: same location, same message, and the note when given.
  func assertDiagnostics(
    _ marked: String, _ expected: [Expected], loader: ScenarioLoader = ScenarioLoader(), sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let (text, found) = diagnostics(marked, loader: loader, sourceLocation: sourceLocation)
    #expect(found.count == expected.count, "found:\n\(found.map(\.description).joined(separator: "\n"))", sourceLocation: sourceLocation)
    for (diagnostic, expectation) in zip(found, expected) {
      #expect(
        diagnostic.location == text.location(expectation.marker, file: "s.yaml"), "\(expectation.marker): \(diagnostic)",
        sourceLocation: sourceLocation)
      #expect(diagnostic.message == expectation.message, sourceLocation: sourceLocation)
      if let note = expectation.note {
        #expect(diagnostic.notes.contains(note), "notes of '\(diagnostic.message)': \(diagnostic.notes)", sourceLocation: sourceLocation)
      }
    }
  }
}
