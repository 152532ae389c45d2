import Foundation

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

/// What the reminder server knows and has sent.
struct ServerState {
  /// The token generation the server holds for each signed-in device.
  var registered: [String: Int] = [:]
  /// Each device's current token generation, as the push service issued it.
  var tokenGeneration: [String: Int] = [:]
  /// Devices the app was deleted from, and when (their token is invalid; the server was not told).
  var appDeleted: [String: SimulationInstant] = [:]
  var preferences = ChannelPreferences()
  var smsVerified = true
  /// Doses the server knows were taken or skipped, and when it learned it.
  var answered: [DoseKey: SimulationInstant] = [:]
  /// Answers made while the phone could not reach the server: sent when it can.
  var unsyncedAnswers: [(dose: DoseKey, at: SimulationInstant)] = []
  /// Sign-ins on the simulated phone while it could not reach the server, and
  /// when: the app sends the token when the phone is next online.
  var signInsWaiting: [(device: String, at: SimulationInstant)] = []
  /// Whether the dose's last push step reached a device.
  var lastPushReached: [DoseKey: Bool] = [:]
  /// The attempt of each push the server sent to the phone (by index into `remotePushes`).
  var attemptOfPush: [Int: Int] = [:]
  var attempts: [ChannelAttempt] = []
  /// Texts the carrier holds while the phone cannot receive (attempt indices).
  var atCarrier: [Int] = []
  /// Texts a Focus holds, and texts listed after it, waiting for a look.
  var heldByFocus: [Int] = []
  var listedTexts: [Int] = []
}

extension SimulationRun {
  static let serverRank = 1_000_000

  // MARK: - Start and changes

  /// The registry and settings at the start; the scenario's changes queued.
  mutating func scheduleServerChanges() {
    let settings = scenario.server
    server.preferences = settings.preferences
    server.smsVerified = settings.sms.numberVerified
    for device in settings.devices {
      server.tokenGeneration[device.id] = 1
      if device.signedIn { server.registered[device.id] = 1 }
    }
    for (index, change) in settings.changes.enumerated() where change.instant <= end {
      queue.schedule(.server(.change(index)), at: change.instant, phase: .appChange, rank: Self.serverRank + index)
    }
  }

  mutating func serverChange(_ index: Int, at now: SimulationInstant) {
    let change = scenario.server.changes[index]
    switch change.what {
    case .channel(let channel, let on):
      if on { server.preferences.off.remove(channel) } else { server.preferences.off.insert(channel) }
      record(.server, "settings", at: now, [TimelineField(channel.rawValue, on ? "on" : "off"), TimelineField("reason", "the patient switched \(channel.rawValue) \(on ? "on" : "off") in the app's settings")])
    case .quietHours(let channel, let hours):
      server.preferences.quietHours[channel] = hours
      record(.server, "settings", at: now, [TimelineField("\(channel.rawValue)-quiet-hours", hours.map { "\($0.from)-\($0.to)" } ?? "off")])
    case .signIn(let device):
      if device == ServerDevice.phone, let unreachable = phone.attention.unreachableReason {
        // Signing in and sending the token both need the network: the registration waits for it.
        server.signInsWaiting.append((device, now))
        record(.server, device, at: now, [
          TimelineField("token", "waiting"),
          TimelineField("reason", "the patient signed in, but \(unreachable): the app cannot reach the server, and sends the device's push token when the phone is next online"),
        ])
        return
      }
      registerSignIn(device, at: now, reason: "the patient signed in: the app sent the device's push token to the server")
    case .signOut(let device):
      server.signInsWaiting.removeAll { $0.device == device }
      server.registered[device] = nil
      record(.server, device, at: now, [TimelineField("token", "unregistered"), TimelineField("reason", "the patient signed out: the app removed the device's push token from the server first")])
    case .tokenRefresh(let device):
      server.tokenGeneration[device, default: 1] += 1
      let token = server.tokenGeneration[device, default: 1]
      if server.registered[device] != nil {
        server.registered[device] = token
        record(.server, device, at: now, [TimelineField("token", "replaced"), TimelineField("generation", String(token)), TimelineField("reason", "the push service issued a new token; the app sent it to the server, which replaced the old one")])
      } else {
        record(.server, device, at: now, [TimelineField("token", "refreshed"), TimelineField("generation", String(token)), TimelineField("reason", "the push service issued a new token; the device is signed out, so the server does not hear of it")])
      }
    case .appDeleted(let device):
      server.appDeleted[device] = now
      let after = scenario.server.push.unregisteredAfter
      record(.server, device, at: now, [
        TimelineField("app", "deleted"),
        TimelineField("reason", "the app was deleted from the device: nothing tells the server; the push service answers \"unregistered\" for its token from \(format(now.advanced(by: after))) (server push unregisteredAfter: \(after))"),
      ])
    case .smsNumber(let verified):
      server.smsVerified = verified
      record(.server, "settings", at: now, [TimelineField("sms-number", verified ? "verified" : "removed")])
    }
  }

