import Foundation

/// The manual: the README, the way in, and the DocC articles in the
/// targets' documentation catalogs (`Sources/*/*.docc/*.md`), which hold
/// the rest of it.
public enum Manual {
  public static var readme: URL { RepositoryPaths.root.appendingPathComponent("README.md") }

  /// Every article of every catalog, landing pages included, sorted by path.
  public static let articles: [URL] = {
    let sources = RepositoryPaths.root.appendingPathComponent("Sources")
    let manager = FileManager.default
    var found: [URL] = []
    for target in (try? manager.contentsOfDirectory(atPath: sources.path)) ?? [] {
      let folder = sources.appendingPathComponent(target)
      for catalog in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] where catalog.hasSuffix(".docc") {
        let catalogURL = folder.appendingPathComponent(catalog)
        for name in (try? manager.contentsOfDirectory(atPath: catalogURL.path)) ?? [] where name.hasSuffix(".md") {
          found.append(catalogURL.appendingPathComponent(name))
        }
      }
    }
    return found.sorted { $0.path < $1.path }
  }()

  /// The README first, then the articles.
  public static var files: [URL] { [readme] + articles }

  /// A file's path relative to the checkout, for messages.
  public static func relativePath(_ url: URL) -> String {
    String(url.path.dropFirst(RepositoryPaths.root.path.count).drop { $0 == "/" })
  }

  public static func text(of url: URL) throws -> String {
    try String(contentsOf: url, encoding: .utf8)
  }

  /// The whole manual as one text, each file after the one before.
  public static func text() throws -> String {
    try files.map { try text(of: $0) }.joined(separator: "\n")
  }

  /// A fenced code block: its file, the 1-based line of its opening fence,
  /// the fence's info string (`sh`, `text`, …), its lines, and the marker
  /// that says what it shows: the text of an HTML comment (`<!-- from:
  /// scenarios/x.doses -->` gives `from: scenarios/x.doses`) on the nearest
  /// non-blank line before the fence, if that line is one.
  public struct FencedBlock: Sendable {
    public var file: URL
    public var line: Int
    public var language: String
    public var lines: [String]
    public var marker: String?

    public init(file: URL, line: Int, language: String, lines: [String], marker: String?) {
      self.file = file
      self.line = line
      self.language = language
      self.lines = lines
      self.marker = marker
    }
  }

  /// The text inside `<!-- … -->` when `line` is just such a comment.
  static func marker(of line: Substring) -> String? {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("<!--"), trimmed.hasSuffix("-->"), trimmed.count >= 7 else { return nil }
    return String(trimmed.dropFirst(4).dropLast(3)).trimmingCharacters(in: .whitespaces)
  }

  /// The blocks fenced with ```` ``` ```` in `text`, at the start of a line
  /// or indented (a fence inside a list item).
  public static func fencedBlocks(in text: String, file: URL) -> [FencedBlock] {
    var blocks: [FencedBlock] = []
    var open: FencedBlock?
    var lastNonBlank: Substring?
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = rawLine.drop { $0 == " " }
      defer { if open == nil && !line.isEmpty && !line.hasPrefix("```") { lastNonBlank = line } }
      if line.hasPrefix("```") {
        if let block = open {
          blocks.append(block)
          open = nil
          lastNonBlank = nil
        } else {
          open = FencedBlock(
            file: file, line: index + 1, language: String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), lines: [],
            marker: lastNonBlank.flatMap(marker(of:)))
        }
      } else if open != nil {
        open!.lines.append(String(rawLine))
      }
    }
    return blocks
  }

  /// Every fenced block of the manual, in the order of `files`.
  public static func fencedBlocks() throws -> [FencedBlock] {
    try files.flatMap { fencedBlocks(in: try text(of: $0), file: $0) }
  }
}
