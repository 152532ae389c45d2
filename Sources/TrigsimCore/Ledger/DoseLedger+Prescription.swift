import Foundation

/// The dose ledger at work: the prescription's clocks (a dose no
/// notification answered is missed when its window closes), the location
/// doses the track's true crossings open, and the run's dose table. What it
/// needs of the world (the clock, the zones, the regions) and of the other
/// layers it reads from the run it is handed; it writes only its own records,
/// warnings about doses, and its dose checks.
extension DoseLedger {
  // MARK: - The prescription: the patient's medicine changes

  /// A medicine is created: the prescription has it, and its doses are due from now on.
  func prescriptionCreated(_ medicine: Medicine, in run: inout SimulationRun, at now: SimulationInstant) {
    medicines[medicine.id] = medicine
    creationOrder.append(medicine.id)
    startDoseClocks(of: medicine, in: &run, at: now)
  }

  /// A medicine is edited: the new version's clocks replace the old ones.
  /// Returns the old version's doses still to come, for `noteDosesRemovedByEdit`
  /// (called once the app has heard of the edit).
  func prescriptionReplaced(
    _ medicine: Medicine, in run: inout SimulationRun, at now: SimulationInstant
  ) -> [(time: DailyTime, due: SimulationInstant, key: DoseKey)] {
    let dueBeforeEdit = stopDoseClocks(of: medicine.id, in: run)
    medicines[medicine.id] = medicine
    startDoseClocks(of: medicine, in: &run, at: now)
    return dueBeforeEdit
  }

  /// A medicine is deleted: none of its doses is due any more.
  func prescriptionDeleted(_ id: MedicineID, in run: SimulationRun) {
    _ = stopDoseClocks(of: id, in: run)
    medicines[id] = nil
  }

  /// A dose that was due later on the edit's day under the old version
  /// and that the new version no longer has was removed by the edit.
  func noteDosesRemovedByEdit(
    of medicine: Medicine, dueBeforeEdit: [(time: DailyTime, due: SimulationInstant, key: DoseKey)], in run: SimulationRun,
    at now: SimulationInstant
  ) {
    for (time, due, key) in dueBeforeEdit where localDay(of: due, in: run) == localDay(of: now, in: run) {
      let stillDue = doseClocks.contains { clock in
        clock.active && clock.medicine == medicine.id && clock.time == time && clock.next?.due == due
      }
      if !stillDue && doses[key] == nil {
        var removed = newDose(key, medicine: medicine, reminder: time.description, scheduled: due)
        removed.reason = "removed by an edit at \(run.format(now))"
        doses[key] = removed
      }
    }
  }

  // MARK: - Requests replaced under their identifier

  /// An app (either layer) is about to add a request under `id` for `info`: a pending
  /// request of the app under the same identifier that is something else
  /// (another dose's follow-up, the daily reminder) is replaced, and the dose
  /// or reminder that loses it says so.
  func claim(_ id: NotificationID, for info: MedicineRequestInfo, in run: SimulationRun, at now: SimulationInstant) {
    guard run.layers.phone.core.center.pending[id] != nil, let previous = requestInfo[id] else { return }
    let what = info.role.description
    switch previous.role {
    case .reminder, .location:
      guard previous.role != info.role else { return }
      let reason = "replaced at \(run.format(now)) by the \(what) the app added under the same identifier"
      replacedMain[id] = reason
    case .followUp, .snoozedAlert:
      guard let earlier = previous.dose, earlier != info.dose else { return }
      let by: String
      if case .followUp = info.role, let dose = info.dose {
        by = "by the chain of the \(dose.slotLabel) dose of \(dose.occurrenceLabel) (same identifiers)"
      } else {
        by = "by the \(what) under the same identifier"
      }
      let note = "rest of the chain replaced at \(run.format(now)) \(by)"
      if doseNotes[earlier]?.contains(note) != true { doseNotes[earlier, default: []].append(note) }
    }
  }

  // MARK: - Dose clocks: the prescription

