import Foundation
import TrigsimScenario
import TrigsimCore

/// JUnit XML that both published schemas accept: the JUnit schema of
/// Jenkins' xUnit plugin (`junit-10.xsd`) and the Apache Ant JUnit schema
/// (Windy Road's `JUnit.xsd`), and so what GitLab and Jenkins read.
///
/// The document, in the order the Ant schema requires:
/// - a bare `<testsuites>` (the Ant schema allows no attributes on it);
/// - one `<testsuite>` with `name`, `package` (both `trigsim`), `id="0"`,
///   `tests`, `failures`, `errors`, `skipped`, `time`, then `timestamp` when
///   the environment gives a deterministic date (`SOURCE_DATE_EPOCH`, see
///   `timestamp(sourceDateEpoch:)`) and `hostname`, written as the constant
///   `unrecordedHostname`. trigsim never reads the wall clock for the report,
///   so two runs differ only in `time`. Ant's schema requires `timestamp`;
///   Jenkins' allows it to be absent, and without `SOURCE_DATE_EPOCH` it is
///   left out rather than written as a date that means nothing (1970);
/// - an empty `<properties/>`, one `<testcase>` per scenario in path order,
///   then empty `<system-out/>` and `<system-err/>`.
///
/// A `<testcase>` has exactly `classname`, `name` and `time` (no `file`:
/// Ant's schema allows no other attribute):
/// - `classname` is the scenario's folder with dots for slashes
///   (`scenarios/corpus/x.yaml` → `scenarios.corpus`; see `className(of:)`);
/// - `name` is the file name; `time` the wall-clock seconds with millisecond
///   precision (the only part of the report that differs between runs).
///
/// What a testcase holds:
/// - a failed check: `<failure type="TimelineCheckFailed" message="...">`
///   whose message is one line naming what failed
///   (`ScenarioVerification.failureMessage`) and whose text is the diff and
///   the failed assertions as `verify` prints them, cut to `bodyLineLimit`
///   lines (see `boundedBody(_:scenarioPath:)`);
/// - bad input, an unreadable file or an internal error: `<error type="...">`
///   whose message is the headline and the first line of the diagnostics,
///   and whose text is the diagnostics (cut the same way); a scenario that
///   crashed trigsim is `type="InternalError"` with a message naming the
///   signal; one stopped at a limit is `type="Timeout"` or
///   `type="MemoryLimit"` with a message naming the limit ("exceeded the
///   300 s per-scenario time limit (--timeout)");
/// - a skipped scenario: `<skipped message="why">why</skipped>` (Jenkins
///   shows the attribute, GitLab the text).
enum JUnitReport {
  /// The environment variable whose date the report's `timestamp` is: the
  /// reproducible-builds convention (reproducible-builds.org/specs/source-date-epoch)
  /// for the date of the sources, whole seconds since 1970-01-01T00:00:00Z,
  /// which CI sets from the commit (`git log -1 --format=%ct`).
  static let sourceDateEpochVariable = "SOURCE_DATE_EPOCH"
  /// The `hostname` the Ant schema requires: `localhost`, the value its
  /// documentation gives when the host is not known (trigsim does not record it).
  static let unrecordedHostname = "localhost"
  /// The class name of a scenario given without a folder.
  static let topLevelClassName = "trigsim"
  /// The most lines of a diff or of diagnostics a `<failure>` or `<error>` holds.
  static let bodyLineLimit = 100

  /// Why `SOURCE_DATE_EPOCH` cannot be the report's timestamp.
  struct SourceDateError: Error, CustomStringConvertible {
    var value: String
    var description: String {
      "\(sourceDateEpochVariable) is '\(ControlCharacterEscape.escaping(value))', not a date: it must be whole seconds since "
        + "1970-01-01T00:00:00Z (as 'git log -1 --format=%ct' prints), or unset to leave the JUnit timestamp out"
    }
  }

  /// The `timestamp` of the report (`YYYY-MM-DDTHH:MM:SS` in UTC, without a
  /// zone, as Ant's schema wants it): the date of `SOURCE_DATE_EPOCH`
  /// (`sourceDateEpoch`), or nil, leaving the attribute out, when it is unset
  /// or empty. It is the date of the sources under test, the one instant a
  /// CI run can name deterministically; never the wall clock, and never the
  /// scenarios' simulated clocks, which say when the patient's day is, not
  /// when the check ran.
  ///
  /// - Throws: `SourceDateError` when the value is not whole non-negative seconds.
  static func timestamp(sourceDateEpoch: String?) throws -> String? {
    guard let sourceDateEpoch, !sourceDateEpoch.isEmpty else { return nil }
    guard sourceDateEpoch.allSatisfy({ ("0"..."9").contains($0) }), let seconds = Int64(sourceDateEpoch), seconds <= 253_402_300_799 else {
      throw SourceDateError(value: sourceDateEpoch)
    }
    return String(InstantFormatter.format(SimulationInstant(millisecondsSinceEpoch: seconds * 1000), offsetSeconds: 0).prefix(19))
  }

