import Foundation

/// The dose ledger at a delivery: which dose a notification answers, from
/// what it knows of the request (`MedicineRequestInfo`), whichever app added it.
extension DoseLedger {
  /// The day number of `instant` in the device's zone (a dose's occurrence).
  func localDay(of instant: SimulationInstant, in run: SimulationRun) -> Int64 {
    let local = instant.millisecondsSinceEpoch + Int64(run.deviceTimeZone.secondsFromGMT(for: instant.date)) * 1000
    return floorDivide(local, 86_400_000).quotient
  }

  /// The dose a medicine notification belongs to; reminders and location
  /// requests open a new one (and record that it was notified).
  func doseOfDelivery(_ id: NotificationID, in run: inout SimulationRun, at now: SimulationInstant) -> DoseKey? {
    guard let info = requestInfo[id], let medicine = medicines[info.medicine] else { return nil }
    switch info.role {
    case .reminder(_, let time):
      // A reminder app code posts names when it was due (`DoseAttribution.postedReminder`); one the system delivers is due now.
      let due = run.layers.phone.core.catchUpDue ?? info.doseScheduled ?? now
      let key = doseKey(medicine.id, time, fire: due, in: run)
      if !key.isPrescribed { warnUnprescribed(id, medicine: medicine, time: time, fire: due, in: &run, at: now) }
      reminderFirings[id, default: []].append(now)
      // Delivered: an earlier loss of this reminder no longer explains anything.
      requestPending(id)
      if doses[key] == nil {
        doses[key] = newDose(key, medicine: medicine, reminder: time.description, scheduled: due)
      }
      doses[key]?.reminderDelivered = now
      if run.layers.phone.core.catchUpDue != nil {
        doses[key]?.reason = nil
        let note = run.layers.phone.core.catchUpWhileOff
          ? "due while the phone was off; delivered at \(run.format(now)) " + (run.scenario.platform.attention.deliveryBeforeFirstUnlock == .held ? "at the first unlock" : "when it came on")
          : "due after switch-on, before the first unlock; delivered at \(run.format(now)) at the first unlock"
        doses[key]?.notes.append(note)
      }
      return key
    case .location:
      if medicine.location?.repeats == false { locationArmed[medicine.id] = false }
      // A hosted app's notification posted for a visit (from its region
      // callback) names the visit's dose.
      if let key = info.dose, doses[key]?.reminderDelivered == nil, doses[key] != nil {
        doses[key]?.reminderDelivered = now
        doses[key]?.reason = nil
        return key
      }
      if let context = run.layers.phone.core.locationReportContext, let visit = context.visit,
        let key = locationDoseOfVisit[
          LocationVisit(medicine: medicine.id, region: context.region, visit: visit, entering: context.entering)],
        doses[key]?.reminderDelivered == nil
      {
        doses[key]?.reminderDelivered = now
        doses[key]?.reason = nil
        return key
      }
      // No geometric crossing opened a dose (a crossing before the clock's
      // start, or a detection of a side the true path did not reach: a region
      // below the minimum radius, GPS error in a trial): this delivery opens
      // one. In a trial the ledger follows the true path: the dose is
      // provisional, the true crossing's own if one follows while the device
      // holds this side, else dropped as a false firing (`DoseLedger.provisionalLocationDoses`).
      // A place set's request opens a dose of its place, named as a crossing's would be.
      let place = deliveredPlace(id, in: run)
      let key = nextLocationDose(medicine.id, place: place?.place.id)
      let reminder = place.map { "\($0.set.regionID(of: $0.place.id)) on=\(medicine.location?.kind ?? "")" } ?? medicine.location?.summary ?? ""
      var opened = newDose(key, medicine: medicine, reminder: reminder, scheduled: now)
      opened.reminderDelivered = now
      doses[key] = opened
      if run.trialSeed != nil, let context = run.layers.phone.core.locationReportContext {
        let side = LocationSide(medicine: medicine.id, region: context.region, entering: context.entering)
        dropProvisional(side)
        provisionalLocationDoses[side] = key
      }
      return key
    case .followUp, .snoozedAlert:
      guard let key = movedFollowUpDose(id, info, medicine: medicine, in: run, at: now) ?? info.dose
        ?? rawChainDose(info, medicine: medicine, in: run, at: now)
      else { return nil }
      if doses[key] == nil {
        let label: String
        switch key.slot {
        case .time(let time): label = time.description
        case .location: label = medicine.location?.summary ?? ""
        }
        var opened = newDose(key, medicine: medicine, reminder: label, scheduled: prescribedDue(of: key) ?? info.doseScheduled ?? now)
        let main = mainIdentifier(of: key, in: run)
        opened.reason = replacedMain[main].map { "the daily reminder \(main) was \($0)" } ?? lossReason[main]
        doses[key] = opened
      }
      if case .followUp(let index) = info.role {
        doses[key]?.followUpsDelivered += 1
        if let count = medicine.snooze?.count, index == count {
          doses[key]?.chainRanOut = true
          doses[key]?.notes.append("chain ran out: follow-up \(count) of \(count) delivered")
        }
      } else {
        doses[key]?.snoozedAlertsDelivered += 1
      }
      return key
    }
  }

