import Foundation
import Testing
import TrigsimCore
import TrigsimScenario
import TrigsimTestSupport

/// `ExpectedDosesReader`: every reviewed `.doses` file reads back to the same
/// bytes, and each kind of damage is reported at its line and column.
@Suite struct ExpectedDosesReaderTests {
  static let dosesFiles: [String] = RepositoryPaths.bundledScenarioFiles.map { $0.replacingOccurrences(of: ".yaml", with: ".doses") }
    .filter { FileManager.default.fileExists(atPath: RepositoryPaths.scenarios.appendingPathComponent($0).path) }

  @Test func thereAreReviewedDoseTables() { #expect(Self.dosesFiles.count >= 30) }

  @Test(arguments: dosesFiles)
  func everyReviewedDoseTableReadsBackToTheSameBytes(_ name: String) throws {
    let path = RepositoryPaths.scenarios.appendingPathComponent(name).path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let read = try ExpectedDosesReader().read(text: text, file: name)
    #expect(read.baseline.canonicalText == text)
    #expect(read.doseLines == Array(4..<(4 + read.baseline.doses.count)))
  }

  static let good = """
    # trigsim doses 1
    # pending peak: 2 at 2026-05-04T21:00:00.000+02:00
    # dropped by the pending limit: 0
    medicine=levo reminder=07:00 occurrence=2026-05-05 outcome=completed scheduled=2026-05-05T07:00:00.000+02:00 completed=2026-05-05T07:33:00.000+02:00

    """

  /// The first diagnostic's `line:column: message`.
  func problems(_ text: String) -> [String] {
    do {
      _ = try ExpectedDosesReader().read(text: text, file: "x.doses")
      return []
    } catch let error as InputError {
      return error.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
    } catch {
      return ["\(error)"]
    }
  }

  @Test func aWellFormedTableReads() throws {
    let read = try ExpectedDosesReader().read(text: Self.good, file: "x.doses")
    #expect(read.baseline.pendingPeak == 2)
    #expect(read.baseline.doses.map(\.name) == ["levo 2026-05-05 07:00"])
    #expect(read.baseline.doses[0].completed?.description == "2026-05-05T07:33:00.000+02:00")
  }

  @Test(arguments: [
    ("", ["1:1: the dose table is empty"]),
    ("# trigsim doses 2\n", ["1:1: unsupported dose table format version '2'"]),
    ("# trigsim timeline 1\n", ["1:1: the file is not a trigsim dose table: its first line is not '# trigsim doses 1'"]),
    (good.replacingOccurrences(of: "outcome=completed", with: "outcome=complete"), ["4:60: unknown outcome 'complete'"]),
    (good.replacingOccurrences(of: "scheduled=2026-05-05T07:00:00.000+02:00", with: "scheduled=2026-05-05T07:00:00"), ["4:80: scheduled instant '2026-05-05T07:00:00' has no UTC offset"]),
    (good.replacingOccurrences(of: " completed=", with: " completed=2026-05-05T07:33:00.000+02:00 completed="), ["4:150: field 'completed' appears twice (first at column 110)"]),
    (good.replacingOccurrences(of: " completed=", with: " finished="), ["4:110: unknown field 'finished'"]),
    (good.replacingOccurrences(of: "medicine=levo ", with: ""), ["4:135: dose line has no 'medicine' field"]),
    (good.replacingOccurrences(of: "reminder=07:00", with: "reminder=7 am"), ["4:26: field 'am' has no '='"]),
    (good + "# pending peak: 3\n", ["5:1: header line after the doses"]),
    (good.replacingOccurrences(of: "# dropped by the pending limit: 0\n", with: ""), ["1:1: the dose table has no '# dropped by the pending limit: N' line"]),
    (good.replacingOccurrences(of: "# pending peak: 2 at", with: "# pending peak: two at"), ["2:17: the pending peak 'two' is not a count"]),
    (good + "\n", ["5:1: blank line"]),
  ])
  func damageIsReportedAtItsLineAndColumn(_ text: String, _ expected: [String]) {
    #expect(problems(text) == expected)
  }

  @Test func aRepeatedHeaderLineIsAnErrorNotASilentOverride() {
    let header = "# dropped by the pending limit: 0\n"
    let twicePeak = Self.good.replacingOccurrences(of: header, with: header + "# pending peak: 3\n")
    #expect(problems(twicePeak) == ["4:1: a second '# pending peak' line"])
    let twiceDropped = Self.good.replacingOccurrences(of: header, with: header + "# dropped by the pending limit: 1\n")
    #expect(problems(twiceDropped) == ["4:1: a second '# dropped by the pending limit' line"])
  }

  @Test func carriageReturnsAreReportedOnceAtTheFirstLineAfterTheFormatLine() {
    #expect(problems(Self.good.replacingOccurrences(of: "\n", with: "\r\n")) == ["2:51: line ends with a carriage return (CRLF line ends)"])
  }
}