  /// The server registers the device's push token (a sign-in reached it).
  /// Signing in on a device the app was deleted from means it was installed
  /// again, with a new token.
  mutating func registerSignIn(_ device: String, at now: SimulationInstant, reason: String) {
    if server.appDeleted.removeValue(forKey: device) != nil {
      server.tokenGeneration[device, default: 1] += 1
    }
    let token = server.tokenGeneration[device, default: 1]
    server.registered[device] = token
    record(.server, device, at: now, [TimelineField("token", "registered"), TimelineField("generation", String(token)), TimelineField("reason", reason)])
  }

  // MARK: - The policy, step by step

  /// The doses of a dose clock just started get the policy's first step.
  mutating func scheduleFirstSteps(of position: Int, at now: SimulationInstant) {
    guard let first = scenario.server.policy.first else { return }
    let clock = ledger.doseClocks[position]
    for (index, dose) in clock.doses.enumerated() {
      let at = dose.due.advanced(by: first.after)
      guard at <= end else { break }
      guard at >= now else { continue }
      queue.schedule(.server(.step(clock: position, dose: index, step: 0)), at: at, phase: .remotePush, rank: Self.serverRank)
    }
  }

  /// `met.2026-05-05T08:00`: the dose as the server's entries name it.
  func serverLabel(_ key: DoseKey) -> String {
    let time = if case .time(let time) = key.slot { time.description } else { "location" }
    return "\(key.medicine.rawValue).\(key.occurrenceLabel)T\(time)"
  }

  /// `met 08:00 2026-05-05`: the dose, for reasons and notes.
  func serverDoseText(_ key: DoseKey) -> String { "\(key.medicine.rawValue) \(key.slotLabel) \(key.occurrenceLabel)" }

