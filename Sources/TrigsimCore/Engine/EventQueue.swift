import HeapModule

/// An event waiting in the queue, ordered by `(instant, phase, rank, sequence)`.
struct ScheduledEvent: Comparable {
  enum Kind {
    case timeZoneChange(Int)
    case appAction(Int)
    case trackGap(since: SimulationInstant)
    case regionCrossing(region: Int, entering: Bool, afterGap: Bool)
    /// A calendar or interval request's delivery; `token` identifies the
    /// pending request it was computed for, so a replaced or removed request's
    /// stale deliveries are skipped.
    case timeTriggerDue(NotificationID, token: Int)
  }

  var instant: SimulationInstant
  var phase: EventPhase
  var rank: Int
  var sequence: Int
  var kind: Kind

  static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.instant, lhs.phase, lhs.rank, lhs.sequence) < (rhs.instant, rhs.phase, rhs.rank, rhs.sequence)
  }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.sequence == rhs.sequence }
}

/// The simulation's agenda: a min-heap of events with one total order.
struct EventQueue {
  private var heap = Heap<ScheduledEvent>()
  private var nextSequence = 0

  mutating func schedule(_ kind: ScheduledEvent.Kind, at instant: SimulationInstant, phase: EventPhase, rank: Int) {
    heap.insert(ScheduledEvent(instant: instant, phase: phase, rank: rank, sequence: nextSequence, kind: kind))
    nextSequence += 1
  }

  /// The instant of the earliest event, if any.
  var nextInstant: SimulationInstant? { heap.min?.instant }

  /// Removes and returns the earliest event if it is due at or before `horizon`.
  mutating func popNext(notAfter horizon: SimulationInstant) -> ScheduledEvent? {
    guard let first = heap.min, first.instant <= horizon else { return nil }
    return heap.removeMin()
  }

  var isEmpty: Bool { heap.isEmpty }
}
