import TrigsimCore

/// A small seeded random number generator, so property tests replay exactly:
/// the core's `TrialRandom` (SplitMix64), the same stream trials use.
///
/// Every property test names its seed in the failure message; re-running
/// with that seed reproduces the case.
public typealias SplitMix64 = TrialRandom
