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

  /// The block under the tour's "Run a bundled scenario" is the output of the Quick start's run
  /// command as a terminal shows it: the timeline on standard output, then
  /// the warnings on standard error. Its pieces between `...` lines each
  /// appear, unbroken and in order, in what the run prints; the first
  /// begins the output and the last ends it; every line printed on standard
  /// error is in the block (the README once left out the coverage warnings).
  @Test func theExampleOutputIsWhatTheQuickStartsRunPrints() throws {
    let readme = try Self.readme()
    let command = "trigsim run scenarios/morning-walk.yaml"
    #expect(try Self.setUpLine(readme).hasSuffix("&& swift run \(command)"))
    let shown = try Self.block(after: "`\(command)` prints", fence: "text", in: readme)

    let result = try TrigsimBinary.run(["run", "scenarios/morning-walk.yaml"])
    #expect(result.status == 0, "\(result.stderr)")
    let stdout = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    let stderr = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    #expect(!stderr.isEmpty, "the example's track does not cover its clock, and the run says so")
    let printed = stdout + stderr

    for line in stderr { #expect(shown.contains(line), "standard error's line is not in the README: \(line)") }
    let pieces = shown.split(separator: "...", omittingEmptySubsequences: false).map(Array.init)
    #expect(pieces.count > 1 && pieces.allSatisfy { !$0.isEmpty }, "\(pieces)")
    var next = 0  // where the next piece may start in `printed`
    for (index, piece) in pieces.enumerated() {
      let starts = (next...max(next, printed.count - piece.count)).filter { Array(printed.dropFirst($0).prefix(piece.count)) == piece }
      guard let start = starts.first else {
        Issue.record("piece \(index + 1) of the README's output (from '\(piece[0])') is not, unbroken, in what the run prints after piece \(index)")
        return
      }
      if index == 0 { #expect(start == 0, "the README's output does not begin where the run's does") }
      if index == pieces.count - 1 {
        #expect(starts.contains(printed.count - piece.count), "the README's output does not end where the run's does: \(printed.suffix(3))")
      }
      next = start + piece.count
    }
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
