import ArgumentParser
import Foundation
import TrigsimCore
import TrigsimScenario

/// The comparison options every checking command takes; laid over the scenario's `expect:` settings.
struct ComparisonFlags: ParsableArguments {
  @Option(
    name: .customLong("tolerance"),
    help: ArgumentHelp(
      "How far an instant may move and still match: '2s' for every entry, or 'SELECTOR=DURATION' such as 'geofence=500ms', 'enter=1s', 'fired medicine_*=2s'. Repeatable.",
      valueName: "tolerance"))
  var tolerances: [String] = []

  @Option(name: .customLong("ignore-field"), help: ArgumentHelp("Leave a field out of the comparison: 'title', or 'fired.next' for one kind. Repeatable.", valueName: "field"))
  var ignoredFields: [String] = []

  @Option(name: .customLong("ignore-kind"), help: ArgumentHelp("Leave every entry of a kind out of the comparison ('gap', say). Repeatable.", valueName: "kind"))
  var ignoredKinds: [String] = []

  @Flag(name: .customLong("ignore-header"), help: "Leave the timeline header out of the comparison.")
  var ignoresHeader = false

  func validate() throws { _ = try options() }

  /// Whether any comparison option was given.
  var isUsed: Bool { !tolerances.isEmpty || !ignoredFields.isEmpty || !ignoredKinds.isEmpty || ignoresHeader }

  /// The options, or a `ValidationError` (exit 64) naming the bad value.
  func options() throws -> ComparisonOptions {
    var options = ComparisonOptions()
    for text in tolerances {
      if let equals = text.lastIndex(of: "=") {
        let selectorText = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
        let durationText = String(text[text.index(after: equals)...])
        guard let duration = ValueSyntax.duration(durationText) else {
          throw ValidationError("--tolerance '\(text)': '\(durationText)' is not a duration (write 500ms, 2s, 1m)")
        }
        if selectorText == "default" {
          options.tolerance.global = duration
          continue
        }
        guard let selector = EntrySelector(parsing: selectorText) else {
          throw ValidationError("--tolerance '\(text)': '\(selectorText)' is not a selector (write a kind such as 'enter', 'geofence', or 'KIND PATTERN')")
        }
        options.tolerance.set(duration, for: selector)
      } else {
        guard let duration = ValueSyntax.duration(text) else {
          throw ValidationError("--tolerance '\(text)' is not a duration or SELECTOR=DURATION (write 2s, or geofence=500ms)")
        }
        options.tolerance.global = duration
      }
    }
    for text in ignoredFields {
      guard let filter = FieldFilter(parsing: text) else {
        throw ValidationError("--ignore-field '\(text)' is not a field name (write 'title', or 'fired.next' for one kind)")
      }
      options.ignoredFields.append(filter)
    }
    for text in ignoredKinds {
      guard let kind = TimelineEntry.Kind(rawValue: text) else {
        throw ValidationError("--ignore-kind '\(text)' is not an entry kind (kinds: \(TimelineEntry.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
      }
      options.ignoredKinds.insert(kind)
    }
    options.ignoresWholeHeader = ignoresHeader
    return options
  }
}

/// `--record MODE` and `--force`, for `verify` and `test`.
struct RecordFlags: ParsableArguments {
  @Option(help: ArgumentHelp("Write expected timelines: 'missing' (only absent ones), 'failed' (absent or differing ones) or 'all'. Not written when the environment variable CI is set, unless --force.", valueName: "mode"))
  var record: RecordMode = .none

  @Flag(help: "Write expected timelines even when the environment variable CI is set.")
  var force = false
}

extension RecordMode: ExpressibleByArgument {}

/// Whether this process runs on CI (see `ScenarioVerifier.isCI`).
var runningOnCI: Bool { ScenarioVerifier.isCI(ProcessInfo.processInfo.environment) }
