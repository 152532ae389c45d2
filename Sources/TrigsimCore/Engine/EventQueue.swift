import HeapModule

/// An event waiting in the queue, ordered by `(instant, phase, rank, sequence)`.
struct ScheduledEvent: Comparable {
  /// What is due. The engine's own events are the world's: the clock's
  /// zone changes and the track's gaps and crossings; every other event is
  /// a layer's own (`LayerEvent`), handed to that layer.
  enum Kind {
    /// The device's zone changes (index into the clock's zone changes).
    case timeZoneChange(Int)
    /// The track has a gap: no fix since `since`.
    case trackGap(since: SimulationInstant, newSegmentAt: SimulationInstant?)
    /// The true path crossed a region's boundary (the world's view).
    case regionCrossing(region: Int, entering: Bool, afterGap: Bool, visit: Int)
    /// One of a layer's own events.
    case layer(LayerEvent)
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
  /// The earliest queued instant in milliseconds (`Int64.max` when empty),
  /// kept so that the check made once per track fix is one comparison.
  private var earliest = Int64.max

  mutating func schedule(_ kind: ScheduledEvent.Kind, at instant: SimulationInstant, phase: EventPhase, rank: Int) {
    heap.insert(ScheduledEvent(instant: instant, phase: phase, rank: rank, sequence: nextSequence, kind: kind))
    nextSequence += 1
    earliest = min(earliest, instant.millisecondsSinceEpoch)
  }

  /// The instant of the earliest event, if any.
  var nextInstant: SimulationInstant? { heap.min?.instant }

  /// Removes and returns the earliest event if it is due at or before `horizon`.
  @inline(__always)
  mutating func popNext(notAfter horizon: SimulationInstant) -> ScheduledEvent? {
    guard earliest <= horizon.millisecondsSinceEpoch else { return nil }
    let first = heap.removeMin()
    earliest = heap.min?.instant.millisecondsSinceEpoch ?? .max
    return first
  }

  var isEmpty: Bool { heap.isEmpty }
}
