import Foundation
import TrigsimCore
import TrigsimTracks

/// One scenario on several phones (`platforms: [ios, android]`, `--platform
/// ios,android`): a verification per platform against its own expected files
/// (`x.ios.timeline`, `x.android.timeline`, the `.doses` and `.trials` beside
/// them the same way), and one of the side-by-side dose table against
/// `x.platforms`.
///
/// **Which files.** A run on one phone, the scenario's own, keeps the files it
/// always had (`x.timeline`, `x.doses`): a scenario that does not name other
/// phones is checked exactly as before. Any other run names each platform's
/// files after it, so the two phones' baselines never overwrite each other.
extension ScenarioVerifier {
  /// The phones `file` runs on: `platformOverride` (`--platform`), else the
  /// scenario's `platforms:`, else its own `platform:`.
  public func platforms(of scenario: Scenario) -> [PlatformName] {
    if let platformOverride, !platformOverride.isEmpty { return platformOverride }
    return scenario.platforms.isEmpty ? [scenario.platform.name] : scenario.platforms
  }

  /// Whether a run on `platforms` keeps the scenario's own file names (one phone, its own).
  public static func keepsOwnFiles(_ platforms: [PlatformName], of scenario: Scenario) -> Bool {
    platforms == [scenario.platform.name]
  }

