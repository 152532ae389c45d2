import TrigsimFuzzTargets

/// libFuzzer on the merge target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.merge.main() }
}
