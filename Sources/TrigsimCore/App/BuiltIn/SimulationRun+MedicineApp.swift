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

    /// `daily reminder`, `location reminder`, `follow-up 3`, `snoozed alert`.
    var description: String {
      switch self {
      case .reminder: "daily reminder"
      case .location: "location reminder"
      case .followUp(let index): "follow-up \(index)"
      case .snoozedAlert: "snoozed alert"
      }
    }

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
  /// For a raw follow-up (`notifications:`): the daily time its identifier names.
  var rawReminder: Int? = nil
  /// For a hosted app's follow-up or snoozed alert: the daily time it names
  /// (the medicine may not exist yet when the request is added).
  var chainTime: DailyTime? = nil
  /// For a hosted app's follow-up or snoozed alert: the due instant of the
  /// dose it serves, when the app named one (`DoseAttribution`'s `due:`).
  var chainDue: SimulationInstant? = nil
}

/// The moments at which the platform runs the app's code.
enum AppCodeMoment: String {
  case foreground = "launch (foreground)"
  case action = "an action handler"
  case willPresent = "will-present (foreground delivery)"
  case backgroundRefresh = "a background refresh"
  case silentPush = "a background push"
  case medicineChange = "the patient's change to a medicine"
}

/// The built-in medicine app's own memory during a run: what its code
/// decided and did. What the prescription says and what became of each dose
/// is the ledger's (`DoseLedger`); the app's state on the device is the
/// device's (`InstalledAppState`); the patient's is `PatientState`.
struct MedicineAppState {
  /// Doses whose chain question is settled: an on-delivery chain was added,
  /// or the user acted so that none is wanted.
  var chainSettled: Set<DoseKey> = []
  /// Medicines created or edited at this instant whose requests the app has not added yet.
  var batch: [MedicineID] = []
  /// Doses for which the app added follow-ups.
  var chainAdded: Set<DoseKey> = []
  /// Every time app code ran: when, why, and which medicines' chains it re-added (nil: all; empty: none).
  var appCodeRuns: [(instant: SimulationInstant, moment: AppCodeMoment, reAdded: [MedicineID]?)] = []
  /// Every identifier the app added a request under.
  var everAdded: Set<NotificationID> = []
}

/// Request identifiers, as the app names them (its `IdentifierTemplates`).
extension IdentifierTemplates {
  public func reminder(_ medicine: MedicineID, _ index: Int) -> NotificationID {
    reminder.render(IdentifierValues(medicine: medicine, reminder: index))
  }

  public func location(_ medicine: MedicineID) -> NotificationID {
    location.render(IdentifierValues(medicine: medicine))
  }

  /// Follow-up `index` (1...count) of the chain after reminder `slot`, for
  /// `dose`. The chain's reminder number is the daily time's position in
  /// `times`, or `times.count` for the location reminder; `{followupOfMedicine}`
  /// is `n × count + index`, so every chain of a medicine has its own numbers.
  public func followUp(_ medicine: Medicine, slot: DoseSlot, index: Int, dose: DoseKey) -> NotificationID {
    let count = medicine.snooze?.count ?? 0
    let chain: Int
    switch slot {
    case .time(let time): chain = medicine.times.firstIndex(of: time) ?? medicine.times.count
    case .location: chain = medicine.times.count
    }
    return followUp.render(
      IdentifierValues(medicine: medicine.id, reminder: chain, followUp: index, followUpOfMedicine: chain * count + index, dose: dose.compactLabel))
  }
}

extension DoseKey {
  /// `20260328` (`20260328r1` for a second dose that day), or the location occurrence number: for `{dose}`.
  public var compactLabel: String {
    switch slot {
    case .time:
      let date = civilDate(fromDaysSinceEpoch: occurrence)
      return String(format: "%04lld%02lld%02lld", date.year, date.month, date.day) + (repeatOnDay > 0 ? "r\(repeatOnDay)" : "")
    case .location:
      return String(occurrence)
    }
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
  }

  // MARK: - App state

  mutating func changeApp(_ change: AppChange, at now: SimulationInstant) {
    if let state = change.state, state != installedApp.state {
      record(.app, "state", at: now, [TimelineField("to", state.rawValue), TimelineField("from", installedApp.state.rawValue)])
      let previous = installedApp.state
      installedApp.state = state
      let layer = appLayer
      layer.appStateChanged(from: previous, to: state, in: &self, at: now)
    }
    if change.backgroundRefresh {
      let layer = appLayer
      layer.backgroundRefresh(in: &self, at: now)
    }
    let locationBefore = (installedApp.locationAuthorization, installedApp.locationAccuracy)
    if let permission = change.permission, permission != installedApp.permission {
      record(.app, "permission", at: now, [TimelineField("to", permission.rawValue), TimelineField("from", installedApp.permission.rawValue)])
      installedApp.permission = permission
    }
    let wasBlocked = installedApp.regionMonitoringBlockedReason
    if let location = change.location, location != installedApp.locationAuthorization {
      record(.app, "location", at: now, [TimelineField("to", location.rawValue), TimelineField("from", installedApp.locationAuthorization.rawValue)])
      installedApp.locationAuthorization = location
    }
    if let accuracy = change.locationAccuracy, accuracy != installedApp.locationAccuracy {
      record(.app, "location-accuracy", at: now, [TimelineField("to", accuracy.rawValue), TimelineField("from", installedApp.locationAccuracy.rawValue)])
      installedApp.locationAccuracy = accuracy
    }
    let blocked = installedApp.regionMonitoringBlockedReason
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
    if locationBefore != (installedApp.locationAuthorization, installedApp.locationAccuracy) {
      let layer = appLayer
      layer.locationAuthorizationChanged(in: &self, at: now)
    }
  }

