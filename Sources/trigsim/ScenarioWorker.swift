import ArgumentParser
import Foundation
import TrigsimCore
import TrigsimScenario

#if canImport(Glibc)
  import Glibc
#endif

/// How a batch's supervisor and its worker processes talk: one JSON object
/// per line, one scenario at a time.
///
/// - To a worker, on its standard input: `{"index":N,"path":"…"}`, verify
///   this scenario; with `"skip":["ios"]`, leave out those platforms of a
///   side-by-side scenario (an earlier worker verified them or was stopped
///   on them). The end of input means no more work: the worker exits 0.
/// - From a worker, on its file descriptor 3, for a scenario run on several
///   phones, one unit per platform: `{"index":N,"starting":"android"}`
///   before the platform's run (its time limit starts then), and
///   `{"index":N,"part":{…}}`, its `ScenarioResult`, as soon as it is made
///   (the side-by-side table's too).
/// - Then `{"index":N,"result":{…}}`, the `ScenarioResult` of the scenario
///   it was given (every part; absent when every platform was skipped),
///   before it reads the next assignment.
///
/// A worker's standard output goes nowhere (nothing can corrupt the replies);
/// its standard error goes to the supervisor, which quotes the first line
/// when the worker dies.
enum WorkerProtocol {
  struct Assignment: Codable {
    var index: Int
    var path: String
    /// Platforms of a side-by-side scenario to leave out (their raw names).
    var skip: [String]? = nil
  }

  struct Reply: Codable {
    var index: Int
    /// The platform whose run starts now (a unit of a side-by-side scenario).
    var starting: String? = nil
    /// One platform's result (or the side-by-side table's), as soon as it is made.
    var part: ScenarioResult? = nil
    /// The scenario's result: the last reply of an assignment.
    var result: ScenarioResult? = nil
  }

  /// The worker's file descriptor for replies.
  static let replyDescriptor: Int32 = 3

  /// `value` as one line of JSON (the encoder escapes every line break inside strings).
  static func line<T: Encodable>(_ value: T) throws -> [UInt8] {
    Array(try JSONEncoder().encode(value)) + [0x0A]
  }
}

/// `trigsim scenario-worker`: the process `test` and `record` start for each
/// job (hidden from help). Its options are the verifier's settings, passed by
/// the supervisor; `--on-ci` replaces the environment variable `CI`, since a
/// worker gets only the environment it needs.
struct ScenarioWorkerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scenario-worker",
    abstract: "Verify scenarios sent by a supervising 'trigsim test' or 'trigsim record' (internal).",
    shouldDisplay: false)

  @OptionGroup var comparison: ComparisonFlags
  @OptionGroup var diffFlags: DiffFlags
  @OptionGroup var recording: RecordFlags
  @OptionGroup var root: RootOption
  @OptionGroup var platform: PlatformOption

  @Flag(name: .customLong("on-ci"), help: "Behave as on CI (the supervisor saw the environment variable CI).")
  var onCI = false

  func run() throws {
    var verifier = ScenarioVerifier(
      overrides: try comparison.options(), record: recording.record, isCI: onCI, force: recording.force, pathPolicy: root.pathPolicy,
      limitCeiling: try root.limitCeiling())
    verifier.diffStyle = diffFlags.diff
    verifier.platformOverride = try platform.override
    let crash = TestCrashRequest(environment: ProcessInfo.processInfo.environment)
    ScenarioWorker(verifier: verifier, crash: crash).serve()
  }
}

/// The worker's loop: read an assignment, verify, reply, until the end of input.
struct ScenarioWorker {
  var verifier: ScenarioVerifier
  var crash: TestCrashRequest?

  func serve() {
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      if let newline = pending.firstIndex(of: 0x0A) {
        let line = Data(pending[..<newline])
        pending.removeSubrange(...newline)
        guard let assignment = try? JSONDecoder().decode(WorkerProtocol.Assignment.self, from: line) else {
          // Only the supervisor writes here; it would see the exit and report the scenario.
          exit(TrigsimExitCode.internalError)
        }
        reply(to: assignment)
        continue
      }
      let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count == 0 { return }
      if count < 0 {
        if errno == EINTR { continue }
        exit(TrigsimExitCode.internalError)
      }
      pending += chunk[..<count]
    }
  }

  private func reply(to assignment: WorkerProtocol.Assignment) {
    crash?.crash(ifNamed: assignment.path, platform: nil)
    let clock = ContinuousClock()
    var start = clock.now
    var parts: [ScenarioResult] = []
    let skipped = Set((assignment.skip ?? []).compactMap(PlatformName.init(rawValue:)))
    let verifications = verifier.verifyEach(
      path: assignment.path, skipping: skipped,
      willVerify: { platform in
        send(WorkerProtocol.Reply(index: assignment.index, starting: platform.rawValue))
        crash?.crash(ifNamed: assignment.path, platform: platform.rawValue)
        start = clock.now
      },
      didVerify: { verification in
        let part = ScenarioResult(verification, seconds: start.duration(to: clock.now).seconds)
        parts.append(part)
        send(WorkerProtocol.Reply(index: assignment.index, part: part))
        start = clock.now
      })
    // One platform (the scenario's own, or a scenario that did not load): its one result.
    let result: ScenarioResult? =
      if !parts.isEmpty { ScenarioResult.combining(parts) }
      else if !verifications.isEmpty { ScenarioResult(verifications, seconds: start.duration(to: clock.now).seconds) }
      else { nil }  // every platform was skipped
    send(WorkerProtocol.Reply(index: assignment.index, result: result))
  }

  private func send(_ reply: WorkerProtocol.Reply) {
    guard let line = try? WorkerProtocol.line(reply) else { exit(TrigsimExitCode.internalError) }
    do {
      try line.withUnsafeBytes { try writeAll($0, to: WorkerProtocol.replyDescriptor) }
    } catch {
      exit(TrigsimExitCode.internalError)  // the supervisor is gone
    }
  }
}

