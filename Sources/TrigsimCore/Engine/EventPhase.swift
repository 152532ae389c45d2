/// The order in which events scheduled for the same instant are handled.
///
/// Cases are listed in processing order. Within a phase, events are ordered by
/// a rank the phase defines (see each case), then by the order they were
/// scheduled, so a run is fully deterministic.
public enum EventPhase: Int, Comparable, Sendable {
  /// The device changes time zone first, so everything due at this instant
  /// sees the new zone (floating calendar triggers are re-evaluated).
  case timeZoneChange
  /// The app's state or notification permission changes, so a delivery at
  /// the same instant sees the new state. Rank: position in the scenario.
  case appChange
  /// The device changes: power, network, notification settings, the app's
  /// own settings, Focus boundaries (a Focus ending at `t` no longer holds
  /// a delivery at `t`; held notifications are released here). Rank: the
  /// kind of change (see `SimulationRun.DeviceChangeRank`), then position.
  case device
  /// The app acts before the system delivers: a request removed at `t` does
  /// not deliver at `t`, and a region request added at `t` sees a crossing at `t`.
  /// Rank: the action's position in the scenario; medicine creations, edits
  /// and deletions come after the scenario's raw requests.
  case appAction
  /// Position-derived events: a gap in the track, then region entries and
  /// exits (which deliver their location requests at once).
  /// Rank: the region's position in the scenario (a gap ranks before every region).
  case position
  /// Calendar and interval deliveries.
  /// Rank: the order in which the requests were added.
  case timeTrigger
  /// Remote pushes the app's server sends. Rank: position in the scenario.
  case remotePush
  /// Scheduled Summary: what was held for it is shown, including deliveries
  /// at this very instant.
  case summary
  /// The patient looks at the phone (scripted, routine): what was listed
  /// without an alert up to this instant, deliveries at it included, is seen.
  /// Rank: scripted looks by position in the scenario, then the routine's.
  case look
  /// The user acts on delivered notifications, so an action at a delivery's
  /// own instant finds it. Rank: scripted actions by position in the
  /// scenario, then rule responses in the order they were planned.
  case userAction
  /// Bookkeeping: a medicine's daily time is due; a dose its reminder did not
  /// notify at this instant is recorded as missed. Produces no entry itself.
  case doseCheck

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
