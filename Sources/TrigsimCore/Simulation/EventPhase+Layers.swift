/// The layers' phases, in processing order around the world's two
/// (`EventPhase.timeZoneChange` first, `EventPhase.position` in the middle).
///
/// A phase is placed for what its events must see: an app change before a
/// delivery at the same instant, a removal before the delivery it cancels,
/// a delivery before the look that sees it, the look before the action on
/// what it saw, and the dose check last.
extension EventPhase {
  /// The app's state or notification permission changes, so a delivery at
  /// the same instant sees the new state. Rank: position in the scenario.
  public static let appChange = EventPhase(order: 10)
  /// The device changes: power, network, notification settings, the app's
  /// own settings, Focus boundaries (a Focus ending at `t` no longer holds
  /// a delivery at `t`; held notifications are released here). Rank: the
  /// kind of change (`DeviceChangeRank`), then position.
  public static let device = EventPhase(order: 20)
  /// The app acts before the system delivers: a request removed at `t` does
  /// not deliver at `t`, and a region request added at `t` sees a crossing at `t`.
  /// Rank: the action's position in the scenario; medicine creations, edits
  /// and deletions come after the scenario's raw requests.
  public static let appAction = EventPhase(order: 30)
  /// Calendar and interval deliveries, and the alarms and work the device runs.
  /// Rank: the order in which the requests were added.
  public static let timeTrigger = EventPhase(order: 50)
  /// Remote pushes and the server's messages. Rank: position in the scenario.
  public static let remotePush = EventPhase(order: 60)
  /// Scheduled Summary: what was held for it is shown, including deliveries
  /// at this very instant.
  public static let summary = EventPhase(order: 70)
  /// The patient looks at the phone (scripted, routine): what was listed
  /// without an alert up to this instant, deliveries at it included, is seen.
  /// Rank: scripted looks by position in the scenario, then the routine's.
  public static let look = EventPhase(order: 80)
  /// The user acts on delivered notifications, so an action at a delivery's
  /// own instant finds it. Rank: scripted actions by position in the
  /// scenario, then rule responses in the order they were planned.
  public static let userAction = EventPhase(order: 90)
  /// Bookkeeping: a medicine's daily time is due; a dose its reminder did not
  /// notify at this instant is recorded as missed. Produces no entry itself.
  public static let doseCheck = EventPhase(order: 100)

  /// Every declared phase with the name the event trace writes for it, in processing order.
  static let named: [(phase: EventPhase, name: String)] = [
    (.timeZoneChange, "timeZoneChange"), (.appChange, "appChange"), (.device, "device"), (.appAction, "appAction"),
    (.position, "position"), (.timeTrigger, "timeTrigger"), (.remotePush, "remotePush"), (.summary, "summary"),
    (.look, "look"), (.userAction, "userAction"), (.doseCheck, "doseCheck"),
  ]

  /// The phase's name in the event trace (`Simulation.eventTrace()`).
  var traceName: String { Self.named.first { $0.phase == self }?.name ?? "phase\(order)" }
}
