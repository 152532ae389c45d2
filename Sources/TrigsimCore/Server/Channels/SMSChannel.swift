/// Text messages: sent only to a verified number, delivered after the
/// model's latency. While the phone cannot receive, the carrier stores a
/// text for up to `carrierStorage`; a text delivered during a Focus that
/// silences Messages is listed when the Focus ends and seen at the next look.
final class SMSChannel: ServerChannel {
  let model: SMSChannelModel
  /// Texts the carrier holds while the phone cannot receive (attempt indices).
  private(set) var atCarrier: [Int] = []
  /// Texts a Focus holds.
  private(set) var heldByFocus: [Int] = []
  /// Texts listed on the lock screen after a Focus, waiting for a look.
  private(set) var listedTexts: [Int] = []

  init(_ model: SMSChannelModel) { self.model = model }

  var name: DeliveryChannel { .sms }

  func send(_ key: DoseKey, step: Int, label: String, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    let subject = "\(label).s\(step + 1)"
    let attempt = server.newAttempt(subject, key, step: step, channel: .sms, at: now)
    guard server.smsVerified else {
      let why = "the patient has no verified phone number: the server sends texts only to a verified number"
      server.attempts[attempt].failure = why
      run.record(.sms, subject, at: now, server.doseFields(key, step: step) + [TimelineField("status", "failed"), TimelineField("reason", why)])
      return
    }
    // No one publishes how long a text takes (the registry's `sms.latency`); a trial draws it.
    if run.trialSeed == nil { run.layers.assumptionLog.consult(.smsLatency) }
    server.dispatch(
      attempt, as: .sms, fields: server.doseFields(key, step: step), failureRate: model.failureRate, latency: model.latency, spread: model.latencySpread,
      failure: "the carrier reported it undelivered (drawn in this trial: sms failureRate \(model.failureRate))", in: &run, at: now)
  }

  /// A text reaches the phone, or the carrier while the phone cannot receive it.
  func arrives(_ attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    let subject = server.attempts[attempt].subject
    if let unreachable = run.layers.phone.core.attention.unreachableReason {
      atCarrier.append(attempt)
      let givesUp = (server.attempts[attempt].sent ?? now).advanced(by: model.carrierStorage)
      server.scheduleDeadline(.carrierGivesUp, of: attempt, in: &run, at: givesUp)
      run.record(.sms, subject, at: now, [
        TimelineField("status", "held"),
        TimelineField("reason", "\(unreachable): the carrier stores the text and retries until the phone can receive it, for up to \(model.carrierStorage) (sms carrierStorage)"),
      ])
      return
    }
    deliver(attempt, server: server, in: &run, at: now)
  }

  func deliver(_ attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    let subject = server.attempts[attempt].subject
    server.attempts[attempt].delivered = now
    if let focus = run.layers.phone.core.focusInForce(in: run) {
      heldByFocus.append(attempt)
      run.record(.sms, subject, at: now, [
        TimelineField("status", "held"),
        TimelineField("reason", "delivered while Focus '\(focus.name)' silences Messages: listed on the lock screen when it ends, seen at the patient's next look"),
      ])
      return
    }
    run.record(.sms, subject, at: now, [TimelineField("status", "delivered")])
    server.attemptPerceived(attempt, kind: .alert, how: "sms, banner+lock-screen+sound", in: &run, at: now)
  }

  /// The carrier's storage for a text it holds ran out: unless the phone took it meanwhile, it fails now.
  func deadlineDue(_ deadline: ChannelDeadline, attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    guard deadline == .carrierGivesUp, let position = atCarrier.firstIndex(of: attempt) else { return }
    atCarrier.remove(at: position)
    // Operators keep texts 24 to 72 hours (the registry's `sms.carrierStorage`).
    run.layers.assumptionLog.consult(.smsCarrierStorage)
    let why = "the carrier gave up after \(model.carrierStorage) (sms carrierStorage): the phone could not receive it"
    server.attempts[attempt].failure = why
    run.record(.sms, server.attempts[attempt].subject, at: now, [TimelineField("status", "failed"), TimelineField("reason", why)])
  }

  /// The phone can receive again: texts the carrier kept are delivered, unless their storage ran out.
  func phoneReachable(server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    let waiting = atCarrier
    atCarrier = []
    for attempt in waiting {
      let sent = server.attempts[attempt].sent ?? now
      let storage = model.carrierStorage
      if sent.advanced(by: storage) < now {
        run.layers.assumptionLog.consult(.smsCarrierStorage)
        let why = "the carrier gave up after \(storage) (sms carrierStorage): the phone could not receive it"
        server.attempts[attempt].failure = why
        run.record(.sms, server.attempts[attempt].subject, at: now, [TimelineField("status", "failed"), TimelineField("reason", why)])
      } else {
        deliver(attempt, server: server, in: &run, at: now)
      }
    }
  }

  /// A Focus ended or the phone came on: texts a Focus held are listed, for the next look.
  func focusReleased(server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    guard run.layers.phone.core.focusInForce(in: run) == nil, !heldByFocus.isEmpty else { return }
    listedTexts += heldByFocus
    heldByFocus = []
  }

  /// The patient looks at the phone: texts listed after a Focus are seen now.
  func patientLooked(server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    guard run.layers.phone.core.attention.phoneOn, !listedTexts.isEmpty else { return }
    let texts = listedTexts
    listedTexts = []
    for attempt in texts { server.attemptPerceived(attempt, kind: .afterFocus, how: "sms, lock-screen, seen at a look", in: &run, at: now) }
  }

  func perceivedEntryKind(of attempt: ChannelAttempt) -> TimelineEntry.Kind? { .sms }
}

extension ChannelDeadline {
  /// The carrier's storage for a text it holds runs out.
  static let carrierGivesUp = ChannelDeadline(name: "carrierGivesUp")
}
