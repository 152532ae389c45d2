/// One way the reminder server reaches the patient: push, SMS, email, the
/// in-app inbox. A channel owns what only it keeps (the texts the carrier
/// stores, the pushes sent to the phone); the server owns the policy, the
/// registry and the attempts, and calls the channel at each stage of an
/// attempt: the step sends, the message arrives, the patient sees it, the
/// dose table sums it up.
///
/// A new channel is a new conformer registered with the server
/// (`PolicyServer.register(_:)`): nothing in the engine or the server
/// switches over channels. Every method receives the server (for its
/// attempts and shared helpers) and the run `inout`, as the layers' do.
protocol ServerChannel: AnyObject {
  /// The policy steps this channel serves (`EscalationStep.channel`).
  var name: DeliveryChannel { get }

  /// Step `step` (from 0) of the policy sends `dose` on this channel now:
  /// the channel makes its attempts (`PolicyServer.newAttempt`), records
  /// them and queues what follows (`PolicyServer.scheduleArrival`, `scheduleSeen`).
  func send(_ dose: DoseKey, step: Int, label: String, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant)
  /// Attempt `attempt` reaches its recipient now (the arrival the channel queued).
  func arrives(_ attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant)
  /// The patient perceives attempt `attempt` now (the look the channel queued).
  func seen(_ attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant)
  /// A deadline the channel queued for `attempt` is due (`ServerEvent.deadline`).
  func deadlineDue(_ deadline: ChannelDeadline, attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant)

  /// The phone can reach the network again.
  func phoneReachable(server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant)
  /// A Focus ended or the phone came on.
  func focusReleased(server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant)
  /// The patient looks at the phone now.
  func patientLooked(server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant)
  /// Remote push `index` (into `SimulationRun.remotePushes`) reached the phone now.
  func remotePushReceived(_ index: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant)
  /// Remote push `index` reached the patient's eyes on the phone now.
  func remotePushPerceived(
    _ index: Int, kind: PerceptionRecord.Kind, how: String, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant)

  /// The kind of the `perceived` entry of `attempt`; nil when the phone
  /// records the perception itself (a push on the simulated phone).
  func perceivedEntryKind(of attempt: ChannelAttempt) -> TimelineEntry.Kind?
  /// How the dose table ends the account of an attempt that was delivered
  /// and never perceived (`not perceived by the end of the run`).
  var unperceivedAccount: String { get }
}

/// What most channels do at a stage they take no part in: nothing.
extension ServerChannel {
  func arrives(_ attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {}
  func seen(_ attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {}
  func deadlineDue(_ deadline: ChannelDeadline, attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {}
  func phoneReachable(server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {}
  func focusReleased(server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {}
  func patientLooked(server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {}
  func remotePushReceived(_ index: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {}
  func remotePushPerceived(
    _ index: Int, kind: PerceptionRecord.Kind, how: String, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant
  ) {}
  var unperceivedAccount: String { "not perceived by the end of the run" }
}

/// A channel's own deadline for one of its attempts, named by the channel
/// (the SMS carrier's storage running out: `carrierGivesUp`). The name is
/// what the event trace prints.
struct ChannelDeadline: Equatable {
  let name: String
}
