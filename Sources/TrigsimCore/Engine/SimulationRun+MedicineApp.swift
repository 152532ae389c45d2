import Foundation

/// What the run knows about a request the medicine app made.
struct MedicineRequestInfo {
  enum Role: Equatable {
    /// The repeating daily request for time `n` of `times`: `medicine_{id}_reminder_{n}`.
    case reminder(Int, DailyTime)
    /// The location request: `medicine_{id}_location`.
    case location
    /// Follow-up `index` (1-based) of a dose's chain: `medicine_{id}_snooze_{k}`.
    case followUp(index: Int)
    /// The re-alert the app adds when the user snoozes.
    case snoozedAlert

    /// A reminder or location request: the notification that opens a dose.
    var isMain: Bool {
      switch self {
      case .reminder, .location: true
      case .followUp, .snoozedAlert: false
      }
    }
  }

  var medicine: MedicineID
  var role: Role
  /// Fixed for follow-ups and snoozed alerts; reminders and location
  /// requests open a new dose at each delivery.
  var dose: DoseKey?
  /// When `dose` was due.
  var doseScheduled: SimulationInstant?
}

/// A medicine's daily time as the app intends it, kept apart from the
/// notification center: it says when a dose is due even when the reminder
/// request was dropped, replaced or never shown.
struct DoseClock {
  var medicine: MedicineID
  /// The position in `times`, which names the reminder request.
  var index: Int
  var time: DailyTime
  var trigger: CalendarTrigger
  var next: SimulationInstant?
  var token = 0
  var active = true
}

/// The medicine app's state during a run, and the dose ledger.
struct MedicineAppState {
  /// The current version of every medicine that exists.
  var medicines: [MedicineID: Medicine] = [:]
  /// Every medicine ever created, in creation order (for deterministic iteration).
  var creationOrder: [MedicineID] = []
  var state: AppState = .background
  var permission: NotificationPermission = .granted
  var locationAuthorization: LocationAuthorization = .whenInUse
  var locationAccuracy: LocationAccuracyAuthorization = .precise
  /// The dose each qualifying geometric crossing opened, so that the
  /// device's (later) detection of that visit notifies it.
  var locationDoseOfVisit: [LocationVisit: DoseKey] = [:]
  var requestInfo: [NotificationID: MedicineRequestInfo] = [:]
  /// The dose of each medicine notification shown in Notification Center.
  var shownDose: [NotificationID: DoseKey] = [:]
  /// Why and when each notification last left Notification Center, for messages.
  var leftNotificationCenter: [NotificationID: String] = [:]
  var doses: [DoseKey: DoseRecord] = [:]
  /// Doses whose chain question is settled: an on-delivery chain was added,
  /// or the user acted so that none is wanted.
  var chainSettled: Set<DoseKey> = []
  /// Response-rule steps used, per rule and dose.
  var ruleSteps: [RuleStep: Int] = [:]
  /// Why a request is not pending or was not shown, for missed doses.
  var lossReason: [NotificationID: String] = [:]
  var doseClocks: [DoseClock] = []
  var locationOccurrences: [MedicineID: Int64] = [:]
  /// Whether a one-shot location reminder is still waiting for its occurrence.
  var locationArmed: [MedicineID: Bool] = [:]
  /// Scripted actions on notifications not in Notification Center.
  var actionProblems: [Diagnostic] = []

  struct RuleStep: Hashable {
    var rule: Int
    var dose: DoseKey
  }

  struct LocationVisit: Hashable {
    var medicine: MedicineID
    var region: Int
    var visit: Int
    var entering: Bool
  }

  /// Why the platform does not monitor regions for location triggers now, if it does not.
  var regionMonitoringBlockedReason: String? {
    if !locationAuthorization.allowsRegionMonitoring {
      return "location authorization is \(locationAuthorization.rawValue): location triggers need when-in-use or always authorization, so the platform monitors no region"
    }
    if locationAccuracy == .approximate {
      return "precise location is off (approximate location): apps with reduced accuracy cannot use region monitoring"
    }
    return nil
  }

  /// The instants at which `changes` let region monitoring start again after
  /// blocking it, in the order the run handles them (ties in scenario order).
  static func regionMonitoringRestarts(of changes: [AppChange], until end: SimulationInstant) -> [SimulationInstant] {
    var state = MedicineAppState()
    var restarts: [SimulationInstant] = []
    let ordered = changes.indices.filter { changes[$0].instant <= end }.sorted { (changes[$0].instant, $0) < (changes[$1].instant, $1) }
    for index in ordered {
      let change = changes[index]
      let wasBlocked = state.regionMonitoringBlockedReason != nil
      if let location = change.location { state.locationAuthorization = location }
      if let accuracy = change.locationAccuracy { state.locationAccuracy = accuracy }
      if wasBlocked && state.regionMonitoringBlockedReason == nil { restarts.append(change.instant) }
    }
    return restarts
  }
}

