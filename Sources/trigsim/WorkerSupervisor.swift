import Foundation
import TrigsimScenario

#if canImport(Glibc)
  import Glibc
#endif

/// Verifies a batch of scenarios in worker processes, so that one scenario
/// that crashes trigsim (a trap, a bad memory access, a stack overflow, a
/// kill) or runs past its time or memory limit costs only its own result.
///
/// The supervisor starts up to `jobs` copies of the running executable as
/// `trigsim scenario-worker …` (`WorkerProtocol`), gives each one scenario at
/// a time, and starts a new worker when one dies; the scenario it was
/// verifying is reported `crashed`, naming the signal, and the batch goes
/// on. Results come back in the order of `paths`, whatever order the workers
/// finish in, so the output does not depend on `jobs` or on timing.
///
/// A scenario run on several phones (`platforms: [ios, android]`,
/// `--platform ios,android`) is one unit per platform: the worker says when
/// each platform's run starts and sends its result as soon as it is made, the
/// time limit counts from each start, and a platform's run stopped at a limit
/// (or crashed) is that platform's row alone, naming it; the platforms
/// verified before it keep their verdicts, and the scenario goes to a new
/// worker for the platforms after it (the side-by-side table, which needs
/// every platform's run, is then not made).
///
/// Limits (`limits`): a worker still verifying a scenario (or a platform's
/// unit) `seconds` after it was given it, or whose resident memory (`/proc/PID/statm`, read every
/// `WorkerLimits.memorySamplingPeriod` while it works) exceeds `mebibytes`,
/// is sent SIGKILL, its scenario reported `timedOut` or `memoryExceeded`,
/// and it is waited for and replaced like a crashed one. Memory is watched
/// from outside rather than capped with `setrlimit(RLIMIT_AS)` in the
/// worker: the address space a worker reserves is not what it uses (glibc
/// gives each trial thread a 64 MiB malloc arena and an 8 MiB stack, the
/// Swift runtime maps its own; a trial run on 2 cores reserves 247 MiB to
/// hold 31 MiB, and the reservation grows with the cores), so a cap of the
/// address space either fails ordinary trial runs on a large machine or
/// sits far above real use; and an allocation it refuses ends the worker
/// in a trap, indistinguishable from a bug in trigsim.
/// Resident memory is what a CI runner runs out of, and the supervisor that
/// kills the worker knows why, so it reports the limit.
///
/// Hand-written on `posix_spawn` and `poll` rather than Foundation's
/// `Process`: a worker needs a reply channel on descriptor 3 and nothing else
/// inherited, and one thread must read every worker's replies and standard
/// error without blocking on any of them; `Process` offers neither.
///
/// Guarantees: every worker started is waited for (no zombie is left); a
/// worker inherits its standard input, its reply channel, its standard error
/// (all to the supervisor), `/dev/null` as standard output, no other file
/// descriptor, and only the environment variables in `passedEnvironment`;
/// memory per worker is its current reply and at most
/// `keptStandardErrorBytes` of its standard error.
struct WorkerSupervisor {
  /// The arguments after `trigsim scenario-worker`: the verifier's settings.
  var workerArguments: [String]
  var jobs: Int
  var limits = WorkerLimits(seconds: nil, mebibytes: nil)

  /// The environment variables a worker gets from the supervisor, when set
  /// (the dynamic linker's search path, the time-zone database, the
  /// testing-only crash request); besides them, `SWIFT_BACKTRACE=enable=no`,
  /// so a crash ends at once, with a message free of addresses.
  static let passedEnvironment = ["LD_LIBRARY_PATH", "TZDIR", TestCrashRequest.variable]
  static let keptStandardErrorBytes = 4096

  func run(_ paths: [String]) -> [ScenarioResult] {
    var run = SupervisedRun(paths: paths, workerArguments: workerArguments, limits: limits)
    return run.run(jobs: max(1, min(jobs, paths.count)))
  }
}

extension WorkerSupervisor {
  /// How a process ended, from its `waitpid` status: "crashed (SIGSEGV)" or
  /// "exited with status 3". (The W… macros are not imported into Swift; the
  /// encoding is Linux's: the signal in the low 7 bits, the exit status in the next 8.)
  static func describe(status: Int32) -> String {
    let signal = status & 0x7F
    if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
    return "crashed (\(GNULibC.signalName(signal)))"
  }

