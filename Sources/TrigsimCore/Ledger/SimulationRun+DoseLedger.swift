import Foundation

/// The dose ledger at work: the prescription's clocks (a dose no
/// notification answered is missed when its window closes), the location
/// doses the track's true crossings open, and the run's dose table.
extension SimulationRun {
  // MARK: - The prescription: the patient's medicine changes

  /// A medicine is created: the prescription has it, and its doses are due from now on.
  mutating func prescriptionCreated(_ medicine: Medicine, at now: SimulationInstant) {
    ledger.medicines[medicine.id] = medicine
    ledger.creationOrder.append(medicine.id)
    startDoseClocks(of: medicine, at: now)
  }

  /// A medicine is edited: the new version's clocks replace the old ones.
  /// Returns the old version's doses still to come, for `noteDosesRemovedByEdit`
  /// (called once the app has heard of the edit).
  mutating func prescriptionReplaced(_ medicine: Medicine, at now: SimulationInstant) -> [(time: DailyTime, due: SimulationInstant, key: DoseKey)] {
    let dueBeforeEdit = stopDoseClocks(of: medicine.id)
    ledger.medicines[medicine.id] = medicine
    startDoseClocks(of: medicine, at: now)
    return dueBeforeEdit
  }

  /// A medicine is deleted: none of its doses is due any more.
  mutating func prescriptionDeleted(_ id: MedicineID) {
    _ = stopDoseClocks(of: id)
    ledger.medicines[id] = nil
  }

  /// A dose that was due later on the edit's day under the old version
  /// and that the new version no longer has was removed by the edit.
  mutating func noteDosesRemovedByEdit(
    of medicine: Medicine, dueBeforeEdit: [(time: DailyTime, due: SimulationInstant, key: DoseKey)], at now: SimulationInstant
  ) {
    for (time, due, key) in dueBeforeEdit where localDay(of: due) == localDay(of: now) {
      let stillDue = ledger.doseClocks.contains { clock in
        clock.active && clock.medicine == medicine.id && clock.time == time && clock.next?.due == due
      }
      if !stillDue && ledger.doses[key] == nil {
        var removed = newDose(key, medicine: medicine, reminder: time.description, scheduled: due)
        removed.reason = "removed by an edit at \(format(now))"
        ledger.doses[key] = removed
      }
    }
  }

  // MARK: - Requests replaced under their identifier

  /// An app (either layer) is about to add a request under `id` for `info`: a pending
  /// request of the app under the same identifier that is something else
  /// (another dose's follow-up, the daily reminder) is replaced, and the dose
  /// or reminder that loses it says so.
  mutating func claim(_ id: NotificationID, for info: MedicineRequestInfo, at now: SimulationInstant) {
    guard phone.center.pending[id] != nil, let previous = ledger.requestInfo[id] else { return }
    let what = info.role.description
    switch previous.role {
    case .reminder, .location:
      guard previous.role != info.role else { return }
      let reason = "replaced at \(format(now)) by the \(what) the app added under the same identifier"
      ledger.replacedMain[id] = reason
    case .followUp, .snoozedAlert:
      guard let earlier = previous.dose, earlier != info.dose else { return }
      let by: String
      if case .followUp = info.role, let dose = info.dose {
        by = "by the chain of the \(dose.slotLabel) dose of \(dose.occurrenceLabel) (same identifiers)"
      } else {
        by = "by the \(what) under the same identifier"
      }
      let note = "rest of the chain replaced at \(format(now)) \(by)"
      if ledger.doseNotes[earlier]?.contains(note) != true { ledger.doseNotes[earlier, default: []].append(note) }
    }
  }

  // MARK: - Dose clocks: the prescription