  /// The place of a place set a location delivery is about: the region of
  /// the detection being delivered, else the region of the request's
  /// trigger. Nil when that region is not a place.
  func deliveredPlace(_ id: NotificationID, in run: SimulationRun) -> (set: PlaceSet, place: Place)? {
    var region = run.layers.phone.core.locationReportContext?.region
    if region == nil, case .region(let trigger)? = run.layers.phone.core.center.pending[id]?.request.trigger {
      region = run.scenario.regions.firstIndex { $0.id == trigger.region }
    }
    guard let region, let (set, place) = run.scenario.place(ofRegion: region) else { return nil }
    return (run.scenario.placeSets[set], run.scenario.placeSets[set].places[place])
  }

  /// A dated follow-up of an upfront chain that fires at another instant
  /// than the one it was planned for because its floating date moved with a
  /// time-zone change between its add and now: the dose it answers follows the instant it actually
  /// fires, the dose of its daily time due `index × every` before (the
  /// instant it came due, for a catch-up). Nil when it fires as planned, or
  /// is no such follow-up: the dose named at its add stands.
  func movedFollowUpDose(
    _ id: NotificationID, _ info: MedicineRequestInfo, medicine: Medicine, in run: SimulationRun, at now: SimulationInstant
  ) -> DoseKey? {
    var dosesTime: DailyTime?
    if case .time(let time)? = info.dose?.slot { dosesTime = time }
    guard case .followUp(let index) = info.role, let time = info.chainTime ?? dosesTime, let planned = info.chainDue ?? info.doseScheduled,
      let every = medicine.snooze?.every, let pending = run.layers.phone.core.center.pending[id], case .calendar = pending.request.trigger,
      run.scenario.clock.timeZoneChanges.contains(where: { pending.addedAt < $0.instant && $0.instant <= now })
    else { return nil }
    let fire = run.layers.phone.core.catchUpDue ?? now
    let due = fire.advanced(byMilliseconds: -every.milliseconds * Int64(index))
    guard due != planned else { return nil }
    return prescribedDose(medicine.id, time, fire: due)
  }

  /// The due instant of a prescribed dose.
  func prescribedDue(of key: DoseKey) -> SimulationInstant? {
    guard case .time(let time) = key.slot, key.isPrescribed else { return nil }
    for clock in doseClocks where clock.medicine == key.medicine && clock.time == time {
      if let dose = clock.doses.first(where: { clock.key($0) == key }) { return dose.due }
    }
    return nil
  }

