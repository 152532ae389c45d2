import ArgumentParser
import Foundation
import TrigsimCore

extension DiffStyle: ExpressibleByArgument {}

/// When a diff is coloured.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
  /// Only when the stream is a terminal and `NO_COLOR` is unset or empty.
  case auto
  case always
  case never
}

/// `--diff compact|full` and `--color auto|always|never`, for the commands that print diffs.
struct DiffFlags: ParsableArguments {
  @Option(help: ArgumentHelp("How a timeline difference is shown: 'full' (every difference with its context) or 'compact' (the summary and one line per group of same-cause differences).", valueName: "style"))
  var diff: DiffStyle = .full

  @Option(help: ArgumentHelp("Colour diffs: 'auto' (on a terminal, unless the environment variable NO_COLOR is set and not empty), 'always' or 'never'. Files and pipes are never coloured with 'auto'.", valueName: "when"))
  var color: ColorChoice = .auto

  /// Whether text written to `descriptor` (1 or 2) is coloured.
  func colors(descriptor: Int32) -> Bool {
    DiffColoring.enabled(color, isTerminal: isatty(descriptor) == 1, environment: ProcessInfo.processInfo.environment)
  }
}

/// ANSI colour for the diffs of `verify`, `run --expect` and `test`.
///
/// The rule (https://no-color.org): `auto` colours only a terminal, and not
/// when `NO_COLOR` is set to a non-empty value; `always` and `never` decide
/// alone (a command-line option overrides the environment).
enum DiffColoring {
  static func enabled(_ choice: ColorChoice, isTerminal: Bool, environment: [String: String]) -> Bool {
    switch choice {
    case .always: true
    case .never: false
    case .auto: isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }
  }

  static let reset = "\u{1B}[0m"

  /// `text` with each diff line coloured by how it starts: `doses differ`,
  /// `timeline differs` and `---`/`+++` bold, `@@` cyan, `- ` (expected) red,
  /// `+ ` (actual) green, `! ` (what a pair is) yellow, a compact group line
  /// (`N × …`) and an indented changed-dose line under `doses differ` yellow;
  /// every other line as it is.
  static func colored(_ text: String) -> String {
    var result = ""
    var inDoses = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.offset > 0 { result += "\n" }
      let content = line.element
      let style: String?
      if content.hasPrefix("doses differ") {
        inDoses = true
        style = "\u{1B}[1m"
      } else if inDoses && content.hasPrefix("  ") {
        style = "\u{1B}[33m"
      } else if content.hasPrefix("timeline differs") || content.hasPrefix("--- ") || content.hasPrefix("+++ ") {
        inDoses = false
        style = "\u{1B}[1m"
      } else if content.hasPrefix("@@") {
        style = "\u{1B}[36m"
      } else if content.hasPrefix("- ") {
        style = "\u{1B}[31m"
      } else if content.hasPrefix("+ ") {
        style = "\u{1B}[32m"
      } else if content.hasPrefix("! ") || content.drop(while: { $0 == " " }).first?.isNumber == true && content.contains(" × ") {
        style = "\u{1B}[33m"
      } else {
        inDoses = false
        style = nil
      }
      if let style, !content.isEmpty { result += style + content + reset } else { result += content }
    }
    return result
  }
}