  /// The system gives the app background time (`BGAppRefreshTask`): its
  /// code runs unless the patient force-quit it or the phone is off.
  mutating func backgroundRefresh(at now: SimulationInstant) {
    if installedApp.state == .forceQuit || !attention.phoneOn {
      let why = installedApp.state == .forceQuit
        ? "the patient force-quit the app: the system does not launch it for background refresh" : "the phone is off"
      record(.app, "background-refresh", at: now, [TimelineField("ran", "no"), TimelineField("reason", why)])
      return
    }
    record(.app, "background-refresh", at: now, [TimelineField("ran", "yes"), TimelineField("app", installedApp.state.rawValue)])
    appCodeRan(.backgroundRefresh, medicine: nil, at: now)
    appCodeSetsBadge(at: now)
  }

  /// A location request that cannot fire while region monitoring is off.
  mutating func warnNeverFires(_ request: NotificationRequest, reason: String, at now: SimulationInstant) {
    record(.warning, request.id.rawValue, at: now,
           [TimelineField("trigger", request.trigger.summary), TimelineField("reason", "never fires while \(reason)")])
  }

  // MARK: - Medicine lifecycle

  var policy: AppPolicy { medicineApp.policy }

  /// A creation, edit or deletion. Changes at one instant are one batch: the
  /// app adds their requests together, in its add order, after the last one.
  mutating func applyMedicineChange(_ index: Int, at now: SimulationInstant) {
    let change = medicineApp.medicineChanges[index]
    switch change.kind {
    case .create(let medicine):
      record(.medicine, "medicine_\(medicine.id)", at: now, [TimelineField("change", "created")] + medicine.summaryFields)
      prescriptionCreated(medicine, at: now)
      app.batch.append(medicine.id)
    case .edit(let medicine):
      record(.medicine, "medicine_\(medicine.id)", at: now, [TimelineField("change", "edited")] + medicine.summaryFields)
      removePendingRequests(of: medicine.id, reason: "medicine edited", at: now)
      prescriptionEdited(medicine, at: now)
      app.batch.append(medicine.id)
    case .delete(let id):
      guard let medicine = ledger.medicines[id] else { break }
      record(.medicine, "medicine_\(id)", at: now, [TimelineField("change", "deleted"), TimelineField("name", medicine.name)])
      removePendingRequests(of: id, reason: "medicine deleted", at: now)
      let info = ledger.requestInfo
      clearDelivered(at: now, reason: "medicine deleted") { info[$0]?.medicine == id }
      prescriptionDeleted(id)
      app.batch.removeAll { $0 == id }
    }
    let changes = medicineApp.medicineChanges
    let lastOfInstant = index + 1 == changes.count || changes[index + 1].instant != change.instant
    if policy.addOrder == .interleaved || lastOfInstant { addBatch(at: now) }
  }

  /// Adds the requests of the medicines created or edited since the last
  /// batch, in the policy's add order.
  mutating func addBatch(at now: SimulationInstant) {
    let ids = app.batch
    app.batch = []
    var mains: [PlannedAdd] = []
    var chains: [PlannedAdd] = []
    var ordered: [PlannedAdd] = []
    for id in ids {
      guard let medicine = ledger.medicines[id] else { continue }
      let plan = plannedAdds(of: medicine, at: now)
      switch policy.addOrder {
      case .interleaved:
        ordered += plan
      case .perMedicine:
        ordered += plan.filter { !$0.isChain } + plan.filter(\.isChain)
      case .remindersFirst, .chainsFirst:
        mains += plan.filter { !$0.isChain }
        chains += plan.filter(\.isChain)
      }
    }
    if !ids.isEmpty {
      app.appCodeRuns.append((now, .medicineChange, ids))
    }
    if policy.addOrder == .remindersFirst { ordered = mains + chains }
    if policy.addOrder == .chainsFirst { ordered = chains + mains }
    for planned in ordered { addPlanned(planned, at: now) }
    for id in ids {
      // One request per nearest place, after the batch's other requests.
      if let medicine = ledger.medicines[id], medicine.location?.places != nil { addPlaceSetRequests(of: medicine, at: now) }
    }
  }

  /// A request the app is about to add, with what the run knows of it.
  struct PlannedAdd {
    var request: NotificationRequest
    var info: MedicineRequestInfo
    var isChain: Bool { !info.role.isMain }
  }

