import Foundation
import Testing
import TrigsimTestSupport

/// The manual's own links, which DocC does not check: a relative link to a
/// repository file must reach it, and every article must be reachable, from
/// the README by its path and from its catalog's landing page by `<doc:>`.
/// (DocC's build, run with `--warnings-as-errors`, checks `<doc:>` links and
/// symbol references.)
@Suite struct ManualLinkTests {
  /// The targets of `[text](target)` and `![text](target)` links in `text`, outside code.
  static func linkTargets(_ text: String) -> [String] {
    var targets: [String] = []
    var inFence = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.drop(while: { $0 == " " }).hasPrefix("```") { inFence.toggle(); continue }
      if inFence { continue }
      // Code spans hold no links.
      let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
      for match in prose.matches(of: /\]\(([^)\s]+)\)/) { targets.append(String(match.output.1)) }
    }
    return targets
  }

  /// The catalog folder (`….docc`) holding `url`, if any.
  static func catalog(of url: URL) -> URL? {
    url.pathComponents.contains { $0.hasSuffix(".docc") } ? url.deletingLastPathComponent() : nil
  }

  @Test func everyRelativeLinkReachesAFile() throws {
    var checked = 0
    for file in Manual.files {
      for target in Self.linkTargets(try Manual.text(of: file)) {
        if target.contains(":") || target.hasPrefix("#") { continue }  // a URL, `doc:`, or a heading of the same page
        let path = String(target.prefix { $0 != "#" })
        let folder = file.deletingLastPathComponent()
        var exists = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).standardized.path)
        // In a catalog, DocC finds an image by its name among the catalog's resources.
        if !exists, let catalog = Self.catalog(of: file), !path.contains("/") {
          exists = FileManager.default.fileExists(atPath: catalog.appendingPathComponent("Resources").appendingPathComponent(path).path)
        }
        #expect(exists, "\(Manual.relativePath(file)): the link to '\(target)' reaches no file")
        checked += 1
      }
    }
    #expect(checked >= Manual.articles.count, "only \(checked) links checked")
  }

  @Test func theReadmeLinksEveryArticleAndEachLandingPageCuratesItsCatalogsArticles() throws {
    let readmeTargets = Set(Self.linkTargets(try Manual.text(of: Manual.readme)))
    for article in Manual.articles {
      let path = Manual.relativePath(article)
      let name = article.deletingPathExtension().lastPathComponent
      let catalog = try #require(Self.catalog(of: article))
      let module = catalog.deletingPathExtension().lastPathComponent
      if name == module { continue }  // the landing page itself
      #expect(readmeTargets.contains(path), "the README does not link \(path)")
      let landing = catalog.appendingPathComponent("\(module).md")
      let landingText = (try? Manual.text(of: landing)) ?? ""
      #expect(landingText.contains("<doc:\(name)>"), "\(Manual.relativePath(landing)) does not list <doc:\(name)>")
    }
  }
}
