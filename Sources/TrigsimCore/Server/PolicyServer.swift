import Foundation

/// The scenario's server: follows `ServerSettings.policy` for every
/// daily-time dose. It owns what the server knows (the devices' push
/// tokens, the patient's channel settings, the answers it heard) and every
/// attempt it made; each channel (`ServerChannel`) owns what only it keeps.
final class PolicyServer: ServerLayer {
  /// Ranks of the server's events among those of their phase: steps first,
  /// then arrivals (`rank + 1`), then channel deadlines (`rank + 2`); changes
  /// at `rank + n` for the scenario's change `n`.
  static let rank = 1_000_000

  let settings: ServerSettings
  /// The channels, in `DeliveryChannel` order: the order they hear of the phone and the patient.
  private(set) var channels: [any ServerChannel]

  /// The token generation the server holds for each signed-in device.
  var registered: [String: Int] = [:]
  /// Each device's current token generation, as the push service issued it.
  var tokenGeneration: [String: Int] = [:]
  /// Devices the app was deleted from, and when (their token is invalid; the server was not told).
  var appDeleted: [String: SimulationInstant] = [:]
  /// Sign-ins on the simulated phone while it could not reach the server, and
  /// when: the app sends the token when the phone is next online.
  var signInsWaiting: [(device: String, at: SimulationInstant)] = []
  var preferences: ChannelPreferences
  /// Whether the patient's phone number, which texts go to, is verified.
  var smsVerified: Bool
  /// Doses the server knows were taken or skipped, and when it learned it.
  var answered: [DoseKey: SimulationInstant] = [:]
  /// Answers made while the phone could not reach the server: sent when it can.
  var unsyncedAnswers: [(dose: DoseKey, at: SimulationInstant)] = []
  /// Whether the dose's last push step reached a device (the `push-failed` condition).
  var lastPushReached: [DoseKey: Bool] = [:]
  /// Every attempt on every channel, in the order made (`RunSummary.channelAttempts`).
  var attempts: [ChannelAttempt] = []

  /// The server of `settings`, with the four channels of `DeliveryChannel`.
  init(_ settings: ServerSettings) {
    self.settings = settings
    self.preferences = settings.preferences
    self.smsVerified = settings.sms.numberVerified
    self.channels = [PushChannel(settings.push), SMSChannel(settings.sms), EmailChannel(settings.email), InboxChannel(settings.inbox)]
  }

  /// Makes `channel` serve the policy's steps on its `name`, in place of the channel that did.
  func register(_ channel: any ServerChannel) {
    if let position = channels.firstIndex(where: { $0.name == channel.name }) {
      channels[position] = channel
    } else {
      channels.append(channel)
    }
  }

  /// The channel that serves steps on `name`.
  func channel(_ name: DeliveryChannel) -> any ServerChannel {
    guard let channel = channels.first(where: { $0.name == name }) else { preconditionFailure("no server channel for '\(name.rawValue)'") }
    return channel
  }

  // MARK: - ServerLayer

  var channelAttempts: [ChannelAttempt] { attempts }

  func scheduleEvents(in run: inout SimulationRun) { scheduleChanges(in: &run) }
  func doseClockStarted(_ position: Int, in run: inout SimulationRun, at now: SimulationInstant) { scheduleFirstSteps(of: position, in: &run, at: now) }
  func doseAnswered(_ dose: DoseKey, in run: inout SimulationRun, at now: SimulationInstant) { learnAnswer(dose, in: &run, at: now) }

  /// The phone can receive again: each channel hears it (texts the carrier
  /// kept are delivered, unless their storage ran out); sign-ins made
  /// offline register their token; answers made offline reach the server.
  func phoneReachable(in run: inout SimulationRun, at now: SimulationInstant) {
    for channel in channels { channel.phoneReachable(server: self, in: &run, at: now) }
    let signIns = signInsWaiting
    signInsWaiting = []
    for signIn in signIns {
      registerSignIn(
        signIn.device, in: &run, at: now,
        reason: "the phone is online again: the app sent the push token of the patient's sign-in at \(run.format(signIn.at)), which waited for the network")
    }
    let answers = unsyncedAnswers
    unsyncedAnswers = []
    for answer in answers where answered[answer.dose] == nil {
      answered[answer.dose] = now
      run.record(.server, label(answer.dose), at: now, [
        TimelineField("answer", "synced"), TimelineField("reason", "the app sent the patient's answer of \(run.format(answer.at)) when the phone could reach the server again"),
      ])
    }
  }