  /// A medicine's prescribed doses for each daily time of the version just
  /// created or edited, from now on (`PrescriptionSchedule`: the clock and
  /// the zones, not the trigger evaluator).
  mutating func startDoseClocks(of medicine: Medicine, at now: SimulationInstant) {
    for (index, time) in medicine.times.enumerated() {
      let schedule = PrescriptionSchedule(prescription: medicine.prescription, time: time, clock: scenario.clock)
      let clock = DoseClock(
        medicine: medicine.id, index: index, time: time, prescription: medicine.prescription,
        // Past the end too, so that a chain added for tomorrow's dose names it.
        doses: schedule.doses(after: now, through: end.advanced(by: .seconds(3 * 86_400))))
      ledger.doseClocks.append(clock)
      scheduleDoseClock(ledger.doseClocks.count - 1)
      let reminderServer = serverLayer
      reminderServer.doseClockStarted(ledger.doseClocks.count - 1, in: &self, at: now)
    }
  }

  /// Stops a medicine's clocks; returns each daily time's next prescribed dose within the run.
  mutating func stopDoseClocks(of id: MedicineID) -> [(time: DailyTime, due: SimulationInstant, key: DoseKey)] {
    var due: [(DailyTime, SimulationInstant, DoseKey)] = []
    for position in ledger.doseClocks.indices where ledger.doseClocks[position].active && ledger.doseClocks[position].medicine == id {
      ledger.doseClocks[position].active = false
      let clock = ledger.doseClocks[position]
      if let next = clock.next, next.due <= end { due.append((clock.time, next.due, clock.key(next))) }
    }
    return due
  }

  /// The check of the clock's next dose runs once a notification could no
  /// longer answer it: at its due instant plus the prescription's `after`.
  mutating func scheduleDoseClock(_ position: Int) {
    let clock = ledger.doseClocks[position]
    guard clock.active, let next = clock.next, next.due <= end else { return }
    let check = min(next.due.advanced(by: clock.prescription.after), end)
    queue.schedule(.doseDue(clock: position, token: clock.position), at: check, phase: .doseCheck, rank: position)
  }

  /// The prescribed dose of a medicine's daily time that a notification
  /// firing at `fire` answers: the one whose window holds `fire`, nearest
  /// first. Nil when none does: the notification answers no prescribed dose.
  func prescribedDose(_ medicine: MedicineID, _ time: DailyTime, fire: SimulationInstant) -> DoseKey? {
    var best: (distance: Int64, key: DoseKey)?
    for clock in ledger.doseClocks where clock.medicine == medicine && clock.time == time {
      for dose in clock.doses where clock.prescription.accepts(fire, due: dose.due) {
        let distance = abs(dose.due.millisecondsSinceEpoch - fire.millisecondsSinceEpoch)
        if best == nil || distance < best!.distance { best = (distance, clock.key(dose)) }
      }
      if best != nil && clock.active { break }
    }
    return best?.key
  }

  /// The dose a daily time's notification firing at `fire` belongs to: the
  /// prescribed dose it answers, or (answering none) a dose of its own that
  /// the summary leaves out; a warning says so once.
  func doseKey(_ medicine: MedicineID, _ time: DailyTime, fire: SimulationInstant) -> DoseKey {
    if let key = prescribedDose(medicine, time, fire: fire) { return key }
    return DoseKey(medicine: medicine, slot: .time(time), occurrence: localDay(of: fire), repeatOnDay: DoseKey.unprescribed)
  }