/// Request identifiers, as the app names them.
enum ReminderIdentifier {
  static func reminder(_ medicine: MedicineID, _ index: Int) -> NotificationID {
    NotificationID("medicine_\(medicine)_reminder_\(index)")
  }

  static func location(_ medicine: MedicineID) -> NotificationID { NotificationID("medicine_\(medicine)_location") }

  /// Follow-up `index` (1...count) of the chain after reminder `slot`:
  /// `k = n × count + index` for daily time `n` (its position in `times`), and
  /// `times.count × count + index` for the location reminder, so every chain
  /// of a medicine has its own numbers.
  static func followUp(_ medicine: Medicine, slot: DoseSlot, index: Int) -> NotificationID {
    let count = medicine.snooze?.count ?? 0
    let chain: Int
    switch slot {
    case .time(let time): chain = medicine.times.firstIndex(of: time) ?? medicine.times.count
    case .location: chain = medicine.times.count
    }
    return NotificationID("medicine_\(medicine.id)_snooze_\(chain * count + index)")
  }
}

extension SimulationRun {
  var medicineApp: MedicineApp { scenario.medicineApp }

  mutating func scheduleMedicineAppEvents() {
    for (index, change) in medicineApp.appChanges.enumerated() where change.instant <= end {
      queue.schedule(.appChange(index), at: change.instant, phase: .appChange, rank: index)
    }
    let rawActions = scenario.actions.count
    for (index, change) in medicineApp.medicineChanges.enumerated() where change.instant <= end {
      queue.schedule(.medicineChange(index), at: change.instant, phase: .appAction, rank: rawActions + index)
    }
    for (index, action) in medicineApp.userActions.enumerated() where action.instant <= end {
      queue.schedule(.userAction(index), at: action.instant, phase: .userAction, rank: index)
    }
  }

  // MARK: - App state

  mutating func changeApp(_ change: AppChange, at now: SimulationInstant) {
    if let state = change.state, state != app.state {
      record(.app, "state", at: now, [TimelineField("to", state.rawValue), TimelineField("from", app.state.rawValue)])
      app.state = state
      // Coming to the foreground runs the app's launch code: it tops up upfront chains and sets its badge.
      if state == .foreground {
        for id in app.creationOrder { if let medicine = app.medicines[id] { topUpUpfrontChains(medicine, at: now) } }
        appCodeSetsBadge(at: now)
      }
    }
    if let permission = change.permission, permission != app.permission {
      record(.app, "permission", at: now, [TimelineField("to", permission.rawValue), TimelineField("from", app.permission.rawValue)])
      app.permission = permission
    }
    let wasBlocked = app.regionMonitoringBlockedReason
    if let location = change.location, location != app.locationAuthorization {
      record(.app, "location", at: now, [TimelineField("to", location.rawValue), TimelineField("from", app.locationAuthorization.rawValue)])
      app.locationAuthorization = location
    }
    if let accuracy = change.locationAccuracy, accuracy != app.locationAccuracy {
      record(.app, "location-accuracy", at: now, [TimelineField("to", accuracy.rawValue), TimelineField("from", app.locationAccuracy.rawValue)])
      app.locationAccuracy = accuracy
    }
    let blocked = app.regionMonitoringBlockedReason
    if wasBlocked == nil, let blocked {
      for pending in center.pendingInAddOrder() {
        if case .region = pending.request.trigger { warnNeverFires(pending.request, reason: blocked, at: now) }
      }
    }
    if blocked != wasBlocked {
      if wasBlocked != nil { monitoringBlockedSpans[monitoringBlockedSpans.count - 1].until = now }
      if let blocked { monitoringBlockedSpans.append((from: now, until: nil, reason: blocked)) }
      // Allowed again: the replay restarted the location service at this instant (`monitoringRestarts`),
      // unless the phone's power still keeps monitoring off.
      assert(blocked != nil || monitoringRestarts.contains(now) || deviceSchedule.monitoringBlockedReason(at: now) != nil)
    }
  }

  /// A location request that cannot fire while region monitoring is off.
  mutating func warnNeverFires(_ request: NotificationRequest, reason: String, at now: SimulationInstant) {
    record(.warning, request.id.rawValue, at: now,
           [TimelineField("trigger", request.trigger.summary), TimelineField("reason", "never fires while \(reason)")])
  }

  // MARK: - Medicine lifecycle