  func focusReleased(in run: inout SimulationRun, at now: SimulationInstant) {
    for channel in channels { channel.focusReleased(server: self, in: &run, at: now) }
  }

  func patientLooked(in run: inout SimulationRun, at now: SimulationInstant) {
    for channel in channels { channel.patientLooked(server: self, in: &run, at: now) }
  }

  func eventDue(_ event: ServerEvent, in run: inout SimulationRun, at now: SimulationInstant) {
    switch event {
    case .step(let clock, let dose, let step): stepDue(clock: clock, dose: dose, step: step, in: &run, at: now)
    case .resumeStep(let clock, let dose, let step): stepDue(clock: clock, dose: dose, step: step, resumed: true, in: &run, at: now)
    case .change(let index): change(index, in: &run, at: now)
    case .arrives(let attempt): channel(attempts[attempt].channel).arrives(attempt, server: self, in: &run, at: now)
    case .seen(let attempt): channel(attempts[attempt].channel).seen(attempt, server: self, in: &run, at: now)
    case .deadline(let deadline, let attempt):
      channel(attempts[attempt].channel).deadlineDue(deadline, attempt: attempt, server: self, in: &run, at: now)
    }
  }

  func pushReceived(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    for channel in channels { channel.remotePushReceived(index, server: self, in: &run, at: now) }
  }

  func pushPerceived(_ index: Int, kind: PerceptionRecord.Kind, how: String, in run: inout SimulationRun, at now: SimulationInstant) {
    for channel in channels { channel.remotePushPerceived(index, kind: kind, how: how, server: self, in: &run, at: now) }
  }

  // MARK: - Start and changes

  /// The registry at the start; the scenario's changes queued.
  func scheduleChanges(in run: inout SimulationRun) {
    for device in settings.devices {
      tokenGeneration[device.id] = 1
      if device.signedIn { registered[device.id] = 1 }
    }
    for (index, change) in settings.changes.enumerated() where change.instant <= run.end {
      run.queue.schedule(.server(.change(index)), at: change.instant, phase: .appChange, rank: Self.rank + index)
    }
  }

  func change(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    let change = settings.changes[index]
    switch change.what {
    case .channel(let channel, let on):
      if on { preferences.off.remove(channel) } else { preferences.off.insert(channel) }
      run.record(.server, "settings", at: now, [TimelineField(channel.rawValue, on ? "on" : "off"), TimelineField("reason", "the patient switched \(channel.rawValue) \(on ? "on" : "off") in the app's settings")])
    case .quietHours(let channel, let hours):
      preferences.quietHours[channel] = hours
      run.record(.server, "settings", at: now, [TimelineField("\(channel.rawValue)-quiet-hours", hours.map { "\($0.from)-\($0.to)" } ?? "off")])
    case .signIn(let device):
      if device == ServerDevice.phone, let unreachable = run.layers.phone.core.attention.unreachableReason {
        // Signing in and sending the token both need the network: the registration waits for it.
        signInsWaiting.append((device, now))
        run.record(.server, device, at: now, [
          TimelineField("token", "waiting"),
          TimelineField("reason", "the patient signed in, but \(unreachable): the app cannot reach the server, and sends the device's push token when the phone is next online"),
        ])
        return
      }
      registerSignIn(device, in: &run, at: now, reason: "the patient signed in: the app sent the device's push token to the server")
    case .signOut(let device):
      signInsWaiting.removeAll { $0.device == device }
      registered[device] = nil
      run.record(.server, device, at: now, [TimelineField("token", "unregistered"), TimelineField("reason", "the patient signed out: the app removed the device's push token from the server first")])
    case .tokenRefresh(let device):
      tokenGeneration[device, default: 1] += 1
      let token = tokenGeneration[device, default: 1]
      if registered[device] != nil {
        registered[device] = token
        run.record(.server, device, at: now, [TimelineField("token", "replaced"), TimelineField("generation", String(token)), TimelineField("reason", "the push service issued a new token; the app sent it to the server, which replaced the old one")])
      } else {
        run.record(.server, device, at: now, [TimelineField("token", "refreshed"), TimelineField("generation", String(token)), TimelineField("reason", "the push service issued a new token; the device is signed out, so the server does not hear of it")])
      }
    case .appDeleted(let device):
      appDeleted[device] = now
      let after = settings.push.unregisteredAfter
      run.record(.server, device, at: now, [
        TimelineField("app", "deleted"),
        TimelineField("reason", "the app was deleted from the device: nothing tells the server; the push service answers \"unregistered\" for its token from \(run.format(now.advanced(by: after))) (server push unregisteredAfter: \(after))"),
      ])
    case .smsNumber(let verified):
      smsVerified = verified
      run.record(.server, "settings", at: now, [TimelineField("sms-number", verified ? "verified" : "removed")])
    }
  }

