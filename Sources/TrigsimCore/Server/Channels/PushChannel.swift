/// Remote pushes through the platform's push service to every device with a
/// registered token: the simulated phone's goes through the phone's push
/// path (`PushTransport`); another device's push service takes it, or
/// answers that the token is no longer valid (app deleted), and the server
/// drops that token.
final class PushChannel: ServerChannel {
  let model: PushChannelModel
  /// The attempt of each push sent to the simulated phone, by index into `SimulationRun.remotePushes`.
  private(set) var attemptOfPush: [Int: Int] = [:]

  init(_ model: PushChannelModel) { self.model = model }

  var name: DeliveryChannel { .push }

  func send(_ key: DoseKey, step: Int, label: String, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    let devices = server.settings.devices.filter { server.registered[$0.id] != nil }
    guard !devices.isEmpty else {
      let attempt = server.newAttempt("\(label).s\(step + 1)", key, step: step, channel: .push, at: now)
      let why =
        server.signInsWaiting.first.map {
          "no device of the patient's has a push token registered with the server: the sign-in on \($0.device) at \(run.format($0.at)) waits for the network to send its token"
        } ?? "no device of the patient's has a push token registered with the server (signed out, or the token was dropped)"
      server.attempts[attempt].failure = why
      server.lastPushReached[key] = false
      run.record(.server, label, at: now, [TimelineField("step", String(step + 1)), TimelineField("channel", "push"), TimelineField("status", "failed"), TimelineField("reason", why)])
      return
    }
    var reached = false
    let medicine = run.layers.ledger.medicines[key.medicine]
    for device in devices {
      let subject = "\(label).s\(step + 1).\(device.id)"
      let attempt = server.newAttempt(subject, key, step: step, channel: .push, device: device.id, at: now)
      // No one says how soon the push service answers "unregistered" (the registry's `push.unregisteredAfter`).
      if server.appDeleted[device.id] != nil { run.layers.assumptionLog.consult(.pushUnregisteredAfter) }
      if let deleted = server.appDeleted[device.id], now < deleted.advanced(by: model.unregisteredAfter) {
        server.markSent(attempt, in: run, at: now)
        reached = true
        let why = "the app was deleted from \(device.id) at \(run.format(deleted)): the push service accepted the push, which goes nowhere (it answers \"unregistered\" only after server push unregisteredAfter: \(model.unregisteredAfter))"
        server.attempts[attempt].failure = why
        run.record(.server, subject, at: now, server.doseFields(key, step: step) + [
          TimelineField("device", device.id), TimelineField("channel", "push"), TimelineField("status", "accepted"), TimelineField("reason", why),
        ])
        continue
      }
      if server.appDeleted[device.id] != nil {
        server.markSent(attempt, in: run, at: now)
        let answer = (device.platform ?? run.scenario.platform.name) == .android
          ? "FCM answered 404 UNREGISTERED: the app instance is no longer registered (Firebase, \"FCM error codes\")"
          : "APNs answered 410 Unregistered: the device token is no longer active for the topic (Apple, \"Handling notification responses from APNs\")"
        server.attempts[attempt].failure = "\(answer); the server dropped the token"
        server.registered[device.id] = nil
        run.record(.server, subject, at: now, server.doseFields(key, step: step) + [
          TimelineField("device", device.id), TimelineField("channel", "push"), TimelineField("status", "rejected"), TimelineField("token", "dropped"),
          TimelineField("reason", "\(answer); the server stops sending to that token, as the push service asks"),
        ])
        continue
      }
      reached = true
      server.markSent(attempt, in: run, at: now)
      let push = RemotePush(
        id: PushID(subject), instant: now, type: "dose-reminder", title: "Time for \(medicine?.name ?? key.medicine.rawValue)",
        body: medicine.map { "\($0.body), due at \(key.slotLabel)" }, sound: true, priority: 10)
      if device.isSimulatedPhone {
        run.layers.phone.core.remotePushes.append(push)
        let index = run.layers.phone.core.remotePushes.count - 1
        attemptOfPush[index] = attempt
        run.record(.sent, subject, at: now, run.layers.phone.core.pushFields(push, in: run) + server.doseFields(key, step: step))
        let transport = run.layers.phone.core.pushTransport
        transport.sent(index, in: &run, at: now)
      } else {
        server.attempts[attempt].delivered = now
        run.record(.sent, subject, at: now, run.layers.phone.core.pushFields(push, in: run) + server.doseFields(key, step: step) + [TimelineField("device", device.id)])
        if let after = device.seenAfter { server.scheduleSeen(attempt, in: &run, at: now.advanced(by: after)) }
      }
    }
    server.lastPushReached[key] = reached
  }

  /// A push on a device trigsim does not simulate is seen `seenAfter` its sending.
  func seen(_ attempt: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    let how = "push on \(server.attempts[attempt].device ?? "another device") (server devices seenAfter)"
    server.attemptPerceived(attempt, kind: .alert, how: how, in: &run, at: now)
  }

  /// A push the server sent reached the phone (the attempt is delivered).
  func remotePushReceived(_ index: Int, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant) {
    guard let attempt = attemptOfPush[index], server.attempts[attempt].delivered == nil else { return }
    server.attempts[attempt].delivered = now
  }

  /// A push the server sent reached the patient's eyes on the phone.
  func remotePushPerceived(
    _ index: Int, kind: PerceptionRecord.Kind, how: String, server: PolicyServer, in run: inout SimulationRun, at now: SimulationInstant
  ) {
    guard let attempt = attemptOfPush[index] else { return }
    if server.attempts[attempt].delivered == nil { server.attempts[attempt].delivered = now }
    server.attemptPerceived(attempt, kind: kind, how: "push, \(how)", in: &run, at: now)
  }

  /// A push seen on another device is the server's to record; the simulated phone records its own.
  func perceivedEntryKind(of attempt: ChannelAttempt) -> TimelineEntry.Kind? {
    attempt.device.map { $0 != ServerDevice.phone } == true ? .server : nil
  }
}
