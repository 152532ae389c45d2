import Foundation
import Testing
import TrigsimTestSupport

/// Every command the manual shows is run, or listed here with the reason it
/// is not.
///
/// A command is a line of a ```` ```sh ```` block in the README or an
/// article (blank lines and `#` comment lines aside; a line ending in `\`
/// goes on on the next). Each block runs in a fresh copy of `scenarios/`
/// and `fixtures/` (at `T/trigsim`, so `../my-first` is `T/my-first`), its
/// commands in order with `/bin/sh -c`, the built `trigsim` first on the
/// PATH, and `swift run trigsim` read as `trigsim` (the same program, built
/// already). Nothing is left in the checkout.
///
/// What a command must do: exit 0, unless its trailing comment begins
/// `# exit N` (then N); after `# exit N: TEXT`, TEXT must be in what it
/// prints. A part in square brackets (`[--jobs 2]`) is optional and is left
/// out. Files a block names only as examples (`scenarios/walk.yaml`) are made
/// first (`examples`), so the command runs as written.
@Suite struct ManualCommandTests {
  struct Command: CustomStringConvertible {
    var file: String
    var line: Int
    var text: String
    var description: String { "\(file):\(line): \(text)" }
  }

  /// The commands of one ```` ```sh ```` block.
  struct Block {
    var file: String
    var line: Int
    var commands: [Command]
  }

  static func blocks() throws -> [Block] {
    try Manual.fencedBlocks().filter { $0.language == "sh" }.map { block in
      let file = Manual.relativePath(block.file)
      var commands: [Command] = []
      var pending: (line: Int, text: String)?
      for (offset, line) in block.lines.enumerated() {
        let number = block.line + 1 + offset
        var text = pending.map { $0.text + " " } ?? ""
        text += line.trimmingCharacters(in: .whitespaces)
        let start = pending?.line ?? number
        if text.hasSuffix("\\") {
          pending = (start, String(text.dropLast()).trimmingCharacters(in: .whitespaces))
          continue
        }
        pending = nil
        if text.isEmpty || text.hasPrefix("#") { continue }
        commands.append(Command(file: file, line: start, text: text))
      }
      return Block(file: file, line: block.line, commands: commands)
    }
  }