  /// The server registers the device's push token (a sign-in reached it).
  /// Signing in on a device the app was deleted from means it was installed
  /// again, with a new token.
  func registerSignIn(_ device: String, in run: inout SimulationRun, at now: SimulationInstant, reason: String) {
    if appDeleted.removeValue(forKey: device) != nil {
      tokenGeneration[device, default: 1] += 1
    }
    let token = tokenGeneration[device, default: 1]
    registered[device] = token
    run.record(.server, device, at: now, [TimelineField("token", "registered"), TimelineField("generation", String(token)), TimelineField("reason", reason)])
  }

  // MARK: - The policy, step by step

  /// The doses of a dose clock just started get the policy's first step.
  func scheduleFirstSteps(of position: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    guard let first = settings.policy.first else { return }
    let clock = run.layers.ledger.doseClocks[position]
    for (index, dose) in clock.doses.enumerated() {
      let at = dose.due.advanced(by: first.after)
      guard at <= run.end else { break }
      guard at >= now else { continue }
      run.queue.schedule(.server(.step(clock: position, dose: index, step: 0)), at: at, phase: .remotePush, rank: Self.rank)
    }
  }

  /// `met.2026-05-05T08:00`: the dose as the server's entries name it.
  func label(_ key: DoseKey) -> String {
    let time = if case .time(let time) = key.slot { time.description } else { "location" }
    return "\(key.medicine.rawValue).\(key.occurrenceLabel)T\(time)"
  }

  /// `met 08:00 2026-05-05`: the dose, for reasons and notes.
  func doseText(_ key: DoseKey) -> String { "\(key.medicine.rawValue) \(key.slotLabel) \(key.occurrenceLabel)" }

  /// Step `step` for a dose is due: its condition, the patient's channel
  /// settings and quiet hours decide whether it sends now, waits or is skipped;
  /// then the next step is queued. `resumed`: a step that waited for quiet
  /// hours to end (the next step is already queued).
  func stepDue(clock position: Int, dose index: Int, step: Int, resumed: Bool = false, in run: inout SimulationRun, at now: SimulationInstant) {
    let clock = run.layers.ledger.doseClocks[position]
    guard clock.active else { return }
    let dose = clock.doses[index]
    let key = clock.key(dose)
    let policy = settings.policy
    let rule = policy[step]
    if !resumed, step + 1 < policy.count {
      let at = max(now, dose.due.advanced(by: policy[step + 1].after))
      if at <= run.end { run.queue.schedule(.server(.step(clock: position, dose: index, step: step + 1)), at: at, phase: .remotePush, rank: Self.rank) }
    }
    let label = self.label(key)
    let stepFields = [TimelineField("step", String(step + 1)), TimelineField("channel", rule.channel.rawValue)]
    func skip(_ reason: String) {
      run.record(.server, label, at: now, stepFields + [TimelineField("status", "skipped"), TimelineField("reason", reason)])
    }
    if rule.condition != .always, let known = answered[key] {
      let answer = run.layers.ledger.doses[key]?.completed != nil ? "taken" : "skipped"
      skip("the server knows the dose was \(answer) (it heard at \(run.format(known)))")
      return
    }
    if rule.condition == .pushFailed {
      switch lastPushReached[key] {
      case nil: skip("only if the dose's push failed: no push was sent for it"); return
      case true?: skip("only if the dose's push failed: a device took it"); return
      case false?: break
      }
    }
    if preferences.off.contains(rule.channel) {
      skip("the patient switched \(rule.channel.rawValue) off in the app's settings")
      return
    }
    if let hours = preferences.quietHours[rule.channel], hours.contains(now, in: run.deviceTimeZone) {
      // They end at the first instant the wall clock reads a time outside them, whatever a zone transition does (`QuietHours`).
      let until = hours.firstInstantOutside(atOrAfter: now, in: run.deviceTimeZone)
      run.record(.server, label, at: now, stepFields + [
        TimelineField("status", "waiting"), TimelineField("until", until <= run.end ? run.format(until) : "after the run"),
        TimelineField("reason", "the patient's quiet hours for \(rule.channel.rawValue), \(hours.from) to \(hours.to): the server sends when they end"),
      ])
      if until <= run.end { run.queue.schedule(.server(.resumeStep(clock: position, dose: index, step: step)), at: until, phase: .remotePush, rank: Self.rank) }
      return
    }
    channel(rule.channel).send(key, step: step, label: label, server: self, in: &run, at: now)
  }

