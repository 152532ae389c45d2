import TrigsimFuzzTargets

/// libFuzzer on the partial target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.partial.main() }
}
