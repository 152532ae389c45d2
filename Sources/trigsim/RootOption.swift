import ArgumentParser
import Foundation
import TrigsimScenario

/// `--root DIR`: every file a scenario names or implies (its track, expected
/// timeline and trial report), and the scenario file itself, must resolve
/// inside DIR after following symbolic links; for scenarios from untrusted
/// pull requests. The rule is `ScenarioPathPolicy`'s, applied by the loader.
struct RootOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Refuse (exit 65) a scenario, or a file it names, that resolves outside this folder after following symbolic links: for scenarios from untrusted pull requests.",
      valueName: "dir"))
  var root: String?

  func validate() throws {
    guard let root else { return }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw ValidationError("--root '\(root)' is not a folder")
    }
  }

  var pathPolicy: ScenarioPathPolicy { root.map { .confined(to: $0) } ?? .unrestricted }
}
