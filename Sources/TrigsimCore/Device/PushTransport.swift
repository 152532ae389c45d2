/// How a remote push travels from the app's server to the phone and the
/// app: Apple's push service on an iPhone (`APNsTransport`), Firebase Cloud
/// Messaging on Android (`FCMTransport`). A platform profile provides it
/// (`PlatformSettings.makePushTransport`); the engine only tells it what
/// happened: a push was sent, the phone became reachable, a push it held is due.
protocol PushTransport: Sendable {
  /// The server sent push `index` now (its `sent` entry is recorded).
  func sent(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant)
  /// The phone can receive pushes again (switched on, online, airplane mode off).
  func reachableAgain(in run: inout SimulationRun, at now: SimulationInstant)
  /// Push `index`, which the transport held until now (`EventKind.pushDelayed`), is due.
  func heldPushDue(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant)
}

/// Apple Push Notification service: one stored push per app while the
/// device is unreachable, low priorities left to the device's power (the
/// manual, "Pushes"; `PushService`).
struct APNsTransport: PushTransport {
  func sent(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) { run.layers.phone.core.routePush(index, in: &run, at: now) }
  func reachableAgain(in run: inout SimulationRun, at now: SimulationInstant) { run.layers.phone.core.deliverStoredPushes(in: &run, at: now) }
  func heldPushDue(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) { run.layers.phone.core.deliverDelayedPush(index, in: &run, at: now) }
}