  /// `timestamp(sourceDateEpoch:)` of this process's environment.
  static func timestampFromEnvironment() throws -> String? {
    try timestamp(sourceDateEpoch: ProcessInfo.processInfo.environment[sourceDateEpochVariable])
  }

  static func xml(_ results: [ScenarioResult], suiteSeconds: Double, timestamp: String? = nil) -> String {
    // A scenario run on several phones is a testcase per platform (`x.yaml [android]`) and one for the side-by-side table.
    let results = results.flatMap(\.each)
    let failures = results.count { $0.status == .failed }
    let errors = results.count(where: \.isError)
    let skipped = results.count { $0.status == .skipped }
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<testsuites>\n"
    xml += "  <testsuite name=\"trigsim\" package=\"trigsim\" id=\"0\" tests=\"\(results.count)\" failures=\"\(failures)\""
    xml += " errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(suiteSeconds))\""
    xml += (timestamp.map { " timestamp=\"\($0)\"" } ?? "") + " hostname=\"\(unrecordedHostname)\">\n"
    xml += "    <properties/>\n"
    for result in results {
      let path = result.scenarioPath
      let name = (path as NSString).lastPathComponent + (result.platform.map { " [\($0)]" } ?? "")
      xml += "    <testcase classname=\"\(escape(className(of: path)))\" name=\"\(escape(name))\" time=\"\(seconds(result.seconds))\""
      switch result.status {
      case .passed:
        xml += "/>\n"
      case .failed:
        xml += ">\n      <failure type=\"TimelineCheckFailed\" message=\"\(escape(oneLine(result.failureMessage)))\">"
        xml += escape(boundedBody(result.details, scenarioPath: path)) + "</failure>\n    </testcase>\n"
      case .skipped:
        let why = escape(oneLine(result.message))
        xml += ">\n      <skipped message=\"\(why)\">\(why)</skipped>\n    </testcase>\n"
      case .invalidInput, .cannotRead, .cannotWrite, .internalError, .crashed, .timedOut, .memoryExceeded:
        xml += ">\n      <error type=\"\(errorType(result.status))\" message=\"\(escape(oneLine(errorMessage(result))))\">"
        xml += escape(boundedBody(result.message, scenarioPath: path)) + "</error>\n    </testcase>\n"
      }
    }
    xml += "    <system-out/>\n    <system-err/>\n"
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  /// The scenario's folder as a class name: its path components joined by
  /// dots, with `.` and empty components dropped and any dot inside a
  /// component made `_` (so `..` is `__`), or `topLevelClassName` for a
  /// file given without a folder. `scenarios/corpus/x.yaml` →
  /// `scenarios.corpus`; `./x.yaml` → `trigsim`; `/ci/v1.2/x.yaml` → `ci.v1_2`.
  static func className(of scenarioPath: String) -> String {
    let components = scenarioPath.split(separator: "/", omittingEmptySubsequences: true).dropLast()
    let parts = components.filter { $0 != "." }.map { $0.replacingOccurrences(of: ".", with: "_") }
    return parts.isEmpty ? topLevelClassName : parts.joined(separator: ".")
  }

  /// `text` cut to its first `bodyLineLimit` lines, followed by a line
  /// saying how many lines were cut and which command prints them all.
  static func boundedBody(_ text: String, scenarioPath: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    guard lines.count > bodyLineLimit else { return text }
    let cut = lines.count - bodyLineLimit
    return lines.prefix(bodyLineLimit).joined(separator: "\n")
      + "\n... \(cut) more line\(cut == 1 ? "" : "s") cut; 'trigsim verify \(scenarioPath)' (with the same options) prints the whole report\n"
  }

  /// An `<error>`'s message: the headline, and for bad input or a file that
  /// cannot be read or written, the first line of what was printed.
  static func errorMessage(_ result: ScenarioResult) -> String {
    switch result.status {
    case .invalidInput, .cannotRead, .cannotWrite:
      guard let first = result.message.split(separator: "\n").first(where: { !$0.allSatisfy(\.isWhitespace) }) else {
        return result.headline
      }
      return "\(result.headline): \(first)"
    default:
      return result.headline
    }
  }

  /// `text` on one line: line breaks and tabs become spaces.
  static func oneLine(_ text: String) -> String {
    var line = text
    while line.hasSuffix("\n") { line.removeLast() }
    return String(line.map { $0.isNewline || $0 == "\t" ? " " : $0 })
  }

  /// The `type` of an `<error>`: a crash is an internal error too; a
  /// scenario stopped at a limit is `Timeout` or `MemoryLimit`.
  static func errorType(_ status: ScenarioResult.Status) -> String {
    switch status {
    case .invalidInput: "InvalidInput"
    case .cannotRead: "CannotRead"
    case .cannotWrite: "CannotWrite"
    case .internalError, .crashed: "InternalError"
    case .timedOut: "Timeout"
    case .memoryExceeded: "MemoryLimit"
    case .passed, .failed, .skipped: ""
    }
  }

  static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

  /// Text safe in XML 1.0 content and attribute values (`XMLText.escaped`).
  static func escape(_ text: String) -> String { XMLText.escaped(text) }
}
