/// The world's reminder server behind a seam (style §3: the world holds the
/// clock, the track and the services beside the phone). The engine tells it
/// what happened (a medicine's doses were scheduled, a dose was answered,
/// the phone can reach the network again) and hands it its own events; a
/// different server (a team's own logic) is another type behind this seam,
/// never an `if` in the engine.
///
/// Every method receives the run `inout`, as `AppLayer`'s do; the engine
/// holds the layer as a class reference and reads it first (`let layer = serverLayer`).
protocol ServerLayer: AnyObject {
  /// Queues the server's own inputs at the run's start (the scenario's `server: changes:`).
  func scheduleEvents(in run: inout SimulationRun)
  /// Dose clock `position` started (a medicine was created or edited): its doses are the server's to remind of.
  func doseClockStarted(_ position: Int, in run: inout SimulationRun, at now: SimulationInstant)
  /// The patient took or skipped `dose` on the phone now.
  func doseAnswered(_ dose: DoseKey, in run: inout SimulationRun, at now: SimulationInstant)
  /// The phone can reach the network again (switched on, online, airplane mode off).
  func phoneReachable(in run: inout SimulationRun, at now: SimulationInstant)
  /// A Focus ended or the phone came on: what a Focus held is listed.
  func focusReleased(in run: inout SimulationRun, at now: SimulationInstant)
  /// The patient looks at the phone now.
  func patientLooked(in run: inout SimulationRun, at now: SimulationInstant)
  /// One of the server's own events is due.
  func eventDue(_ event: ServerEvent, in run: inout SimulationRun, at now: SimulationInstant)
  /// A push (index into `SimulationRun.remotePushes`) reached the phone now; it may be one the server sent.
  func pushReceived(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant)
  /// A push the server sent (index into `SimulationRun.remotePushes`) was perceived on the phone.
  func pushPerceived(_ index: Int, kind: PerceptionRecord.Kind, how: String, in run: inout SimulationRun, at now: SimulationInstant)

  /// Every attempt the server made, on every channel, in the order made (`RunSummary.channelAttempts`).
  var channelAttempts: [ChannelAttempt] { get }
  /// `dose`'s row in the dose table with the server's account of it (a
  /// missed dose's reason names the server's attempts); unchanged when the
  /// server has nothing to say.
  func accountedDose(_ dose: DoseRecord, in run: SimulationRun) -> DoseRecord
}

/// The server's own events.
enum ServerEvent: Equatable, CustomStringConvertible {
  /// Step `step` of the policy for dose `dose` of clock `clock` is due.
  case step(clock: Int, dose: Int, step: Int)
  /// The same step, which waited for its channel's quiet hours to end.
  case resumeStep(clock: Int, dose: Int, step: Int)
  /// The scenario's server change `n` (`ServerSettings.changes`).
  case change(Int)
  /// Attempt `n` (`PolicyServer.attempts`) reaches its recipient now (its channel's `arrives`).
  case arrives(Int)
  /// The patient perceives attempt `n` now (an email read, an inbox fetch, a push seen on another device).
  case seen(Int)
  /// A deadline attempt `n`'s channel set for it is due (the carrier's storage
  /// for a text runs out: `carrierGivesUp`). Printed as the deadline's name.
  case deadline(ChannelDeadline, Int)

  var description: String {
    switch self {
    case .step(let clock, let dose, let step): "step(clock: \(clock), dose: \(dose), step: \(step))"
    case .resumeStep(let clock, let dose, let step): "resumeStep(clock: \(clock), dose: \(dose), step: \(step))"
    case .change(let index): "change(\(index))"
    case .arrives(let index): "arrives(\(index))"
    case .seen(let index): "seen(\(index))"
    case .deadline(let deadline, let index): "\(deadline.name)(\(index))"
    }
  }
}

/// No server: a scenario without `server:`. Nothing is sent and nothing changes.
final class NoServer: ServerLayer {
  func scheduleEvents(in run: inout SimulationRun) {}
  func doseClockStarted(_ position: Int, in run: inout SimulationRun, at now: SimulationInstant) {}
  func doseAnswered(_ dose: DoseKey, in run: inout SimulationRun, at now: SimulationInstant) {}
  func phoneReachable(in run: inout SimulationRun, at now: SimulationInstant) {}
  func focusReleased(in run: inout SimulationRun, at now: SimulationInstant) {}
  func patientLooked(in run: inout SimulationRun, at now: SimulationInstant) {}
  func eventDue(_ event: ServerEvent, in run: inout SimulationRun, at now: SimulationInstant) {}
  func pushReceived(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {}
  func pushPerceived(_ index: Int, kind: PerceptionRecord.Kind, how: String, in run: inout SimulationRun, at now: SimulationInstant) {}
  var channelAttempts: [ChannelAttempt] { [] }
  func accountedDose(_ dose: DoseRecord, in run: SimulationRun) -> DoseRecord { dose }
}
