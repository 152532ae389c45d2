import TrigsimFuzzTargets

/// libFuzzer on the places target, or a replayer of saved inputs (see `FuzzTarget.main`).
@main enum FuzzEntry {
  static func main() { FuzzTarget.places.main() }
}
