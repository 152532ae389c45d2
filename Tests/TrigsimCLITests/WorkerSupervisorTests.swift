import Testing

@testable import trigsim

/// How the supervisor words a worker's end (the CLI tests see the same words end to end).
@Suite struct WorkerSupervisorTests {
  @Test func aWaitStatusNamesTheSignalOrTheExitStatus() {
    #expect(WorkerSupervisor.describe(status: 4) == "crashed (SIGILL)")
    #expect(WorkerSupervisor.describe(status: 11 | 0x80) == "crashed (SIGSEGV)")  // with a core dump
    #expect(WorkerSupervisor.describe(status: 9) == "crashed (SIGKILL)")
    #expect(WorkerSupervisor.describe(status: 3 << 8) == "exited with status 3")
  }

  @Test func theLastMessageIsTheFirstNonEmptyLineCutAt200Characters() {
    #expect(WorkerSupervisor.firstLine(of: Array("\n  \nFatal error: boom\nCurrent stack trace:\n0 0x7f…\n".utf8)) == "Fatal error: boom")
    #expect(WorkerSupervisor.firstLine(of: Array(" \n\n".utf8)) == nil)
    let long = WorkerSupervisor.firstLine(of: Array(String(repeating: "é", count: 300).utf8))
    #expect(long == String(repeating: "é", count: 199) + "…")
  }
}
