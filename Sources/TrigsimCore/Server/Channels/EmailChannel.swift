import Foundation

/// Email: delivered to the mailbox after the model's latency (the phone
/// plays no part); read at the patient's next mail reading (a single run),
/// or after a drawn delay (a trial).
final class EmailChannel: ServerChannel {
  let model: EmailChannelModel

  init(_ model: EmailChannelModel) { self.model = model }

  var name: DeliveryChannel { .email }

  func send(_ key: DoseKey, step: Int, label: String, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    let subject = "\(label).s\(step + 1)"
    let attempt = server.newAttempt(subject, key, step: step, channel: .email, at: now)
    server.dispatch(
      attempt, as: .email, fields: server.doseFields(key, step: step), failureRate: model.failureRate, latency: model.latency, spread: model.latencySpread,
      failure: "bounced or filtered as spam (drawn in this trial: email failureRate \(model.failureRate))", in: &run, at: now)
  }

  /// An email reaches the mailbox; the patient reads it at their next mail
  /// reading (a single run), or after a drawn delay (a trial).
  func arrives(_ attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    server.attempts[attempt].delivered = now
    let read: SimulationInstant?
    if let seed = run.trialSeed {
      var random = TrialRandom(seed: TrialRandom.trialSeed(seed ^ 0x5E7E_C4A7_11E5_0002, trial: attempt))
      let delay = Int64(-log(1 - random.nextUnit()) * Double(model.meanReadDelay.milliseconds))
      read = now.advanced(by: SimulationDuration(milliseconds: delay))
    } else {
      read = model.reads.compactMap { run.nextLocal($0, atOrAfter: now) }.min()
    }
    var fields = [TimelineField("status", "delivered")]
    if let read { fields.append(TimelineField("read", read <= run.end ? run.format(read) : "after the run")) } else {
      fields.append(TimelineField("reason", "the patient reads no mail (email reads: none)"))
    }
    run.record(.email, server.attempts[attempt].subject, at: now, fields)
    if let read { server.scheduleSeen(attempt, in: &run, at: read) }
  }

  func seen(_ attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    server.attemptPerceived(attempt, kind: .alert, how: "email, \(readHow(attempt, server: server, in: run, at: now))", in: &run, at: now)
  }

  /// How the patient came to read an email at `now`: at a scripted mail
  /// reading, or (a trial) after the delay drawn from its arrival.
  func readHow(_ attempt: Int, server: PolicyServer, in run: SimulationRun, at now: SimulationInstant) -> String {
    guard run.trialSeed != nil, let delivered = server.attempts[attempt].delivered else { return "read at the patient's mail reading" }
    return "read after \(delivered.duration(to: now)) (drawn in this trial: email meanReadDelay \(model.meanReadDelay))"
  }

  func perceivedEntryKind(of attempt: ChannelAttempt) -> TimelineEntry.Kind? { .email }

  var unperceivedAccount: String { "not read by the end of the run" }
}
