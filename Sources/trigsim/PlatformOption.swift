import ArgumentParser
import Foundation
import TrigsimCore

/// `--platform ios|android|ios,android`: the phones to run scenarios on, in
/// place of each scenario's own `platform:` and `platforms:` (the manual,
/// "Commands"). Several phones run the scenario on each, side by side.
struct PlatformOption: ParsableArguments {
  @Option(
    name: .customLong("platform"),
    help: ArgumentHelp(
      "Run on these phones instead of the scenario's own: ios, android, or both side by side (ios,android). On another phone than its own, or on several, each platform's expected files are x.<platform>.timeline (and .doses), and the side-by-side dose table x.platforms.",
      valueName: "ios|android|ios,android"))
  var platform: String?

  func validate() throws { _ = try override }

  /// The phones named, or nil (each scenario's own).
  var override: [PlatformName]? {
    get throws { try platform.map(Self.parse) }
  }

  /// `--platform=ios,android`, for a worker process.
  var workerArguments: [String] { platform.map { ["--platform=\($0)"] } ?? [] }

  /// The names of a comma-separated list, each once, at least one; the error says what is wrong.
  static func parse(_ text: String) throws -> [PlatformName] {
    var names: [PlatformName] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let word = part.trimmingCharacters(in: .whitespaces)
      guard let name = PlatformName(rawValue: word) else {
        let shown = word.isEmpty ? "an empty name" : "unknown platform '\(word)'"
        throw ValidationError("--platform: \(shown); choose ios, android, or both: ios,android")
      }
      if names.contains(name) { throw ValidationError("--platform: '\(word)' is named twice; name each phone once (ios,android)") }
      names.append(name)
    }
    return names
  }
}

extension PlatformOption {
  /// An option that takes one phone (`--trials`, `--expect`, `--format svg`,
  /// ...) on a scenario whose `platforms:` names several: an error at that
  /// key (`file:line:column`, as the loader's errors), naming every phone's
  /// `--platform` (`choose it with --platform ios or --platform android`).
  /// Returns the usage exit code to throw.
  static func refuseSeveralPhones(_ platforms: [PlatformName], of scenario: Scenario, at path: String, conflict: String) -> ExitCode {
    let choices = platforms.map { "--platform \($0.rawValue)" }.joined(separator: " or ")
    let message = "the scenario runs on \(platforms.map(\.rawValue).joined(separator: " and ")) ('platforms:'); \(conflict)"
    let location = scenario.platformsOrigin ?? InputLocation(file: path, line: 1, column: 1)
    DiagnosticPrinter.standardError.print([Diagnostic(.error, at: location, message, notes: ["choose it with \(choices)"])])
    return ExitCode(TrigsimExitCode.usage)
  }
}
