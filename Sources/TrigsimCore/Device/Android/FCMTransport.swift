/// What Firebase Cloud Messaging keeps for the app on the Android device
/// (`AndroidScheduler.fcm`).
struct FCMState {
  /// Messages held for an unreachable phone, in the order sent.
  var stored: [Int] = []
  /// When messages were handed over at high priority (the bucket quota counts them).
  var highPriorityDeliveries: [SimulationInstant] = []
  /// When high-priority messages ended without a notification the patient could see (deprioritization).
  var unnotifiedHighPriority: [SimulationInstant] = []
  /// Why a message held by Doze was sent on at normal priority though the server asked for high.
  var downgrades: [Int: String] = [:]
  /// FCM discarded stored messages over its limit: the app hears it when the phone is back.
  var deletedMessagesDue = false
  /// While `onMessageReceived` runs: how many notifications the app posted (nil otherwise).
  var postsDuringMessage: Int?
  /// In trials, the stream FCM's choice of collapse keys past its limit is
  /// drawn from (one draw per arrival of a key over the limit); nil in a single run.
  var random: TrialRandom?
  /// Mixed into the trial's seed so this stream is none of the device's others.
  static let collapseSalt: UInt64 = 0xC0_11A9_5E_4B_E7_5A
}

/// Firebase Cloud Messaging on the Android device: how the app server's
/// messages reach the phone and the app (the manual, "Android pushes"):
/// - an unreachable phone: FCM stores the message until its time to live
///   ends (`expiration`, else `FCMRules.defaultTimeToLive`); time to live 0
///   is now or never; a collapsible message replaces a stored one with its
///   key, at most `storedCollapseKeys` keys and `storedMessageLimit`
///   non-collapsible messages are kept (past it all are discarded and the app
///   hears `onDeletedMessages`);
/// - a force-stopped app receives nothing (Android's stopped state);
/// - high priority: delivered at once, in Doze too, unless the standby
///   bucket's daily quota is used up or FCM deprioritized the app's
///   messages; then it is a normal-priority message;
/// - normal priority: at once unless the phone dozes and the app is not in
///   the foreground; then held (`FCMRules.normalPriorityInDoze`);
/// - a notification message while the app is not in the foreground is shown
///   by the system without the app's code, in its channel (the payload's,
///   the manifest's default, or FCM's fallback "Miscellaneous" channel); a
///   data message, or any message in the foreground, runs `onMessageReceived`.
struct FCMTransport: PushTransport {
  /// FCM's fallback channel, which its library creates for a notification message with no channel.
  static let fallbackChannel = "fcm_fallback_notification_channel"

  func sent(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    guard run.layers.phone.android != nil else { return }
    let push = run.layers.phone.core.remotePushes[index]
    if let unreachable = run.layers.phone.core.attention.unreachableReason {
      if let expiration = push.expiration, expiration <= push.instant {
        run.record(.discarded, push.id.rawValue, at: now, [
          TimelineField("reason", "\(unreachable) and the message's time to live is 0: FCM delivers it now or never (\"Setting the lifespan of a message\")")
        ])
        return
      }
      store(index, unreachable: unreachable, in: &run, at: now)
      return
    }
    handOver(index, late: false, held: false, in: &run, at: now)
  }

  func reachableAgain(in run: inout SimulationRun, at now: SimulationInstant) {
    guard let stored = run.layers.phone.android?.fcm.stored else { return }
    run.layers.phone.android?.fcm.stored = []
    for index in stored {
      if expiry(index, in: run) < now {
        run.record(.discarded, run.layers.phone.core.remotePushes[index].id.rawValue, at: now, [
          TimelineField("reason", "its time to live ended at \(run.format(expiry(index, in: run))) while the phone was unreachable")
        ])
        continue
      }
      handOver(index, late: true, held: false, in: &run, at: now)
    }
    if run.layers.phone.android?.fcm.deletedMessagesDue == true {
      run.layers.phone.android?.fcm.deletedMessagesDue = false
      let layer = run.layers.app
      layer.fcmMessagesDeleted(in: &run, at: now)
    }
  }

  func heldPushDue(_ index: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    let push = run.layers.phone.core.remotePushes[index]
    if expiry(index, in: run) < now {
      run.record(.discarded, push.id.rawValue, at: now, [
        TimelineField("reason", "its time to live ended at \(run.format(expiry(index, in: run))) before FCM delivered it")
      ])
      return
    }
    if let unreachable = run.layers.phone.core.attention.unreachableReason {
      store(index, unreachable: unreachable, in: &run, at: now)
      return
    }
    handOver(index, late: true, held: true, in: &run, at: now)
  }

  // MARK: - Storing

