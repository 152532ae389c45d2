// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "trigsim",
  // macOS 15: the hosted app's callbacks run on a Swift task executor (SE-0417), which needs it.
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "trigsim", targets: ["trigsim"]),
    // What a user's own tests import: load a scenario, run it, read the timeline.
    .library(name: "Trigsim", targets: ["TrigsimScenario", "TrigsimTracks", "TrigsimCore", "TrigsimReport", "TrigsimMedicineApp"]),
    // For a user's Swift Testing tests: assertTimeline(...) and assertScenario(...) record issues with the diff.
    .library(name: "TrigsimTesting", targets: ["TrigsimTesting"]),
    // The simulated device API a team's app code runs against (SimulatedDevice, HostedApp): the core alone, no GEOS or libxml2.
    .library(name: "TrigsimDevice", targets: ["TrigsimCore"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
    // The documentation build (`swift package generate-documentation`, README "Building the documentation"): a plugin, not linked.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // MARK: - Model: time, events, geometry, triggers, notification center, timeline. No I/O.
    .target(
      name: "TrigsimCore",
      dependencies: [.product(name: "HeapModule", package: "swift-collections")]),

    // MARK: - Geometry engine for polygon regions (GEOS C API, Debian's libgeos-dev).
    .systemLibrary(name: "CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),
    .target(name: "TrigsimGEOS", dependencies: ["TrigsimCore", "CGEOS"]),

    // MARK: - Removes the temporary files being written when a signal ends the process (async-signal-safe C).
    .target(name: "CTrigsimCleanup"),

    // MARK: - XML parser for GPX tracks (libxml2's SAX2 push parser, Debian's libxml2-dev).
    .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),

    // MARK: - Input: every diagnostic carries file:line:column.
    .systemLibrary(name: "CFileSystem"),  // fstatfs(2), to refuse track files on /proc and /sys
    .target(name: "TrigsimTracks", dependencies: ["TrigsimCore", "CFileSystem", "CLibXML2"]),
    .target(
      name: "TrigsimScenario",
      dependencies: [
        "TrigsimCore", "TrigsimTracks", "TrigsimGEOS", "CTrigsimCleanup", "TrigsimMedicineApp",
        .product(name: "Yams", package: "Yams"),
        // SHA-256 for the identity of a partial report's inputs.
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      // scenario.schema.json: the JSON Schema editors check scenarios with (the tests hold it to the
      // loader's key lists); embedded so that an unknown key can be placed where the schema has it.
      resources: [.embedInCode("Resources/scenario.schema.json")]),

    // MARK: - Pictures: the HTML report, its map and timeline chart as SVG (no I/O but the track it is handed).
    .target(name: "TrigsimReport", dependencies: ["TrigsimCore"]),

    // MARK: - Test helpers for users' own tests (Swift Testing).
    .target(name: "TrigsimTesting", dependencies: ["TrigsimScenario"]),

    // MARK: - An example team app (production code: Foundation only), run in the loop by its tests.
    .target(name: "ExampleReminderApp"),

    // MARK: - The scenario's medicine app (`medicines:`, `policy:`), written against the public device API: what the
    // commands run, and `Simulation(scenario)` (README, "The medicine app on the device API").
    .target(name: "TrigsimMedicineApp", dependencies: ["TrigsimCore"]),

    // MARK: - Command line.
    .executableTarget(
      name: "trigsim",
      dependencies: [
        "TrigsimScenario", "TrigsimReport", "TrigsimMedicineApp",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),

    // MARK: - Benchmark: `swift build -c release && .build/release/trigsim-benchmark`.
    .executableTarget(
      name: "trigsim-benchmark", dependencies: ["TrigsimTracks", "TrigsimScenario", "TrigsimMedicineApp"], path: "Benchmarks/TrigsimBenchmark"),

    // MARK: - Fuzzing (libFuzzer): `Tests/Fuzz/fuzz.sh`; see the README's "Fuzzing".
    // Built normally, each fuzz-* program replays the files it is given.
    .target(
      // The report target parses what it draws back with libxml2, through the test support's checker.
      name: "TrigsimFuzzTargets", dependencies: ["TrigsimScenario", "TrigsimTracks", "TrigsimReport", "TrigsimTestSupport"],
      path: "Tests/Fuzz/TrigsimFuzzTargets"),
    .executableTarget(name: "fuzz-gpx", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-gpx"),
    .executableTarget(name: "fuzz-csv", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-csv"),
    .executableTarget(name: "fuzz-scenario", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-scenario"),
    .executableTarget(name: "fuzz-expected-text", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-expected-text"),
    .executableTarget(name: "fuzz-expected-json", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-expected-json"),
    .executableTarget(name: "fuzz-expected-doses", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-expected-doses"),
    .executableTarget(name: "fuzz-geojson", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-geojson"),
    .executableTarget(name: "fuzz-places", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-places"),
    .executableTarget(name: "fuzz-scenario-files", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-scenario-files"),
    .executableTarget(name: "fuzz-report", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-report"),
    .executableTarget(name: "fuzz-partial", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-partial"),
    .executableTarget(name: "fuzz-baselines", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-baselines"),
    .executableTarget(name: "fuzz-merge", dependencies: ["TrigsimFuzzTargets"], path: "Tests/Fuzz/fuzz-merge"),

    // MARK: - Tests (folders mirror Sources/).
    // libxml2's HTML parser and XPath, and zlib: the browser tests query the
    // rendered DOM and decode the screenshot (Debian's libxml2-dev, zlib1g-dev).
    .systemLibrary(name: "CLibXML2HTML", path: "Tests/CLibXML2HTML", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    .systemLibrary(name: "CZlib", path: "Tests/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .target(
      name: "TrigsimTestSupport",
      dependencies: ["TrigsimCore", "CLibXML2HTML", "CZlib"],
      path: "Tests/TrigsimTestSupport"),
    .testTarget(name: "TrigsimCoreTests", dependencies: ["TrigsimCore", "TrigsimMedicineApp", "TrigsimTestSupport"]),
    .testTarget(name: "TrigsimGEOSTests", dependencies: ["TrigsimGEOS", "TrigsimTestSupport"]),
    .testTarget(name: "TrigsimTracksTests", dependencies: ["TrigsimTracks", "TrigsimTestSupport"]),
    .testTarget(
      name: "TrigsimScenarioTests", dependencies: ["TrigsimScenario", "TrigsimTestSupport"]),
    .testTarget(
      name: "ScenarioRegressionTests", dependencies: ["TrigsimScenario", "TrigsimTestSupport"],
      // Read from the source folder by EventTraceTests (#filePath), not a resource.
      exclude: ["EventTraces.txt"]),
    .testTarget(name: "TrigsimCLITests", dependencies: ["trigsim", "TrigsimScenario", "TrigsimTestSupport"]),
    .testTarget(
      name: "TrigsimReportTests", dependencies: ["TrigsimReport", "TrigsimScenario", "TrigsimTestSupport"]),
    .testTarget(name: "TrigsimTestingTests", dependencies: ["TrigsimTesting", "TrigsimTestSupport"]),
    .testTarget(name: "FuzzRegressionTests", dependencies: ["TrigsimFuzzTargets", "TrigsimTestSupport"]),
    // The example app's adapters onto trigsim's device, and its scenarios (Tests/ExampleReminderAppTests/Scenarios).
    // The scenario's medicine app: what Simulation(scenario) and TrialRunner(scenario) run.
    .testTarget(name: "TrigsimMedicineAppTests", dependencies: ["TrigsimMedicineApp", "TrigsimScenario", "TrigsimTestSupport"]),
    // A team's own model with names TrigsimCore also exports (ReminderCategory, Medicine), for the name-collision tests.
    .target(name: "TeamAppModel", path: "Tests/TeamAppModel"),
    .testTarget(
      name: "ExampleReminderAppTests",
      dependencies: ["ExampleReminderApp", "TeamAppModel", "TrigsimCore", "TrigsimMedicineApp", "TrigsimScenario", "TrigsimReport", "TrigsimTesting", "TrigsimTestSupport"],
      exclude: ["Scenarios"]),
  ],
  swiftLanguageModes: [.v6]
)
