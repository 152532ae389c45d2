import Testing
import TrigsimCore

@Suite struct DiagnosticCollectorTests {
  static func at(_ line: Int, _ column: Int = 1, _ message: String = "bad") -> Diagnostic {
    Diagnostic(at: InputLocation(file: "f", line: line, column: column), message)
  }

  func thrown(_ collector: DiagnosticCollector) -> [Diagnostic] {
    do {
      try collector.throwIfAny()
      return []
    } catch let error as InputError {
      return error.diagnostics
    } catch {
      return []
    }
  }

  @Test func nothingIsThrownWithoutProblems() throws {
    try DiagnosticCollector().throwIfAny()
  }

  @Test func theFirstProblemsFoundAreKeptAndTheRestCountedInOneNote() {
    var collector = DiagnosticCollector(limit: 3)
    for line in [5, 1, 9, 2, 7] { collector.append(Self.at(line)) }
    let found = thrown(collector)
    #expect(found.map(\.location.line) == [5, 1, 9])
    #expect(found.last?.notes == ["… and 2 more problems in this file (only the first 3 are listed)"])
    #expect(collector.suppressed == 2)
  }

  @Test func inLocationOrderTheFirstByPositionAreKeptStably() {
    var collector = DiagnosticCollector(limit: 3, keepsFirstByLocation: true)
    for (line, column, message) in [(5, 1, "a"), (1, 4, "b"), (9, 1, "c"), (1, 4, "d"), (7, 1, "e"), (1, 2, "f")] {
      collector.append(Self.at(line, column, message))
    }
    let found = thrown(collector)
    #expect(found.map(\.message) == ["f", "b", "d"])
    #expect(found.last?.notes == ["… and 3 more problems in this file (only the first 3 are listed)"])
  }

  @Test func aDiagnosticThatWouldNotBeKeptIsNeverComposed() {
    var collector = DiagnosticCollector(limit: 2, keepsFirstByLocation: true)
    var composed: [Int] = []
    for line in [4, 6, 9, 1] {
      let location = InputLocation(file: "f", line: line, column: 1)
      collector.append(at: location) {
        composed.append(line)
        return Diagnostic(at: location, "bad")
      }
    }
    #expect(composed == [4, 6, 1])
    #expect(collector.diagnostics.map(\.location.line) == [1, 4])
    #expect(collector.suppressed == 2)
  }

  @Test func oneMoreProblemIsSaidInTheSingular() {
    #expect(DiagnosticCollector.moreProblemsNote(1, limit: 100) == "… and 1 more problem in this file (only the first 100 are listed)")
  }

  /// A million problems keep `defaultLimit` diagnostics, not a million.
  @Test func aMillionProblemsKeepOnlyTheLimit() {
    var collector = DiagnosticCollector(keepsFirstByLocation: true)
    for line in 1...1_000_000 { collector.append(Self.at(line)) }
    #expect(collector.diagnostics.count == DiagnosticCollector.defaultLimit)
    #expect(collector.suppressed == 1_000_000 - DiagnosticCollector.defaultLimit)
  }
}
