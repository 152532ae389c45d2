/// The app's in-app inbox: the server posts an item at once; the app shows
/// it at its first fetch while open: at the opening (`fetchOnOpen`) or its next poll.
final class InboxChannel: ServerChannel {
  let model: InboxChannelModel

  init(_ model: InboxChannelModel) { self.model = model }

  var name: DeliveryChannel { .inbox }

  /// The item is in the server's inbox now; it is seen at the app's next fetch.
  func send(_ key: DoseKey, step: Int, label: String, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    let subject = "\(label).s\(step + 1)"
    let attempt = server.newAttempt(subject, key, step: step, channel: .inbox, at: now)
    server.markSent(attempt, in: run, at: now)
    server.attempts[attempt].delivered = now
    let fetch = nextFetch(after: now, in: run)
    run.record(.inbox, subject, at: now, server.doseFields(key, step: step) + [
      TimelineField("status", "posted"),
      TimelineField("fetch", fetch.map { $0 <= run.end ? run.format($0) : "after the run" } ?? "never: the app is not opened again"),
    ])
    if let fetch { server.scheduleSeen(attempt, in: &run, at: fetch) }
  }

  /// The first instant at or after `instant` at which the app, in the
  /// foreground, fetches its inbox: at each opening (`fetchOnOpen`) and every `pollInterval` from it.
  func nextFetch(after instant: SimulationInstant, in run: SimulationRun) -> SimulationInstant? {
    let interval = max(model.pollInterval.milliseconds, 1)
    for span in run.scenario.medicineApp.foregroundSpans(until: run.end) {
      // The opening itself (a momentary one too), when the app fetches then.
      if model.fetchOnOpen && span.lowerBound >= instant { return span.lowerBound }
      // The polls: every interval from the opening, while the app is still open.
      let elapsed = span.lowerBound.duration(to: instant).milliseconds
      let polls = max(1, (elapsed + interval - 1) / interval)
      let poll = span.lowerBound.advanced(byMilliseconds: polls * interval)
      if poll < span.upperBound { return poll }
    }
    return nil
  }

  func seen(_ attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    server.attemptPerceived(attempt, kind: .alert, how: "inbox, fetched while the app was open", in: &run, at: now)
  }

  func perceivedEntryKind(of attempt: ChannelAttempt) -> TimelineEntry.Kind? { .inbox }

  var unperceivedAccount: String { "never fetched: the app was not opened while it waited" }
}
