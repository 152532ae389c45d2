// The Swift the article "Using trigsim from Swift tests" shows, compiled and
// run here: each block of it is a run of consecutive lines of this file
// (`<!-- snippet: Tests/TrigsimTestingTests/ManualSnippetTests.swift -->`),
// and each test asserts what the article says that code does.

import Foundation
import Testing
import TrigsimCore
import TrigsimScenario
import TrigsimTesting

/// The package's folder: this file is Tests/TARGET/FILE.swift.
private let packageFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Test func walkMatchesItsBaseline() throws {
  let scenarios = packageFolder.appendingPathComponent("scenarios")
  let timeline = try Simulation(ScenarioLoader().load(path: scenarios.appendingPathComponent("morning-walk.yaml").path)).run()
  var options = ComparisonOptions()
  options.tolerance.set(.init(milliseconds: 500), for: EntrySelector(.geofence))
  assertTimeline(timeline, matches: scenarios.appendingPathComponent("morning-walk.timeline").path, options: options)
}

@Test func walkVerifies() {
  assertScenario(at: packageFolder.appendingPathComponent("scenarios/morning-walk.yaml").path)   // expected timeline and assertions, as `trigsim verify`
}

@Suite struct ManualSnippetTests {
  /// The package's manifest, as the article's `Package.swift` fragment shows
  /// it: a path dependency, and the two products by the folder's name.
  static let manifestFragment = """
    dependencies: [
      .package(path: "../trigsim"),   // the checkout's folder
    ],
    targets: [
      .testTarget(
        name: "ReminderScenarioTests",
        dependencies: [
          .product(name: "Trigsim", package: "trigsim"),   // package: the last component of that path
          .product(name: "TrigsimTesting", package: "trigsim"),
        ]),
    ]
    """

  /// The fragment names products this package has, and names their package
  /// by the last component of the dependency's path, as the article says
  /// SwiftPM identifies a path dependency. (It is not compiled here: building
  /// a consumer package would resolve every dependency of trigsim's.)
  @Test func theManifestFragmentNamesThisPackagesProductsByTheFoldersName() throws {
    let manifest = try String(contentsOf: packageFolder.appendingPathComponent("Package.swift"), encoding: .utf8)
    let products = Self.manifestFragment.matches(of: /\.product\(name: "([^"]+)", package: "([^"]+)"\)/)
    #expect(products.map { String($0.output.1) } == ["Trigsim", "TrigsimTesting"])
    for product in products {
      #expect(manifest.contains(".library(name: \"\(product.output.1)\""), "Package.swift has no library product \(product.output.1)")
    }
    let path = try #require(Self.manifestFragment.firstMatch(of: /\.package\(path: "([^"]+)"\)/)).output.1
    let identity = path.split(separator: "/").last.map(String.init)
    #expect(products.allSatisfy { String($0.output.2) == identity }, "package: is not the last component of \(path)")
  }

  /// `fired` lists the subjects of the run's `fired` entries, in timeline
  /// order; `missed` the doses that were never perceptible, each with the
  /// reason the engine gives (the expected files hold both).
  @Test func theLoadAndRunSnippetGivesTheFiredRequestsAndTheMissedDoses() throws {
    let scenarios = packageFolder.appendingPathComponent("scenarios")
    let scenario = try ScenarioLoader().load(path: scenarios.appendingPathComponent("morning-walk.yaml").path)
    let timeline = try Simulation(scenario).run()
    let fired = timeline.entries(.fired).map(\.subject)

    // With medicines: the timeline and every dose's outcome.
    let report = try Simulation(ScenarioLoader().load(path: scenarios.appendingPathComponent("pending-limit-upfront.yaml").path)).report()
    let missed = report.summary.doses.filter { $0.outcome == .missed }   // [DoseRecord], each with a reason

    let baseline = try String(contentsOf: scenarios.appendingPathComponent("morning-walk.timeline"), encoding: .utf8)
    let words: [[Substring]] = baseline.split(separator: "\n").map { $0.split(separator: " ") }
    let expected: [String] = words.filter { $0.count > 2 && $0[1] == "fired" }.map { String($0[2]) }
    #expect(!fired.isEmpty)
    #expect(fired == expected)
    let doses = try String(contentsOf: scenarios.appendingPathComponent("pending-limit-upfront.doses"), encoding: .utf8)
    let missedInBaseline = doses.split(separator: "\n").filter { $0.contains(" outcome=missed ") }
    #expect(!missed.isEmpty)
    #expect(missed.count == missedInBaseline.count)
    #expect(missed.allSatisfy { $0.reason != nil }, "\(missed)")
  }

  /// The two tests above pass (their issues would fail this run): the
  /// bundled walk matches its expected timeline within 500 ms at the
  /// geofence, and verifies.
  @Test func theSwiftTestingSnippetPassesOnTheBundledWalk() throws {
    let scenarios = packageFolder.appendingPathComponent("scenarios")
    let timeline = try Simulation(ScenarioLoader().load(path: scenarios.appendingPathComponent("morning-walk.yaml").path)).run()
    var options = ComparisonOptions()
    options.tolerance.set(.init(milliseconds: 500), for: EntrySelector(.geofence))
    #expect(assertTimeline(timeline, matches: scenarios.appendingPathComponent("morning-walk.timeline").path, options: options)?.matches == true)
    #expect(assertScenario(at: scenarios.appendingPathComponent("morning-walk.yaml").path).outcome == .passed)
  }
}