  /// What the app's run knows of a raw request (`notifications:`) whose
  /// identifier has the form of one of the app's: it counts for that
  /// medicine's doses. Nil for any other identifier.
  func rawRequestInfo(_ id: NotificationID, in run: SimulationRun) -> MedicineRequestInfo? {
    let templates = run.scenario.medicineApp.policy.identifiers
    for medicineID in creationOrder {
      guard let medicine = medicines[medicineID] else { continue }
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
  func rawChainDose(_ info: MedicineRequestInfo, medicine: Medicine, in run: SimulationRun, at now: SimulationInstant) -> DoseKey? {
    let index = info.rawReminder ?? 0
    guard let time = info.chainTime ?? (medicine.times.indices.contains(index) ? medicine.times[index] : nil) else { return nil }
    // The app named the dose: the one whose window holds its due instant.
    if let due = info.chainDue { return doseKey(medicine.id, time, fire: due, in: run) }
    var latest: DoseKey?
    var latestDue: SimulationInstant?
    for clock in doseClocks where clock.medicine == medicine.id && clock.time == time {
      for dose in clock.doses where dose.due <= now && (latestDue == nil || dose.due > latestDue!) {
        latest = clock.key(dose)
        latestDue = dose.due
      }
    }
    return latest
  }

  /// A daily reminder fired where no prescribed dose is due: a warning, and
  /// the dose it opens is left out of the summary.
  func warnUnprescribed(
    _ id: NotificationID, medicine: Medicine, time: DailyTime, fire: SimulationInstant, in run: inout SimulationRun, at now: SimulationInstant
  ) {
    let prescription = medicine.prescription
    run.record(.warning, id.rawValue, at: now, [
      TimelineField("reason", "fired \(run.format(fire)), outside the window of every prescribed \(time) dose (\(prescription.summary)): it answers no dose"),
    ])
  }

  func newDose(_ key: DoseKey, medicine: Medicine, reminder: String, scheduled: SimulationInstant) -> DoseRecord {
    var dose = DoseRecord(key: key, medicineName: medicine.name, reminder: reminder, scheduled: scheduled)
    if case .zone(let zone) = medicine.prescription.basis, key.slot != .location {
      dose.fixedLabelOffsetSeconds = zone.secondsFromGMT(for: scheduled.date)
    }
    return dose
  }

  /// The identifier of the daily reminder or location request of `dose`, by the scenario's templates.
  func mainIdentifier(of dose: DoseKey, in run: SimulationRun) -> NotificationID {
    switch dose.slot {
    case .time(let time):
      run.scenario.medicineApp.policy.identifiers.reminder(dose.medicine, medicines[dose.medicine]?.times.firstIndex(of: time) ?? -1)
    case .location: run.scenario.medicineApp.policy.identifiers.location(dose.medicine)
    }
  }

  /// After a time-zone change: a prescribed dose that the moved floating
  /// reminder no longer answers gets a warning now (the floating time moved past its day).
  func warnMovedReminders(in run: inout SimulationRun, at now: SimulationInstant) {
    for clock in doseClocks where clock.active {
      let id = run.scenario.medicineApp.policy.identifiers.reminder(clock.medicine, clock.index)
      guard let pending = run.layers.phone.core.center.pending[id], requestInfo[id]?.role == .reminder(clock.index, clock.time),
        let dose = clock.doses.first(where: { $0.due.advanced(by: clock.prescription.after) >= now })
      else { continue }
      if let next = pending.nextDelivery, clock.prescription.accepts(next, due: dose.due) { continue }
      let fires = pending.nextDelivery.map { "now fires \(run.format($0))" } ?? "never fires now"
      run.record(.warning, id.rawValue, at: now, [
        TimelineField("dose", clock.key(dose).occurrenceLabel),
        TimelineField("reason", "the floating \(clock.time) reminder \(fires); the prescribed dose due \(run.format(dose.due)) (\(clock.prescription.summary)) has no reminder"),
      ])
    }
  }
}