  /// The last instant FCM keeps message `index`.
  func expiry(_ index: Int, in run: SimulationRun) -> SimulationInstant {
    let push = run.layers.phone.core.remotePushes[index]
    return push.expiration ?? push.instant.advanced(by: run.layers.phone.android?.settings.fcm.defaultTimeToLive ?? .zero)
  }

  /// Message `index` reaches FCM while the phone is unreachable: it is stored
  /// by the collapse and storage rules ("Non-collapsible and collapsible messages").
  func store(_ index: Int, unreachable: String, in run: inout SimulationRun, at now: SimulationInstant) {
    guard let rules = run.layers.phone.android?.settings.fcm, var stored = run.layers.phone.android?.fcm.stored else { return }
    let pushes = run.layers.phone.core.remotePushes
    let push = pushes[index]
    // Expired ones first: they no longer count.
    for old in stored where expiry(old, in: run) < now {
      run.record(.discarded, pushes[old].id.rawValue, at: now, [
        TimelineField("reason", "its time to live ended at \(run.format(expiry(old, in: run))) while the phone was unreachable")
      ])
    }
    stored.removeAll { expiry($0, in: run) < now }
    if let key = push.collapseID {
      if let position = stored.firstIndex(where: { pushes[$0].collapseID == key }) {
        run.record(.discarded, pushes[stored[position]].id.rawValue, at: now, [
          TimelineField("reason", "replaced at FCM by '\(push.id)': of the messages with collapse key '\(key)' it keeps only the latest")
        ])
        stored.remove(at: position)
      }
      var keys: [String] = []
      for held in stored { if let heldKey = pushes[held].collapseID, !keys.contains(heldKey) { keys.append(heldKey) } }
      if keys.count + 1 > rules.storedCollapseKeys {
        // Firebase keeps `storedCollapseKeys` keys "with no guarantees about which ones are kept":
        // the setting in a single run, a uniform draw among the held keys and the new one in a trial.
        run.layers.assumptionLog.consult(.storedCollapseKeysKept)
        let candidates = keys + [key]
        let dropped: String
        let how: String
        if var random = run.layers.phone.android?.fcm.random {
          dropped = candidates[Int(random.next(below: Int64(candidates.count)))]
          run.layers.phone.android?.fcm.random = random
          how = "this trial draws the one discarded among the \(candidates.count) keys"
        } else {
          dropped = rules.collapseKeysKept == .oldest ? key : keys[0]
          how = "platform storedCollapseKeysKept: \(rules.collapseKeysKept.rawValue)"
        }
        let uncertain = TimelineField(
          "uncertain", "which collapse keys FCM keeps past its limit is not documented (\"Non-collapsible and collapsible messages\")")
        let limit = "FCM stores at most \(rules.storedCollapseKeys) collapse keys for a device, with no guarantee which it keeps"
        if dropped == key {
          run.record(.discarded, push.id.rawValue, at: now, [
            TimelineField("reason", "\(limit); it keeps the \(rules.storedCollapseKeys) it holds (\(how))"), uncertain,
          ])
          run.layers.phone.android?.fcm.stored = stored
          return
        }
        if let position = stored.firstIndex(where: { pushes[$0].collapseID == dropped }) {
          run.record(.discarded, pushes[stored[position]].id.rawValue, at: now, [
            TimelineField("reason", "\(limit); it discards collapse key '\(dropped)' for '\(push.id)' (\(how))"), uncertain,
          ])
          stored.remove(at: position)
        }
      }
    } else if stored.filter({ pushes[$0].collapseID == nil }).count + 1 > rules.storedMessageLimit {
      let reason =
        "FCM stores at most \(rules.storedMessageLimit) non-collapsible messages for a device: past it every stored one is discarded, and the app hears onDeletedMessages when the phone is back (\"Non-collapsible and collapsible messages\")"
      for old in stored where pushes[old].collapseID == nil {
        run.record(.discarded, pushes[old].id.rawValue, at: now, [TimelineField("reason", reason)])
      }
      run.record(.discarded, push.id.rawValue, at: now, [TimelineField("reason", reason)])
      stored.removeAll { pushes[$0].collapseID == nil }
      run.layers.phone.android?.fcm.stored = stored
      run.layers.phone.android?.fcm.deletedMessagesDue = true
      return
    }
    stored.append(index)
    run.layers.phone.android?.fcm.stored = stored
    run.record(.stored, push.id.rawValue, at: now, [
      TimelineField("reason", "\(unreachable): FCM keeps it until the phone is reachable or its time to live ends at \(run.format(expiry(index, in: run)))")
    ])
  }

  // MARK: - Handing over