  // MARK: - Attempts

  /// A new attempt, with what the patient had done with the dose by now.
  func newAttempt(_ subject: String, _ key: DoseKey, step: Int, channel: DeliveryChannel, device: String? = nil, at now: SimulationInstant) -> Int {
    var attempt = ChannelAttempt(subject: subject, dose: key, step: step + 1, channel: channel, at: now)
    attempt.device = device
    attempts.append(attempt)
    return attempts.count - 1
  }

  func markSent(_ attempt: Int, in run: SimulationRun, at now: SimulationInstant) {
    attempts[attempt].sent = now
    let key = attempts[attempt].dose
    if let answered = run.layers.ledger.doses[key].flatMap({ $0.resolved }), answered <= now { attempts[attempt].answeredBeforeSend = answered }
  }

  /// The `dose` and `step` fields of an attempt's first entry.
  func doseFields(_ key: DoseKey, step: Int) -> [TimelineField] {
    [TimelineField("dose", doseText(key)), TimelineField("step", String(step + 1))]
  }

  /// A message leaves the server now on a channel with a latency (a text,
  /// an email): in a trial it fails with `failureRate`; otherwise it arrives
  /// after the (drawn) latency.
  func dispatch(
    _ attempt: Int, as kind: TimelineEntry.Kind, fields: [TimelineField], failureRate: Double, latency: SimulationDuration, spread: SimulationDuration,
    failure: String, in run: inout SimulationRun, at now: SimulationInstant
  ) {
    markSent(attempt, in: run, at: now)
    let subject = attempts[attempt].subject
    var random = self.random(attempt, in: run)
    if let unit = random?.nextUnit(), unit < failureRate {
      attempts[attempt].failure = failure
      run.record(kind, subject, at: now, fields + [TimelineField("status", "failed"), TimelineField("reason", failure)])
      return
    }
    let drawn = drawnLatency(latency, spread: spread, random: &random)
    run.record(kind, subject, at: now, fields + [TimelineField("status", "sent"), TimelineField("latency", drawn.description)])
    scheduleArrival(attempt, in: &run, at: now.advanced(by: drawn))
  }

  /// The trial's stream for attempt `n`; nil in a single run.
  func random(_ attempt: Int, in run: SimulationRun) -> TrialRandom? {
    run.trialSeed.map { TrialRandom(seed: TrialRandom.trialSeed($0 ^ 0x5E7E_C4A7_11E5_0001, trial: attempt)) }
  }

  /// `latency` in a single run; drawn uniformly within `latency ± spread` (at least 0) in a trial.
  func drawnLatency(_ latency: SimulationDuration, spread: SimulationDuration, random: inout TrialRandom?) -> SimulationDuration {
    guard var generator = random, spread.milliseconds > 0 else { return latency }
    let low = max(0, latency.milliseconds - spread.milliseconds)
    let high = latency.milliseconds + spread.milliseconds
    let drawn = low + generator.next(below: high - low + 1)
    random = generator
    return SimulationDuration(milliseconds: drawn)
  }

  /// Queues the attempt's arrival (its channel's `arrives`), when within the run.
  func scheduleArrival(_ attempt: Int, in run: inout SimulationRun, at instant: SimulationInstant) {
    guard instant <= run.end else { return }
    run.queue.schedule(.server(.arrives(attempt)), at: instant, phase: .remotePush, rank: Self.rank + 1)
  }