  /// The first non-empty line of a worker's standard error (the runtime's
  /// "Fatal error: …"), at most 200 characters, cut with "…".
  static func firstLine(of bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let line = text.split(separator: "\n").first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.count <= 200 ? trimmed : String(trimmed.prefix(199)) + "…"
  }
}

/// One worker process as the supervisor sees it.
private final class WorkerProcess {
  let pid: pid_t
  /// The worker's standard input (a socket); -1 once closed.
  var commands: Int32
  /// The worker's reply channel; -1 at its end.
  var replies: Int32
  /// The worker's standard error; -1 at its end.
  var messages: Int32
  var replyBytes: [UInt8] = []
  /// The start of what it wrote to standard error since its current assignment.
  var messageBytes: [UInt8] = []
  var assignment: (index: Int, started: ContinuousClock.Instant)?
  /// The platform whose run the worker is in, for a side-by-side scenario's unit (nil: the scenario as given).
  var platform: String?
  /// The results of the assignment's platforms so far.
  var parts: [ScenarioResult] = []

  init(pid: pid_t, commands: Int32, replies: Int32, messages: Int32) {
    self.pid = pid
    self.commands = commands
    self.replies = replies
    self.messages = messages
  }

  var isFinished: Bool { replies < 0 && messages < 0 }
}

private struct SupervisedRun {
  let paths: [String]
  let workerArguments: [String]
  let limits: WorkerLimits
  var results: [ScenarioResult?]
  var next = 0
  var workers: [WorkerProcess] = []
  /// The rows of a side-by-side scenario whose worker was stopped or crashed
  /// in one platform's run: the platforms' results so far and that platform's row.
  var earlier: [Int: [ScenarioResult]] = [:]
  /// The platforms of such a scenario its next worker leaves out.
  var skipped: [Int: [String]] = [:]
  /// Such scenarios, to be given to a worker again for their other platforms, in order.
  var resumed: [Int] = []

  /// Whether a scenario (or the rest of one) waits for a worker.
  var hasWork: Bool { next < paths.count || !resumed.isEmpty }
  let clock = ContinuousClock()

  init(paths: [String], workerArguments: [String], limits: WorkerLimits) {
    self.paths = paths
    self.workerArguments = workerArguments
    self.limits = limits
    self.results = Array(repeating: nil, count: paths.count)
  }

