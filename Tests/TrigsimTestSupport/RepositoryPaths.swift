import Foundation

/// Paths to the repository's own folders and to the shared track corpus,
/// found from this file's location (they sit outside every target).
public enum RepositoryPaths {
  /// The checkout's top level (the folder holding Package.swift).
  public static let root: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        return url
      }
    }
    fatalError("Package.swift not found above \(#filePath)")
  }()

  public static var fixtures: URL { root.appendingPathComponent("fixtures") }

  /// Every bundled scenario (`*.yaml` under `scenarios/`, the corpus
  /// included), relative to that folder, sorted.
  public static let bundledScenarioFiles: [String] = {
    let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent("scenarios").path)
    var names: [String] = []
    while let name = enumerator?.nextObject() as? String {
      if name.hasSuffix(".yaml") { names.append(name) }
    }
    return names.sorted()
  }()
  public static var scenarios: URL { root.appendingPathComponent("scenarios") }

  /// `../shared/tracks` beside the checkout, when present (tests that use it are skipped otherwise).
  public static var sharedTracks: URL? {
    let url = root.deletingLastPathComponent().appendingPathComponent("shared/tracks")
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }

  /// A shared track by file name, or nil when the corpus or the file is absent.
  public static func sharedTrack(_ name: String) -> URL? {
    guard let folder = sharedTracks else { return nil }
    let url = folder.appendingPathComponent(name)
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }
}