  /// Adds a planned request: records what it is for (noting a request of
  /// another role or dose that the same identifier replaces), then `add`.
  mutating func addPlanned(_ planned: PlannedAdd, at now: SimulationInstant) {
    let id = planned.request.id
    claim(id, for: planned.info, at: now)
    // The reminder is back under its identifier.
    if planned.info.role.isMain { ledger.replacedMain[id] = nil }
    ledger.requestInfo[id] = planned.info
    if case .location = planned.info.role { ledger.locationArmed[planned.info.medicine] = true }
    if planned.isChain, let dose = planned.info.dose { app.chainAdded.insert(dose) }
    app.everAdded.insert(id)
    add(planned.request, at: now)
  }

  /// The app's requests for a medicine version: each daily reminder and its
  /// upfront chain, then the location request (the interleaved order).
  func plannedAdds(of medicine: Medicine, at now: SimulationInstant) -> [PlannedAdd] {
    var plan: [PlannedAdd] = []
    for (index, time) in medicine.times.enumerated() {
      let id = policy.identifiers.reminder(medicine.id, index)
      let request = NotificationRequest(
        id: id, title: medicine.name, body: medicine.body, trigger: .calendar(dailyTrigger(time)),
        userInfo: mainUserInfo(medicine, slot: .time(time)))
      plan.append(PlannedAdd(request: request, info: MedicineRequestInfo(medicine: medicine.id, role: .reminder(index, time))))
      if medicine.snooze?.scheduling == .upfront { plan += upfrontChain(of: medicine, time: time, at: now) }
    }
    // A place set's requests depend on where the device is: `addBatch` adds them (SimulationRun+RegionSet.swift).
    if let location = medicine.location, location.places == nil {
      let id = policy.identifiers.location(medicine.id)
      let trigger = RegionTrigger(
        region: location.region, notifyOnEntry: location.onEntry, notifyOnExit: location.onExit, repeats: location.repeats)
      let request = NotificationRequest(
        id: id, title: medicine.name, body: medicine.body, trigger: .region(trigger),
        userInfo: mainUserInfo(medicine, slot: .location))
      plan.append(PlannedAdd(request: request, info: MedicineRequestInfo(medicine: medicine.id, role: .location)))
    }
    return plan
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
    for pending in center.pendingInAddOrder() where ledger.requestInfo[pending.request.id]?.medicine == id {
      removePending(pending.request.id, reason: reason, at: now)
      guard let info = ledger.requestInfo[pending.request.id], !info.role.isMain, let dose = info.dose, ledger.doses[dose] != nil
      else { continue }
      let note = "chain removed: \(reason) at \(format(now))"
      if ledger.doses[dose]?.notes.contains(note) == false { ledger.doses[dose]?.notes.append(note) }
    }
  }

  mutating func removePending(_ id: NotificationID, reason: String, at now: SimulationInstant) {
    guard let removed = center.removePending(id) else { return }
    record(.removed, id.rawValue, at: now, [TimelineField("trigger", removed.request.trigger.summary), TimelineField("reason", reason)])
    ledger.requestLost(id, "removed at \(format(now)): \(reason)")
  }

  /// `removeDeliveredNotifications` for the shown medicine notifications that
  /// `matches` selects, in delivery order.
  mutating func clearDelivered(at now: SimulationInstant, reason: String, where matches: (NotificationID) -> Bool) {
    let shown = center.delivered.values.filter { matches($0.id) }.sorted { $0.serial < $1.serial }
    for notification in shown {
      center.removeDelivered(notification.id)
      forgetHeld(notification.id)
      ledger.notificationLeft(notification.id, "cleared by the app at \(format(now)) (\(reason))")
      record(.cleared, notification.id.rawValue, at: now, [TimelineField("reason", reason)])
    }
  }

  // MARK: - Chains