  /// FCM hands message `index` to the phone now: its priority decides
  /// whether Doze holds it. `held`: Doze held it until now (it is delivered
  /// at normal priority without being held again).
  func handOver(_ index: Int, late: Bool, held: Bool, in run: inout SimulationRun, at now: SimulationInstant) {
    guard let device = run.layers.phone.android else { return }
    let push = run.layers.phone.core.remotePushes[index]
    if device.forceStopped {
      run.record(.suppressed, push.id.rawValue, at: now, [
        TimelineField("cause", SuppressionCause.forceStopped.rawValue),
        TimelineField(
          "reason",
          "the app is force-stopped: Android delivers nothing to a stopped app, FCM messages included, until the patient opens it (awesome_notifications #601)")
      ])
      return
    }
    let original: FCMPriority = push.priority >= 10 ? .high : .normal
    var priority = original
    var downgrade = held ? device.fcm.downgrades[index] : nil
    if original == .high && !held, let why = deprioritization(device, at: now) ?? bucketQuotaExhausted(device, at: now) {
      priority = .normal
      downgrade = why
    }
    if held { priority = .normal }
    let power = device.dispatcher.power
    if priority == .normal && !held && run.layers.phone.core.installedApp.state != .foreground && power.isDozing(at: now), let period = power.dozePeriod(at: now) {
      let rules = device.settings.fcm
      // The two Google pages disagree on how long it waits (the registry's `normalPriorityInDoze`).
      if let window = power.nextRelease(after: now)?.at, window < period.end { run.layers.assumptionLog.consult(.normalPriorityInDoze) }
      let release: SimulationInstant
      let until: String
      switch rules.normalPriorityInDoze {
      case .dozeEnd:
        release = period.end
        until = "the phone leaves Doze (FCM, \"Set and manage Android message priority\"; fcm normalPriorityInDoze: doze-end)"
      case .maintenanceWindow:
        release = power.nextRelease(after: now)?.at ?? period.end
        until = "the next maintenance window or the end of Doze (power-details table; fcm normalPriorityInDoze: maintenance-window)"
      }
      let reason = (downgrade.map { "\($0); " } ?? "") + "normal priority while the phone dozes: FCM holds it until \(until)"
      run.record(.stored, push.id.rawValue, at: now, [
        TimelineField("until", release < run.end ? run.format(release) : "after the run"), TimelineField("reason", reason),
      ])
      run.layers.phone.android?.fcm.downgrades[index] = downgrade
      if release < run.end { run.queue.schedule(.phone(.pushDelayed(index)), at: release, phase: .remotePush, rank: index) }
      return
    }
    receive(index, priority: priority, original: original, downgrade: downgrade, late: late, in: &run, at: now)
  }

  /// Why FCM deprioritizes the app's high-priority messages now, if it does:
  /// enough of them in the window showed no notification.
  func deprioritization(_ device: AndroidScheduler, at now: SimulationInstant) -> String? {
    let rules = device.settings.fcm
    guard rules.deprioritizeAfterUnnotified > 0 else { return nil }
    let since = now.advanced(by: SimulationDuration(milliseconds: -rules.deprioritizationWindow.milliseconds))
    let count = device.fcm.unnotifiedHighPriority.filter { $0 > since }.count
    guard count >= rules.deprioritizeAfterUnnotified else { return nil }
    return "FCM deprioritized the app's high-priority messages: \(count) in the last \(rules.deprioritizationWindow) showed the patient no notification "
      + "(\"Set and manage Android message priority\"; fcm deprioritizeAfterUnnotified: \(rules.deprioritizeAfterUnnotified))"
  }

  /// Why the standby bucket's daily high-priority quota turns this message into a normal one, if it does.
  func bucketQuotaExhausted(_ device: AndroidScheduler, at now: SimulationInstant) -> String? {
    let power = device.dispatcher.power
    guard !power.isCharging(at: now) else { return nil }
    let bucket = power.bucket(at: now)
    guard let quota = device.settings.fcm.highPriorityQuota(for: bucket, androidVersion: device.settings.alarms.androidVersion) else { return nil }
    let since = now.advanced(by: .hours(-24))
    let used = device.fcm.highPriorityDeliveries.filter { $0 > since }.count
    guard used >= quota else { return nil }
    return "standby bucket \(bucket.rawValue) allows \(quota) high-priority message\(quota == 1 ? "" : "s") a day on Android 12 and lower, used up: "
      + "FCM treats it as normal priority (power-details table)"
  }

