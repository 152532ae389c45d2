import Foundation
import TrigsimScenario

/// JUnit XML as CI servers read it (Jenkins, GitLab, GitHub test reporters):
/// one `<testsuite>` named `trigsim`, one `<testcase>` per scenario.
///
/// - `classname` is the scenario's folder and `name` its file name, so reports
///   group scenarios by folder; `file` is the path as given.
/// - A failed check is a `<failure>` whose `message` is the one-line headline
///   and whose text is the diff and the failed assertions.
/// - Bad input or an internal error is an `<error>` with the diagnostics.
/// - A skipped scenario is `<skipped message="...">`.
/// - `time` is in seconds with millisecond precision.
enum JUnitReport {
  static func xml(_ results: [TimedVerification], suiteSeconds: Double) -> String {
    let failures = results.count { $0.verification.outcome == .failed }
    let errors = results.count { if case .error = $0.verification.outcome { true } else { false } }
    let skipped = results.count { if case .skipped = $0.verification.outcome { true } else { false } }
    let counts = "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(suiteSeconds))\""
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<testsuites name=\"trigsim\" \(counts)>\n"
    xml += "  <testsuite name=\"trigsim\" \(counts)>\n"
    for result in results {
      let verification = result.verification
      let path = verification.scenarioPath
      let folder = (path as NSString).deletingLastPathComponent
      let name = (path as NSString).lastPathComponent
      xml += "    <testcase classname=\"\(escape(folder.isEmpty ? "." : folder))\" name=\"\(escape(name))\" file=\"\(escape(path))\" time=\"\(seconds(result.seconds))\""
      switch verification.outcome {
      case .passed:
        xml += "/>\n"
      case .failed:
        xml += ">\n      <failure message=\"\(escape(verification.headline))\" type=\"TimelineCheckFailed\">"
        xml += escape(verification.details) + "</failure>\n    </testcase>\n"
      case .skipped(let why):
        xml += ">\n      <skipped message=\"\(escape(why))\"/>\n    </testcase>\n"
      case .error(_, let message):
        xml += ">\n      <error message=\"\(escape(verification.headline))\" type=\"\(errorType(verification))\">"
        xml += escape(message) + "</error>\n    </testcase>\n"
      }
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  static func errorType(_ verification: ScenarioVerification) -> String {
    guard case .error(let kind, _) = verification.outcome else { return "" }
    switch kind {
    case .invalidInput: return "InvalidInput"
    case .cannotRead: return "CannotRead"
    case .cannotWrite: return "CannotWrite"
    case .internalError: return "InternalError"
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