  /// Step `step` for a dose is due: its condition, the patient's channel
  /// settings and quiet hours decide whether it sends now, waits or is skipped;
  /// then the next step is queued. `resumed`: a step that waited for quiet
  /// hours to end (the next step is already queued).
  mutating func serverStepDue(clock position: Int, dose index: Int, step: Int, resumed: Bool = false, at now: SimulationInstant) {
    let clock = ledger.doseClocks[position]
    guard clock.active else { return }
    let dose = clock.doses[index]
    let key = clock.key(dose)
    let policy = scenario.server.policy
    let rule = policy[step]
    if !resumed, step + 1 < policy.count {
      let at = max(now, dose.due.advanced(by: policy[step + 1].after))
      if at <= end { queue.schedule(.server(.step(clock: position, dose: index, step: step + 1)), at: at, phase: .remotePush, rank: Self.serverRank) }
    }
    let label = serverLabel(key)
    let stepFields = [TimelineField("step", String(step + 1)), TimelineField("channel", rule.channel.rawValue)]
    func skip(_ reason: String) {
      record(.server, label, at: now, stepFields + [TimelineField("status", "skipped"), TimelineField("reason", reason)])
    }
    if rule.condition != .always, let known = server.answered[key] {
      let answer = ledger.doses[key]?.completed != nil ? "taken" : "skipped"
      skip("the server knows the dose was \(answer) (it heard at \(format(known)))")
      return
    }
    if rule.condition == .pushFailed {
      switch server.lastPushReached[key] {
      case nil: skip("only if the dose's push failed: no push was sent for it"); return
      case true?: skip("only if the dose's push failed: a device took it"); return
      case false?: break
      }
    }
    if server.preferences.off.contains(rule.channel) {
      skip("the patient switched \(rule.channel.rawValue) off in the app's settings")
      return
    }
    if let hours = server.preferences.quietHours[rule.channel], hours.contains(now, in: deviceTimeZone) {
      // They end at the first instant the wall clock reads a time outside them, whatever a zone transition does (`QuietHours`).
      let until = hours.firstInstantOutside(atOrAfter: now, in: deviceTimeZone)
      record(.server, label, at: now, stepFields + [
        TimelineField("status", "waiting"), TimelineField("until", until <= end ? format(until) : "after the run"),
        TimelineField("reason", "the patient's quiet hours for \(rule.channel.rawValue), \(hours.from) to \(hours.to): the server sends when they end"),
      ])
      if until <= end { queue.schedule(.server(.resumeStep(clock: position, dose: index, step: step)), at: until, phase: .remotePush, rank: Self.serverRank) }
      return
    }
    switch rule.channel {
    case .push: sendServerPush(key, step: step, label: label, at: now)
    case .sms: sendText(key, step: step, label: label, at: now)
    case .email: sendEmail(key, step: step, label: label, at: now)
    case .inbox: postInboxItem(key, step: step, label: label, at: now)
    }
  }

  /// A new attempt, with what the patient had done with the dose by now.
  mutating func newAttempt(_ subject: String, _ key: DoseKey, step: Int, channel: DeliveryChannel, device: String? = nil, at now: SimulationInstant) -> Int {
    var attempt = ChannelAttempt(subject: subject, dose: key, step: step + 1, channel: channel, at: now)
    attempt.device = device
    server.attempts.append(attempt)
    return server.attempts.count - 1
  }

  mutating func markSent(_ attempt: Int, at now: SimulationInstant) {
    server.attempts[attempt].sent = now
    let key = server.attempts[attempt].dose
    if let answered = ledger.doses[key].flatMap({ $0.resolved }), answered <= now { server.attempts[attempt].answeredBeforeSend = answered }
  }

  func doseFields(_ key: DoseKey, step: Int) -> [TimelineField] {
    [TimelineField("dose", serverDoseText(key)), TimelineField("step", String(step + 1))]
  }

  // MARK: - Push

