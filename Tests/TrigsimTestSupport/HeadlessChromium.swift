import Foundation

/// Debian's Chromium (or any Chrome) run headless, for the tests that render
/// trigsim's HTML reports in a real browser: the DOM after the page's
/// scripts ran, the script errors and console messages, and a screenshot.
///
/// Every run is isolated: the page is copied into a fresh temporary folder,
/// Chromium gets its own profile there, and the folder is removed whatever
/// happens. A run is bounded by `timeout` (coreutils `timeout`, which kills
/// the browser's whole process group; without it the browser tests are skipped).
public struct HeadlessChromium: Sendable {
  /// The browser's executable.
  public let executable: String
  /// How long one run may take before it is killed, in seconds.
  public var timeout: Int = 90

  /// The browser `TRIGSIM_CHROMIUM` names, else the first of `chromium`,
  /// `chromium-browser`, `google-chrome`, `google-chrome-stable` on `PATH`,
  /// with coreutils' `timeout` (`gtimeout` where Homebrew installs it); nil
  /// when either is missing.
  public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> HeadlessChromium? {
    let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
    func onPath(_ names: [String]) -> String? {
      for name in names { for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") { return "\(folder)/\(name)" } }
      return nil
    }
    guard let timeoutTool = onPath(["timeout", "gtimeout"]) else { return nil }
    if let named = environment["TRIGSIM_CHROMIUM"], !named.isEmpty {
      return FileManager.default.isExecutableFile(atPath: named) ? HeadlessChromium(executable: named, timeoutTool: timeoutTool) : nil
    }
    return onPath(["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]).map { HeadlessChromium(executable: $0, timeoutTool: timeoutTool) }
  }

  /// Why a browser test was skipped, and what to do about it.
  public static let unavailableMessage =
    "no Chromium, or no coreutils timeout, found: install Debian's chromium (`apt-get install chromium`, as .ci/run does) or set TRIGSIM_CHROMIUM to a Chrome or Chromium executable; on macOS also `brew install coreutils` for gtimeout"

  /// coreutils `timeout`, which bounds every run.
  public let timeoutTool: String

  public init(executable: String, timeoutTool: String = "/usr/bin/timeout") {
    self.executable = executable
    self.timeoutTool = timeoutTool
  }

  /// A failed browser run.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// What the browser made of a page.
  public struct RenderedPage {
    /// The DOM after load, serialized by the browser (`--dump-dom`).
    public var dom: String
    /// The messages of uncaught errors and unhandled promise rejections,
    /// recorded by a catcher put first in the page's `<head>`.
    public var scriptErrors: [String]
    /// Every message the page sent to the console (`console.log`,
    /// `console.error`, uncaught errors), without Chromium's prefix and source.
    public var consoleMessages: [String]
  }

  /// Loads `html` (a whole page) and returns its DOM after the scripts ran;
  /// in a window of `window` pixels (width, height) when given, so that a
  /// script of the page can measure where things were laid out.
  public func render(html: String, window: (width: Int, height: Int)? = nil) throws -> RenderedPage {
    try inTemporaryFolder { folder in
      let page = folder.appendingPathComponent("page.html")
      try Self.withErrorCatcher(html).write(to: page, atomically: true, encoding: .utf8)
      let size = window.map { ["--window-size=\($0.width),\($0.height)"] } ?? []
      let (status, output, log) = try run(["--dump-dom", "--virtual-time-budget=3000"] + size + [page.absoluteString], in: folder)
      guard status == 0 else { throw Failure(description: "\(executable) exited with \(status)\(status == 124 ? " (timed out after \(timeout) s)" : ""): \(log.suffix(2000))") }
      let dom = String(decoding: output, as: UTF8.self)
      let errors = HTMLDocument(dom).attributeValues(xpath: "/html/@data-script-errors").flatMap { $0.split(separator: "\n").map(String.init) }
      // `[…:INFO:CONSOLE:1] "MESSAGE", source: file:///… (1)`: the message.
      let console = String(decoding: log, as: UTF8.self).split(separator: "\n").compactMap { line -> String? in
        guard let marker = line.range(of: ":CONSOLE") else { return nil }
        let rest = line[marker.upperBound...].drop { $0 != "\"" }.dropFirst()
        guard let end = rest.range(of: "\", source: ", options: .backwards) else { return String(rest) }
        return String(rest[..<end.lowerBound])
      }
      return RenderedPage(dom: dom, scriptErrors: errors, consoleMessages: console)
    }
  }

  /// Loads `html` in a window of `width` × `height` pixels and returns a screenshot of it.
  public func screenshot(html: String, width: Int, height: Int) throws -> PNGImage {
    try inTemporaryFolder { folder in
      let page = folder.appendingPathComponent("page.html")
      try html.write(to: page, atomically: true, encoding: .utf8)
      let picture = folder.appendingPathComponent("screenshot.png")
      let (status, _, log) = try run(
        ["--screenshot=\(picture.path)", "--window-size=\(width),\(height)", "--hide-scrollbars", page.absoluteString], in: folder)
      guard status == 0, let data = FileManager.default.contents(atPath: picture.path) else {
        throw Failure(description: "\(executable) exited with \(status) and no screenshot: \(String(decoding: log, as: UTF8.self).suffix(2000))")
      }
      return try PNGImage(data: data)
    }
  }

  /// The page with a script first in its `<head>` that records uncaught
  /// errors in `data-script-errors` on the root element, one per line.
  static func withErrorCatcher(_ html: String) -> String {
    let catcher = "<script>(function(){function note(m){var e=document.documentElement;"
      + "e.setAttribute('data-script-errors',(e.getAttribute('data-script-errors')||'')+m+'\\n')}"
      + "window.addEventListener('error',function(ev){note(String(ev.message))});"
      + "window.addEventListener('unhandledrejection',function(ev){note('unhandled rejection: '+String(ev.reason))})})();</script>"
    guard let head = html.range(of: "<head>") else { return catcher + html }
    return html.replacingCharacters(in: head, with: "<head>" + catcher)
  }

  /// Runs the browser headless with `arguments` in `folder` (its profile
  /// there too); standard output and error go to files, so no pipe can fill.
  /// No sandbox (CI runs as root) and no `/dev/shm` (containers give it 64 MB).
  private func run(_ arguments: [String], in folder: URL) throws -> (Int32, Data, Data) {
    let out = folder.appendingPathComponent("stdout"), err = folder.appendingPathComponent("stderr")
    guard FileManager.default.createFile(atPath: out.path, contents: nil), FileManager.default.createFile(atPath: err.path, contents: nil) else {
      throw Failure(description: "cannot create the browser's output files in \(folder.path)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: timeoutTool)
    process.arguments = ["--kill-after=5", String(timeout), executable,
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
      "--enable-logging=stderr", "--v=0", "--user-data-dir=\(folder.appendingPathComponent("profile").path)"] + arguments
    process.currentDirectoryURL = folder
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return (process.terminationStatus, FileManager.default.contents(atPath: out.path) ?? Data(), FileManager.default.contents(atPath: err.path) ?? Data())
  }

  private func inTemporaryFolder<T>(_ body: (URL) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trigsim-chromium-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
  }
}