/// **For trigsim's own tests only**: `TRIGSIM_TEST_CRASH_ON=NAME[@PLATFORM][:HOW]` makes
/// a worker process crash when it is given the scenario whose file name is
/// NAME (with `@android`, when it starts that platform's run of a side-by-side
/// scenario), to prove that a batch survives it. HOW is `trap` (the default: a
/// `fatalError`), `index` (an array index out of range), `stack` (unbounded
/// recursion), `segv` (a write through a bad pointer), `abort`, `kill`
/// (SIGKILL, as the kernel's out-of-memory killer sends) or `exit` (exit
/// status 3 without a reply); or makes it run into a limit of the batch:
/// `hang` (sleeps without end, for `--timeout`) or `allocate` (fills memory,
/// `allocationStep` at a time, up to `allocationCeiling`, then sleeps, for
/// `--memory-limit`). Only the worker reads it; `run` and `verify` ignore it.
struct TestCrashRequest {
  static let variable = "TRIGSIM_TEST_CRASH_ON"

  enum How: String, CaseIterable {
    case trap, index, stack, segv, abort, kill, exit, hang, allocate
  }

  /// What `allocate` adds at a time, every page written so that it is resident.
  static let allocationStep = 16 << 20
  /// Where `allocate` stops, so that a test without a memory limit cannot exhaust the machine.
  static let allocationCeiling = 1 << 30

  var fileName: String
  /// The platform whose run crashes; nil: the scenario, as it is given.
  var platform: String?
  var how: How

  init?(environment: [String: String]) {
    guard let value = environment[Self.variable], !value.isEmpty else { return nil }
    var name: String
    if let colon = value.lastIndex(of: ":"), let how = How(rawValue: String(value[value.index(after: colon)...])) {
      name = String(value[..<colon])
      self.how = how
    } else {
      name = value
      how = .trap
    }
    if let at = name.lastIndex(of: "@") {
      platform = String(name[name.index(after: at)...])
      name = String(name[..<at])
    }
    fileName = name
  }

  /// Crashes as asked when `path` is the named scenario and `platform` (nil: the scenario as given) the named platform.
  func crash(ifNamed path: String, platform: String?) {
    guard (path as NSString).lastPathComponent == fileName, platform == self.platform else { return }
    switch how {
    case .trap: fatalError("\(Self.variable) names this scenario")
    case .index:
      let empty = [Int](repeating: 0, count: fileName.isEmpty ? 1 : 0)
      print(empty[fileName.count])
    case .stack: print(Self.recurse(fileName.count))
    case .segv: UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = fileName.count
    case .abort: abort()
    case .kill: _ = raise(SIGKILL)
    case .exit: Foundation.exit(3)
    case .hang: Self.sleepForever()
    case .allocate:
      var held: [UnsafeMutableRawPointer] = []
      while held.count * Self.allocationStep < Self.allocationCeiling {
        let block = UnsafeMutableRawPointer.allocate(byteCount: Self.allocationStep, alignment: 4096)
        block.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: held.count + 1), count: Self.allocationStep)
        held.append(block)
      }
      // The blocks stay held: the process ends here only when it is killed.
      withExtendedLifetime(held) { Self.sleepForever() }
    }
  }

  private static func sleepForever() -> Never {
    while true { sleep(60) }
  }

  /// Recursion without end that the optimizer cannot turn into a loop (each
  /// frame uses its callee's result and keeps a buffer alive).
  private static func recurse(_ depth: Int) -> Int {
    var frame = [depth, depth &+ 1, depth &+ 2, depth &+ 3]
    return frame.withUnsafeMutableBufferPointer { buffer in
      buffer[0] = recurse(depth &+ buffer[1]) &+ buffer[2]
      return buffer[0] &+ buffer[3]
    }
  }
}