  /// A push to every device with a registered token: the simulated phone's
  /// goes through the platform's push path; another device's push service
  /// takes it, or answers that the token is no longer valid (app deleted),
  /// and the server drops that token.
  mutating func sendServerPush(_ key: DoseKey, step: Int, label: String, at now: SimulationInstant) {
    let devices = scenario.server.devices.filter { server.registered[$0.id] != nil }
    guard !devices.isEmpty else {
      let attempt = newAttempt("\(label).s\(step + 1)", key, step: step, channel: .push, at: now)
      let why =
        server.signInsWaiting.first.map {
          "no device of the patient's has a push token registered with the server: the sign-in on \($0.device) at \(format($0.at)) waits for the network to send its token"
        } ?? "no device of the patient's has a push token registered with the server (signed out, or the token was dropped)"
      server.attempts[attempt].failure = why
      server.lastPushReached[key] = false
      record(.server, label, at: now, [TimelineField("step", String(step + 1)), TimelineField("channel", "push"), TimelineField("status", "failed"), TimelineField("reason", why)])
      return
    }
    var reached = false
    let medicine = ledger.medicines[key.medicine]
    for device in devices {
      let subject = "\(label).s\(step + 1).\(device.id)"
      let attempt = newAttempt(subject, key, step: step, channel: .push, device: device.id, at: now)
      // No one says how soon the push service answers "unregistered" (the registry's `push.unregisteredAfter`).
      if server.appDeleted[device.id] != nil { consult(.pushUnregisteredAfter) }
      if let deleted = server.appDeleted[device.id], now < deleted.advanced(by: scenario.server.push.unregisteredAfter) {
        markSent(attempt, at: now)
        reached = true
        let why = "the app was deleted from \(device.id) at \(format(deleted)): the push service accepted the push, which goes nowhere (it answers \"unregistered\" only after server push unregisteredAfter: \(scenario.server.push.unregisteredAfter))"
        server.attempts[attempt].failure = why
        record(.server, subject, at: now, doseFields(key, step: step) + [
          TimelineField("device", device.id), TimelineField("channel", "push"), TimelineField("status", "accepted"), TimelineField("reason", why),
        ])
        continue
      }
      if server.appDeleted[device.id] != nil {
        markSent(attempt, at: now)
        let answer = (device.platform ?? scenario.platform.name) == .android
          ? "FCM answered 404 UNREGISTERED: the app instance is no longer registered (Firebase, \"FCM error codes\")"
          : "APNs answered 410 Unregistered: the device token is no longer active for the topic (Apple, \"Handling notification responses from APNs\")"
        server.attempts[attempt].failure = "\(answer); the server dropped the token"
        server.registered[device.id] = nil
        record(.server, subject, at: now, doseFields(key, step: step) + [
          TimelineField("device", device.id), TimelineField("channel", "push"), TimelineField("status", "rejected"), TimelineField("token", "dropped"),
          TimelineField("reason", "\(answer); the server stops sending to that token, as the push service asks"),
        ])
        continue
      }
      reached = true
      markSent(attempt, at: now)
      let push = RemotePush(
        id: PushID(subject), instant: now, type: "dose-reminder", title: "Time for \(medicine?.name ?? key.medicine.rawValue)",
        body: medicine.map { "\($0.body), due at \(key.slotLabel)" }, sound: true, priority: 10)
      if device.isSimulatedPhone {
        phone.remotePushes.append(push)
        let index = phone.remotePushes.count - 1
        server.attemptOfPush[index] = attempt
        record(.sent, subject, at: now, phone.pushFields(push, in: self) + doseFields(key, step: step))
        let transport = phone.pushTransport
        transport.sent(index, in: &self, at: now)
      } else {
        server.attempts[attempt].delivered = now
        record(.sent, subject, at: now, phone.pushFields(push, in: self) + doseFields(key, step: step) + [TimelineField("device", device.id)])
        if let after = device.seenAfter, now.advanced(by: after) <= end {
          queue.schedule(.server(.seen(attempt)), at: now.advanced(by: after), phase: .look, rank: Self.serverRank)
        }
      }
    }
    server.lastPushReached[key] = reached
  }

  /// A push the server sent reached the phone (the attempt is delivered).
  mutating func serverPushReceived(_ index: Int, at now: SimulationInstant) {
    guard let attempt = server.attemptOfPush[index], server.attempts[attempt].delivered == nil else { return }
    server.attempts[attempt].delivered = now
  }

  /// A push the server sent reached the patient's eyes on the phone.
  mutating func serverPushPerceived(_ index: Int, kind: PerceptionRecord.Kind, how: String, at now: SimulationInstant) {
    guard let attempt = server.attemptOfPush[index] else { return }
    if server.attempts[attempt].delivered == nil { server.attempts[attempt].delivered = now }
    attemptPerceived(attempt, kind: kind, how: "push, \(how)", at: now)
  }

  // MARK: - SMS