  mutating func run(jobs: Int) -> [ScenarioResult] {
    while hasWork && workers.count < jobs { startWorker() }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while !workers.isEmpty {
      var descriptors: [pollfd] = []
      for worker in workers {
        if worker.replies >= 0 { descriptors.append(pollfd(fd: worker.replies, events: Int16(POLLIN), revents: 0)) }
        if worker.messages >= 0 { descriptors.append(pollfd(fd: worker.messages, events: Int16(POLLIN), revents: 0)) }
      }
      if poll(&descriptors, nfds_t(descriptors.count), pollTimeout()) < 0 {
        if errno == EINTR { continue }
        abandon(because: "poll failed: \(String(cString: strerror(errno)))")
        break
      }
      for descriptor in descriptors where descriptor.revents != 0 {
        guard let worker = workers.first(where: { $0.replies == descriptor.fd || $0.messages == descriptor.fd }) else { continue }
        let count = buffer.withUnsafeMutableBytes { read(descriptor.fd, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
        if descriptor.fd == worker.replies {
          if count <= 0 {
            close(worker.replies)
            worker.replies = -1
          } else {
            worker.replyBytes += buffer[..<count]
            takeReplies(from: worker)
          }
        } else {
          if count <= 0 {
            close(worker.messages)
            worker.messages = -1
          } else {
            let room = WorkerSupervisor.keptStandardErrorBytes - worker.messageBytes.count
            if room > 0 { worker.messageBytes += buffer[..<min(count, room)] }
          }
        }
      }
      enforceLimits()
      for worker in workers where worker.isFinished { reap(worker) }
      workers.removeAll { $0.isFinished }
    }
    // Every scenario was assigned and answered, or recorded as crashed; this is only a safety net.
    return paths.indices.map { results[$0] ?? .internalError(paths[$0], "the batch ended before this scenario was verified") }
  }

  /// Starts a worker and gives it the next scenario; when no worker can be
  /// started, that scenario is an internal error (the next attempt gets the next one).
  mutating func startWorker() {
    do {
      let worker = try Self.spawn(arguments: ["trigsim", "scenario-worker"] + workerArguments)
      workers.append(worker)
      assign(to: worker)
    } catch {
      let index = takeNextIndex()
      results[index] = .internalError(paths[index], "cannot start a worker process: \(error)")
    }
  }

  /// Gives `worker` the next scenario, or closes its input when there is none (it then exits).
  mutating func assign(to worker: WorkerProcess) {
    guard hasWork else {
      if worker.commands >= 0 {
        close(worker.commands)
        worker.commands = -1
      }
      return
    }
    let index = takeNextIndex()
    worker.assignment = (index, clock.now)
    worker.platform = nil
    worker.parts = []
    worker.messageBytes = []
    guard let line = try? WorkerProtocol.line(WorkerProtocol.Assignment(index: index, path: paths[index], skip: skipped[index])) else {
      results[index] = .internalError(paths[index], "the scenario path cannot be sent to a worker")
      worker.assignment = nil
      return assign(to: worker)
    }
    var sent = 0
    while sent < line.count {
      // MSG_NOSIGNAL: a worker that died makes this fail with EPIPE, not kill the supervisor with SIGPIPE.
      let count = line[sent...].withUnsafeBytes { send(worker.commands, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count < 0 {
        if errno == EINTR { continue }
        return  // the worker is gone: the end of its replies reports the scenario
      }
      sent += count
    }
  }

  /// The next scenario to give a worker: a resumed one first, else the next
  /// in order (only when `hasWork`).
  mutating func takeNextIndex() -> Int {
    if !resumed.isEmpty { return resumed.removeFirst() }
    next += 1
    return next - 1
  }

  /// The result of scenario `index`: its earlier rows (`earlier`) and `rows`, as one.
  mutating func finish(_ index: Int, with rows: [ScenarioResult]) {
    let all = (earlier.removeValue(forKey: index) ?? []) + rows
    results[index] = all.isEmpty ? .internalError(paths[index], "a worker process verified none of the scenario's platforms") : .combining(all)
  }

  /// `worker`'s assignment ended in `row` (stopped at a limit, or crashed):
  /// within a platform's unit, that platform's row joins the platforms
  /// verified so far and the scenario is given again for the others;
  /// otherwise it is the scenario's result.
  mutating func endAssignment(of worker: WorkerProcess, with row: ScenarioResult) {
    guard let assignment = worker.assignment else { return }
    worker.assignment = nil
    guard let platform = worker.platform else {
      finish(assignment.index, with: [row])
      return
    }
    earlier[assignment.index, default: []] += worker.parts + [row]
    skipped[assignment.index, default: []] += worker.parts.compactMap(\.platform) + [platform]
    resumed.append(assignment.index)
  }

  /// Stores every complete reply line and gives the worker its next scenario.
  /// A reply that is not the answer to its assignment ends the worker.
  mutating func takeReplies(from worker: WorkerProcess) {
    while let newline = worker.replyBytes.firstIndex(of: 0x0A) {
      let line = Data(worker.replyBytes[..<newline])
      worker.replyBytes.removeSubrange(...newline)
      guard let assignment = worker.assignment,
        let reply = try? JSONDecoder().decode(WorkerProtocol.Reply.self, from: line), reply.index == assignment.index
      else {
        if let assignment = worker.assignment {
          results[assignment.index] = .internalError(paths[assignment.index], "a worker process sent an unreadable reply", seconds: elapsed(since: assignment.started))
          worker.assignment = nil
        }
        kill(worker.pid, SIGKILL)
        worker.replyBytes = []
        return
      }
      if let platform = reply.starting {
        // A platform's unit: its time limit starts now.
        worker.platform = platform
        worker.assignment = (assignment.index, clock.now)
        continue
      }
      if let part = reply.part {
        worker.parts.append(part)
        continue
      }
      finish(reply.index, with: reply.result.map { [$0] } ?? [])
      worker.assignment = nil
      assign(to: worker)
    }
  }

  /// Waits for a worker whose channels have ended; if it died before
  /// answering, its scenario is `crashed`. A new worker takes over the rest
  /// (a worker ends by itself only when there is no rest).
  mutating func reap(_ worker: WorkerProcess) {
    if worker.commands >= 0 {
      close(worker.commands)
      worker.commands = -1
    }
    var status: Int32 = 0
    while waitpid(worker.pid, &status, 0) < 0 && errno == EINTR {}
    if let assignment = worker.assignment {
      endAssignment(
        of: worker,
        with: .crashed(
          paths[assignment.index], what: WorkerSupervisor.describe(status: status), lastWords: WorkerSupervisor.firstLine(of: worker.messageBytes),
          seconds: elapsed(since: assignment.started), platform: worker.platform))
    }
    if hasWork { startWorker() }
  }

  // MARK: - Limits

  /// How long `poll` may wait, in milliseconds: until the nearest deadline
  /// of a working worker, and at most `WorkerLimits.memorySamplingPeriod`
  /// when memory is limited; -1 (no timeout) when no limit applies.
  func pollTimeout() -> Int32 {
    let working = workers.compactMap(\.assignment)
    guard !working.isEmpty else { return -1 }
    var wait: Duration?
    if limits.mebibytes != nil { wait = WorkerLimits.memorySamplingPeriod }
    if let seconds = limits.seconds {
      let now = clock.now
      for assignment in working {
        let left = max(.zero, now.duration(to: assignment.started + .seconds(seconds)))
        wait = min(wait ?? left, left)
      }
    }
    guard let wait else { return -1 }
    // Rounded up, so that the deadline has passed when poll returns.
    let milliseconds = wait.components.seconds * 1000 + (wait.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: milliseconds)
  }

  /// Stops every worker whose scenario is past its deadline or whose
  /// resident memory is over the limit.
  mutating func enforceLimits() {
    let now = clock.now
    for worker in workers where !worker.isFinished {
      guard let assignment = worker.assignment else { continue }
      if let seconds = limits.seconds, assignment.started + .seconds(seconds) <= now {
        stop(worker, at: .time(seconds: seconds))
      } else if let mebibytes = limits.mebibytes, let resident = Self.residentBytes(of: worker.pid), resident > mebibytes << 20 {
        stop(worker, at: .memory(mebibytes: mebibytes))
      }
    }
  }

  /// Kills `worker` (SIGKILL), reports its scenario stopped at `limit`, and
  /// closes its channels, so that it is reaped (and replaced) at once; a
  /// reply it may have sent in the meantime is not read.
  mutating func stop(_ worker: WorkerProcess, at limit: WorkerLimits.Limit) {
    guard let assignment = worker.assignment else { return }
    kill(worker.pid, SIGKILL)
    endAssignment(
      of: worker, with: .stopped(paths[assignment.index], at: limit, seconds: elapsed(since: assignment.started), platform: worker.platform))
    for descriptor in [worker.replies, worker.messages] where descriptor >= 0 { close(descriptor) }
    worker.replies = -1
    worker.messages = -1
  }

  /// A process's resident memory in bytes (the second field of
  /// `/proc/PID/statm`, in pages); nil when it cannot be read (not Linux, or the process is gone).
  static func residentBytes(of pid: pid_t) -> Int? {
    let descriptor = open("/proc/\(pid)/statm", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 128)
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    let fields = String(decoding: bytes[..<count], as: UTF8.self).split(separator: " ")
    guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// Ends every worker and reports the scenarios not verified; only after
  /// the supervisor itself cannot go on.
  mutating func abandon(because reason: String) {
    for worker in workers {
      kill(worker.pid, SIGKILL)
      for descriptor in [worker.commands, worker.replies, worker.messages] where descriptor >= 0 { close(descriptor) }
      var status: Int32 = 0
      while waitpid(worker.pid, &status, 0) < 0 && errno == EINTR {}
      if let assignment = worker.assignment { results[assignment.index] = .internalError(paths[assignment.index], reason) }
    }
    workers = []
    while hasWork {
      let index = takeNextIndex()
      results[index] = .internalError(paths[index], reason)
    }
  }

  func elapsed(since start: ContinuousClock.Instant) -> Double { start.duration(to: clock.now).seconds }

  // MARK: - Starting a worker

  struct SpawnError: Error, CustomStringConvertible {
    var description: String
  }

  /// The running executable: `/proc/self/exe` on Linux (the very file this
  /// process runs, even if it was replaced since), else the path it was started by.
  static var executable: String {
    access("/proc/self/exe", X_OK) == 0 ? "/proc/self/exe" : (Bundle.main.executablePath ?? CommandLine.arguments[0])
  }

  static func spawn(arguments: [String]) throws -> WorkerProcess {
    var opened: [Int32] = []
    defer { for descriptor in opened { close(descriptor) } }
    // A connected pair, close-on-exec from birth, so no other child inherits it.
    func channel() throws -> (parent: Int32, child: Int32) {
      var pair: [Int32] = [-1, -1]
      guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
        throw SpawnError(description: "socketpair: \(String(cString: strerror(errno)))")
      }
      // The child's end is moved to 10 or above, so the dup2 actions below never overwrite one another.
      let child = fcntl(pair[1], F_DUPFD_CLOEXEC, Int32(10))
      close(pair[1])
      opened.append(pair[0])
      guard child >= 0 else { throw SpawnError(description: "fcntl: \(String(cString: strerror(errno)))") }
      opened.append(child)
      return (pair[0], child)
    }
    let commands = try channel()
    let replies = try channel()
    let messages = try channel()

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, commands.child, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, messages.child, 2)
    posix_spawn_file_actions_adddup2(&actions, replies.child, WorkerProtocol.replyDescriptor)
    // Descriptors the supervisor inherited without close-on-exec stop here too.
    GNULibC.addCloseFrom(&actions, WorkerProtocol.replyDescriptor + 1)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaultSignals = sigset_t()
    sigemptyset(&defaultSignals)
    sigaddset(&defaultSignals, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
    var noMask = sigset_t()
    sigemptyset(&noMask)
    posix_spawnattr_setsigmask(&attributes, &noMask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    let parentEnvironment = ProcessInfo.processInfo.environment
    var environment = ["SWIFT_BACKTRACE=enable=no"]
    for name in WorkerSupervisor.passedEnvironment {
      if let value = parentEnvironment[name] { environment.append("\(name)=\(value)") }
    }

    var pid = pid_t()
    let failure = withCStringArray(arguments) { argv in
      withCStringArray(environment) { envp in posix_spawn(&pid, executable, &actions, &attributes, argv, envp) }
    }
    guard failure == 0 else { throw SpawnError(description: "posix_spawn \(executable): \(String(cString: strerror(failure)))") }
    opened.removeAll { $0 == commands.parent || $0 == replies.parent || $0 == messages.parent }  // the children's ends are closed by the defer
    return WorkerProcess(pid: pid, commands: commands.parent, replies: replies.parent, messages: messages.parent)
  }
}

/// `strings` as a NULL-terminated array of C strings, for `posix_spawn`.
private func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
  let copies = strings.map { strdup($0) } + [nil]
  defer { for copy in copies { free(copy) } }
  return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// glibc functions that its headers declare only with `_GNU_SOURCE`, which
/// Swift's Glibc module does not define: looked up by name at run time, with
/// a fallback where an older C library lacks them.
enum GNULibC {
  /// The address of the C function `name` in this process, or nil.
  static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
    guard let program = dlopen(nil, RTLD_NOW) else { return nil }
    defer { dlclose(program) }  // the program itself is never unloaded
    return dlsym(program, name)
  }

  /// `SIGSEGV` for 11 (`sigabbrev_np`, glibc 2.32), else `signal 11`.
  static func signalName(_ signal: Int32) -> String {
    typealias Abbreviation = @convention(c) (Int32) -> UnsafePointer<CChar>?
    guard let symbol = symbol("sigabbrev_np"),
      let name = unsafeBitCast(symbol, to: Abbreviation.self)(signal)
    else { return "signal \(signal)" }
    return "SIG" + String(cString: name)
  }

  /// Closes every descriptor from `lowest` up in the child
  /// (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34). Without it,
  /// only the supervisor's own channels are kept from the child (they are close-on-exec).
  static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) {
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    guard let symbol = symbol("posix_spawn_file_actions_addclosefrom_np") else { return }
    _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, lowest)
  }
}