  /// A medicine's prescribed doses for each daily time of the version just
  /// created or edited, from now on (`PrescriptionSchedule`: the clock and
  /// the zones, not the trigger evaluator).
  func startDoseClocks(of medicine: Medicine, in run: inout SimulationRun, at now: SimulationInstant) {
    for (index, time) in medicine.times.enumerated() {
      let schedule = PrescriptionSchedule(prescription: medicine.prescription, time: time, clock: run.scenario.clock)
      let clock = DoseClock(
        medicine: medicine.id, index: index, time: time, prescription: medicine.prescription,
        // Past the end too, so that a chain added for tomorrow's dose names it.
        doses: schedule.doses(after: now, through: run.end.advanced(by: .seconds(3 * 86_400))))
      doseClocks.append(clock)
      scheduleDoseClock(doseClocks.count - 1, in: &run)
      let reminderServer = run.layers.server
      reminderServer.doseClockStarted(doseClocks.count - 1, in: &run, at: now)
    }
  }

  /// Stops a medicine's clocks; returns each daily time's next prescribed dose within the run.
  func stopDoseClocks(of id: MedicineID, in run: SimulationRun) -> [(time: DailyTime, due: SimulationInstant, key: DoseKey)] {
    var due: [(DailyTime, SimulationInstant, DoseKey)] = []
    for position in doseClocks.indices where doseClocks[position].active && doseClocks[position].medicine == id {
      doseClocks[position].active = false
      let clock = doseClocks[position]
      if let next = clock.next, next.due <= run.end { due.append((clock.time, next.due, clock.key(next))) }
    }
    return due
  }

  /// The check of the clock's next dose runs once a notification could no
  /// longer answer it: at its due instant plus the prescription's `after`.
  func scheduleDoseClock(_ position: Int, in run: inout SimulationRun) {
    let clock = doseClocks[position]
    guard clock.active, let next = clock.next, next.due <= run.end else { return }
    let check = min(next.due.advanced(by: clock.prescription.after), run.end)
    run.queue.schedule(.ledger(.doseDue(clock: position, token: clock.position)), at: check, phase: .doseCheck, rank: position)
  }