  mutating func sendText(_ key: DoseKey, step: Int, label: String, at now: SimulationInstant) {
    let subject = "\(label).s\(step + 1)"
    let attempt = newAttempt(subject, key, step: step, channel: .sms, at: now)
    guard server.smsVerified else {
      let why = "the patient has no verified phone number: the server sends texts only to a verified number"
      server.attempts[attempt].failure = why
      record(.sms, subject, at: now, doseFields(key, step: step) + [TimelineField("status", "failed"), TimelineField("reason", why)])
      return
    }
    let model = scenario.server.sms
    // No one publishes how long a text takes (the registry's `sms.latency`); a trial draws it.
    if trialSeed == nil { consult(.smsLatency) }
    dispatch(
      attempt, as: .sms, fields: doseFields(key, step: step), failureRate: model.failureRate, latency: model.latency, spread: model.latencySpread,
      failure: "the carrier reported it undelivered (drawn in this trial: sms failureRate \(model.failureRate))", at: now)
  }

  /// A text or email leaves the server now: in a trial it fails with
  /// `failureRate`; otherwise it arrives after the (drawn) latency.
  mutating func dispatch(
    _ attempt: Int, as kind: TimelineEntry.Kind, fields: [TimelineField], failureRate: Double, latency: SimulationDuration, spread: SimulationDuration,
    failure: String, at now: SimulationInstant
  ) {
    markSent(attempt, at: now)
    let subject = server.attempts[attempt].subject
    var random = serverRandom(attempt)
    if let unit = random?.nextUnit(), unit < failureRate {
      server.attempts[attempt].failure = failure
      record(kind, subject, at: now, fields + [TimelineField("status", "failed"), TimelineField("reason", failure)])
      return
    }
    let drawn = drawnLatency(latency, spread: spread, random: &random)
    record(kind, subject, at: now, fields + [TimelineField("status", "sent"), TimelineField("latency", drawn.description)])
    scheduleArrival(attempt, at: now.advanced(by: drawn))
  }