  /// Commands that are not run here, each with why. A command in the
  /// manual must be here word for word or be run; an entry no longer in the
  /// manual fails the test too.
  static let notRunHere: [String: String] = [
    "apt-get update && apt-get install -y libgeos-dev libxml2-dev zlib1g-dev && swift run trigsim run scenarios/morning-walk.yaml":
      "installs system packages (root, the network); ReadmeCLITests holds its package list to Package.swift and .ci/run and its run's output to the README, and the macOS block's `swift run trigsim run scenarios/morning-walk.yaml` is run here",
    "swift test": "the suite this test is part of; .ci/run runs it",
    "brew install geos pkg-config": "Homebrew, macOS only",
    "brew install libxml2 && export PKG_CONFIG_PATH=\"$(brew --prefix libxml2)/lib/pkgconfig:$PKG_CONFIG_PATH\"": "Homebrew, macOS only",
    "swift build -c release && install -m 755 .build/release/trigsim /usr/local/bin/trigsim":
      "a release build (minutes) and an install outside the checkout",
    "swift package --disable-sandbox generate-documentation --target TrigsimCore --target TrigsimScenario --target TrigsimReport --target TrigsimTesting --warnings-as-errors":
      "builds the documentation (minutes); .ci/run runs this line after `swift test` (theDocumentationCommandIsTheOneCIRuns)",
    "Tests/Fuzz/fuzz.sh --seconds 600 gpx      # one target for 10 minutes; no target = all of them":
      "ten minutes of fuzzing; .ci/run runs `Tests/Fuzz/fuzz.sh --smoke`",
    // Benchmarks: release builds and runs of minutes each, measured on a quiet machine.
    "swift build -c release && .build/release/trigsim-benchmark    # add --only trials, --only shards, --only io, --only attention, --only places or --only report for one table alone":
      "the benchmark: a release build and minutes of measuring",
    ".build/release/trigsim-benchmark --only scale                    # the scaling table below (not part of the full run: about 5 minutes)":
      "the benchmark's scaling table: about 5 minutes",
    ".build/release/trigsim-benchmark --only long-trials              # peak memory of trials on 10^6- and 10^7-fix tracks (\"Long tracks\"; not part of the full run)":
      "the benchmark's long tracks: minutes and gigabytes",
    "git worktree add ../trigsim-before 3554c9b && swift build -c release --package-path ../trigsim-before --product trigsim":
      "a worktree of an old commit beside the checkout and a release build of it, for the benchmark's app-seam table",
    ".build/release/trigsim-benchmark --only app-seam --before ../trigsim-before/.build/release/trigsim   # \"The app seam\" below (not part of the full run)":
      "the benchmark's app-seam table, against the old commit's release build",
    ".build/release/trigsim-benchmark --only doses --days 1,7,30   # \"Dose tables\" below (not part of the full run)":
      "the benchmark's dose tables: a release build and 30-day runs",
    ".build/release/trigsim-benchmark --only assumptions --days 1,7,30   # \"The assumption report\" below (not part of the full run)":
      "the benchmark's assumption-report table: a release build and 30-day runs",
    ".build/release/trigsim-benchmark --only android --days 1,7,30   # \"One scenario, two phones\" below (not part of the full run)":
      "the benchmark's android table: a release build and 30-day runs",
    ".build/release/trigsim-benchmark --only server --days 1,7,30    # \"The server side\" below (not part of the full run)":
      "the benchmark's server table: a release build and 30-day runs",
    ".build/release/trigsim-benchmark --only storms --days 1          # \"Event storms\" below (not part of the full run)":
      "the benchmark's storm table: a release build and a day of app-state changes on both phones",
    "Benchmarks/identity.sh HEAD~1                                    # byte identity of every bundled scenario's output against a build of HEAD~1 (\"Checking a change\" below)":
      "builds two trigsims (one in a git worktree) and runs every bundled scenario twelve times with each: minutes, and a git checkout",
    "Benchmarks/instructions.sh --limit 1.05 HEAD~1                   # instruction counts of the representative scenarios against HEAD~1 (\"Checking a change\" below)":
      "two release builds (one in a git worktree) and runs under valgrind: minutes, valgrind and a git checkout",
    // Sharding: one line per machine of four; the recipes run the whole sequence.
    "trigsim run S.yaml --trials 1000 --seed 2026 --shard 2/4 --output shards/trials-2.json   # on each of 4 machines":
      "one machine's line of four (the merge below needs all four); ShardRecipeCLITests runs the recipes' every shard and merge",
    "trigsim merge shards/trials-*.json [--format text|json] [--output FILE]                  # the report of the unsharded run":
      "merges the four machines' shards; ShardRecipeCLITests runs the recipes' merges",
    "trigsim test scenarios/ --shard 2/4 --partial shards/test-2.json                         # on each of 4 machines":
      "one machine's line of four; ShardRecipeCLITests runs the recipes' every shard",
    "trigsim merge shards/test-*.json [--junit FILE] [--color auto|always|never]             # its summary, JUnit report and exit code":
      "merges the four machines' partial files; ShardRecipeCLITests runs the recipes' merges",
  ]

  /// Files the manual names as examples, each made (with `sh -c`, in the
  /// block's copy) before a block whose commands name it as a word.
  static let examples: [(path: String, make: String)] = [
    ("scenarios/walk.yaml", "cp scenarios/morning-walk.yaml scenarios/walk.yaml"),
    ("golden/walk.json", "mkdir -p golden && trigsim run scenarios/morning-walk.yaml --format json --output golden/walk.json"),
    ("walk.yaml", "sed 's#\\.\\./fixtures/#fixtures/#' scenarios/morning-walk.yaml > walk.yaml && trigsim record walk.yaml"),
    ("more.yaml", "sed 's#\\.\\./fixtures/#fixtures/#' scenarios/morning-walk.yaml > more.yaml && trigsim record more.yaml"),
    ("pr-checkout/scenarios", "mkdir -p pr-checkout/scenarios && cp -R fixtures pr-checkout/ && cp scenarios/morning-walk.* scenarios/report-tour.* pr-checkout/scenarios/"),
  ]

