import Foundation
import Testing
import TrigsimTestSupport

/// What the README's Quick start and five-minute tour show, held against what
/// the repository does: the bundled example's output as the run prints it,
/// and the set-up line's packages as the manifest and `.ci/run` need them.
@Suite struct ReadmeCLITests {
  static func readme() throws -> String {
    try String(contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
  }

  /// The lines of the first ```` ```FENCE ```` block after `marker`.
  static func block(after marker: String, fence: String, in text: String) throws -> [String] {
    let start = try #require(text.range(of: marker), "README has no '\(marker)'")
    let opening = try #require(text.range(of: "```\(fence)\n", range: start.upperBound..<text.endIndex))
    let closing = try #require(text.range(of: "\n```\n", range: opening.upperBound..<text.endIndex))
    return text[opening.upperBound..<closing.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// The Quick start's set-up line: the one that begins `apt-get update && apt-get install -y`.
  static func setUpLine(_ readme: String) throws -> String {
    let lines = try block(after: "## Quick start", fence: "sh", in: readme)
    return try #require(lines.first { $0.hasPrefix("apt-get update && apt-get install -y ") })
  }

  /// The words after `install -y` (and any further `-flags`) up to the end of that command.
  static func aptPackages(_ line: Substring) -> Set<String> {
    guard let install = line.range(of: "apt-get install ") else { return [] }
    let command = line[install.upperBound...].prefix { $0 != "&" && $0 != ";" }
    return Set(command.split(separator: " ").filter { !$0.hasPrefix("-") }.map(String.init))
  }

  // MARK: - The bundled example's output

  /// The tour's "Run a bundled scenario" shows the Quick start's run as a
  /// terminal shows it (a console block, which `ManualOutputTests` runs and
  /// holds against what it prints): the run is the one the set-up line
  /// ends with, and every line it prints on standard error is shown (the
  /// README once left out the coverage warnings, which `...` would hide).
  @Test func theTourShowsTheQuickStartsRunWithEveryWarning() throws {
    let readme = try Self.readme()
    let command = "trigsim run scenarios/morning-walk.yaml"
    #expect(try Self.setUpLine(readme).hasSuffix("&& swift run \(command)"))
    let shown = try Self.block(after: "`\(command)` prints", fence: "console", in: readme)
    #expect(shown.first == "$ \(command)", "\(shown.prefix(1))")

    let result = try TrigsimBinary.run(["run", "scenarios/morning-walk.yaml"])
    #expect(result.status == 0, "\(result.stderr)")
    let stderr = result.stderr.split(separator: "\n").map(String.init)
    #expect(stderr.count == 2, "the example's track does not cover its clock, and the run says so: \(stderr)")
    for line in stderr { #expect(shown.contains(line), "standard error's line is not in the README: \(line)") }
  }

  // MARK: - The set-up line

  /// The set-up line installs every apt package the manifest's system
  /// libraries name (`providers: [.apt([...])]`; the tests' zlib among
  /// them) and nothing else; `.ci/run` installs each of those too, and
  /// what else it installs (for tests that are skipped without it) the
  /// README names as optional.
  @Test func theSetUpLineInstallsWhatTheBuildNeedsAndCIInstallsItToo() throws {
    let readme = try Self.readme()
    let setUp = Self.aptPackages(try Self.setUpLine(readme)[...])

    let manifest = try String(contentsOf: RepositoryPaths.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    var required = Set<String>()
    for match in manifest.matches(of: /providers: \[\.apt\(\[([^\]]*)\]\)\]/) {
      for name in match.output.1.split(separator: ",") { required.insert(name.trimmingCharacters(in: CharacterSet(charactersIn: " \""))) }
    }
    #expect(required.contains("zlib1g-dev") && required.contains("libgeos-dev"), "\(required)")
    #expect(setUp == required, "README set-up line: \(setUp.sorted()); the manifest's apt providers: \(required.sorted())")

    let ci = try String(contentsOf: RepositoryPaths.root.appendingPathComponent(".ci/run"), encoding: .utf8)
    let ciLines = ci.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") && $0.contains("apt-get install ") }
    let ciPackages = ciLines.reduce(into: Set<String>()) { $0.formUnion(Self.aptPackages($1)) }
    #expect(!ciPackages.isEmpty)
    #expect(setUp.isSubset(of: ciPackages), ".ci/run does not install \(setUp.subtracting(ciPackages).sorted())")
    for optional in ciPackages.subtracting(setUp).sorted() {
      #expect(readme.contains("`apt-get install -y \(optional)`") || readme.contains("Debian's `\(optional)`"),
              ".ci/run installs '\(optional)', which the README's set-up line leaves out without saying what it is for")
    }
  }
}