  /// The trial's stream for attempt `n`; nil in a single run.
  func serverRandom(_ attempt: Int) -> TrialRandom? {
    trialSeed.map { TrialRandom(seed: TrialRandom.trialSeed($0 ^ 0x5E7E_C4A7_11E5_0001, trial: attempt)) }
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

  mutating func scheduleArrival(_ attempt: Int, at instant: SimulationInstant) {
    guard instant <= end else { return }
    queue.schedule(.server(.arrives(attempt)), at: instant, phase: .remotePush, rank: Self.serverRank + 1)
  }

  /// A message reaches its recipient: a text the phone (or the carrier, while
  /// the phone cannot receive it), an email the mailbox, an inbox item the server's inbox.
  mutating func messageArrives(_ attempt: Int, at now: SimulationInstant) {
    switch server.attempts[attempt].channel {
    case .sms: textArrives(attempt, at: now)
    case .email: emailArrives(attempt, at: now)
    case .push, .inbox: break
    }
  }

  mutating func textArrives(_ attempt: Int, at now: SimulationInstant) {
    let subject = server.attempts[attempt].subject
    if let unreachable = phone.attention.unreachableReason {
      server.atCarrier.append(attempt)
      let givesUp = (server.attempts[attempt].sent ?? now).advanced(by: scenario.server.sms.carrierStorage)
      if givesUp <= end { queue.schedule(.server(.carrierGivesUp(attempt)), at: givesUp, phase: .remotePush, rank: Self.serverRank + 2) }
      record(.sms, subject, at: now, [
        TimelineField("status", "held"),
        TimelineField("reason", "\(unreachable): the carrier stores the text and retries until the phone can receive it, for up to \(scenario.server.sms.carrierStorage) (sms carrierStorage)"),
      ])
      return
    }
    deliverText(attempt, at: now)
  }

  mutating func deliverText(_ attempt: Int, at now: SimulationInstant) {
    let subject = server.attempts[attempt].subject
    server.attempts[attempt].delivered = now
    if let focus = phone.focusInForce(in: self) {
      server.heldByFocus.append(attempt)
      record(.sms, subject, at: now, [
        TimelineField("status", "held"),
        TimelineField("reason", "delivered while Focus '\(focus.name)' silences Messages: listed on the lock screen when it ends, seen at the patient's next look"),
      ])
      return
    }
    record(.sms, subject, at: now, [TimelineField("status", "delivered")])
    attemptPerceived(attempt, kind: .alert, how: "sms, banner+lock-screen+sound", at: now)
  }

  /// The carrier's storage for a text it holds ran out: unless the phone took it meanwhile, it fails now.
  mutating func carrierGivesUp(_ attempt: Int, at now: SimulationInstant) {
    guard let position = server.atCarrier.firstIndex(of: attempt) else { return }
    server.atCarrier.remove(at: position)
    // Operators keep texts 24 to 72 hours (the registry's `sms.carrierStorage`).
    consult(.smsCarrierStorage)
    let why = "the carrier gave up after \(scenario.server.sms.carrierStorage) (sms carrierStorage): the phone could not receive it"
    server.attempts[attempt].failure = why
    record(.sms, server.attempts[attempt].subject, at: now, [TimelineField("status", "failed"), TimelineField("reason", why)])
  }

  /// The phone can receive again: texts the carrier kept are delivered,
  /// unless their storage ran out; sign-ins made offline register their
  /// token; answers made offline reach the server.
  mutating func serverPhoneReachable(at now: SimulationInstant) {
    let waiting = server.atCarrier
    server.atCarrier = []
    for attempt in waiting {
      let sent = server.attempts[attempt].sent ?? now
      let storage = scenario.server.sms.carrierStorage
      if sent.advanced(by: storage) < now {
        consult(.smsCarrierStorage)
        let why = "the carrier gave up after \(storage) (sms carrierStorage): the phone could not receive it"
        server.attempts[attempt].failure = why
        record(.sms, server.attempts[attempt].subject, at: now, [TimelineField("status", "failed"), TimelineField("reason", why)])
      } else {
        deliverText(attempt, at: now)
      }
    }
    let signIns = server.signInsWaiting
    server.signInsWaiting = []
    for signIn in signIns {
      registerSignIn(
        signIn.device, at: now,
        reason: "the phone is online again: the app sent the push token of the patient's sign-in at \(format(signIn.at)), which waited for the network")
    }
    let answers = server.unsyncedAnswers
    server.unsyncedAnswers = []
    for answer in answers where server.answered[answer.dose] == nil {
      server.answered[answer.dose] = now
      record(.server, serverLabel(answer.dose), at: now, [
        TimelineField("answer", "synced"), TimelineField("reason", "the app sent the patient's answer of \(format(answer.at)) when the phone could reach the server again"),
      ])
    }
  }

  /// A Focus ended or the phone came on: texts a Focus held are listed, for the next look.
  mutating func releaseTextsHeldByFocus(at now: SimulationInstant) {
    guard phone.focusInForce(in: self) == nil, !server.heldByFocus.isEmpty else { return }
    server.listedTexts += server.heldByFocus
    server.heldByFocus = []
  }

  /// The patient looks at the phone: texts listed after a Focus are seen now.
  mutating func seeListedTexts(at now: SimulationInstant) {
    guard phone.attention.phoneOn, !server.listedTexts.isEmpty else { return }
    let texts = server.listedTexts
    server.listedTexts = []
    for attempt in texts { attemptPerceived(attempt, kind: .afterFocus, how: "sms, lock-screen, seen at a look", at: now) }
  }

  // MARK: - Email

  mutating func sendEmail(_ key: DoseKey, step: Int, label: String, at now: SimulationInstant) {
    let subject = "\(label).s\(step + 1)"
    let attempt = newAttempt(subject, key, step: step, channel: .email, at: now)
    let model = scenario.server.email
    dispatch(
      attempt, as: .email, fields: doseFields(key, step: step), failureRate: model.failureRate, latency: model.latency, spread: model.latencySpread,
      failure: "bounced or filtered as spam (drawn in this trial: email failureRate \(model.failureRate))", at: now)
  }

  /// An email reaches the mailbox; the patient reads it at their next mail
  /// reading (a single run), or after a drawn delay (a trial).
  mutating func emailArrives(_ attempt: Int, at now: SimulationInstant) {
    server.attempts[attempt].delivered = now
    let model = scenario.server.email
    let read: SimulationInstant?
    if let seed = trialSeed {
      var random = TrialRandom(seed: TrialRandom.trialSeed(seed ^ 0x5E7E_C4A7_11E5_0002, trial: attempt))
      let delay = Int64(-log(1 - random.nextUnit()) * Double(model.meanReadDelay.milliseconds))
      read = now.advanced(by: SimulationDuration(milliseconds: delay))
    } else {
      read = model.reads.compactMap { nextLocal($0, atOrAfter: now) }.min()
    }
    var fields = [TimelineField("status", "delivered")]
    if let read { fields.append(TimelineField("read", read <= end ? format(read) : "after the run")) } else {
      fields.append(TimelineField("reason", "the patient reads no mail (email reads: none)"))
    }
    record(.email, server.attempts[attempt].subject, at: now, fields)
    if let read, read <= end { queue.schedule(.server(.seen(attempt)), at: read, phase: .look, rank: Self.serverRank) }
  }

  /// How the patient came to read an email at `now`: at a scripted mail
  /// reading, or (a trial) after the delay drawn from its arrival.
  func emailReadHow(_ attempt: Int, at now: SimulationInstant) -> String {
    guard trialSeed != nil, let delivered = server.attempts[attempt].delivered else { return "read at the patient's mail reading" }
    return "read after \(delivered.duration(to: now)) (drawn in this trial: email meanReadDelay \(scenario.server.email.meanReadDelay))"
  }

  // MARK: - In-app inbox

  /// The item is in the server's inbox now; the app shows it at its first
  /// fetch while open: at the opening (`fetchOnOpen`) or its next poll.
  mutating func postInboxItem(_ key: DoseKey, step: Int, label: String, at now: SimulationInstant) {
    let subject = "\(label).s\(step + 1)"
    let attempt = newAttempt(subject, key, step: step, channel: .inbox, at: now)
    markSent(attempt, at: now)
    server.attempts[attempt].delivered = now
    let fetch = nextInboxFetch(after: now)
    record(.inbox, subject, at: now, doseFields(key, step: step) + [
      TimelineField("status", "posted"),
      TimelineField("fetch", fetch.map { $0 <= end ? format($0) : "after the run" } ?? "never: the app is not opened again"),
    ])
    if let fetch, fetch <= end { queue.schedule(.server(.seen(attempt)), at: fetch, phase: .look, rank: Self.serverRank) }
  }

  /// The first instant at or after `instant` at which the app, in the
  /// foreground, fetches its inbox: at each opening (`fetchOnOpen`) and every `pollInterval` from it.
  func nextInboxFetch(after instant: SimulationInstant) -> SimulationInstant? {
    let model = scenario.server.inbox
    let interval = max(model.pollInterval.milliseconds, 1)
    for span in foregroundSpans() {
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

  // MARK: - Perception

  /// The patient perceives a server message now (an email read, an inbox
  /// fetch, a push seen on another device).
  mutating func messageSeen(_ attempt: Int, at now: SimulationInstant) {
    let item = server.attempts[attempt]
    switch item.channel {
    case .email: attemptPerceived(attempt, kind: .alert, how: "email, \(emailReadHow(attempt, at: now))", at: now)
    case .inbox: attemptPerceived(attempt, kind: .alert, how: "inbox, fetched while the app was open", at: now)
    case .push: attemptPerceived(attempt, kind: .alert, how: "push on \(item.device ?? "another device") (server devices seenAfter)", at: now)
    case .sms: break
    }
  }

  /// An attempt is perceived: its `perceived` entry, and the dose is notified by its channel if nothing notified it earlier.
  mutating func attemptPerceived(_ attempt: Int, kind: PerceptionRecord.Kind, how: String, at now: SimulationInstant) {
    guard server.attempts[attempt].perceived == nil else { return }
    server.attempts[attempt].perceived = now
    let item = server.attempts[attempt]
    if item.channel != .push || item.device.map({ $0 != ServerDevice.phone }) == true {
      let kindOfEntry: TimelineEntry.Kind = switch item.channel {
      case .sms: .sms
      case .email: .email
      case .inbox: .inbox
      case .push: .server
      }
      record(kindOfEntry, item.subject, at: now, [TimelineField("status", "perceived"), TimelineField("how", how)])
    }
    guard now >= scenario.clock.start else { return }
    ensureServerDose(item.dose)
    ledger.perceived(
      item.dose, by: DosePerception(notification: NotificationID(item.subject), role: "server step \(item.step)", kind: kind, how: how, channel: item.channel),
      at: now)
  }

  /// The dose's row exists once the server has a message of it perceived.
  mutating func ensureServerDose(_ key: DoseKey) {
    guard ledger.doses[key] == nil, case .time(let time) = key.slot, let medicine = ledger.medicines[key.medicine] else { return }
    let due = ledger.doseClocks.lazy.filter { $0.medicine == key.medicine && $0.time == time }
      .compactMap { clock in clock.doses.first { clock.key($0) == key }?.due }.first
    ledger.doses[key] = newDose(key, medicine: medicine, reminder: time.description, scheduled: due ?? scenario.clock.start)
  }

  // MARK: - The dose table

  /// A dose row with the server's account: when the app leaves its daily
  /// reminders to the server (`dailyReminders: server`), the app's own
  /// reason (no request added) says nothing, so a notified dose has none and
  /// a missed one gets the server's attempts; otherwise a missed dose's
  /// reason gains the server's attempts after the app's.
  func withServerAccount(_ dose: DoseRecord) -> DoseRecord {
    guard scenario.server.isActive, case .time = dose.key.slot else { return dose }
    var dose = dose
    let serverDriven = scenario.medicineApp.policy.dailyReminders == .server
    let attempts = server.attempts.filter { $0.dose == dose.key }
    if dose.notified != nil {
      if serverDriven && dose.perception?.channel != nil { dose.reason = nil }
      return dose
    }
    guard dose.outcome == .missed else { return dose }
    let account = attempts.isEmpty ? "the server sent nothing for it" : "the server's attempts: " + attempts.map(attemptSummary).joined(separator: "; ")
    dose.reason = serverDriven || dose.reason == nil ? account : "\(dose.reason!); \(account)"
    return dose
  }

  /// `sms at 08:30, delivered 08:30:30, not perceived`, `push to phone at 08:00: …`.
  func attemptSummary(_ attempt: ChannelAttempt) -> String {
    var text = attempt.channel.rawValue + (attempt.device.map { " to \($0)" } ?? "")
    guard let sent = attempt.sent else { return text + " not sent: " + (attempt.failure ?? "no reason") }
    text += " at \(format(sent))"
    if let failure = attempt.failure { return text + ": " + failure }
    guard let delivered = attempt.delivered else { return text + ", not delivered by the end of the run" }
    if delivered != sent { text += ", delivered \(format(delivered))" }
    switch attempt.channel {
    case .inbox: return text + ", never fetched: the app was not opened while it waited"
    case .email: return text + ", not read by the end of the run"
    case .sms, .push: return text + ", not perceived by the end of the run"
    }
  }

  // MARK: - Answers

  /// The patient took or skipped a dose on the phone: the app tells the
  /// server at once when the phone can reach it, else when it can again.
  mutating func serverLearnsAnswer(_ dose: DoseKey, at now: SimulationInstant) {
    guard server.answered[dose] == nil else { return }
    if phone.attention.unreachableReason == nil {
      server.answered[dose] = now
    } else if !server.unsyncedAnswers.contains(where: { $0.dose == dose }) {
      server.unsyncedAnswers.append((dose, now))
    }
  }
}
