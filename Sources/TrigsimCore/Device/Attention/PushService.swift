/// The push service (APNs) between the app's server and the device: what it
/// keeps while the device is unreachable, and when it hands over a push of
/// low priority. A single run follows the platform's settings
/// (`AttentionRules.storedPush`, `priority5Alerts`); a trial draws each
/// choice from its own stream, seeded by the trial's seed and the push's
/// position alone, so a push's fate does not depend on anything else in the
/// run or on how many workers ran the trials.
struct PushService {
  /// Which push it keeps of several sent while the device is unreachable.
  enum Keeping {
    /// The setting's rule: each new push is decided on as it is sent.
    case rule(StoredPushChoice)
    /// Trials: every candidate is kept until the device is reachable, then
    /// one is drawn uniformly among those not expired.
    case drawn(seed: UInt64)
  }

  /// What becomes of a low-priority push when the service would hand it over.
  enum LowPriorityFate: Equatable {
    case atOnce
    case delayed(SimulationDuration)
    case dropped
  }

  /// What the engine records when a push reaches the store.
  struct StoreOutcome: Equatable {
    /// Whether the push is kept (a candidate, in trials).
    var kept: Bool
    /// The push it displaced (the rule `latest`), or the push kept instead of
    /// it (the rule `earliest`).
    var replacing: Int?
    var keptInstead: Int?
    /// The push that was kept and had expired meanwhile.
    var expired: Int?
    /// Other pushes sent while the device is unreachable are still live: the
    /// service chooses among several, and which it keeps is uncertain.
    var choiceAmongSeveral: Bool
  }

  /// What the engine records when the device is reachable again.
  struct Release: Equatable {
    /// The push handed over, if any.
    var delivered: Int?
    /// It was one of several live pushes sent while unreachable.
    var choiceAmongSeveral: Bool
    /// Pushes kept (candidates, in trials) that expired while stored.
    var expired: [Int]
    /// Candidates not chosen (trials).
    var notChosen: [Int]
  }

  let rules: AttentionRules
  let keeping: Keeping
  /// The seed of the low-priority draws, in trials.
  let lowPrioritySeed: UInt64?
  /// Every push sent since the device was last reachable and stored (not
  /// "deliver now or never"), in sending order.
  private(set) var candidates: [Int] = []
  /// Single run: the push the rule keeps.
  private(set) var kept: Int?

  /// `trialSeed`: the trial's seed (`DeviceVariation.seed`), nil in a single run.
  init(rules: AttentionRules, trialSeed: UInt64?) {
    self.rules = rules
    if let trialSeed {
      keeping = .drawn(seed: trialSeed ^ Self.storeSalt)
      lowPrioritySeed = trialSeed ^ Self.lowPrioritySalt
    } else {
      keeping = .rule(rules.storedPush)
      lowPrioritySeed = nil
    }
  }

  /// Distinguish the push streams from each other and from the location
  /// service's (which uses the trial seed itself).
  static let storeSalt: UInt64 = 0x5354_4F52_4544_5055
  static let lowPrioritySalt: UInt64 = 0x5052_494F_5249_5459

  /// A push of `apns-priority` below 10 that shows something (alert, sound or
  /// badge: APNs's `alert` push type). Background pushes have their own
  /// throttle (`backgroundPushesPerHour`).
  static func isLowPriorityVisible(_ push: RemotePush) -> Bool {
    push.priority < 10 && !(push.contentAvailable && !push.hasAlert)
  }

  /// The fate of low-priority push `index`: the setting in a single run; in a
  /// trial, delivered with `priority5DeliveryProbability` after a delay drawn
  /// uniformly from zero to `priority5MaxDelay`.
  func lowPriorityFate(of index: Int) -> LowPriorityFate {
    guard let seed = lowPrioritySeed else {
      switch rules.priority5Alerts {
      case .dropped: return .dropped
      case .atOnce: return .atOnce
      case .delayed(let span): return .delayed(span)
      }
    }
    var random = TrialRandom(seed: TrialRandom.trialSeed(seed, trial: index))
    guard random.nextUnit() < rules.priority5DeliveryProbability else { return .dropped }
    let maximum = rules.priority5MaxDelay.milliseconds
    let delay = maximum > 0 ? random.next(below: maximum + 1) : 0
    return delay == 0 ? .atOnce : .delayed(SimulationDuration(milliseconds: delay))
  }

  /// Push `index` reaches the store while the device is unreachable.
  /// `expires` gives a push's last instant at the service.
  mutating func store(_ index: Int, at now: SimulationInstant, expires: (Int) -> SimulationInstant) -> StoreOutcome {
    let severalLive = candidates.contains { expires($0) >= now }
    candidates.append(index)
    guard case .rule(let choice) = keeping else {
      return StoreOutcome(kept: true, choiceAmongSeveral: severalLive)
    }
    guard let previous = kept else {
      kept = index
      return StoreOutcome(kept: true, choiceAmongSeveral: severalLive)
    }
    if expires(previous) < now {
      kept = index
      return StoreOutcome(kept: true, expired: previous, choiceAmongSeveral: severalLive)
    }
    switch choice {
    case .latest:
      kept = index
      return StoreOutcome(kept: true, replacing: previous, choiceAmongSeveral: true)
    case .earliest:
      return StoreOutcome(kept: false, keptInstead: previous, choiceAmongSeveral: true)
    }
  }

  /// The device is reachable again: what the service hands over.
  mutating func release(at now: SimulationInstant, expires: (Int) -> SimulationInstant) -> Release {
    let all = candidates
    let previous = kept
    candidates = []
    kept = nil
    let live = all.filter { expires($0) >= now }
    switch keeping {
    case .rule:
      guard let previous else { return Release(delivered: nil, choiceAmongSeveral: false, expired: [], notChosen: []) }
      let expired = expires(previous) < now
      return Release(delivered: expired ? nil : previous, choiceAmongSeveral: !expired && live.count > 1, expired: expired ? [previous] : [], notChosen: [])
    case .drawn(let seed):
      let expired = all.filter { expires($0) < now }
      guard let last = live.last else { return Release(delivered: nil, choiceAmongSeveral: false, expired: expired, notChosen: []) }
      // Keyed by the last live candidate: each release has its own stream.
      var random = TrialRandom(seed: TrialRandom.trialSeed(seed, trial: last))
      let pick = live[Int(random.next(below: Int64(live.count)))]
      return Release(delivered: pick, choiceAmongSeveral: live.count > 1, expired: expired, notChosen: live.filter { $0 != pick })
    }
  }
}
