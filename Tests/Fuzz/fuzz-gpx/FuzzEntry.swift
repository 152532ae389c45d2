import TrigsimFuzzTargets

/// Built by `Tests/Fuzz/fuzz.sh` (libFuzzer, `-DTRIGSIM_FUZZ`), this
/// program is libFuzzer with the gpx target; built normally, it replays the
/// files it is given (a corpus, or an input a fuzzer saved).
@main enum FuzzEntry {
  static func main() {
    #if TRIGSIM_FUZZ
      FuzzDriver.run { data, size in
        FuzzTarget.gpx.run(UnsafeRawBufferPointer(start: data, count: size))
        return 0
      }
    #else
      FuzzReplay.main(.gpx)
    #endif
  }
}
