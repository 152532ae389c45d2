import Foundation
import TrigsimCore
import Yams

extension ScenarioReader {
  /// `platforms: [ios, android]`: the phones `record`, `verify` and `test`
  /// run the scenario on, side by side (`Scenario.platforms`). Each name is
  /// one of `PlatformName`, at most once; the list is not empty (leave the
  /// key out to run on the one phone `platform:` names). Every problem is
  /// reported at its item; nil when the value cannot be used.
  func readPlatforms(_ node: Node) -> [PlatformName]? {
    let names = PlatformName.allCases.map(\.rawValue)
    guard let items = document.sequence(node, what: "'platforms'", example: "platforms: [ios, android]") else { return nil }
    if items.isEmpty {
      document.error(
        node, "'platforms' is empty",
        notes: ["name the phones to run the scenario on, e.g. 'platforms: [ios, android]', or leave the key out to run it on the one 'platform:' names"])
      return nil
    }
    var platforms: [PlatformName] = []
    var valid = true
    for item in items {
      guard let platform = document.choice(item, what: "platform", names.map { ($0, PlatformName(rawValue: $0)!) }) else {
        valid = false
        continue
      }
      if platforms.contains(platform) {
        document.error(item, "platform '\(platform.rawValue)' is named twice in 'platforms'", notes: ["name each phone once, e.g. 'platforms: [ios, android]'"])
        valid = false
        continue
      }
      platforms.append(platform)
    }
    return valid ? platforms : nil
  }
}