  /// The prescribed dose of a medicine's daily time that a notification
  /// firing at `fire` answers: the one whose window holds `fire`, nearest
  /// first. Nil when none does: the notification answers no prescribed dose.
  func prescribedDose(_ medicine: MedicineID, _ time: DailyTime, fire: SimulationInstant) -> DoseKey? {
    var best: (distance: Int64, key: DoseKey)?
    for clock in doseClocks where clock.medicine == medicine && clock.time == time {
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
  func doseKey(_ medicine: MedicineID, _ time: DailyTime, fire: SimulationInstant, in run: SimulationRun) -> DoseKey {
    if let key = prescribedDose(medicine, time, fire: fire) { return key }
    return DoseKey(medicine: medicine, slot: .time(time), occurrence: localDay(of: fire, in: run), repeatOnDay: DoseKey.unprescribed)
  }

  /// One of the ledger's own events is due.
  func eventDue(_ event: LedgerEvent, in run: inout SimulationRun, at now: SimulationInstant) {
    switch event {
    case .doseDue(let clock, let token): doseDue(clock: clock, token: token, in: &run, at: now)
    }
  }

  /// A prescribed dose's check: a dose no notification answered is missed, with the reason.
  func doseDue(clock position: Int, token: Int, in run: inout SimulationRun, at now: SimulationInstant) {
    let clock = doseClocks[position]
    guard clock.active, clock.position == token, let dose = clock.next, let medicine = medicines[clock.medicine] else { return }
    let key = clock.key(dose)
    if doses[key] == nil {
      var missed = newDose(key, medicine: medicine, reminder: clock.time.description, scheduled: dose.due)
      missed.reason = run.layers.app.missedReason(clock, dose, in: run)
      doses[key] = missed
    }
    if let remark = dose.remark, doses[key]?.notes.contains(remark) == false { doses[key]?.notes.append(remark) }
    doseClocks[position].position += 1
    scheduleDoseClock(position, in: &run)
  }

  // MARK: - Location doses

  /// Every qualifying crossing of a location reminder's region (the truth
  /// of where the patient was) is a dose, due at the crossing. The device's
  /// detection of that visit notifies it; until then it has a provisional
  /// reason, and a crossing whose request is not pending is missed at once
  /// (a one-shot reminder is then used up).
  func openLocationDoses(region index: Int, entering: Bool, visit: Int, in run: SimulationRun, at now: SimulationInstant) {
    guard now >= run.scenario.clock.start else { return }
    let region = run.scenario.regions[index].id
    for id in creationOrder {
      guard let medicine = medicines[id], let location = medicine.location, location.places == nil, location.region == region,
        entering ? location.onEntry : location.onExit, locationArmed[id] == true
      else { continue }
      let side = LocationSide(medicine: id, region: index, entering: entering)
      if let key = provisionalLocationDoses[side], run.layers.phone.core.locationService.believesInside(index) == entering, var adopted = doses[key] {
        // The device detected this crossing ahead of the true path (GPS error, or a region below the minimum radius) and still holds its side: the dose it opened is this visit's.
        provisionalLocationDoses[side] = nil
        let early = adopted.scheduled.duration(to: now)
        adopted.scheduled = now
        adopted.visit = DoseVisit(region: region, number: visit, entering: entering)
        adopted.notes.append("the device detected this crossing \(early) ahead of the true path")
        doses[key] = adopted
        locationDoseOfVisit[LocationVisit(medicine: id, region: index, visit: visit, entering: entering)] = key
        continue
      }
      dropProvisional(side)
      let key = nextLocationDose(id)
      var dose = newDose(key, medicine: medicine, reminder: location.summary, scheduled: now)
      dose.visit = DoseVisit(region: region, number: visit, entering: entering)
      if let obstacle = run.layers.app.locationDoseObstacle(id, region: region, in: run) {
        dose.reason = obstacle
        if !location.repeats { locationArmed[id] = false }
      } else {
        dose.reason = "the device had not reported this crossing when the run ended"
      }
      doses[key] = dose
      locationDoseOfVisit[LocationVisit(medicine: id, region: index, visit: visit, entering: entering)] = key
    }
  }

  /// After a detection delivered (or could not deliver) a region's requests:
  /// a dose of that visit still not notified gets the request's loss reason.
  func settleLocationDoses(region index: Int, entering: Bool, visit: Int, in run: SimulationRun, at now: SimulationInstant) {
    for id in creationOrder {
      guard let key = locationDoseOfVisit[LocationVisit(medicine: id, region: index, visit: visit, entering: entering)],
        doses[key]?.notified == nil
      else { continue }
      let region = run.scenario.regions[index].id
      if let reason = run.layers.app.locationDetectionLoss(id, region: region, in: run) { doses[key]?.reason = reason }
      if medicines[id]?.location?.repeats == false && run.layers.app.locationDoseObstacle(id, region: region, in: run) != nil {
        locationArmed[id] = false
      }
    }
  }

  /// The device did not detect a visit: its doses are missed for that reason.
  func noteUndetectedLocationDoses(region index: Int, entering: Bool, visit: Int, reason: String) {
    for id in creationOrder {
      guard let key = locationDoseOfVisit[LocationVisit(medicine: id, region: index, visit: visit, entering: entering)],
        doses[key]?.notified == nil
      else { continue }
      doses[key]?.reason = reason
    }
  }

  // MARK: - Summary

  /// A request the pending limit dropped, with what the ledger knew of it then.
  func notePendingLimitDrop(_ id: NotificationID, at now: SimulationInstant) {
    droppedByPendingLimit.append((id, now))
    droppedRequestRoles.append(requestInfo[id])
  }

  /// `droppedByPendingLimit` in runs of one instant, counted by kind of request and medicine.
  func pendingLimitDropGroups() -> [PendingLimitDropGroup] {
    var groups: [PendingLimitDropGroup] = []
    for (index, drop) in droppedByPendingLimit.enumerated() {
      if groups.last?.at != drop.at { groups.append(PendingLimitDropGroup(at: drop.at)) }
      let info = droppedRequestRoles[index]
      groups[groups.count - 1].add(kind: info.map { PendingLimitDropGroup.kind(of: $0.role) } ?? "other request", medicine: info?.medicine)
    }
    return groups
  }

  /// The run's summary as the ledger keeps it: the pending limit's account
  /// (`pendingPeak` from the device, the drops from here) and the dose
  /// table, each row with the remarks of the app, the patient and the server
  /// (asked through `run`) and the scenario's visit expectations.
  func summary(of run: SimulationRun) -> RunSummary {
    var summary = RunSummary()
    summary.pendingPeak = run.layers.phone.core.pendingPeak
    summary.pendingPeakAt = run.layers.phone.core.pendingPeakAt
    summary.droppedByPendingLimit = droppedByPendingLimit
    summary.pendingLimitDropGroups = pendingLimitDropGroups()
    summary.clock = run.scenario.clock
    let rank = Dictionary(uniqueKeysWithValues: creationOrder.enumerated().map { ($1, $0) })
    // A provisional dose still waiting for its true crossing at the end is a false firing, not a dose.
    let provisional = Set(provisionalLocationDoses.values)
    summary.doses = doses.values.filter {
      $0.key.isPrescribed && $0.scheduled >= run.scenario.clock.start && $0.scheduled <= run.end && !provisional.contains($0.key)
    }
      .sorted { a, b in
        (rank[a.key.medicine] ?? 0, a.scheduled, a.key.slot, a.key.place?.rawValue ?? "", a.key.occurrence)
          < (rank[b.key.medicine] ?? 0, b.scheduled, b.key.slot, b.key.place?.rawValue ?? "", b.key.occurrence)
      }
      .map { withAccountingRemarks($0, in: run) }
      .map { withVisitExpectations($0, in: run) }
      .map { run.layers.server.accountedDose($0, in: run) }
    return summary
  }

  /// A location dose with its visit's stay, and the scenario's expectations
  /// that say its visit is silent (with a remark naming where).
  func withVisitExpectations(_ dose: DoseRecord, in run: SimulationRun) -> DoseRecord {
    guard var visit = dose.visit else { return dose }
    var dose = dose
    if let index = run.scenario.regions.firstIndex(where: { $0.id == visit.region }) {
      visit.stay = visitStays[RegionVisit(region: index, visit: visit.number)]
      dose.visit = visit
    }
    let offset = run.scenario.clock.utcOffset(at: dose.scheduled)
    for (index, expectation) in run.scenario.visitExpectations.enumerated()
    where expectation.matches(medicine: dose.key.medicine, visit: visit, scheduled: dose.scheduled, utcOffsetSeconds: offset) {
      dose.expectedSilent.append(index)
      // What picks it, not where: a baseline must not change with the path or the layout of the scenario.
      dose.notes.append("visit \(visit.number) expected silent (silentVisit: \(expectation.selectorDescription))")
    }
    return dose
  }

  /// A dose row with the remarks that explain an absence: notes made while
  /// the dose had no record, no follow-ups, and response-rule steps unused.
  func withAccountingRemarks(_ dose: DoseRecord, in run: SimulationRun) -> DoseRecord {
    var dose = dose
    for note in doseNotes[dose.key] ?? [] where !dose.notes.contains(note) { dose.notes.append(note) }
    if let remark = run.layers.app.noFollowUpsRemark(dose, in: run) { dose.notes.append(remark) }
    dose.notes += run.layers.patient.doseRemarks(dose, in: run)
    return dose
  }

  // MARK: - The patient's acts

  /// The patient acted on a notification of `dose` (either app host): the
  /// ledger records it, and a taken or skipped dose is an answer the app
  /// passes to its server.
  func recordPatientAct(_ action: UserAction, on dose: DoseKey, in run: inout SimulationRun, at now: SimulationInstant) {
    record(action, on: dose, at: now)
    guard action == .complete || action == .dismiss else { return }
    let reminderServer = run.layers.server
    reminderServer.doseAnswered(dose, in: &run, at: now)
  }

  /// The patient's act on a notification of `dose`, the world's truth whatever the app does with it:
  /// a snooze counts, a completion or dismissal is when the dose was resolved.
  func record(_ action: UserAction, on dose: DoseKey, at now: SimulationInstant) {
    switch action {
    case .snooze: doses[dose]?.snoozes += 1
    case .complete: doses[dose]?.completed = now
    case .dismiss: doses[dose]?.dismissed = now
    case .open, .ignore: break
    }
  }
}
