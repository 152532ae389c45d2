/// The order in which events scheduled for the same instant are handled.
///
/// Cases are listed in processing order. Within a phase, events are ordered by
/// a rank the phase defines (see each case), then by the order they were
/// scheduled, so a run is fully deterministic.
public enum EventPhase: Int, Comparable, Sendable {
  /// The device changes time zone first, so everything due at this instant
  /// sees the new zone (floating calendar triggers are re-evaluated).
  case timeZoneChange
  /// The app acts before the system delivers: a request removed at `t` does
  /// not deliver at `t`, and a region request added at `t` sees a crossing at `t`.
  /// Rank: the action's position in the scenario.
  case appAction
  /// Position-derived events: a gap in the track, then region entries and
  /// exits (which deliver their location requests at once).
  /// Rank: the region's position in the scenario (a gap ranks before every region).
  case position
  /// Calendar and interval deliveries.
  /// Rank: the order in which the requests were added.
  case timeTrigger

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