  mutating func applyMedicineChange(_ change: MedicineChange, at now: SimulationInstant) {
    switch change.kind {
    case .create(let medicine):
      app.medicines[medicine.id] = medicine
      app.creationOrder.append(medicine.id)
      record(.medicine, "medicine_\(medicine.id)", at: now, [TimelineField("change", "created")] + medicine.summaryFields)
      addRequests(of: medicine, at: now)
      startDoseClocks(of: medicine, at: now)
    case .edit(let medicine):
      record(.medicine, "medicine_\(medicine.id)", at: now, [TimelineField("change", "edited")] + medicine.summaryFields)
      removePendingRequests(of: medicine.id, reason: "medicine edited", at: now)
      let dueBeforeEdit = stopDoseClocks(of: medicine.id)
      app.medicines[medicine.id] = medicine
      addRequests(of: medicine, at: now)
      startDoseClocks(of: medicine, at: now)
      // A dose that was due later on the edit's day under the old version
      // and that the new version no longer has was removed by the edit.
      for (time, due) in dueBeforeEdit where localDay(of: due) == localDay(of: now) {
        let stillDue = app.doseClocks.contains { clock in
          clock.active && clock.medicine == medicine.id && clock.time == time && clock.next == due
        }
        let key = timeDoseKey(medicine.id, time, due: due)
        if !stillDue && app.doses[key] == nil {
          var removed = newDose(key, medicine: medicine, reminder: time.description, scheduled: due)
          removed.reason = "removed by an edit at \(format(now))"
          app.doses[key] = removed
        }
      }
    case .delete(let id):
      guard let medicine = app.medicines[id] else { return }
      record(.medicine, "medicine_\(id)", at: now, [TimelineField("change", "deleted"), TimelineField("name", medicine.name)])
      removePendingRequests(of: id, reason: "medicine deleted", at: now)
      let info = app.requestInfo
      clearDelivered(at: now, reason: "medicine deleted") { info[$0]?.medicine == id }
      _ = stopDoseClocks(of: id)
      app.medicines[id] = nil
    }
  }

  /// The dose a daily time's occurrence at `due` belongs to: its local day,
  /// and a second (third, ...) dose when that day already has another
  /// occurrence of this time (after a time-zone change west).
  func timeDoseKey(_ medicine: MedicineID, _ time: DailyTime, due: SimulationInstant) -> DoseKey {
    var key = DoseKey(medicine: medicine, slot: .time(time), occurrence: localDay(of: due))
    while let existing = app.doses[key], existing.scheduled != due { key.repeatOnDay += 1 }
    return key
  }

  /// The app's requests for a medicine version, in the order it adds them:
  /// each daily reminder followed by its upfront chain, then the location request.
  mutating func addRequests(of medicine: Medicine, at now: SimulationInstant) {
    for (index, time) in medicine.times.enumerated() {
      let id = ReminderIdentifier.reminder(medicine.id, index)
      app.requestInfo[id] = MedicineRequestInfo(medicine: medicine.id, role: .reminder(index, time))
      let request = NotificationRequest(
        id: id, title: medicine.name, body: medicine.body, trigger: .calendar(dailyTrigger(time)),
        userInfo: mainUserInfo(medicine, slot: .time(time)))
      add(request, at: now)
      if medicine.snooze?.scheduling == .upfront { addUpfrontChain(of: medicine, time: time, at: now) }
    }
    if let location = medicine.location {
      let id = ReminderIdentifier.location(medicine.id)
      app.requestInfo[id] = MedicineRequestInfo(medicine: medicine.id, role: .location)
      let trigger = RegionTrigger(
        region: location.region, notifyOnEntry: location.onEntry, notifyOnExit: location.onExit, repeats: location.repeats)
      let request = NotificationRequest(
        id: id, title: medicine.name, body: medicine.body, trigger: .region(trigger),
        userInfo: mainUserInfo(medicine, slot: .location))
      add(request, at: now)
      app.locationArmed[medicine.id] = true
    }
  }

  func dailyTrigger(_ time: DailyTime) -> CalendarTrigger {
    CalendarTrigger(components: CalendarComponents(hour: time.hour, minute: time.minute), timeZone: nil, repeats: true)
  }

  func mainUserInfo(_ medicine: Medicine, slot: DoseSlot) -> [TimelineField] {
    var fields = [TimelineField("medicine", medicine.id.rawValue)]
    switch slot {
    case .time(let time): fields.append(TimelineField("reminder", String(medicine.times.firstIndex(of: time) ?? -1)))
    case .location: fields.append(TimelineField("location", medicine.location?.kind ?? ""))
    }
    fields += [TimelineField("dosage", medicine.dosage), TimelineField("unit", medicine.unit),
               TimelineField("snooze", medicine.snooze?.summary ?? "none")]
    return fields
  }

  func chainUserInfo(_ medicine: Medicine, dose: DoseKey, extra: TimelineField) -> [TimelineField] {
    var fields = [TimelineField("medicine", medicine.id.rawValue)]
    switch dose.slot {
    case .time(let time): fields.append(TimelineField("reminder", String(medicine.times.firstIndex(of: time) ?? -1)))
    case .location: fields.append(TimelineField("location", medicine.location?.kind ?? ""))
    }
    fields += [extra, TimelineField("dose", dose.occurrenceLabel), TimelineField("dosage", medicine.dosage),
               TimelineField("unit", medicine.unit)]
    return fields
  }

