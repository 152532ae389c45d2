import Foundation
import Testing
import TrigsimTestSupport

/// Everything the README and the articles show as output or as a file's
/// text is held against what trigsim prints and what the file holds, as a
/// doctest would, so the manual cannot drift from the program.
///
/// - A ```` ```console ```` block is a shell session: a line `$ COMMAND`
///   (continued on the next line after a trailing `\`) is run, and the lines
///   after it, up to the next `$ ` line, are what it prints: standard output,
///   then standard error. They are held against it by ``ShownText``'s rules
///   (`...` for lines left out, `…` within a line for text left out; the
///   first and last pieces anchored). A trailing `# exit N` on the command
///   is its exit status (else 0). Each block runs in a fresh copy of
///   `scenarios/` and `fixtures/` as `ManualCommandTests` runs `sh` blocks,
///   its commands in order, so one command may set up files for the next.
/// - A block after the line `<!-- from: PATH -->` is an excerpt of the
///   repository's file PATH: its lines appear there in order (`...` and `…`
///   as above, not anchored).
/// - A ```` ```swift ```` block after `<!-- snippet: PATH -->` is code that
///   compiles: its lines appear, consecutive and indented alike, in the test
///   source PATH.
/// - A block after `<!-- printed by: Tests/PATH.swift -->` is what a test
///   prints (a failed expectation's message); that test file finds the
///   block by its marker and holds it against the message by the same rules.
/// - Any other `text` or `json` block says what it is instead:
///   `<!-- not output: WHY -->` (a synopsis, a format's shape).
@Suite struct ManualOutputTests {
  /// A command of a console block and the lines it is shown printing.
  struct ShownCommand: CustomStringConvertible {
    var file: String
    var line: Int
    var command: String
    var output: [String]
    var description: String { "\(file):\(line): $ \(command)" }
  }

