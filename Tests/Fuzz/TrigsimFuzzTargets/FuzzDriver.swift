import Foundation

/// Starts libFuzzer from a Swift `main`.
///
/// SwiftPM renames an executable's `main` (so tests can link it) and points
/// the `main` symbol at it, which clashes with the `main` that
/// `-sanitize=fuzzer` links in; so `Tests/Fuzz/fuzz.sh` links libFuzzer
/// without its main, and each fuzz program's own `main` hands control to
/// libFuzzer's documented `LLVMFuzzerRunDriver` entry, found at run time.
public enum FuzzDriver {
  public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  private typealias RunDriver = @convention(c) (
    UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    TestOneInput
  ) -> Int32

  /// Runs libFuzzer with this process's arguments and `testOneInput`; never returns.
  public static func run(_ testOneInput: TestOneInput) -> Never {
    guard let symbol = dlsym(nil /* RTLD_DEFAULT */, "LLVMFuzzerRunDriver") else {
      FileHandle.standardError.write(Data("this program was built without libFuzzer: build it with Tests/Fuzz/fuzz.sh\n".utf8))
      exit(70)
    }
    let driver = unsafeBitCast(symbol, to: RunDriver.self)
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(driver(&argc, &argv, testOneInput))
  }
}

extension FuzzTarget {
  /// The target run by `main`, for libFuzzer's C callback (which captures nothing).
  nonisolated(unsafe) private static var fuzzed = FuzzTarget.gpx

  /// The `main` of a fuzz program: built by `Tests/Fuzz/fuzz.sh`
  /// (`-DTRIGSIM_FUZZ`, libFuzzer linked in) it is libFuzzer running this
  /// target; built normally it replays the files it is given (a corpus, or an
  /// input a fuzzer saved).
  public func main() {
    #if TRIGSIM_FUZZ
      Self.fuzzed = self
      FuzzDriver.run { data, size in
        FuzzTarget.fuzzed.run(UnsafeRawBufferPointer(start: data, count: size))
        return 0
      }
    #else
      FuzzReplay.main(self)
    #endif
  }
}
