/// One attempt on one channel for one dose: what the server sent, whether it
/// arrived, whether the patient perceived it, or why it failed. The run's
/// summary keeps every attempt, in the order made (`RunSummary.channelAttempts`).
public struct ChannelAttempt: Sendable, Equatable {
  /// The timeline subject: `met.2026-05-05T08:00.s2` (a push: `….s1.phone`, one per device).
  public var subject: String
  public var dose: DoseKey
  /// The policy step, from 1.
  public var step: Int
  public var channel: DeliveryChannel
  /// For a push: the device it went to.
  public var device: String?
  /// When the step made the attempt (sent or not).
  public var at: SimulationInstant
  /// When the server sent it; nil when it failed before sending (no token, no verified number).
  public var sent: SimulationInstant?
  /// When it reached the phone, the mailbox, the inbox or the other device.
  public var delivered: SimulationInstant?
  /// When the patient could first perceive it.
  public var perceived: SimulationInstant?
  /// Why it went nowhere, when it did.
  public var failure: String?
  /// When the patient had taken or skipped the dose on the phone, if before the send.
  public var answeredBeforeSend: SimulationInstant?

  public init(subject: String, dose: DoseKey, step: Int, channel: DeliveryChannel, at: SimulationInstant) {
    self.subject = subject
    self.at = at
    self.dose = dose
    self.step = step
    self.channel = channel
  }
}