  /// `dir/x.timeline` → `dir/x.android.timeline` (`x.json` → `x.android.json`,
  /// a name without an extension gains `.android`).
  public static func path(_ path: String, on platform: PlatformName) -> String {
    let name = (path as NSString).lastPathComponent
    let folder = String(path.dropLast(name.count))
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path + "." + platform.rawValue }
    return folder + name[..<dot] + "." + platform.rawValue + name[dot...]
  }

  /// The side-by-side dose table's baseline beside the scenario's expected timeline: `x.timeline` → `x.platforms`.
  public static func platformsPath(forTimeline path: String) -> String {
    String(dosesPath(forTimeline: path).dropLast(".doses".count)) + ".platforms"
  }

  /// `file` as it runs on `platform`: the scenario on that phone, its
  /// expected files named after it (see the type's rule).
  public static func file(_ file: ScenarioFile, on platform: PlatformName) -> ScenarioFile {
    var copy = file
    copy.scenario = file.scenario.on(platform)
    copy.checks.expectedTimelinePath = file.checks.expectedTimelinePath.map { path($0, on: platform) }
    if var trials = copy.checks.trials {
      trials.expectedReportPath = path(trials.expectedReportPath, on: platform)
      copy.checks.trials = trials
    }
    return copy
  }

  /// Verifies the scenario at `path` on each of its platforms (see
  /// `platforms(of:)`). One platform, the scenario's own: exactly `verify(path:)`.
  /// Never throws.
  public func verifyEach(path: String) -> [ScenarioVerification] {
    verifyEach(path: path, skipping: [], willVerify: { _ in }, didVerify: { _ in })
  }

  /// `verifyEach(path:)` one platform at a time, for a batch that limits
  /// each platform of a side-by-side scenario on its own (`trigsim test`):
  /// the platforms in `skipped` are left out (a worker stopped on them, or
  /// they were verified by an earlier worker), `willVerify` is told each
  /// platform before its run and `didVerify` each verification (the
  /// side-by-side table's included) as soon as it is made. The side-by-side
  /// table needs every platform's run: with any skipped it is not made. On
  /// the scenario's own phone (one platform) neither is told anything.
  public func verifyEach(
    path: String, skipping skipped: Set<PlatformName>, willVerify: (PlatformName) -> Void, didVerify: (ScenarioVerification) -> Void
  ) -> [ScenarioVerification] {
    switch load(path) {
    case .success(let file): return verifyEach(file, skipping: skipped, willVerify: willVerify, didVerify: didVerify)
    case .failure(let failed): return [failed.verification]
    }
  }

  /// `verifyEach(path:)` for a scenario already loaded: a verification per
  /// platform (each naming it), then, on several platforms of a scenario with
  /// medicines, the side-by-side table's.
  public func verifyEach(_ file: ScenarioFile) -> [ScenarioVerification] {
    verifyEach(file, skipping: [], willVerify: { _ in }, didVerify: { _ in })
  }

  /// `verifyEach(_:)` one platform at a time (see `verifyEach(path:skipping:willVerify:didVerify:)`).
  public func verifyEach(
    _ file: ScenarioFile, skipping skipped: Set<PlatformName>, willVerify: (PlatformName) -> Void, didVerify: (ScenarioVerification) -> Void
  ) -> [ScenarioVerification] {
    let platforms = platforms(of: file.scenario)
    if Self.keepsOwnFiles(platforms, of: file.scenario) { return [verify(file)] }
    var results: [ScenarioVerification] = []
    func add(_ result: ScenarioVerification) {
      results.append(result)
      didVerify(result)
    }
    for platform in platforms where !skipped.contains(platform) {
      willVerify(platform)
      let onPlatform = Self.file(file, on: platform)
      // Under --root, the platform's files must resolve inside it too, as the loader checks the scenario's own.
      if let escaped = escapedPlatformFile(onPlatform) {
        var result = ScenarioVerification(scenarioPath: file.path)
        result.platform = platform
        result.diagnostics = [escaped]
        result.outcome = .error(.invalidInput, escaped.description)
        add(result)
        continue
      }
      var result = verify(onPlatform)
      result.platform = platform
      add(result)
    }
    guard platforms.count > 1, !file.scenario.medicineApp.isEmpty, let timeline = file.checks.expectedTimelinePath else { return results }
    let summaries = results.compactMap { $0.report?.summary }
    guard summaries.count == platforms.count else { return results }
    let comparison = PlatformComparison(Array(zip(platforms, summaries)).map { (platform: $0.0, summary: $0.1) })
    let sideBySidePath = Self.platformsPath(forTimeline: timeline)
    if let escape = pathPolicy.escape(of: sideBySidePath) {
      var result = ScenarioVerification(scenarioPath: file.path)
      result.sideBySide = comparison
      let diagnostic = Diagnostic(
        at: InputLocation(file: file.path, line: 1, column: 1), pathPolicy.message(what: "side-by-side table", path: sideBySidePath, escape: escape))
      result.diagnostics = [diagnostic]
      result.outcome = .error(.invalidInput, diagnostic.description)
      add(result)
      return results
    }
    add(verifySideBySide(comparison, path: sideBySidePath, scenarioPath: file.path))
    return results
  }

  /// The first of a platform's expected files (timeline, dose table, trial
  /// report, side-by-side table) that `pathPolicy` refuses, as a diagnostic at the scenario's first line.
  func escapedPlatformFile(_ file: ScenarioFile) -> Diagnostic? {
    guard let timeline = file.checks.expectedTimelinePath else { return nil }
    let candidates: [(String, String)] =
      [("expected timeline", timeline), ("expected dose table", Self.dosesPath(forTimeline: timeline))]
      + (file.checks.trials.map { [("expected trial report", $0.expectedReportPath)] } ?? [])
    for (what, path) in candidates {
      guard let escape = pathPolicy.escape(of: path) else { continue }
      return Diagnostic(
        at: InputLocation(file: file.path, line: 1, column: 1), pathPolicy.message(what: what, path: path, escape: escape),
        notes: ["on several phones each platform's files are named after it, beside the scenario's own: name an expected timeline inside the root"])
    }
    return nil
  }

  /// Compares the side-by-side table with its baseline (recording it as `record` says).
  func verifySideBySide(_ comparison: PlatformComparison, path: String, scenarioPath: String) -> ScenarioVerification {
    var result = ScenarioVerification(scenarioPath: scenarioPath)
    result.diffStyle = diffStyle
    result.sideBySide = comparison
    result.expectedPlatformsPath = path
    let actual = comparison.text
    var expected: String?
    var refusal: ScenarioFileRefusal?
    do {
      expected = try ScenarioFileKind.expectedPlatforms.read(
        path, policy: pathPolicy, namedAt: InputLocation(file: scenarioPath, line: 1, column: 1), recordNote: Self.recordNote(scenarioPath)
      ).map { String(decoding: $0, as: UTF8.self) }
    } catch {
      refusal = error
    }
    let matches = expected == actual
    let wants: Bool
    switch record {
    case .none: wants = false
    case .missing: wants = expected == nil && refusal == nil
    case .failed: wants = !matches
    case .all: wants = true
    }
    if let refusal, !rewrites(refusal) {
      result.diagnostics = [refusal.diagnostic]
      result.outcome = Self.outcome(of: refusal.error)
      return result
    }
    if wants {
      if mayWrite {
        do {
          result.platformsRecorded = try Self.writeBaseline(Data(actual.utf8), to: path)
        } catch {
          result.outcome = .error(.cannotWrite, "error: cannot write '\(path)': \(error.localizedDescription)")
          return result
        }
        result.outcome = .passed
        return result
      }
      result.refusedToRecord = true
    }
    if let expected {
      if !matches { result.platformsDifference = BaselineTextDifference(expected: expected, actual: actual) }
    } else {
      result.missingPlatformsBaseline = true
    }
    result.outcome = result.platformsDifference == nil && !result.missingPlatformsBaseline ? .passed : .failed
    return result
  }
}