  /// The command as the shell gets it: `swift run trigsim` as `trigsim`, bracketed optional parts left out.
  static func runnable(_ text: String) -> String {
    var result = ""
    var depth = 0
    for character in text.replacingOccurrences(of: "swift run trigsim ", with: "trigsim ") {
      if character == "[" { depth += 1 } else if character == "]" && depth > 0 { depth -= 1 } else if depth == 0 { result.append(character) }
    }
    return result
  }

  /// The status and printed text a command's trailing `# exit N[: TEXT]` states (0 and nothing without one).
  static func expectation(_ text: String) -> (status: Int32, prints: String?) {
    guard let match = text.firstMatch(of: /\s#\s+exit (\d+)(?::\s+(.*))?$/) else { return (0, nil) }
    return (Int32(match.output.1)!, match.output.2.map(String.init))
  }

  /// A folder `T` holding `T/trigsim` with copies of `scenarios/` and `fixtures/`.
  static func checkout() throws -> (folder: URL, checkout: URL) {
    let folder = try TrigsimBinary.temporaryDirectory(prefix: "trigsim-manual")
    let checkout = folder.appendingPathComponent("trigsim")
    try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
    for name in ["scenarios", "fixtures"] {
      try FileManager.default.copyItem(at: RepositoryPaths.root.appendingPathComponent(name), to: checkout.appendingPathComponent(name))
    }
    return (folder, checkout)
  }

  /// `checkout()`, with the example files that `commands` name as words made in it (for the block at `location`).
  static func checkout(for commands: [String], at location: String) throws -> (folder: URL, checkout: URL) {
    let (folder, checkout) = try checkout()
    let words = Set(commands.flatMap { runnable($0).split(separator: " ").map(String.init) })
    for example in examples where words.contains(example.path) {
      let made = try shell(example.make, in: checkout)
      if made.status != 0 {
        try? FileManager.default.removeItem(at: folder)
        try #require(made.status == 0, "making \(example.path) for \(location): \(made.stderr)")
      }
    }
    return (folder, checkout)
  }

  static func shell(_ command: String, in folder: URL) throws -> TrigsimBinary.Result {
    let path = TrigsimBinary.url.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    return try TrigsimBinary.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: folder, environment: ["PATH": path])
  }

  @Test func everyCommandInTheManualRunsAsWrittenOrIsListedWithItsReason() throws {
    let blocks = try Self.blocks()
    let commands = blocks.flatMap(\.commands)
    #expect(commands.contains { $0.text == "swift test" } && commands.contains { $0.text.hasPrefix("apt-get update && ") },
            "the README's two commands are not in sh blocks: \(commands)")
    for listed in Self.notRunHere.keys.sorted() where !commands.contains(where: { $0.text == listed }) {
      Issue.record("listed as not run here, but no longer in the manual: \(listed)")
    }
    var ran = 0
    for block in blocks {
      let toRun = block.commands.filter { Self.notRunHere[$0.text] == nil }
      if toRun.isEmpty { continue }
      let (folder, checkout) = try Self.checkout(for: toRun.map(\.text), at: "\(block.file):\(block.line)")
      defer { try? FileManager.default.removeItem(at: folder) }
      for command in toRun {
        let expected = Self.expectation(command.text)
        let result = try Self.shell(Self.runnable(command.text), in: checkout)
        ran += 1
        #expect(result.status == expected.status, "\(command)\nexit \(result.status)\n\(result.stderr.suffix(2000))")
        if let prints = expected.prints {
          #expect((result.stdout + result.stderr).contains(prints), "\(command)\nprinted: \(result.stdout.suffix(2000))")
        }
      }
    }
    #expect(ran >= 10, "only \(ran) commands ran")
  }

  /// The documentation command the README shows is the one CI runs, after the tests.
  @Test func theDocumentationCommandIsTheOneCIRuns() throws {
    let command = try #require(Self.notRunHere.keys.first { $0.contains("generate-documentation") })
    let readme = try Manual.text(of: Manual.readme)
    #expect(readme.contains("```sh\n\(command)\n```"), "the README does not show \(command)")
    let ci = try String(contentsOf: RepositoryPaths.root.appendingPathComponent(".ci/run"), encoding: .utf8)
    let lines = ci.split(separator: "\n").map(String.init)
    let docs = try #require(lines.firstIndex(of: command), ".ci/run does not run \(command)")
    let tests = try #require(lines.firstIndex(of: "swift test"))
    #expect(tests < docs)
  }
}
