/// A layer's own event, addressed to the layer that queued it: the engine
/// orders it with every other event (its phase and rank are the layer's) and
/// hands it back to `SimulationLayers.handle(_:in:at:)`.
///
/// Each case keeps the name and shape the event had when it was one of the
/// engine's own kinds, so the event trace reads as it did (`traceText`):
/// the server's events were always wrapped (`server(step(…))`), the others
/// were the engine's own cases.
enum LayerEvent {
  /// The app under test's inputs and callbacks (`AppLayer`).
  case app(AppEvent)
  /// The phone's own events (`PhoneCore`).
  case phone(PhoneEvent)
  /// The Android phone's own scheduling (`AndroidScheduler`).
  case android(AndroidEvent)
  /// The patient's own events (`PatientLayer`): a scripted action, a planned response, a look.
  case patient(PatientEvent)
  /// The dose ledger's own events (`DoseLedgerLayer`).
  case ledger(LedgerEvent)
  /// The reminder server's own events (`ServerLayer`).
  case server(ServerEvent)

  /// How the event trace (`Simulation.eventTrace()`) names the event: the layer's event by itself.
  var traceText: String {
    switch self {
    case .app(let event): "\(event)"
    case .phone(let event): "\(event)"
    case .android(let event): "\(event)"
    case .patient(let event): "\(event)"
    case .ledger(let event): "\(event)"
    case .server(let event): "server(\(event))"
    }
  }
}

/// The app layer's own events.
enum AppEvent {
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
  /// A medicine changed (index into the scenario's medicine changes).
  case medicineChange(Int)
}

/// Each layer queues its events by the names they had as the engine's own
/// kinds: `.phone(.deviceChange(0))`, `.appLaunch`.
extension ScheduledEvent.Kind {
  static func phone(_ event: PhoneEvent) -> Self { .layer(.phone(event)) }
  static func android(_ event: AndroidEvent) -> Self { .layer(.android(event)) }
  static func patient(_ event: PatientEvent) -> Self { .layer(.patient(event)) }
  static func ledger(_ event: LedgerEvent) -> Self { .layer(.ledger(event)) }
  static func server(_ event: ServerEvent) -> Self { .layer(.server(event)) }
  static var appLaunch: Self { .layer(.app(.appLaunch)) }
  static func significantLocationChange(_ position: Coordinate) -> Self { .layer(.app(.significantLocationChange(position))) }
  static func locationUpdate(_ position: Coordinate, service: Int) -> Self { .layer(.app(.locationUpdate(position, service: service))) }
  static func timeChange(_ cause: SignificantTimeChange.Cause, token: Int) -> Self { .layer(.app(.timeChange(cause, token: token))) }
  static func medicineChange(_ index: Int) -> Self { .layer(.app(.medicineChange(index))) }
}

extension ScheduledEvent {
  /// How the event trace names the event: a layer's event by itself, the world's by its kind.
  var traceText: String {
    if case .layer(let event) = kind { return event.traceText }
    return "\(kind)"
  }
}
