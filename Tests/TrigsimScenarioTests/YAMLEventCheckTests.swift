import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// YAML aliases that could expand a small scenario into a huge tree are
/// refused before Yams composes it: in mapping keys always, and beyond the
/// expansion budget.
@Suite struct YAMLEventCheckTests: LoaderDiagnosticAssertions {
  static let header = "trigsim: 1\nclock: { start: 2026-03-28T06:00:00+01:00, end: 2026-03-28T12:00:00+01:00, timezone: Europe/Copenhagen }\n"
  static let keyNote =
    "aliases are not allowed in keys (a key is compared whole, so an alias there can make a small file take hours); write the key out"
  static let budgetNote =
    "an alias repeats its anchor's whole value (aliases within it included); all aliases of a scenario may add at most 10000 nodes"

  /// The classic "billion laughs": nine levels, each listing the previous one
  /// nine times. With `inKeys`, each level's list is the key of a mapping.
  static func billionLaughs(inKeys: Bool) -> String {
    var text = header + "laughs:\n  l0: &l0 lol\n"
    for level in 1...9 {
      let list = "[" + Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ") + "]"
      text += inKeys ? "  l\(level): &l\(level) { ? \(list) : 1 }\n" : "  l\(level): &l\(level) \(list)\n"
    }
    return text
  }

  /// Issue 10's reproducer: aliases used as mapping keys hung the loader
  /// (Yams hashed 10^9 nodes). Refused at the first alias in a key.
  @Test func billionLaughsThroughKeysIsRefusedAtTheFirstAliasInAKey() throws {
    let started = ContinuousClock.now
    let error = try #require(throws: InputError.self) { try ScenarioLoader().load(yaml: Self.billionLaughs(inKeys: true), file: "s.yaml") }
    #expect(ContinuousClock.now - started < .seconds(1))
    let first = try #require(error.diagnostics.first)
    // Line 5 is "  l1: &l1 { ? [*l0, ...": the first alias in a key is at column 16.
    #expect(first.location == InputLocation(file: "s.yaml", line: 5, column: 16))
    #expect(first.message == "alias '*l0' in a mapping key")
    #expect(first.notes == [Self.keyNote])
    #expect(error.diagnostics.allSatisfy { $0.message.hasPrefix("alias '*l") })
  }

  /// The same through values: refused at the alias that crosses the budget.
  @Test func billionLaughsThroughValuesIsRefusedWhereTheBudgetIsCrossed() throws {
    let started = ContinuousClock.now
    let error = try #require(throws: InputError.self) { try ScenarioLoader().load(yaml: Self.billionLaughs(inKeys: false), file: "s.yaml") }
    #expect(ContinuousClock.now - started < .seconds(1))
    #expect(error.diagnostics.count == 1)
    let only = try #require(error.diagnostics.first)
    // The aliases of l1…l4 expand to 9 + 90 + 819 + 7,380 = 8,298 nodes; the first
    // alias on l5's line (line 9) adds l4's 7,381 and crosses 10,000.
    #expect(only.message == "alias '*l4' makes the aliases of this document expand to more than 10000 nodes")
    #expect(only.location.line == 9)
    #expect(only.notes.first == Self.budgetNote)
  }

  @Test func anAliasInsideAKeyAtAnyDepthIsRefused() {
    assertDiagnostics(
      Self.header + """
        x: &x home
        regions:
          - { id: a, center: [55.6761, 12.5683] }
        notifications:
          - { 1️⃣*x : 1, id: b, trigger: { region: a } }
          - { ? { k: [2️⃣*x] } : 1 }
        """,
      [
        Expected(marker: "1️⃣", message: "alias '*x' in a mapping key", note: Self.keyNote),
        Expected(marker: "2️⃣", message: "alias '*x' in a mapping key", note: Self.keyNote),
      ])
  }

  @Test func aliasesWithinTheBudgetLoadAsIfWrittenOut() throws {
    let scenario = try ScenarioLoader().load(
      yaml: Self.header + """
        regions:
          - { id: home, center: &here [55.6761, 12.5683] }
          - { id: door, center: *here, radius: 5 }
        notifications:
          - { id: a, title: &pills Pills, trigger: &daily { calendar: { hour: 8 }, repeats: true } }
          - { id: b, title: *pills, trigger: *daily }
        """, file: "s.yaml")
    #expect(scenario.regions.map(\.id) == ["home", "door"])
    #expect(scenario.actions.count == 2)
  }

  /// The budget counts every node an alias expands to, the aliases within its
  /// anchor's value included: exactly 10,000 passes, one more does not.
  @Test func theBudgetIsExactlyTenThousandNodes() {
    // An anchored list of 99 scalars is 100 nodes.
    let anchor = "a: &a [" + Array(repeating: "x", count: 99).joined(separator: ", ") + "]\n"
    let hundredAliases = "b: [" + Array(repeating: "*a", count: 100).joined(separator: ", ") + "]\n"
    #expect(YAMLEventCheck.expansionBudget == 10_000)
    #expect(YAMLEventCheck.problems(in: anchor + hundredAliases).isEmpty)
    let problems = YAMLEventCheck.problems(in: anchor + hundredAliases + "c: *a\n")
    #expect(problems.map(\.line) == [3])
    #expect(problems.map(\.column) == [4])
    // A list holding an alias counts it expanded: *n is 1 + 100 nodes. The
    // alias inside it adds 100, so 98 aliases of *n make 9,998 and 99 make 10,099.
    func nested(_ count: Int) -> String {
      anchor + "n: &n [*a]\n" + "m: [" + Array(repeating: "*n", count: count).joined(separator: ", ") + "]\n"
    }
    #expect(YAMLEventCheck.problems(in: nested(98)).isEmpty)
    #expect(YAMLEventCheck.problems(in: nested(99)).map(\.line) == [3])
  }

  @Test func anAnchorOnAKeyAndAnAliasAsAValueAreFine() {
    #expect(YAMLEventCheck.problems(in: "&k key: 1\nother: *k\n").isEmpty)
  }

  @Test func aSyntaxErrorIsLeftForYamsToReport() {
    #expect(YAMLEventCheck.problems(in: "a: [1, 2\nb: *a\n").isEmpty)
    assertDiagnostics("1️⃣*nowhere\n", [Expected(marker: "1️⃣", message: "invalid YAML: found undefined alias")])
  }

  @Test func aLongAnchorNameIsQuotedCut() throws {
    let name = String(repeating: "n", count: 500)
    let problems = YAMLEventCheck.problems(in: "a: &\(name) 1\nb: { *\(name) : 1 }\n")
    #expect(problems.first?.message == "alias '*\(String(repeating: "n", count: 40))…' in a mapping key")
  }
}