  /// Upfront chain for a daily time: one-shot requests dated `every`,
  /// 2 × `every`, ... after the time's next occurrence.
  func upfrontChain(of medicine: Medicine, time: DailyTime, at now: SimulationInstant) -> [PlannedAdd] {
    guard let policy = medicine.snooze, policy.count > 0,
      let occurrence = calendarEvaluator.nextDelivery(of: dailyTrigger(time), after: now, deviceTimeZone: deviceTimeZone)
    else { return [] }
    let dose = doseKey(medicine.id, time, fire: occurrence)
    return (1...policy.count).map { followUp in
      let at = occurrence.advanced(by: policy.every * Int64(followUp))
      let id = self.policy.identifiers.followUp(medicine, slot: .time(time), index: followUp, dose: dose)
      let request = NotificationRequest(
        id: id, title: medicine.name, body: medicine.body, trigger: .calendar(datedTrigger(at)),
        userInfo: chainUserInfo(medicine, dose: dose, extra: TimelineField("followup", "\(followUp)/\(policy.count)")))
      return PlannedAdd(
        request: request, info: MedicineRequestInfo(medicine: medicine.id, role: .followUp(index: followUp), dose: dose, doseScheduled: occurrence))
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

  /// App code ran at `moment`: it re-adds upfront chains for the medicines
  /// the policy's scope for that moment names (`ChainReAdds`), and the
  /// run notes that app code ran (for the dose table's remarks).
  mutating func appCodeRan(_ moment: AppCodeMoment, medicine: MedicineID?, at now: SimulationInstant) {
    let scope: ChainReAddScope
    switch moment {
    case .foreground: scope = policy.chainReAdds.foreground
    case .action: scope = policy.chainReAdds.action
    case .willPresent: scope = policy.chainReAdds.willPresent
    case .backgroundRefresh: scope = policy.chainReAdds.backgroundRefresh
    case .silentPush: scope = policy.chainReAdds.silentPush
    case .medicineChange: scope = .none
    }
    switch scope {
    case .none:
      app.appCodeRuns.append((now, moment, []))
    case .medicine:
      app.appCodeRuns.append((now, moment, medicine.map { [$0] } ?? []))
      if let medicine, let current = ledger.medicines[medicine] { topUpUpfrontChains(current, at: now) }
    case .all:
      app.appCodeRuns.append((now, moment, nil))
      for id in ledger.creationOrder { if let current = ledger.medicines[id] { topUpUpfrontChains(current, at: now) } }
    }
  }

  /// When the app's code re-adds chains, it adds the next occurrence's chain
  /// for every daily time that has no chain request pending. A pending
  /// snoozed alert may hold a follow-up's identifier, which the next chain
  /// reuses, so the app waits until it has fired.
  mutating func topUpUpfrontChains(_ medicine: Medicine, at now: SimulationInstant) {
    guard medicine.snooze?.scheduling == .upfront else { return }
    for time in medicine.times {
      let hasPending = center.pending.keys.contains { id in
        guard let info = ledger.requestInfo[id], info.medicine == medicine.id, !info.role.isMain else { return false }
        return info.dose?.slot == .time(time)
      }
      if !hasPending { for planned in upfrontChain(of: medicine, time: time, at: now) { addPlanned(planned, at: now) } }
    }
  }

  /// On-delivery chain: one-shot intervals `every`, 2 × `every`, ... from now.
  mutating func addOnDeliveryChain(of medicine: Medicine, dose: DoseKey, at now: SimulationInstant) {
    guard let policy = medicine.snooze, policy.count > 0 else { return }
    app.chainSettled.insert(dose)
    for followUp in 1...policy.count {
      let id = self.policy.identifiers.followUp(medicine, slot: dose.slot, index: followUp, dose: dose)
      let request = NotificationRequest(
        id: id, title: medicine.name, body: medicine.body,
        trigger: .interval(IntervalTrigger(interval: policy.every * Int64(followUp), repeats: false)),
        userInfo: chainUserInfo(medicine, dose: dose, extra: TimelineField("followup", "\(followUp)/\(policy.count)")))
      addPlanned(
        PlannedAdd(
          request: request,
          info: MedicineRequestInfo(medicine: medicine.id, role: .followUp(index: followUp), dose: dose, doseScheduled: ledger.doses[dose]?.scheduled)),
        at: now)
    }
  }

  /// Removes the dose's pending follow-ups and snoozed alerts.
  mutating func cancelChain(of dose: DoseKey, reason: String, at now: SimulationInstant) {
    for pending in center.pendingInAddOrder() {
      guard let info = ledger.requestInfo[pending.request.id], info.dose == dose, !info.role.isMain else { continue }
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
    guard let info = ledger.requestInfo[id], let medicine = ledger.medicines[info.medicine] else { return nil }
    switch info.role {
    case .reminder(_, let time):
      let due = catchUpDue ?? now
      let key = doseKey(medicine.id, time, fire: due)
      if !key.isPrescribed { warnUnprescribed(id, medicine: medicine, time: time, fire: due, at: now) }
      // Delivered: an earlier loss of this reminder no longer explains anything.
      ledger.requestPending(id)
      if ledger.doses[key] == nil {
        ledger.doses[key] = newDose(key, medicine: medicine, reminder: time.description, scheduled: due)
      }
      ledger.doses[key]?.reminderDelivered = now
      if catchUpDue != nil {
        ledger.doses[key]?.reason = nil
        let note = "due while the phone was off; delivered at \(format(now)) when it came on"
        ledger.doses[key]?.notes.append(note)
      }
      return key
    case .location:
      if medicine.location?.repeats == false { ledger.locationArmed[medicine.id] = false }
      // A hosted app's notification posted for a visit (from its region
      // callback) names the visit's dose; the built-in app's never do.
      if let key = info.dose, ledger.doses[key]?.reminderDelivered == nil, ledger.doses[key] != nil {
        ledger.doses[key]?.reminderDelivered = now
        ledger.doses[key]?.reason = nil
        return key
      }
      if let context = locationReportContext, let visit = context.visit,
        let key = ledger.locationDoseOfVisit[
          DoseLedger.LocationVisit(medicine: medicine.id, region: context.region, visit: visit, entering: context.entering)],
        ledger.doses[key]?.reminderDelivered == nil
      {
        ledger.doses[key]?.reminderDelivered = now
        ledger.doses[key]?.reason = nil
        return key
      }
      // No geometric crossing opened a dose (a crossing before the clock's
      // start, or a detection of a side the true path did not reach: a region
      // below the minimum radius, GPS error in a trial): this delivery opens one.
      let occurrence = (ledger.locationOccurrences[medicine.id] ?? 0) + 1
      ledger.locationOccurrences[medicine.id] = occurrence
      let key = DoseKey(medicine: medicine.id, slot: .location, occurrence: occurrence)
      var opened = newDose(key, medicine: medicine, reminder: medicine.location?.summary ?? "", scheduled: now)
      opened.reminderDelivered = now
      ledger.doses[key] = opened
      return key
    case .followUp, .snoozedAlert:
      guard let key = info.dose ?? rawChainDose(info, medicine: medicine, at: now) else { return nil }
      if ledger.doses[key] == nil {
        let label: String
        switch key.slot {
        case .time(let time): label = time.description
        case .location: label = medicine.location?.summary ?? ""
        }
        var opened = newDose(key, medicine: medicine, reminder: label, scheduled: prescribedDue(of: key) ?? info.doseScheduled ?? now)
        let main = mainIdentifier(of: key)
        opened.reason = ledger.replacedMain[main].map { "the daily reminder \(main) was \($0)" } ?? ledger.lossReason[main]
        ledger.doses[key] = opened
      }
      if case .followUp(let index) = info.role {
        ledger.doses[key]?.followUpsDelivered += 1
        if let count = medicine.snooze?.count, index == count {
          ledger.doses[key]?.chainRanOut = true
          ledger.doses[key]?.notes.append("chain ran out: follow-up \(count) of \(count) delivered")
        }
      } else {
        ledger.doses[key]?.snoozedAlertsDelivered += 1
      }
      return key
    }
  }

  /// The due instant of a prescribed dose.
  func prescribedDue(of key: DoseKey) -> SimulationInstant? {
    guard case .time(let time) = key.slot, key.isPrescribed else { return nil }
    for clock in ledger.doseClocks where clock.medicine == key.medicine && clock.time == time {
      if let dose = clock.doses.first(where: { clock.key($0) == key }) { return dose.due }
    }
    return nil
  }

  /// What the app's run knows of a raw request (`notifications:`) whose
  /// identifier has the form of one of the app's: it counts for that
  /// medicine's doses. Nil for any other identifier.
  func rawRequestInfo(_ id: NotificationID) -> MedicineRequestInfo? {
    let templates = policy.identifiers
    for medicineID in ledger.creationOrder {
      guard let medicine = ledger.medicines[medicineID] else { continue }
      if let values = templates.reminder.match(id.rawValue), values.medicine == medicineID, let index = values.reminder,
        medicine.times.indices.contains(index)
      {
        return MedicineRequestInfo(medicine: medicineID, role: .reminder(index, medicine.times[index]))
      }
      if medicine.location != nil, let values = templates.location.match(id.rawValue), values.medicine == medicineID {
        return MedicineRequestInfo(medicine: medicineID, role: .location)
      }
      if let values = templates.followUp.match(id.rawValue), values.medicine == medicineID {
        let count = max(medicine.snooze?.count ?? 1, 1)
        let number = values.followUp ?? values.followUpOfMedicine.map { ($0 - 1) % count + 1 } ?? 1
        return MedicineRequestInfo(medicine: medicineID, role: .followUp(index: number), rawReminder: rawChainReminder(values, count: count))
      }
    }
    return nil
  }

  /// The daily time a raw follow-up's identifier names, if it names one.
  private func rawChainReminder(_ values: IdentifierValues, count: Int) -> Int? {
    values.reminder ?? values.followUpOfMedicine.map { ($0 - 1) / count }
  }

  /// The dose a raw follow-up answers: the latest prescribed dose of its
  /// daily time (the first time when its identifier names none) due by now;
  /// for a hosted app that named the dose's due instant, the dose whose window holds it.
  func rawChainDose(_ info: MedicineRequestInfo, medicine: Medicine, at now: SimulationInstant) -> DoseKey? {
    let index = info.rawReminder ?? 0
    guard let time = info.chainTime ?? (medicine.times.indices.contains(index) ? medicine.times[index] : nil) else { return nil }
    // The app named the dose: the one whose window holds its due instant.
    if let due = info.chainDue { return doseKey(medicine.id, time, fire: due) }
    var latest: DoseKey?
    var latestDue: SimulationInstant?
    for clock in ledger.doseClocks where clock.medicine == medicine.id && clock.time == time {
      for dose in clock.doses where dose.due <= now && (latestDue == nil || dose.due > latestDue!) {
        latest = clock.key(dose)
        latestDue = dose.due
      }
    }
    return latest
  }

  /// A daily reminder fired where no prescribed dose is due: a warning, and
  /// the dose it opens is left out of the summary.
  mutating func warnUnprescribed(_ id: NotificationID, medicine: Medicine, time: DailyTime, fire: SimulationInstant, at now: SimulationInstant) {
    let prescription = medicine.prescription
    record(.warning, id.rawValue, at: now, [
      TimelineField("reason", "fired \(format(fire)), outside the window of every prescribed \(time) dose (\(prescription.summary)): it answers no dose"),
    ])
  }

  func newDose(_ key: DoseKey, medicine: Medicine, reminder: String, scheduled: SimulationInstant) -> DoseRecord {
    DoseRecord(key: key, medicineName: medicine.name, reminder: reminder, scheduled: scheduled)
  }

  func mainIdentifier(of dose: DoseKey) -> NotificationID {
    switch dose.slot {
    case .time(let time):
      policy.identifiers.reminder(dose.medicine, ledger.medicines[dose.medicine]?.times.firstIndex(of: time) ?? -1)
    case .location: policy.identifiers.location(dose.medicine)
    }
  }

  /// After a medicine notification is delivered to Notification Center:
  /// its bookkeeping, and the will-present callback when the app is in the
  /// foreground. The patient may not perceive it yet (`DoseLedger.perceived`, `PatientLayer.perceived`).
  mutating func medicineNotificationDelivered(_ shown: DeliveredNotification, dose: DoseKey, at now: SimulationInstant) {
    let id = shown.id
    guard let info = ledger.requestInfo[id], let medicine = ledger.medicines[info.medicine] else { return }
    if installedApp.state == .foreground {
      appLearned(of: id, dose: dose, medicine: medicine, at: now)
      appCodeRan(.willPresent, medicine: medicine.id, at: now)
      appCodeSetsBadge(at: now)
    } else if info.role.isMain, let policy = medicine.snooze, policy.scheduling == .onDelivery, policy.count > 0,
      !app.chainSettled.contains(dose)
    {
      let why = "follow-up chain not scheduled: the app was \(installedApp.state.isTerminated ? "terminated" : "in the background") at delivery, so its will-present callback did not run; the \(policy.count) follow-ups are added only if the user acts on this notification"
      record(.warning, id.rawValue, at: now, [TimelineField("reason", why)])
      ledger.doses[dose]?.notes.append("chain not scheduled at delivery (app \(installedApp.state.rawValue))")
    }
  }

  /// App code heard of a delivery (will-present or an action): an
  /// on-delivery chain starts if the dose has none yet.
  mutating func appLearned(of id: NotificationID, dose: DoseKey, medicine: Medicine, at now: SimulationInstant) {
    guard let info = ledger.requestInfo[id], info.role.isMain, medicine.snooze?.scheduling == .onDelivery,
      !app.chainSettled.contains(dose), ledger.doses[dose]?.resolved == nil
    else { return }
    if ledger.doses[dose]?.notes.contains(where: { $0.hasPrefix("chain not scheduled") }) == true {
      let note = "chain added late, when the user acted at \(format(now))"
      ledger.doses[dose]?.notes.append(note)
    }
    addOnDeliveryChain(of: medicine, dose: dose, at: now)
  }

  // MARK: - User actions

  /// The user acts on a shown notification; the system removes it from
  /// Notification Center (except for `ignore`) and the app's handler runs.
  mutating func perform(_ action: UserAction, on id: NotificationID, by source: String, at now: SimulationInstant) {
    guard let dose = ledger.shownDose[id] else { return }
    var fields = [TimelineField("action", action.description), TimelineField("by", source), TimelineField("dose", dose.occurrenceLabel)]
    if action != .ignore { takeOutOfNotificationCenter(id, chosen: action, at: now) }
    /// The action entry of a response the app never hears, and the dose's remark.
    func notHandled(_ field: TimelineField, _ reason: String, note: String, in run: inout SimulationRun) {
      run.record(.action, id.rawValue, at: now, fields + [field, TimelineField("reason", reason)])
      run.ledger.doses[dose]?.notes.append(note)
    }
    if action == .dismiss && !medicineApp.category.customDismiss {
      notHandled(
        TimelineField("reported", "no"), "the category has no custom dismiss action, so the app is not told and the dose's chain goes on",
        note: "dismissed at \(format(now)) without telling the app (no custom dismiss action)", in: &self)
      return
    }
    if action != .ignore && installedApp.state.isTerminated && scenario.platform.terminatedActions == .lost {
      notHandled(
        TimelineField("handled", "no"), "the app is terminated and its action handler did not run (platform terminatedActions: lost)",
        note: "'\(action)' at \(format(now)) lost: the app was terminated", in: &self)
      return
    }
    // In the background an action handler may be suspended before its
    // asynchronous work: the cancellations run, the re-adds do not.
    let cutShort = action != .ignore && policy.handler == .cutShort && installedApp.state != .foreground
    if cutShort { fields.append(TimelineField("handler", "cut-short")) }
    record(.action, id.rawValue, at: now, fields)
    guard let info = ledger.requestInfo[id], let medicine = ledger.medicines[info.medicine] else { return }
    switch action {
    case .ignore:
      return
    case .snooze(let duration):
      app.chainSettled.insert(dose)
      cancelChain(of: dose, reason: "dose snoozed", at: now)
      ledger.doses[dose]?.snoozes += 1
      guard !cutShort else {
        handlerCutShort(id, lost: "the snoozed alert", dose: dose, at: now)
        appCodeCutShort(at: now)
        return
      }
      snooze(id, dose: dose, medicine: medicine, for: duration, at: now)
    case .complete:
      finish(dose, dismissed: false, at: now)
    case .dismiss:
      finish(dose, dismissed: true, at: now)
    case .open:
      if medicineApp.category.openCompletes {
        finish(dose, dismissed: false, at: now)
      } else if !cutShort {
        appLearned(of: id, dose: dose, medicine: medicine, at: now)
      }
    }
    guard !cutShort else {
      if medicine.snooze?.scheduling == .upfront, policy.chainReAdds.action != .none {
        handlerCutShort(id, lost: "the chain top-up", dose: dose, at: now)
      }
      appCodeCutShort(at: now)
      return
    }
    appCodeRan(.action, medicine: medicine.id, at: now)
    appCodeSetsBadge(at: now)
  }

  /// The patient's choice takes a notification out of Notification Center.
  mutating func takeOutOfNotificationCenter(_ id: NotificationID, chosen action: UserAction, at now: SimulationInstant) {
    center.removeDelivered(id)
    forgetHeld(id)
    ledger.notificationLeft(id, "the user chose '\(action)' at \(format(now))")
  }

  /// An action handler ran but was suspended before re-adding anything.
  mutating func appCodeCutShort(at now: SimulationInstant) {
    app.appCodeRuns.append((now, .action, []))
  }

  /// The system suspended the app before its handler's re-adds ran.
  mutating func handlerCutShort(_ id: NotificationID, lost: String, dose: DoseKey, at now: SimulationInstant) {
    record(.warning, id.rawValue, at: now, [
      TimelineField("reason", "the action handler was cut short (policy handler: cut-short; the app was \(installedApp.state.rawValue)): \(lost) was never added"),
    ])
    let note = "\(lost) lost at \(format(now)): the action handler was cut short"
    if ledger.doses[dose]?.notes.contains(note) == false { ledger.doses[dose]?.notes.append(note) }
  }

  /// The snoozed alert, as the policy implements it (`SnoozeImplementation`).
  mutating func snooze(_ id: NotificationID, dose: DoseKey, medicine: Medicine, for duration: SimulationDuration, at now: SimulationInstant) {
    let implementation = policy.snooze
    let alertID: NotificationID
    switch implementation.identifier {
    case .sameUnlessPending:
      // The re-alert reuses the identifier of the notification acted on, so it
      // replaces it in Notification Center; but when that identifier names a
      // pending request (the repeating daily or location request, or the next
      // dose's follow-up), reusing it would replace that request.
      alertID = center.pending[id] != nil ? NotificationID(id.rawValue + "_snoozed") : id
    case .same:
      alertID = id
    case .template(let template):
      let reminder: Int
      switch dose.slot {
      case .time(let time): reminder = medicine.times.firstIndex(of: time) ?? medicine.times.count
      case .location: reminder = medicine.times.count
      }
      alertID = template.render(IdentifierValues(medicine: medicine.id, reminder: reminder, dose: dose.compactLabel))
    }
    let snoozes = ledger.doses[dose]?.snoozes ?? 1
    let trigger: Trigger
    switch implementation.trigger {
    case .intervalFromNow:
      trigger = .interval(IntervalTrigger(interval: duration, repeats: false))
    case .calendarFromDue:
      let due = ledger.doses[dose]?.scheduled ?? now
      let at = due.advanced(by: duration)
      if at <= now && implementation.onlyIfFuture {
        let why = "snoozed alert not added: the dose's time \(format(due)) + \(duration) = \(format(at)) is not in the future (the app's only-if-future guard)"
        record(.warning, alertID.rawValue, at: now, [TimelineField("reason", why)])
        let note = "snooze at \(format(now)) added no alert: \(format(due)) + \(duration) had passed"
        ledger.doses[dose]?.notes.append(note)
        return
      }
      trigger = .calendar(datedTrigger(at))
    }
    let request = NotificationRequest(
      id: alertID, title: medicine.name, body: medicine.body, trigger: trigger,
      userInfo: chainUserInfo(medicine, dose: dose, extra: TimelineField("snoozed", String(snoozes))))
    addPlanned(
      PlannedAdd(request: request, info: MedicineRequestInfo(medicine: medicine.id, role: .snoozedAlert, dose: dose, doseScheduled: ledger.doses[dose]?.scheduled)),
      at: now)
  }

  /// Complete or dismiss: cancel the rest of the chain and clear the dose's
  /// shown notifications.
  mutating func finish(_ dose: DoseKey, dismissed: Bool, at now: SimulationInstant) {
    let reason = dismissed ? "dose dismissed" : "dose completed"
    app.chainSettled.insert(dose)
    cancelChain(of: dose, reason: reason, at: now)
    let shownDose = ledger.shownDose
    clearDelivered(at: now, reason: reason) { shownDose[$0] == dose }
    if dismissed { ledger.doses[dose]?.dismissed = now } else { ledger.doses[dose]?.completed = now }
  }

  // MARK: - Explanations for the dose table

  /// Why no notification answered a prescribed dose.
  func missedReason(_ clock: DoseClock, _ dose: PrescribedDose) -> String {
    let id = policy.identifiers.reminder(clock.medicine, clock.index)
    if let replaced = ledger.replacedMain[id] { return "the daily reminder \(id) was \(replaced)" }
    if let loss = ledger.lossReason[id] { return loss }
    if let pending = center.pending[id], ledger.requestInfo[id]?.role == .reminder(clock.index, clock.time) {
      let fires = pending.nextDelivery.map { "next fires \(format($0))" } ?? "never fires"
      let window = "outside the prescription's window (\(clock.prescription.summary))"
      let previousDue = clock.doses.last(where: { $0.due < dose.due })?.due ?? scenario.clock.start
      if let change = scenario.clock.timeZoneChanges.last(where: { $0.instant <= dose.due.advanced(by: clock.prescription.after) }) {
        let from = scenario.clock.deviceZone(at: change.instant.advanced(byMilliseconds: -1)).identifier
        let cause = change.instant > previousDue
          ? "time-zone change at \(format(change.instant)) (\(from) → \(change.timeZone.identifier))"
          : "device zone \(change.timeZone.identifier) since the time-zone change at \(format(change.instant))"
        return "\(cause): the floating \(clock.time) reminder \(fires), \(window)"
      }
      let zone = scenario.clock.deviceZone(at: dose.due)
      let dayStart = dose.due.advanced(by: .seconds(-43_200)).date
      let dayEnd = dose.due.advanced(by: .seconds(43_200)).date
      if zone.secondsFromGMT(for: dayStart) != zone.secondsFromGMT(for: dayEnd) {
        let rules = "dst-gap=\(scenario.platform.dstGapPolicy.rawValue) repeated-time=\(scenario.platform.repeatedTimePolicy.rawValue)"
        return "DST change in \(zone.identifier): under the platform's rule (\(rules)) the \(clock.time) reminder \(fires), \(window)"
      }
      return "the \(clock.time) reminder \(fires), \(window)"
    }
    if !app.everAdded.contains(id) { return "never scheduled: the app added no request \(id)" }
    return "the reminder request was not pending (removed or replaced outside the app model)"
  }

  /// After a time-zone change: a prescribed dose that the moved floating
  /// reminder no longer answers gets a warning now (the floating time moved past its day).
  mutating func warnMovedReminders(at now: SimulationInstant) {
    for clock in ledger.doseClocks where clock.active {
      let id = policy.identifiers.reminder(clock.medicine, clock.index)
      guard let pending = center.pending[id], ledger.requestInfo[id]?.role == .reminder(clock.index, clock.time),
        let dose = clock.doses.first(where: { $0.due.advanced(by: clock.prescription.after) >= now })
      else { continue }
      if let next = pending.nextDelivery, clock.prescription.accepts(next, due: dose.due) { continue }
      let fires = pending.nextDelivery.map { "now fires \(format($0))" } ?? "never fires now"
      record(.warning, id.rawValue, at: now, [
        TimelineField("dose", clock.key(dose).occurrenceLabel),
        TimelineField("reason", "the floating \(clock.time) reminder \(fires); the prescribed dose due \(format(dose.due)) (\(clock.prescription.summary)) has no reminder"),
      ])
    }
  }

  /// "no follow-ups: ...": an unanswered or missed dose of an upfront chain
  /// for which the app added no follow-up, and why no app code added one.
  func noFollowUpsRemark(_ dose: DoseRecord) -> String? {
    guard dose.resolved == nil, dose.followUpsDelivered == 0, !app.chainAdded.contains(dose.key), case .time = dose.key.slot,
      let medicine = ledger.medicines[dose.key.medicine] ?? lastVersion(of: dose.key.medicine),
      let chain = medicine.snooze, chain.scheduling == .upfront, chain.count > 0
    else { return nil }
    guard let last = app.appCodeRuns.last(where: { $0.instant < dose.scheduled }) else {
      return "no follow-ups: no app code ran before this dose to add them"
    }
    let what: String
    switch (last.moment, last.reAdded) {
    case (.medicineChange, _):
      what = "added the chains of the doses right after it only"
    case (_, nil):
      // It re-added every medicine's chains: one of this time was still pending.
      what = "found a chain of this daily time still pending, so added none"
    case (_, let medicines?) where medicines.contains(dose.key.medicine):
      what = "found a chain of this daily time still pending, so added none"
    case (_, let medicines?) where medicines.isEmpty:
      what = last.moment == .action && policy.handler == .cutShort ? "was cut short before re-adding chains" : "re-adds no chains (policy reAddChains)"
    case (_, let medicines?):
      what = "re-added only medicine \(medicines.map(\.rawValue).joined(separator: ", "))'s chains"
    }
    return "no follow-ups: the last app code before this dose, \(last.moment.rawValue) at \(format(last.instant)), \(what)"
  }

  func lastVersion(of id: MedicineID) -> Medicine? {
    for change in medicineApp.medicineChanges.reversed() where change.medicineID == id {
      if case .create(let medicine) = change.kind { return medicine }
      if case .edit(let medicine) = change.kind { return medicine }
    }
    return nil
  }
}