  /// The commands of a console block with their shown output; a line before
  /// the first `$ ` is an error of the block's (returned as a command with no text).
  static func commands(of block: Manual.FencedBlock) -> [ShownCommand] {
    let file = Manual.relativePath(block.file)
    // A block inside a list item is indented like the item; its lines are read without that indentation.
    let indentation = block.lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      .map { $0.prefix { $0 == " " }.count }.min() ?? 0
    var commands: [ShownCommand] = []
    var continuing = false
    for (offset, rawLine) in block.lines.enumerated() {
      let line = String(rawLine.dropFirst(min(indentation, rawLine.prefix { $0 == " " }.count)))
      let number = block.line + 1 + offset
      if continuing, var last = commands.popLast() {
        last.command += " " + line.trimmingCharacters(in: .whitespaces)
        continuing = last.command.hasSuffix("\\")
        if continuing { last.command = String(last.command.dropLast()).trimmingCharacters(in: .whitespaces) }
        commands.append(last)
      } else if line.hasPrefix("$ ") {
        var text = String(line.dropFirst(2)).trimmingCharacters(in: .whitespaces)
        continuing = text.hasSuffix("\\")
        if continuing { text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) }
        commands.append(ShownCommand(file: file, line: number, command: text, output: []))
      } else if commands.isEmpty {
        commands.append(ShownCommand(file: file, line: number, command: "", output: [line]))
      } else {
        commands[commands.count - 1].output.append(line)
      }
    }
    return commands
  }

  static func lines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  static func location(_ block: Manual.FencedBlock) -> String { "\(Manual.relativePath(block.file)):\(block.line)" }

  @Test func everyConsoleBlockPrintsWhatItShows() throws {
    let blocks = try Manual.fencedBlocks().filter { $0.language == "console" }
    #expect(blocks.count >= 10, "only \(blocks.count) console blocks")
    var ran = 0
    for block in blocks {
      let commands = Self.commands(of: block)
      if let stray = commands.first(where: { $0.command.isEmpty }) {
        Issue.record("\(stray.file):\(stray.line): a console block begins with a line that is not a `$ ` command: \(stray.output[0])")
        continue
      }
      let (folder, checkout) = try ManualCommandTests.checkout(for: commands.map(\.command), at: Self.location(block))
      defer { try? FileManager.default.removeItem(at: folder) }
      for command in commands {
        let result = try ManualCommandTests.shell(ManualCommandTests.runnable(command.command), in: checkout)
        ran += 1
        let expected = ManualCommandTests.expectation(command.command).status
        #expect(result.status == expected, "\(command)\nexit \(result.status), not \(expected)\n\(result.stderr.suffix(2000))")
        let printed = Self.lines(result.stdout) + Self.lines(result.stderr)
        if let mismatch = ShownText.match(shown: command.output, actual: printed, anchored: true) {
          Issue.record("\(command)\n\(mismatch)\nit printed:\n\(printed.prefix(60).joined(separator: "\n"))")
        }
      }
    }
    #expect(ran >= 10, "only \(ran) shown commands ran")
  }

  @Test func everyExcerptIsInItsFile() throws {
    var checked = 0
    for block in try Manual.fencedBlocks() {
      guard let marker = block.marker, marker.hasPrefix("from: ") else { continue }
      let path = String(marker.dropFirst("from: ".count)).trimmingCharacters(in: .whitespaces)
      let url = RepositoryPaths.root.appendingPathComponent(path)
      guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("\(Self.location(block)): the excerpt's file \(path) cannot be read")
        continue
      }
      let indentation = block.lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        .map { $0.prefix { $0 == " " }.count }.min() ?? 0
      let shown = block.lines.map { String($0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count))) }
      if let mismatch = ShownText.match(shown: shown, actual: Self.lines(text), anchored: false) {
        Issue.record("\(Self.location(block)): the excerpt of \(path) differs from the file: \(mismatch)")
      }
      checked += 1
    }
    #expect(checked >= 5, "only \(checked) excerpts checked")
  }

  /// Whether `block` (without its common indentation) appears in `source`
  /// as consecutive lines, each indented by the same amount more.
  static func appears(_ block: [String], in source: [String]) -> Bool {
    let indentation = block.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      .map { $0.prefix { $0 == " " }.count }.min() ?? 0
    let shown = block.map { String($0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count))) }
    guard let first = shown.first, !first.isEmpty, shown.count <= source.count else { return false }
    for start in 0...(source.count - shown.count) {
      let line = source[start]
      guard line.hasSuffix(first) else { continue }
      let extra = String(line.dropLast(first.count))
      guard extra.allSatisfy({ $0 == " " }) else { continue }
      if zip(shown, source[start...]).allSatisfy({ $0.isEmpty ? $1.trimmingCharacters(in: .whitespaces).isEmpty : $1 == extra + $0 }) {
        return true
      }
    }
    return false
  }

  @Test func everySwiftSnippetIsCompiledCode() throws {
    var checked = 0
    for block in try Manual.fencedBlocks() where block.language == "swift" {
      guard let marker = block.marker, marker.hasPrefix("snippet: ") else {
        Issue.record("\(Self.location(block)): a Swift block without `<!-- snippet: Tests/….swift -->` before it, so nothing compiles it")
        continue
      }
      let path = String(marker.dropFirst("snippet: ".count)).trimmingCharacters(in: .whitespaces)
      #expect(path.hasPrefix("Tests/") || path.hasPrefix("Sources/"), "\(Self.location(block)): \(path) is not a source file of the package")
      guard let source = try? String(contentsOf: RepositoryPaths.root.appendingPathComponent(path), encoding: .utf8) else {
        Issue.record("\(Self.location(block)): the snippet's file \(path) cannot be read")
        continue
      }
      #expect(Self.appears(block.lines, in: Self.lines(source)), "\(Self.location(block)): the snippet is not, line for line, in \(path)")
      checked += 1
    }
    #expect(checked >= 5, "only \(checked) snippets checked")
  }

  /// Every block that is neither a command (`sh`), nor a scenario or
  /// fragment of one (`yaml`), nor checked code or output, says what it is.
  @Test func everyOtherBlockSaysWhatItIs() throws {
    for block in try Manual.fencedBlocks() {
      switch block.language {
      case "sh", "console", "swift", "yaml": continue
      case "text", "json":
        let marker = block.marker ?? ""
        if marker.hasPrefix("printed by: ") {
          // A test's output: the named test file must hold it against this block.
          // `printed by: PATH` or `printed by: PATH (WHICH)`, when a test file shows more than one.
          let path = String(marker.dropFirst("printed by: ".count).prefix { $0 != " " })
          let source = (try? String(contentsOf: RepositoryPaths.root.appendingPathComponent(path), encoding: .utf8)) ?? ""
          #expect(source.contains("\"\(marker)\"") && source.contains("ShownText.match"),
                  "\(Self.location(block)): \(path) does not hold this block against what it prints")
          continue
        }
        #expect(marker.hasPrefix("from: ") || marker.hasPrefix("not output: "),
                "\(Self.location(block)): a \(block.language) block that is neither a console session, nor `<!-- from: FILE -->`, nor `<!-- printed by: TEST FILE -->`, nor `<!-- not output: WHY -->`")
      default:
        Issue.record("\(Self.location(block)): a block fenced as '\(block.language)': use sh, console, swift, yaml, text or json")
      }
    }
  }

  // MARK: - The rules themselves

  @Test func omittedLinesAndElisionsMatchAsTheRulesSay() {
    let actual = ["# header", "a 1", "b 2", "c 3", "last"]
    #expect(ShownText.match(shown: ["# header", "...", "last"], actual: actual, anchored: true) == nil)
    #expect(ShownText.match(shown: ["# header", "a …", "...", "c 3", "last"], actual: actual, anchored: true) == nil)
    #expect(ShownText.match(shown: ["...", "b 2", "..."], actual: actual, anchored: true) == nil)
    // Anchored: the first piece begins, the last ends.
    #expect(ShownText.match(shown: ["a 1", "...", "last"], actual: actual, anchored: true)?.shownLine == 0)
    #expect(ShownText.match(shown: ["# header", "...", "c 3"], actual: actual, anchored: true)?.shownLine == 2)
    #expect(ShownText.match(shown: ["a 1", "...", "c 3"], actual: actual, anchored: false) == nil)
    // Pieces keep their order and their lines stay consecutive.
    #expect(ShownText.match(shown: ["...", "c 3", "...", "a 1", "..."], actual: actual, anchored: true) != nil)
    #expect(ShownText.match(shown: ["...", "a 1", "c 3", "..."], actual: actual, anchored: true)?.shownLine == 2)
    // A changed line is named.
    let changed = ShownText.match(shown: ["# header", "a 1", "b 9", "..."], actual: actual, anchored: true)
    #expect(changed?.shownLine == 2)
    #expect(changed?.message.contains("the real line there: b 2") == true, "\(String(describing: changed))")
    // `…` within a line: the text before and after must be there, in order.
    #expect(ShownText.lineMatches("notified … on ios, … on android", "notified 08:00 on ios, 09:00 on android"))
    #expect(!ShownText.lineMatches("notified … on ios, … on android", "notified 08:00 on android, 09:00 on ios"))
    #expect(!ShownText.lineMatches("a…b", "ab c"))
    #expect(ShownText.lineMatches("a … ", "a x"), "trailing spaces never count")
    // Nothing shown: nothing printed.
    #expect(ShownText.match(shown: [], actual: [], anchored: true) == nil)
    #expect(ShownText.match(shown: [], actual: ["x"], anchored: true) != nil)
  }

  @Test func aConsoleBlockIsReadAsCommandsWithTheirOutput() {
    let block = Manual.FencedBlock(
      file: RepositoryPaths.root.appendingPathComponent("README.md"), line: 10, language: "console",
      lines: ["  $ trigsim run \\", "  scenarios/a.yaml   # exit 1", "  out 1", "  ...", "  $ true"], marker: nil)
    let commands = Self.commands(of: block)
    #expect(commands.map(\.command) == ["trigsim run scenarios/a.yaml   # exit 1", "true"])
    #expect(commands.map(\.output) == [["out 1", "..."], []])
    #expect(commands.map(\.line) == [11, 15])
  }

  @Test func aSnippetMustBeConsecutiveLinesIndentedAlike() {
    let source = ["func f() {", "  let a = 1", "  let b = a + 1", "", "  print(b)", "}"]
    #expect(Self.appears(["let a = 1", "let b = a + 1"], in: source))
    #expect(Self.appears(["let b = a + 1", "", "print(b)"], in: source))
    #expect(!Self.appears(["let a = 1", "print(b)"], in: source))
    #expect(!Self.appears(["let a = 1", "    let b = a + 1"], in: source))
  }

  @Test func aMarkerIsTheCommentOnTheLineBeforeTheFence() {
    let text = "Intro.\n\n<!-- from: scenarios/x.doses -->\n\n```text\nline\n```\n\nNo marker:\n\n```text\nz\n```\n"
    let blocks = Manual.fencedBlocks(in: text, file: RepositoryPaths.root.appendingPathComponent("x.md"))
    #expect(blocks.map(\.marker) == ["from: scenarios/x.doses", nil])
  }
}
