import HeapModule

/// An event waiting in the queue, ordered by `(instant, phase, rank, sequence)`.
struct ScheduledEvent: Comparable {
  enum Kind {
    case timeZoneChange(Int)
    case trackGap(since: SimulationInstant, newSegmentAt: SimulationInstant?)
    /// The true path crossed a region's boundary (the world's view).
    case regionCrossing(region: Int, entering: Bool, afterGap: Bool, visit: Int)
    /// The system launches a hosted app (`HostedAppLayer`) at the clock's start.
    case appLaunch
    /// The significant-change service reports to a hosted app (`HostedAppLayer.observe`).
    case significantLocationChange(Coordinate)
    /// The standard location service reports a fix to an app in the foreground
    /// (`HostedAppLayer.observe`); `service` counts the service's starts and
    /// stops, so a report queued before one of them is not delivered.
    case locationUpdate(Coordinate, service: Int)
    /// Midnight or a daylight-saving change in the device's zone, for a hosted
    /// app that observes time changes (`HostedAppLayer.timeChangeDue`);
    /// `token`: the schedule it was queued for (a new zone or process voids it).
    /// Phase `timeZoneChange`, rank `Int.max`: after a zone change at that instant.
    case timeChange(SignificantTimeChange.Cause, token: Int)
    case medicineChange(Int)
    /// One of the patient's own events (`PatientLayer`): a scripted action,
    /// a planned response, a look.
    case patient(PatientEvent)
    /// One of the dose ledger's own events (`DoseLedgerLayer`).
    case ledger(LedgerEvent)
    /// One of the Android phone's own events (`AndroidScheduler`), with the phases and ranks it gives them.
    case android(AndroidEvent)
    /// One of the reminder server's own events (`ServerLayer`).
    case server(ServerEvent)
    /// One of the phone's own events (`PhoneEvent`).
    case phone(PhoneEvent)
  }

  var instant: SimulationInstant
  var phase: EventPhase
  var rank: Int
  var sequence: Int
  var kind: Kind

  /// How the event trace (`Simulation.eventTrace()`) names the event: a
  /// layer's own event by itself, as it was named before it moved to its layer.
  var traceText: String {
    switch kind {
    case .android(let event): "\(event)"
    default: "\(kind)"
    }
  }

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
