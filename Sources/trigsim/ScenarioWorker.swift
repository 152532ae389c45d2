import ArgumentParser
import Foundation
import TrigsimScenario

#if canImport(Glibc)
  import Glibc
#endif

/// How a batch's supervisor and its worker processes talk: one JSON object
/// per line, one scenario at a time.
///
/// - To a worker, on its standard input: `{"index":N,"path":"…"}`, verify
///   this scenario. The end of input means no more work: the worker exits 0.
/// - From a worker, on its file descriptor 3: `{"index":N,"result":{…}}`,
///   the `ScenarioResult` of the scenario it was given, before it reads the
///   next assignment.
///
/// A worker's standard output goes nowhere (nothing can corrupt the replies);
/// its standard error goes to the supervisor, which quotes the first line
/// when the worker dies.
enum WorkerProtocol {
  struct Assignment: Codable {
    var index: Int
    var path: String
  }

  struct Reply: Codable {
    var index: Int
    var result: ScenarioResult
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
    crash?.crash(ifNamed: assignment.path)
    let clock = ContinuousClock()
    let start = clock.now
    let verifications = verifier.verifyEach(path: assignment.path)
    let result = ScenarioResult(verifications, seconds: start.duration(to: clock.now).seconds)
    guard let line = try? WorkerProtocol.line(WorkerProtocol.Reply(index: assignment.index, result: result)) else {
      exit(TrigsimExitCode.internalError)
    }
    do {
      try line.withUnsafeBytes { try writeAll($0, to: WorkerProtocol.replyDescriptor) }
    } catch {
      exit(TrigsimExitCode.internalError)  // the supervisor is gone
    }
  }
}

/// **For trigsim's own tests only**: `TRIGSIM_TEST_CRASH_ON=NAME[:HOW]` makes
/// a worker process crash when it is given the scenario whose file name is
/// NAME, to prove that a batch survives it. HOW is `trap` (the default: a
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
  var how: How

  init?(environment: [String: String]) {
    guard let value = environment[Self.variable], !value.isEmpty else { return nil }
    if let colon = value.lastIndex(of: ":"), let how = How(rawValue: String(value[value.index(after: colon)...])) {
      fileName = String(value[..<colon])
      self.how = how
    } else {
      fileName = value
      how = .trap
    }
  }

  func crash(ifNamed path: String) {
    guard (path as NSString).lastPathComponent == fileName else { return }
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
