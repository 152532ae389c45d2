import Foundation
import TrigsimTestSupport

/// The built `trigsim` executable, run as a child process by the CLI tests.
enum TrigsimBinary {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static var url: URL {
    // The test bundle sits in the build products folder beside the executable.
    var folder = Bundle.main.bundleURL
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("trigsim")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      folder.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("trigsim")
  }

  /// Runs `trigsim arguments…` in `directory` and waits for it. Standard error
  /// is read on another thread, so a full pipe can never block the child.
  ///
  /// The child inherits this process's environment without `CI` (so tests
  /// behave the same on CI machines), with `environment` laid over it.
  static func run(_ arguments: [String], in directory: URL = RepositoryPaths.root, environment: [String: String] = [:]) throws -> Result {
    try runProcess(url, arguments, in: directory, environment: environment)
  }

  /// Runs any `executable` the way `run` runs trigsim (for a shell that
  /// redirects or closes trigsim's standard streams).
  static func runProcess(
    _ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var childEnvironment = ProcessInfo.processInfo.environment
    childEnvironment["CI"] = nil
    childEnvironment.merge(environment) { $1 }
    process.environment = childEnvironment
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    nonisolated(unsafe) var stderrData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      stderrData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
      stderr: String(decoding: stderrData, as: UTF8.self))
  }

  /// A new empty folder under the system's temporary folder.
  static func temporaryDirectory(prefix: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