  /// A prescribed dose's check: a dose no notification answered is missed, with the reason.
  mutating func doseDue(clock position: Int, token: Int, at now: SimulationInstant) {
    let clock = ledger.doseClocks[position]
    guard clock.active, clock.position == token, let dose = clock.next, let medicine = ledger.medicines[clock.medicine] else { return }
    let key = clock.key(dose)
    if ledger.doses[key] == nil {
      var missed = newDose(key, medicine: medicine, reminder: clock.time.description, scheduled: dose.due)
      missed.reason = appLayer.missedReason(clock, dose, in: self)
      ledger.doses[key] = missed
    }
    if let remark = dose.remark, ledger.doses[key]?.notes.contains(remark) == false { ledger.doses[key]?.notes.append(remark) }
    ledger.doseClocks[position].position += 1
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
    for id in ledger.creationOrder {
      guard let medicine = ledger.medicines[id], let location = medicine.location, location.places == nil, location.region == region,
        entering ? location.onEntry : location.onExit, ledger.locationArmed[id] == true
      else { continue }
      let side = DoseLedger.LocationSide(medicine: id, region: index, entering: entering)
      if let key = ledger.provisionalLocationDoses[side], phone.locationService.believesInside(index) == entering, var adopted = ledger.doses[key] {
        // The device detected this crossing ahead of the true path (GPS error, or a region below the minimum radius) and still holds its side: the dose it opened is this visit's.
        ledger.provisionalLocationDoses[side] = nil
        let early = adopted.scheduled.duration(to: now)
        adopted.scheduled = now
        adopted.visit = DoseVisit(region: region, number: visit, entering: entering)
        adopted.notes.append("the device detected this crossing \(early) ahead of the true path")
        ledger.doses[key] = adopted
        ledger.locationDoseOfVisit[DoseLedger.LocationVisit(medicine: id, region: index, visit: visit, entering: entering)] = key
        continue
      }
      ledger.dropProvisional(side)
      let key = ledger.nextLocationDose(id)
      var dose = newDose(key, medicine: medicine, reminder: location.summary, scheduled: now)
      dose.visit = DoseVisit(region: region, number: visit, entering: entering)
      if let obstacle = appLayer.locationDoseObstacle(id, region: region, in: self) {
        dose.reason = obstacle
        if !location.repeats { ledger.locationArmed[id] = false }
      } else {
        dose.reason = "the device had not reported this crossing when the run ended"
      }
      ledger.doses[key] = dose
      ledger.locationDoseOfVisit[DoseLedger.LocationVisit(medicine: id, region: index, visit: visit, entering: entering)] = key
    }
  }

  /// After a detection delivered (or could not deliver) a region's requests:
  /// a dose of that visit still not notified gets the request's loss reason.
  mutating func settleLocationDoses(region index: Int, entering: Bool, visit: Int, at now: SimulationInstant) {
    for id in ledger.creationOrder {
      guard let key = ledger.locationDoseOfVisit[DoseLedger.LocationVisit(medicine: id, region: index, visit: visit, entering: entering)],
        ledger.doses[key]?.notified == nil
      else { continue }
      let region = scenario.regions[index].id
      if let reason = appLayer.locationDetectionLoss(id, region: region, in: self) { ledger.doses[key]?.reason = reason }
      if ledger.medicines[id]?.location?.repeats == false && appLayer.locationDoseObstacle(id, region: region, in: self) != nil {
        ledger.locationArmed[id] = false
      }
    }
  }

  /// The device did not detect a visit: its doses are missed for that reason.
  mutating func noteUndetectedLocationDoses(region index: Int, entering: Bool, visit: Int, reason: String) {
    for id in ledger.creationOrder {
      guard let key = ledger.locationDoseOfVisit[DoseLedger.LocationVisit(medicine: id, region: index, visit: visit, entering: entering)],
        ledger.doses[key]?.notified == nil
      else { continue }
      ledger.doses[key]?.reason = reason
    }
  }

  // MARK: - Summary

  /// A request the pending limit dropped, with what the ledger knew of it then.
  mutating func notePendingLimitDrop(_ id: NotificationID, at now: SimulationInstant) {
    phone.droppedByPendingLimit.append((id, now))
    phone.droppedRequestRoles.append(ledger.requestInfo[id])
  }

  /// `droppedByPendingLimit` in runs of one instant, counted by kind of request and medicine.
  func pendingLimitDropGroups() -> [PendingLimitDropGroup] {
    var groups: [PendingLimitDropGroup] = []
    for (index, drop) in phone.droppedByPendingLimit.enumerated() {
      if groups.last?.at != drop.at { groups.append(PendingLimitDropGroup(at: drop.at)) }
      let info = phone.droppedRequestRoles[index]
      groups[groups.count - 1].add(kind: info.map { PendingLimitDropGroup.kind(of: $0.role) } ?? "other request", medicine: info?.medicine)
    }
    return groups
  }