  /// Queues the patient's perceiving the attempt (its channel's `seen`), when within the run.
  func scheduleSeen(_ attempt: Int, in run: inout SimulationRun, at instant: SimulationInstant) {
    guard instant <= run.end else { return }
    run.queue.schedule(.server(.seen(attempt)), at: instant, phase: .look, rank: Self.rank)
  }

  /// Queues a deadline of the attempt's channel (its `deadlineDue`), when within the run.
  func scheduleDeadline(_ deadline: ChannelDeadline, of attempt: Int, in run: inout SimulationRun, at instant: SimulationInstant) {
    guard instant <= run.end else { return }
    run.queue.schedule(.server(.deadline(deadline, attempt)), at: instant, phase: .remotePush, rank: Self.rank + 2)
  }

  // MARK: - Perception

  /// An attempt is perceived: its `perceived` entry, and the dose is notified by its channel if nothing notified it earlier.
  func attemptPerceived(_ attempt: Int, kind: PerceptionRecord.Kind, how: String, in run: inout SimulationRun, at now: SimulationInstant) {
    guard attempts[attempt].perceived == nil else { return }
    attempts[attempt].perceived = now
    let item = attempts[attempt]
    if let entryKind = channel(item.channel).perceivedEntryKind(of: item) {
      run.record(entryKind, item.subject, at: now, [TimelineField("status", "perceived"), TimelineField("how", how)])
    }
    guard now >= run.scenario.clock.start else { return }
    ensureDose(item.dose, in: &run)
    run.layers.ledger.perceived(
      item.dose, by: DosePerception(notification: NotificationID(item.subject), role: "server step \(item.step)", kind: kind, how: how, channel: item.channel),
      at: now)
  }

  /// The dose's row exists once the server has a message of it perceived.
  func ensureDose(_ key: DoseKey, in run: inout SimulationRun) {
    run.layers.ledger.serverMessagePerceived(of: key, otherwise: run.scenario.clock.start)
  }

  // MARK: - The dose table

  /// A dose row with the server's account: when the app leaves its daily
  /// reminders to the server (`dailyReminders: server`), the app's own
  /// reason (no request added) says nothing, so a notified dose has none and
  /// a missed one gets the server's attempts; otherwise a missed dose's
  /// reason gains the server's attempts after the app's.
  func accountedDose(_ dose: DoseRecord, in run: SimulationRun) -> DoseRecord {
    guard settings.isActive, case .time = dose.key.slot else { return dose }
    var dose = dose
    let serverDriven = run.scenario.medicineApp.policy.dailyReminders == .server
    let attempts = self.attempts.filter { $0.dose == dose.key }
    if dose.notified != nil {
      if serverDriven && dose.perception?.channel != nil { dose.reason = nil }
      return dose
    }
    guard dose.outcome == .missed else { return dose }
    let account =
      attempts.isEmpty ? "the server sent nothing for it" : "the server's attempts: " + attempts.map { summary(of: $0, in: run) }.joined(separator: "; ")
    dose.reason = serverDriven || dose.reason == nil ? account : "\(dose.reason!); \(account)"
    return dose
  }

  /// `sms at 08:30, delivered 08:30:30, not perceived`, `push to phone at 08:00: …`.
  func summary(of attempt: ChannelAttempt, in run: SimulationRun) -> String {
    var text = attempt.channel.rawValue + (attempt.device.map { " to \($0)" } ?? "")
    guard let sent = attempt.sent else { return text + " not sent: " + (attempt.failure ?? "no reason") }
    text += " at \(run.format(sent))"
    if let failure = attempt.failure { return text + ": " + failure }
    guard let delivered = attempt.delivered else { return text + ", not delivered by the end of the run" }
    if delivered != sent { text += ", delivered \(run.format(delivered))" }
    return text + ", " + channel(attempt.channel).unperceivedAccount
  }

  // MARK: - Answers

  /// The patient took or skipped a dose on the phone: the app tells the
  /// server at once when the phone can reach it, else when it can again.
  func learnAnswer(_ dose: DoseKey, in run: inout SimulationRun, at now: SimulationInstant) {
    guard answered[dose] == nil else { return }
    if run.layers.phone.core.attention.unreachableReason == nil {
      answered[dose] = now
    } else if !unsyncedAnswers.contains(where: { $0.dose == dose }) {
      unsyncedAnswers.append((dose, now))
    }
  }
}