  /// The phone receives the message: the system shows a notification
  /// message while the app is not in the foreground; otherwise the app's
  /// `onMessageReceived` runs. A high-priority message that shows the
  /// patient nothing counts towards deprioritization.
  func receive(
    _ index: Int, priority: FCMPriority, original: FCMPriority, downgrade: String?, late: Bool, in run: inout SimulationRun, at now: SimulationInstant
  ) {
    let push = run.layers.phone.core.remotePushes[index]
    if priority == .high { run.layers.phone.android?.fcm.highPriorityDeliveries.append(now) }
    let foreground = run.layers.phone.core.installedApp.state == .foreground
    let bySystem = push.hasAlert && !foreground
    var fields: [TimelineField] = []
    if late { fields.append(TimelineField("sent", run.format(push.instant))) }
    if let type = push.type { fields.append(TimelineField("type", type)) }
    fields.append(TimelineField("fcm-priority", priority.rawValue))
    if priority != original { fields.append(TimelineField("sent-as", original.rawValue)) }
    fields.append(TimelineField("app", run.layers.phone.core.installedApp.state.rawValue))
    fields.append(TimelineField("to", bySystem ? "system-tray" : "onMessageReceived"))
    let channel = bySystem ? channel(for: push, in: run) : nil
    if let channel { fields.append(TimelineField("channel", channel.id)) }
    if let downgrade, priority != original { fields.append(TimelineField("reason", downgrade)) }
    run.record(.received, push.id.rawValue, at: now, fields)
    let reminderServer = run.layers.server
    reminderServer.pushReceived(index, in: &run, at: now)
    let notified: Bool
    if let channel {
      if let why = channel.fallback { createFallbackChannel(because: why, in: &run, at: now) }
      notified = show(index, channel: channel.id, in: &run, at: now)
    } else {
      run.layers.phone.android?.fcm.postsDuringMessage = 0
      let message = RemoteMessage(
        messageID: push.id.rawValue, data: ["id": push.id.rawValue].merging(push.type.map { ["type": $0] } ?? [:]) { first, _ in first },
        title: push.title, body: push.body, channel: push.channel, collapseKey: push.collapseID, priority: priority, originalPriority: original,
        sentTime: push.instant.date)
      let layer = run.layers.app
      layer.fcmMessageReceived(message, in: &run, at: now)
      notified = (run.layers.phone.android?.fcm.postsDuringMessage ?? 0) > 0
      run.layers.phone.android?.fcm.postsDuringMessage = nil
    }
    if priority == .high && !notified { run.layers.phone.android?.fcm.unnotifiedHighPriority.append(now) }
  }

  /// The system shows a notification message in its channel. Returns whether the patient can see it.
  func show(_ index: Int, channel: String, in run: inout SimulationRun, at now: SimulationInstant) -> Bool {
    let push = run.layers.phone.core.remotePushes[index]
    let delivery = DeliveryAttributes(interruptionLevel: push.interruptionLevel, sound: push.sound, channel: channel)
    let perception = run.layers.phone.core.presenter.perception(of: delivery, in: run.layers.phone.core.attentionContext(in: run, at: now))
    if case .notShown(let why, let cause) = perception {
      run.record(.suppressed, push.id.rawValue, at: now, [TimelineField("cause", cause.rawValue), TimelineField("reason", why)])
      return false
    }
    run.layers.phone.core.attention.pushesShown[run.layers.phone.core.pushKey(push)] = index
    run.layers.phone.core.present(.push(index), subject: push.id.rawValue, delivery: delivery, perception: perception, pushType: push.type, in: &run, at: now)
    return true
  }

  /// The channel a notification message is shown in: the payload's, if the
  /// app created it; else the manifest's default, if created; else FCM's
  /// fallback channel (`fallback`: why, when its library must create it now).
  func channel(for push: RemotePush, in run: SimulationRun) -> (id: String, fallback: String?) {
    let channels = run.layers.phone.android?.channels ?? [:]
    if let named = push.channel, channels[named] != nil { return (named, nil) }
    if let manifest = run.layers.app.fcmDefaultChannel, channels[manifest] != nil { return (manifest, nil) }
    if channels[Self.fallbackChannel] != nil { return (Self.fallbackChannel, nil) }
    let why = push.channel.map { "the message names channel '\($0)', which the app never created," } ?? "the message names no channel"
    return (Self.fallbackChannel, "\(why) and the app's manifest names no default channel it created")
  }

  /// The FCM library creates its fallback channel, "Miscellaneous", with default importance.
  func createFallbackChannel(because why: String, in run: inout SimulationRun, at now: SimulationInstant) {
    run.layers.phone.android?.channels[Self.fallbackChannel] = AndroidChannel(id: Self.fallbackChannel, name: "Miscellaneous")
    run.record(.app, "channel", at: now, [
      TimelineField("id", Self.fallbackChannel), TimelineField("importance", ChannelImportance.default.rawValue),
      TimelineField("reason", "\(why): the FCM library creates its fallback channel \"Miscellaneous\""),
    ])
  }
}