  /// Removes every pending request of a medicine, in add order (an edit or
  /// a deletion); a dose whose chain this cuts short gets a remark.
  mutating func removePendingRequests(of id: MedicineID, reason: String, at now: SimulationInstant) {
    for pending in center.pendingInAddOrder() where app.requestInfo[pending.request.id]?.medicine == id {
      removePending(pending.request.id, reason: reason, at: now)
      guard let info = app.requestInfo[pending.request.id], !info.role.isMain, let dose = info.dose, app.doses[dose] != nil
      else { continue }
      let note = "chain removed: \(reason) at \(format(now))"
      if app.doses[dose]?.notes.contains(note) == false { app.doses[dose]?.notes.append(note) }
    }
  }

  mutating func removePending(_ id: NotificationID, reason: String, at now: SimulationInstant) {
    guard let removed = center.removePending(id) else { return }
    record(.removed, id.rawValue, at: now, [TimelineField("trigger", removed.request.trigger.summary), TimelineField("reason", reason)])
    app.lossReason[id] = "removed at \(format(now)): \(reason)"
  }

  /// `removeDeliveredNotifications` for the shown medicine notifications that
  /// `matches` selects, in delivery order.
  mutating func clearDelivered(at now: SimulationInstant, reason: String, where matches: (NotificationID) -> Bool) {
    let shown = center.delivered.values.filter { matches($0.id) }.sorted { $0.serial < $1.serial }
    for notification in shown {
      center.removeDelivered(notification.id)
      forgetHeld(notification.id)
      app.shownDose[notification.id] = nil
      app.leftNotificationCenter[notification.id] = "cleared by the app at \(format(now)) (\(reason))"
      record(.cleared, notification.id.rawValue, at: now, [TimelineField("reason", reason)])
    }
  }

  // MARK: - Chains

  /// Upfront chain for a daily time: one-shot requests dated `every`,
  /// 2 × `every`, ... after the time's next occurrence.
  mutating func addUpfrontChain(of medicine: Medicine, time: DailyTime, at now: SimulationInstant) {
    guard let policy = medicine.snooze, policy.count > 0,
      let occurrence = calendarEvaluator.nextDelivery(of: dailyTrigger(time), after: now, deviceTimeZone: deviceTimeZone)
    else { return }
    let dose = timeDoseKey(medicine.id, time, due: occurrence)
    for followUp in 1...policy.count {
      let at = occurrence.advanced(by: policy.every * Int64(followUp))
      let id = ReminderIdentifier.followUp(medicine, slot: .time(time), index: followUp)
      app.requestInfo[id] = MedicineRequestInfo(medicine: medicine.id, role: .followUp(index: followUp), dose: dose, doseScheduled: occurrence)
      let request = NotificationRequest(
        id: id, title: medicine.name, body: medicine.body, trigger: .calendar(datedTrigger(at)),
        userInfo: chainUserInfo(medicine, dose: dose, extra: TimelineField("followup", "\(followUp)/\(policy.count)")))
      add(request, at: now)
    }
  }

