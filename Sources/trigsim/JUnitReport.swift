import Foundation
import TrigsimScenario

/// JUnit XML as CI servers read it (Jenkins, GitLab, GitHub test reporters):
/// one `<testsuite>` named `trigsim`, one `<testcase>` per scenario.
///
/// - `classname` is the scenario's folder and `name` its file name, so reports
///   group scenarios by folder; `file` is the path as given.
/// - A failed check is a `<failure>` whose `message` is the one-line headline
///   and whose text is the diff and the failed assertions.
/// - Bad input or an internal error is an `<error>` with the diagnostics; a
///   scenario that crashed trigsim is an `<error type="InternalError">` whose
///   message names the signal.
/// - A skipped scenario is `<skipped message="...">`.
/// - `time` is in seconds with millisecond precision.
enum JUnitReport {
  static func xml(_ results: [ScenarioResult], suiteSeconds: Double) -> String {
    let failures = results.count { $0.status == .failed }
    let errors = results.count(where: \.isError)
    let skipped = results.count { $0.status == .skipped }
    let counts = "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(suiteSeconds))\""
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<testsuites name=\"trigsim\" \(counts)>\n"
    xml += "  <testsuite name=\"trigsim\" \(counts)>\n"
    for result in results {
      let path = result.scenarioPath
      let folder = (path as NSString).deletingLastPathComponent
      let name = (path as NSString).lastPathComponent
      xml += "    <testcase classname=\"\(escape(folder.isEmpty ? "." : folder))\" name=\"\(escape(name))\" file=\"\(escape(path))\" time=\"\(seconds(result.seconds))\""
      switch result.status {
      case .passed:
        xml += "/>\n"
      case .failed:
        xml += ">\n      <failure message=\"\(escape(result.headline))\" type=\"TimelineCheckFailed\">"
        xml += escape(result.details) + "</failure>\n    </testcase>\n"
      case .skipped:
        xml += ">\n      <skipped message=\"\(escape(result.message))\"/>\n    </testcase>\n"
      case .invalidInput, .cannotRead, .cannotWrite, .internalError, .crashed:
        xml += ">\n      <error message=\"\(escape(result.headline))\" type=\"\(errorType(result.status))\">"
        xml += escape(result.message) + "</error>\n    </testcase>\n"
      }
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  /// The `type` of an `<error>`: a crash is an internal error too.
  static func errorType(_ status: ScenarioResult.Status) -> String {
    switch status {
    case .invalidInput: "InvalidInput"
    case .cannotRead: "CannotRead"
    case .cannotWrite: "CannotWrite"
    case .internalError, .crashed: "InternalError"
    case .passed, .failed, .skipped: ""
    }
  }

  static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

  /// Text safe in XML 1.0 content and attribute values: the five markup
  /// characters escaped, and characters XML 1.0 forbids (controls other than
  /// tab, newline and carriage return) replaced by U+FFFD.
  static func escape(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&apos;"
      case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        escaped += "\u{FFFD}"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}
