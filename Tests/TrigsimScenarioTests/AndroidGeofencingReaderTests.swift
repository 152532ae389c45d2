import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport
import Yams

@testable import TrigsimScenario

/// `android: { geofencing: { ... } }` (`readAndroidGeofencing`): values, and
/// every problem located at the value to change.
@Suite struct AndroidGeofencingReaderTests {
  /// Reads the `geofencing:` value of a document whose root is `{ geofencing: ... }`.
  static func read(_ marked: String) -> (text: MarkedText, rules: AndroidGeofenceRules?, diagnostics: [Diagnostic]) {
    let text = MarkedText(marked)
    let document = YAMLDocument(file: "s.yaml", text: text.text)
    let reader = ScenarioReader(document: document, baseDirectory: ".")
    guard let root = document.root(), let node = root.mapping?.first(where: { $0.key.scalar?.string == "geofencing" })?.value else {
      Issue.record("no 'geofencing' in the test document")
      return (text, nil, document.diagnostics.diagnostics)
    }
    let rules = reader.readAndroidGeofencing(node)
    return (text, rules, document.diagnostics.diagnostics)
  }

  @Test func everyRuleCanBeSet() throws {
    let (_, rules, diagnostics) = Self.read(
      "geofencing: { limit: 20, initialTrigger: [enter], loiteringDelay: 10m, responsiveness: 5m, backgroundLatency: 6m, "
        + "foregroundLatency: 30s, enterOverlap: 90%, exitOverlap: 0.1, smallEnterOverlap: 80%, smallExitOverlap: 20%, smallRadius: 150, "
        + "assumedAccuracy: 20, backgroundAccuracy: 35, backgroundLocation: not-required, latencySpread: 0.3, errorCorrelation: 2m }\n")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    var expected = AndroidGeofenceRules()
    expected.limit = 20
    expected.initialTrigger = [.enter]
    expected.loiteringDelay = .minutes(10)
    expected.responsiveness = .minutes(5)
    expected.backgroundLatency = .minutes(6)
    expected.foregroundLatency = .seconds(30)
    expected.enterOverlap = 0.9
    expected.exitOverlap = 0.1
    expected.smallEnterOverlap = 0.8
    expected.smallExitOverlap = 0.2
    expected.smallRadius = 150
    expected.assumedAccuracy = 20
    expected.backgroundAccuracy = 35
    expected.backgroundLocationRequired = false
    expected.latencySpread = 0.3
    expected.errorCorrelation = .minutes(2)
    #expect(try #require(rules) == expected)
  }

  @Test func anEmptyMappingKeepsTheDefaults() throws {
    let (_, rules, diagnostics) = Self.read("geofencing: {}\n")
    #expect(diagnostics.isEmpty)
    #expect(try #require(rules) == AndroidGeofenceRules())
    let (_, none, _) = Self.read("geofencing: { initialTrigger: [] }\n")
    #expect(none?.initialTrigger == [])
  }

  @Test func badRulesAreLocated() {
    let (text, _, diagnostics) = Self.read(
      "geofencing: { 1️⃣limt: 20, initialTrigger: [enter, 2️⃣exit], loiteringDelay: 3️⃣soon, enterOverlap: 4️⃣0%, exitOverlap: 5️⃣lots, "
        + "smallRadius: 6️⃣-1, backgroundLocation: 7️⃣always }\n")
    let expected: [(String, String)] = [
      ("1️⃣", "unknown key 'limt' in 'geofencing'"),
      ("2️⃣", "unknown initial trigger 'exit'"),
      ("3️⃣", "loiteringDelay 'soon' "),
      ("4️⃣", "enterOverlap must be above 0% and at most 100%, not 0%"),
      ("5️⃣", "exitOverlap must be a fraction or a percentage, not 'lots'"),
      ("6️⃣", "smallRadius must be between 0 and 100000 metres, not -1.0"),
      ("7️⃣", "unknown backgroundLocation rule 'always'"),
    ]
    #expect(diagnostics.count == expected.count, "\(diagnostics.map(\.description))")
    for (diagnostic, (marker, message)) in zip(diagnostics, expected) {
      #expect(diagnostic.location == text.location(marker, file: "s.yaml"), "\(marker): \(diagnostic)")
      #expect(diagnostic.message.hasPrefix(message), "\(marker): \(diagnostic.message)")
    }
  }

  @Test func anExitOverlapAboveTheEnterOverlapIsRefusedAtTheExitOverlap() {
    let (text, _, diagnostics) = Self.read("geofencing: { exitOverlap: 1️⃣90% }\n")
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.location == text.location("1️⃣", file: "s.yaml"))
    #expect(diagnostics.first?.message == "exitOverlap makes exitOverlap (90%) larger than enterOverlap (85%)")
    let (smallText, _, small) = Self.read("geofencing: { smallEnterOverlap: 1️⃣20% }\n")
    #expect(small.first?.location == smallText.location("1️⃣", file: "s.yaml"))
    #expect(small.first?.message == "smallEnterOverlap makes smallExitOverlap (25%) larger than smallEnterOverlap (20%)")
  }
}