  /// A one-shot calendar trigger for the local date and time of `instant`
  /// (floating, as the app builds it from date components).
  func datedTrigger(_ instant: SimulationInstant) -> CalendarTrigger {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = deviceTimeZone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant.date)
    let second = parts.second ?? 0
    return CalendarTrigger(
      components: CalendarComponents(
        year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute,
        second: second == 0 ? nil : second),
      timeZone: nil, repeats: false)
  }

  /// When the app's code runs, it adds the next occurrence's chain for every
  /// daily time that has no chain request (follow-up or snoozed alert)
  /// pending. A pending snoozed alert may hold a follow-up's identifier, which
  /// the next chain reuses, so the app waits until it has fired.
  mutating func topUpUpfrontChains(_ medicine: Medicine, at now: SimulationInstant) {
    guard medicine.snooze?.scheduling == .upfront else { return }
    for time in medicine.times {
      let hasPending = center.pending.keys.contains { id in
        guard let info = app.requestInfo[id], info.medicine == medicine.id, !info.role.isMain else { return false }
        return info.dose?.slot == .time(time)
      }
      if !hasPending { addUpfrontChain(of: medicine, time: time, at: now) }
    }
  }

  /// On-delivery chain: one-shot intervals `every`, 2 × `every`, ... from now.
  mutating func addOnDeliveryChain(of medicine: Medicine, dose: DoseKey, at now: SimulationInstant) {
    guard let policy = medicine.snooze, policy.count > 0 else { return }
    app.chainSettled.insert(dose)
    for followUp in 1...policy.count {
      let id = ReminderIdentifier.followUp(medicine, slot: dose.slot, index: followUp)
      // The same identifiers serve every occurrence: a chain still pending for
      // an earlier dose is replaced by this one.
      if center.pending[id] != nil, let earlier = app.requestInfo[id]?.dose, earlier != dose {
        let note = "rest of the chain replaced at \(format(now)) by the next occurrence's chain (same identifiers)"
        if app.doses[earlier]?.notes.contains(note) == false { app.doses[earlier]?.notes.append(note) }
      }
      app.requestInfo[id] = MedicineRequestInfo(
        medicine: medicine.id, role: .followUp(index: followUp), dose: dose, doseScheduled: app.doses[dose]?.scheduled)
      let request = NotificationRequest(
        id: id, title: medicine.name, body: medicine.body,
        trigger: .interval(IntervalTrigger(interval: policy.every * Int64(followUp), repeats: false)),
        userInfo: chainUserInfo(medicine, dose: dose, extra: TimelineField("followup", "\(followUp)/\(policy.count)")))
      add(request, at: now)
    }
  }

  /// Removes the dose's pending follow-ups and snoozed alerts.
  mutating func cancelChain(of dose: DoseKey, reason: String, at now: SimulationInstant) {
    for pending in center.pendingInAddOrder() {
      guard let info = app.requestInfo[pending.request.id], info.dose == dose, !info.role.isMain else { continue }
      removePending(pending.request.id, reason: reason, at: now)
    }
  }

  // MARK: - Deliveries

  func localDay(of instant: SimulationInstant) -> Int64 {
    let local = instant.millisecondsSinceEpoch + Int64(deviceTimeZone.secondsFromGMT(for: instant.date)) * 1000
    return floorDivide(local, 86_400_000).quotient
  }

  /// The dose a medicine notification belongs to; reminders and location
  /// requests open a new one (and record that it was notified).
  mutating func doseOfDelivery(_ id: NotificationID, at now: SimulationInstant) -> DoseKey? {
    guard let info = app.requestInfo[id], let medicine = app.medicines[info.medicine] else { return nil }
    switch info.role {
    case .reminder(_, let time):
      let due = catchUpDue ?? now
      let key = timeDoseKey(medicine.id, time, due: due)
      if app.doses[key] == nil {
        app.doses[key] = newDose(key, medicine: medicine, reminder: time.description, scheduled: due)
      }
      app.doses[key]?.reminderDelivered = now
      if catchUpDue != nil {
        app.doses[key]?.reason = nil
        let note = "due while the phone was off; delivered at \(format(now)) when it came on"
        app.doses[key]?.notes.append(note)
      }
      return key
    case .location:
      if medicine.location?.repeats == false { app.locationArmed[medicine.id] = false }
      if let context = locationReportContext, let visit = context.visit,
        let key = app.locationDoseOfVisit[
          MedicineAppState.LocationVisit(medicine: medicine.id, region: context.region, visit: visit, entering: context.entering)],
        app.doses[key]?.reminderDelivered == nil
      {
        app.doses[key]?.reminderDelivered = now
        app.doses[key]?.reason = nil
        return key
      }
      // No geometric crossing opened a dose (a crossing before the clock's
      // start, or a detection of a side the true path did not reach: a region
      // below the minimum radius, GPS error in a trial): this delivery opens one.
      let occurrence = (app.locationOccurrences[medicine.id] ?? 0) + 1
      app.locationOccurrences[medicine.id] = occurrence
      let key = DoseKey(medicine: medicine.id, slot: .location, occurrence: occurrence)
      var opened = newDose(key, medicine: medicine, reminder: medicine.location?.summary ?? "", scheduled: now)
      opened.reminderDelivered = now
      app.doses[key] = opened
      return key
    case .followUp, .snoozedAlert:
      guard let key = info.dose else { return nil }
      if app.doses[key] == nil {
        let label: String
        switch key.slot {
        case .time(let time): label = time.description
        case .location: label = medicine.location?.summary ?? ""
        }
        var opened = newDose(key, medicine: medicine, reminder: label, scheduled: info.doseScheduled ?? now)
        opened.reason = app.lossReason[mainIdentifier(of: key)]
        app.doses[key] = opened
      }
      if case .followUp(let index) = info.role {
        app.doses[key]?.followUpsDelivered += 1
        if let count = medicine.snooze?.count, index == count {
          app.doses[key]?.chainRanOut = true
          app.doses[key]?.notes.append("chain ran out: follow-up \(count) of \(count) delivered")
        }
      } else {
        app.doses[key]?.snoozedAlertsDelivered += 1
      }
      return key
    }
  }

  func newDose(_ key: DoseKey, medicine: Medicine, reminder: String, scheduled: SimulationInstant) -> DoseRecord {
    DoseRecord(key: key, medicineName: medicine.name, reminder: reminder, scheduled: scheduled)
  }

  func mainIdentifier(of dose: DoseKey) -> NotificationID {
    switch dose.slot {
    case .time(let time):
      ReminderIdentifier.reminder(dose.medicine, app.medicines[dose.medicine]?.times.firstIndex(of: time) ?? -1)
    case .location: ReminderIdentifier.location(dose.medicine)
    }
  }

  /// After a medicine notification is delivered to Notification Center:
  /// its bookkeeping, and the will-present callback when the app is in the
  /// foreground. The patient may not perceive it yet (`medicineNotificationPerceived`).
  mutating func medicineNotificationDelivered(_ shown: DeliveredNotification, dose: DoseKey, at now: SimulationInstant) {
    let id = shown.id
    app.shownDose[id] = dose
    guard let info = app.requestInfo[id], let medicine = app.medicines[info.medicine] else { return }
    if app.state == .foreground {
      appLearned(of: id, dose: dose, medicine: medicine, at: now)
      topUpUpfrontChains(medicine, at: now)
      appCodeSetsBadge(at: now)
    } else if info.role.isMain, let policy = medicine.snooze, policy.scheduling == .onDelivery, policy.count > 0,
      !app.chainSettled.contains(dose)
    {
      let why = "follow-up chain not scheduled: the app was \(app.state.isTerminated ? "terminated" : "in the background") at delivery, so its will-present callback did not run; the \(policy.count) follow-ups are added only if the user acts on this notification"
      record(.warning, id.rawValue, at: now, [TimelineField("reason", why)])
      app.doses[dose]?.notes.append("chain not scheduled at delivery (app \(app.state.rawValue))")
    }
  }

  /// The patient could perceive a medicine notification now (an alert, after
  /// a Focus, in a summary): the dose is notified, and the patient's planned
  /// response is timed from now.
  mutating func medicineNotificationPerceived(_ id: NotificationID, serial: Int, dose: DoseKey, at now: SimulationInstant) {
    if app.doses[dose]?.notified == nil {
      app.doses[dose]?.notified = now
      if app.doses[dose]?.reason?.hasPrefix("never perceptible") == true { app.doses[dose]?.reason = nil }
    }
    for (index, rule) in medicineApp.responseRules.enumerated() where rule.pattern.matches(id.rawValue) {
      let at = now.advanced(by: rule.after)
      if at <= end {
        queue.schedule(.ruleResponse(rule: index, id, serial: serial), at: at, phase: .userAction, rank: medicineApp.userActions.count)
      }
      break
    }
  }

  /// App code heard of a delivery (will-present or an action): an
  /// on-delivery chain starts if the dose has none yet.
  mutating func appLearned(of id: NotificationID, dose: DoseKey, medicine: Medicine, at now: SimulationInstant) {
    guard let info = app.requestInfo[id], info.role.isMain, medicine.snooze?.scheduling == .onDelivery,
      !app.chainSettled.contains(dose), app.doses[dose]?.resolved == nil
    else { return }
    if app.doses[dose]?.notes.contains(where: { $0.hasPrefix("chain not scheduled") }) == true {
      let note = "chain added late, when the user acted at \(format(now))"
      app.doses[dose]?.notes.append(note)
    }
    addOnDeliveryChain(of: medicine, dose: dose, at: now)
  }

  // MARK: - User actions

  mutating func performScriptedAction(_ action: ScheduledUserAction, at now: SimulationInstant) {
    guard attention.phoneOn else {
      reject(action, "while the phone is off", note: "move the action after the phone's next 'switch-on' under 'device: power:'", at: now)
      return
    }
    guard center.delivered[action.notification] != nil, app.shownDose[action.notification] != nil else {
      let why = app.leftNotificationCenter[action.notification].map { "it left Notification Center: \($0)" }
        ?? "it was never delivered before this instant"
      reject(
        action, ", which is not in Notification Center: \(why)",
        note: "an action needs a delivered notification still shown to the user; run the scenario without this action and read the timeline for when it fires",
        at: now)
      return
    }
    perform(action.action, on: action.notification, by: "script", at: now)
  }

  /// A scripted action that cannot be carried out: invalid input, reported at its line once the run ends.
  mutating func reject(_ action: ScheduledUserAction, _ problem: String, note: String, at now: SimulationInstant) {
    let location = action.origin ?? InputLocation(file: scenario.name, line: 1, column: 1)
    let separator = problem.hasPrefix(",") ? "" : " "
    app.actionProblems.append(
      Diagnostic(at: location, "'\(action.action)' at \(format(now)) acts on '\(action.notification)'\(separator)\(problem)", notes: [note]))
  }

  mutating func respond(rule index: Int, to id: NotificationID, serial: Int, at now: SimulationInstant) {
    guard center.delivered[id]?.serial == serial, let dose = app.shownDose[id] else { return }
    guard attention.phoneOn else {
      record(.warning, id.rawValue, at: now, [TimelineField("reason", "the planned response was not made: the phone is off")])
      return
    }
    let rule = medicineApp.responseRules[index]
    let step = app.ruleSteps[MedicineAppState.RuleStep(rule: index, dose: dose), default: 0]
    guard step < rule.actions.count else { return }
    app.ruleSteps[MedicineAppState.RuleStep(rule: index, dose: dose)] = step + 1
    perform(rule.actions[step], on: id, by: "rule \(rule.pattern) step \(step + 1)/\(rule.actions.count)", at: now)
  }

  /// The user acts on a shown notification; the system removes it from
  /// Notification Center (except for `ignore`) and the app's handler runs.
  mutating func perform(_ action: UserAction, on id: NotificationID, by source: String, at now: SimulationInstant) {
    guard let dose = app.shownDose[id] else { return }
    var fields = [TimelineField("action", action.description), TimelineField("by", source), TimelineField("dose", dose.occurrenceLabel)]
    if action != .ignore {
      center.removeDelivered(id)
      forgetHeld(id)
      app.shownDose[id] = nil
      app.leftNotificationCenter[id] = "the user chose '\(action)' at \(format(now))"
    }
    if action == .dismiss && !medicineApp.category.customDismiss {
      fields.append(TimelineField("reported", "no"))
      fields.append(TimelineField("reason", "the category has no custom dismiss action, so the app is not told and the dose's chain goes on"))
      record(.action, id.rawValue, at: now, fields)
      let note = "dismissed at \(format(now)) without telling the app (no custom dismiss action)"
      app.doses[dose]?.notes.append(note)
      return
    }
    if action != .ignore && app.state.isTerminated && scenario.platform.terminatedActions == .lost {
      fields.append(TimelineField("handled", "no"))
      fields.append(TimelineField("reason", "the app is terminated and its action handler did not run (platform terminatedActions: lost)"))
      record(.action, id.rawValue, at: now, fields)
      let note = "'\(action)' at \(format(now)) lost: the app was terminated"
      app.doses[dose]?.notes.append(note)
      return
    }
    record(.action, id.rawValue, at: now, fields)
    guard let info = app.requestInfo[id], let medicine = app.medicines[info.medicine] else { return }
    switch action {
    case .ignore:
      return
    case .snooze(let duration):
      app.chainSettled.insert(dose)
      cancelChain(of: dose, reason: "dose snoozed", at: now)
      // The re-alert reuses the identifier of the notification acted on, so it
      // replaces it in Notification Center; but when that identifier names a
      // pending request (the repeating daily or location request, or the next
      // dose's follow-up), reusing it would replace that request.
      let alertID = center.pending[id] != nil ? NotificationID(id.rawValue + "_snoozed") : id
      app.requestInfo[alertID] = MedicineRequestInfo(
        medicine: medicine.id, role: .snoozedAlert, dose: dose, doseScheduled: app.doses[dose]?.scheduled)
      app.doses[dose]?.snoozes += 1
      let request = NotificationRequest(
        id: alertID, title: medicine.name, body: medicine.body,
        trigger: .interval(IntervalTrigger(interval: duration, repeats: false)),
        userInfo: chainUserInfo(medicine, dose: dose, extra: TimelineField("snoozed", String(app.doses[dose]?.snoozes ?? 1))))
      add(request, at: now)
    case .complete:
      finish(dose, dismissed: false, at: now)
    case .dismiss:
      finish(dose, dismissed: true, at: now)
    case .open:
      if medicineApp.category.openCompletes {
        finish(dose, dismissed: false, at: now)
      } else {
        appLearned(of: id, dose: dose, medicine: medicine, at: now)
      }
    }
    topUpUpfrontChains(medicine, at: now)
    appCodeSetsBadge(at: now)
  }

  /// Complete or dismiss: cancel the rest of the chain and clear the dose's
  /// shown notifications.
  mutating func finish(_ dose: DoseKey, dismissed: Bool, at now: SimulationInstant) {
    let reason = dismissed ? "dose dismissed" : "dose completed"
    app.chainSettled.insert(dose)
    cancelChain(of: dose, reason: reason, at: now)
    let shownDose = app.shownDose
    clearDelivered(at: now, reason: reason) { shownDose[$0] == dose }
    if dismissed { app.doses[dose]?.dismissed = now } else { app.doses[dose]?.completed = now }
  }

  // MARK: - Dose clocks

  mutating func startDoseClocks(of medicine: Medicine, at now: SimulationInstant) {
    for (index, time) in medicine.times.enumerated() {
      var clock = DoseClock(medicine: medicine.id, index: index, time: time, trigger: dailyTrigger(time))
      clock.next = calendarEvaluator.nextDelivery(of: clock.trigger, after: now, deviceTimeZone: deviceTimeZone)
      app.doseClocks.append(clock)
      scheduleDoseClock(app.doseClocks.count - 1)
    }
  }

  /// Stops a medicine's clocks; returns each daily time's next due instant within the run.
  mutating func stopDoseClocks(of id: MedicineID) -> [(time: DailyTime, due: SimulationInstant)] {
    var due: [(DailyTime, SimulationInstant)] = []
    for position in app.doseClocks.indices where app.doseClocks[position].active && app.doseClocks[position].medicine == id {
      app.doseClocks[position].active = false
      if let next = app.doseClocks[position].next, next <= end { due.append((app.doseClocks[position].time, next)) }
    }
    return due
  }

  mutating func scheduleDoseClock(_ position: Int) {
    let clock = app.doseClocks[position]
    guard clock.active, let next = clock.next, next <= end else { return }
    queue.schedule(.doseDue(clock: position, token: clock.token), at: next, phase: .doseCheck, rank: position)
  }

  /// Floating daily times follow a time-zone change, as the requests do.
  mutating func recomputeDoseClocks(after instant: SimulationInstant) {
    for position in app.doseClocks.indices where app.doseClocks[position].active {
      let next = calendarEvaluator.nextDelivery(of: app.doseClocks[position].trigger, after: instant, deviceTimeZone: deviceTimeZone)
      guard next != app.doseClocks[position].next else { continue }
      app.doseClocks[position].next = next
      app.doseClocks[position].token += 1
      scheduleDoseClock(position)
    }
  }

  /// A daily time is due: a dose its reminder did not notify is recorded as missed.
  mutating func doseDue(clock position: Int, token: Int, at now: SimulationInstant) {
    let clock = app.doseClocks[position]
    guard clock.active, clock.token == token, let medicine = app.medicines[clock.medicine] else { return }
    let key = timeDoseKey(medicine.id, clock.time, due: now)
    if app.doses[key] == nil {
      var missed = newDose(key, medicine: medicine, reminder: clock.time.description, scheduled: now)
      missed.reason = app.lossReason[ReminderIdentifier.reminder(medicine.id, clock.index)]
        ?? "the reminder request was not pending (removed or replaced outside the app model)"
      app.doses[key] = missed
    }
    app.doseClocks[position].next = calendarEvaluator.nextDelivery(of: clock.trigger, after: now, deviceTimeZone: deviceTimeZone)
    app.doseClocks[position].token += 1
    scheduleDoseClock(position)
  }

  // MARK: - Location doses

  /// Every qualifying crossing of a location reminder's region (the truth
  /// of where the patient was) is a dose, due at the crossing. The device's
  /// detection of that visit notifies it; until then it has a provisional
  /// reason, and a crossing whose request is not pending is missed at once
  /// (a one-shot reminder is then used up).
  mutating func openLocationDoses(region index: Int, entering: Bool, visit: Int, at now: SimulationInstant) {
    guard now >= scenario.clock.start else { return }
    let region = scenario.regions[index].id
    for id in app.creationOrder {
      guard let medicine = app.medicines[id], let location = medicine.location, location.region == region,
        entering ? location.onEntry : location.onExit, app.locationArmed[id] == true
      else { continue }
      let requestID = ReminderIdentifier.location(id)
      let occurrence = (app.locationOccurrences[id] ?? 0) + 1
      app.locationOccurrences[id] = occurrence
      let key = DoseKey(medicine: id, slot: .location, occurrence: occurrence)
      var dose = newDose(key, medicine: medicine, reminder: location.summary, scheduled: now)
      if center.pending[requestID] == nil {
        dose.reason = app.lossReason[requestID] ?? "the location request was not pending"
        if !location.repeats { app.locationArmed[id] = false }
      } else {
        dose.reason = "the device had not reported this crossing when the run ended"
      }
      app.doses[key] = dose
      app.locationDoseOfVisit[MedicineAppState.LocationVisit(medicine: id, region: index, visit: visit, entering: entering)] = key
    }
  }

  /// After a detection delivered (or could not deliver) a region's requests:
  /// a dose of that visit still not notified gets the request's loss reason.
  mutating func settleLocationDoses(region index: Int, entering: Bool, visit: Int, at now: SimulationInstant) {
    for id in app.creationOrder {
      guard let key = app.locationDoseOfVisit[MedicineAppState.LocationVisit(medicine: id, region: index, visit: visit, entering: entering)],
        app.doses[key]?.notified == nil
      else { continue }
      let requestID = ReminderIdentifier.location(id)
      if let reason = app.lossReason[requestID] { app.doses[key]?.reason = reason }
      if app.medicines[id]?.location?.repeats == false && center.pending[requestID] == nil { app.locationArmed[id] = false }
    }
  }

  /// The device did not detect a visit: its doses are missed for that reason.
  mutating func noteUndetectedLocationDoses(region index: Int, entering: Bool, visit: Int, reason: String) {
    for id in app.creationOrder {
      guard let key = app.locationDoseOfVisit[MedicineAppState.LocationVisit(medicine: id, region: index, visit: visit, entering: entering)],
        app.doses[key]?.notified == nil
      else { continue }
      app.doses[key]?.reason = reason
    }
  }

  // MARK: - Summary

  func summary() -> RunSummary {
    var summary = RunSummary()
    summary.pendingPeak = pendingPeak
    summary.pendingPeakAt = pendingPeakAt
    summary.droppedByPendingLimit = droppedByPendingLimit
    summary.clock = scenario.clock
    let rank = Dictionary(uniqueKeysWithValues: app.creationOrder.enumerated().map { ($1, $0) })
    summary.doses = app.doses.values.filter { $0.scheduled >= scenario.clock.start && $0.scheduled <= end }.sorted { a, b in
      (rank[a.key.medicine] ?? 0, a.scheduled, a.key.slot, a.key.occurrence)
        < (rank[b.key.medicine] ?? 0, b.scheduled, b.key.slot, b.key.occurrence)
    }
    return summary
  }
}