  func summary() -> RunSummary {
    var summary = RunSummary()
    summary.pendingPeak = phone.pendingPeak
    summary.pendingPeakAt = phone.pendingPeakAt
    summary.droppedByPendingLimit = phone.droppedByPendingLimit
    summary.pendingLimitDropGroups = pendingLimitDropGroups()
    summary.clock = scenario.clock
    let rank = Dictionary(uniqueKeysWithValues: ledger.creationOrder.enumerated().map { ($1, $0) })
    // A provisional dose still waiting for its true crossing at the end is a false firing, not a dose.
    let provisional = Set(ledger.provisionalLocationDoses.values)
    summary.doses = ledger.doses.values.filter {
      $0.key.isPrescribed && $0.scheduled >= scenario.clock.start && $0.scheduled <= end && !provisional.contains($0.key)
    }
      .sorted { a, b in
        (rank[a.key.medicine] ?? 0, a.scheduled, a.key.slot, a.key.place?.rawValue ?? "", a.key.occurrence)
          < (rank[b.key.medicine] ?? 0, b.scheduled, b.key.slot, b.key.place?.rawValue ?? "", b.key.occurrence)
      }
      .map(withAccountingRemarks)
      .map(withVisitExpectations)
      .map(withServerAccount)
    return summary
  }

  /// A location dose with its visit's stay, and the scenario's expectations
  /// that say its visit is silent (with a remark naming where).
  func withVisitExpectations(_ dose: DoseRecord) -> DoseRecord {
    guard var visit = dose.visit else { return dose }
    var dose = dose
    if let index = scenario.regions.firstIndex(where: { $0.id == visit.region }) {
      visit.stay = ledger.visitStays[DoseLedger.RegionVisit(region: index, visit: visit.number)]
      dose.visit = visit
    }
    let offset = scenario.clock.utcOffset(at: dose.scheduled)
    for (index, expectation) in scenario.visitExpectations.enumerated()
    where expectation.matches(medicine: dose.key.medicine, visit: visit, scheduled: dose.scheduled, utcOffsetSeconds: offset) {
      dose.expectedSilent.append(index)
      // What picks it, not where: a baseline must not change with the path or the layout of the scenario.
      dose.notes.append("visit \(visit.number) expected silent (silentVisit: \(expectation.selectorDescription))")
    }
    return dose
  }

  /// A dose row with the remarks that explain an absence: notes made while
  /// the dose had no record, no follow-ups, and response-rule steps unused.
  func withAccountingRemarks(_ dose: DoseRecord) -> DoseRecord {
    var dose = dose
    for note in ledger.doseNotes[dose.key] ?? [] where !dose.notes.contains(note) { dose.notes.append(note) }
    if let remark = appLayer.noFollowUpsRemark(dose, in: self) { dose.notes.append(remark) }
    dose.notes += patientLayer.doseRemarks(dose, in: self)
    return dose
  }
}

extension SimulationRun {
  /// The patient acted on a notification of `dose` (either app host): the
  /// ledger records it, and a taken or skipped dose is an answer the app
  /// passes to its server.
  mutating func recordPatientAct(_ action: UserAction, on dose: DoseKey, at now: SimulationInstant) {
    ledger.record(action, on: dose, at: now)
    guard action == .complete || action == .dismiss else { return }
    let reminderServer = serverLayer
    reminderServer.doseAnswered(dose, in: &self, at: now)
  }
}

extension DoseLedger {
  /// The patient's act on a notification of `dose`, the world's truth whatever the app does with it:
  /// a snooze counts, a completion or dismissal is when the dose was resolved.
  mutating func record(_ action: UserAction, on dose: DoseKey, at now: SimulationInstant) {
    switch action {
    case .snooze: doses[dose]?.snoozes += 1
    case .complete: doses[dose]?.completed = now
    case .dismiss: doses[dose]?.dismissed = now
    case .open, .ignore: break
    }
  }
}
