import Foundation
import Testing
import TrigsimTestSupport

/// The synopsis at the top of "Commands" (`<!-- not output: … -->`: it is
/// no command's output) is held to the program's own help, so it cannot
/// drift: it has a line for every subcommand `trigsim --help` lists and for
/// no other, and every option a line shows is one that subcommand's help
/// documents. (The other way round is not checked: the help's descriptions
/// name other commands' options, and the synopsis writes families of options
/// as "comparison options" and "ceiling options".)
@Suite struct CommandSynopsisTests {
  static let article = "Sources/TrigsimScenario/TrigsimScenario.docc/Commands.md"

  /// The synopsis: the first block of "Commands".
  static func synopsis() throws -> Manual.FencedBlock {
    let file = RepositoryPaths.root.appendingPathComponent(article)
    let block = try #require(Manual.fencedBlocks(in: Manual.text(of: file), file: file).first)
    #expect(block.language == "text")
    #expect(block.marker?.hasPrefix("not output: ") == true, "\(article):\(block.line): the synopsis is not marked `<!-- not output: … -->`")
    return block
  }

  /// The subcommands `trigsim --help` lists under SUBCOMMANDS, in its order.
  static func subcommands(ofHelp help: String) -> [String] {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
    return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
      line.firstMatch(of: /^  ([a-z][a-z-]*)(\s|$)/).map { String($0.output.1) }
    }
  }

  @Test func everySubcommandHasASynopsisLineAndEveryShownOptionIsInItsHelp() throws {
    let block = try Self.synopsis()
    let help = try TrigsimBinary.run(["--help"])
    #expect(help.status == 0)
    let subcommands = Self.subcommands(ofHelp: help.stdout)
    #expect(subcommands.count >= 9, "the help lists only \(subcommands)")
    var shown: [String] = []
    for (offset, line) in block.lines.enumerated() {
      let location = "\(Self.article):\(block.line + 1 + offset)"
      guard let command = line.firstMatch(of: /^trigsim ([a-z][a-z-]*)( |$)/)?.output.1 else {
        Issue.record("\(location): a synopsis line that does not begin `trigsim COMMAND`: \(line)")
        continue
      }
      shown.append(String(command))
      guard subcommands.contains(String(command)) else {
        Issue.record("\(location): `trigsim \(command)` is not a subcommand in `trigsim --help` (\(subcommands.joined(separator: ", ")))")
        continue
      }
      let commandHelp = try TrigsimBinary.run(["help", String(command)])
      let documented = Set(commandHelp.stdout.matches(of: /--[a-z][a-z-]*/).map { String($0.output) })
      for option in line.matches(of: /--[a-z][a-z-]*/).map({ String($0.output) }) where !documented.contains(option) {
        Issue.record("\(location): `trigsim \(command)` shows \(option), which `trigsim help \(command)` does not document")
      }
    }
    for missing in subcommands where !shown.contains(missing) {
      Issue.record("\(Self.article): the synopsis has no line for `trigsim \(missing)`, a subcommand in `trigsim --help`")
    }
  }

  @Test func theHelpsSubcommandsAreReadFromItsSubcommandsSection() {
    let help = "USAGE: trigsim <subcommand>\n\nSUBCOMMANDS:\n  run                     Run a scenario.\n  generate-track          Write a\n                          track.\n  init\n\n  See 'trigsim help'.\n"
    #expect(Self.subcommands(ofHelp: help) == ["run", "generate-track", "init"])
    #expect(Self.subcommands(ofHelp: "no section\n").isEmpty)
  }
}
