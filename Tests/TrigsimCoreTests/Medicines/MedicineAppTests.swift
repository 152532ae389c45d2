import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture

// MARK: - Requests the app adds

@Suite struct MedicineRequestTests {
  @Test func eachDailyTimeIsARepeatingFloatingCalendarRequestNamedAfterTheMedicineWithTheDosageAsBody() throws {
    let report = try F.report(MedicineApp(medicineChanges: [F.create(F.medicine(times: ["08:00", "14:00"]))]),
                              end: "2026-03-28T14:00:00Z")
    let scheduled = report.timeline.entries(.scheduled).filter { $0.subject.contains("_reminder_") }
    #expect(scheduled.map(\.subject) == ["medicine_1_reminder_0", "medicine_1_reminder_1"])
    #expect(scheduled.map { $0[field: "trigger"] } == ["calendar hour=8 minute=0", "calendar hour=14 minute=0"])  // no tz= : floating
    #expect(scheduled.map { $0[field: "repeats"] } == [nil, nil])  // repeating requests carry no `repeats=no`
    #expect(scheduled.map { $0[field: "title"] } == ["Metformin", "Metformin"])
    #expect(scheduled.map { $0[field: "next"] } == [F.local("08:00"), F.local("14:00")])
    for (index, entry) in scheduled.enumerated() {
      #expect(entry[field: "medicine"] == "1")
      #expect(entry[field: "reminder"] == String(index))
      #expect(entry[field: "dosage"] == "500")
      #expect(entry[field: "unit"] == "mg")
      #expect(entry[field: "snooze"] == "6m x10 upfront")
    }
    let fired = report.timeline.entries(.fired).filter { $0.subject.contains("_reminder_") }
    #expect(fired.map(\.subject) == ["medicine_1_reminder_0", "medicine_1_reminder_1"])
    #expect(fired.map { $0[field: "title"] } == ["Metformin", "Metformin"])
    #expect(fired.map { $0[field: "body"] } == ["500 mg", "500 mg"])
    #expect(fired.map { $0[field: "next"] } == [F.local("08:00", on: F.nextDay), F.local("14:00", on: F.nextDay)])
  }

  @Test func upfrontChainAddsTenDatedOneShotFollowUpsAfterEachReminderNumberedPerTime() throws {
    let report = try F.report(MedicineApp(medicineChanges: [F.create(F.medicine(times: ["08:00", "14:00"]))]),
                              end: "2026-03-28T07:30:00Z")
    let atCreation = report.timeline.entries(at: F.at("07:00"))
    #expect(atCreation.map(\.kindAndSubject) ==
      ["medicine medicine_1"]
      + (["medicine_1_reminder_0"] + followUpIDs("1", 1...10) + ["medicine_1_reminder_1"] + followUpIDs("1", 11...20))
        .map { "scheduled \($0)" })
    let chain = atCreation.filter { $0.subject.contains("_snooze_") }
    let expectedNext = (1...10).map { F.at("08:00").advanced(by: .minutes(6 * Int64($0))) }
      + (1...10).map { F.at("14:00").advanced(by: .minutes(6 * Int64($0))) }
    #expect(chain.map { $0[field: "next"] } == expectedNext.map { InstantFormatter.format($0, offsetSeconds: 0) })
    #expect(chain.first?[field: "next"] == F.local("08:06"))
    #expect(chain[9][field: "next"] == F.local("09:00"))
    #expect(chain.allSatisfy { $0[field: "repeats"] == "no" })
    #expect(chain.first?[field: "trigger"] == "calendar year=2026 month=3 day=28 hour=8 minute=6")
    #expect(chain.map { $0[field: "followup"] } == (1...10).map { "\($0)/10" } + (1...10).map { "\($0)/10" })
    #expect(chain.map { $0[field: "reminder"] } == Array(repeating: "0", count: 10) + Array(repeating: "1", count: 10))
  }

  @Test func ignoredUpfrontChainDeliversTenFollowUpsSixMinutesApartThenStopsAndTheDoseIsUnanswered() throws {
    let report = try F.report(MedicineApp(medicineChanges: [F.create(F.medicine(times: ["08:00"]))]))
    #expect(report.timeline.entries(.fired).map { "\($0.subject) @ \($0.localInstant)" } ==
      ["medicine_1_reminder_0 @ \(F.local("08:00"))"]
      + (1...10).map { "medicine_1_snooze_\($0) @ \(InstantFormatter.format(F.at("08:00").advanced(by: .minutes(6 * Int64($0))), offsetSeconds: 0))" })
    let dose = try #require(report.summary.dose("1", .time(DailyTime(hour: 8, minute: 0))))
    #expect(dose.outcome == .unanswered)
    #expect(dose.followUpsDelivered == 10)
    #expect(dose.notified == F.at("08:00"))
    #expect(dose.reminderDelivered == F.at("08:00"))
    #expect(report.summary.doses.count == 1)
  }
}

// MARK: - On-delivery chains

@Suite struct OnDeliveryChainTests {
  @Test func onDeliveryChainIsNotScheduledWhenTheAppIsInTheBackgroundAtDelivery() throws {
    let report = try F.report(MedicineApp(medicineChanges: [F.create(F.medicine(times: ["08:00"], snooze: F.onDelivery))]))
    #expect(report.timeline.entries.filter { $0.subject.contains("_snooze_") }.isEmpty)
    #expect(report.timeline.outline(subjectPrefix: "medicine_1_") == [
      "scheduled medicine_1_reminder_0 @ \(F.local("07:00"))",
      "fired medicine_1_reminder_0 @ \(F.local("08:00"))",
      "warning medicine_1_reminder_0 @ \(F.local("08:00"))",
    ])
    let warning = try #require(report.timeline.entries(.warning).first)
    #expect(warning[field: "reason"]?.hasPrefix("follow-up chain not scheduled") == true)
    let dose = try #require(report.summary.dose("1", .time(DailyTime(hour: 8, minute: 0))))
    #expect(dose.followUpsDelivered == 0)
    #expect(dose.outcome == .unanswered)
  }

  @Test func onDeliveryChainIsAddedAtTheDeliveryWhenTheAppIsInTheForeground() throws {
    let report = try F.report(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"], snooze: F.onDelivery))],
      appChanges: [AppChange(instant: F.at("07:30"), state: .foreground)]))
    #expect(report.timeline.entries(.warning).isEmpty)
    let atDelivery = report.timeline.entries(at: F.at("08:00"))
    #expect(atDelivery.map(\.kindAndSubject) ==
      ["fired medicine_1_reminder_0"] + followUpIDs("1", 1...10).map { "scheduled \($0)" })
    let chain = atDelivery.filter { $0.kind == .scheduled }
    #expect(chain.map { $0[field: "trigger"] } == (1...10).map { "interval \(SimulationDuration.minutes(6 * Int64($0)))" })
    #expect(chain.map { $0[field: "next"] } ==
      (1...10).map { InstantFormatter.format(F.at("08:00").advanced(by: .minutes(6 * Int64($0))), offsetSeconds: 0) })
    #expect(report.timeline.entries(.fired).filter { $0.subject.contains("_snooze_") }.map(\.localInstant) ==
      (1...10).map { InstantFormatter.format(F.at("08:00").advanced(by: .minutes(6 * Int64($0))), offsetSeconds: 0) })
    #expect(report.summary.dose("1", .time(DailyTime(hour: 8, minute: 0)))?.followUpsDelivered == 10)
  }

  @Test func openingAnOnDeliveryReminderDeliveredInTheBackgroundAddsTheChainAtTheOpenInstant() throws {
    let report = try F.report(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"], snooze: F.onDelivery))],
      userActions: [F.action(.open, on: "medicine_1_reminder_0", at: "08:10")]))
    #expect(report.timeline.entries(at: F.at("08:10")).map(\.kindAndSubject) ==
      ["action medicine_1_reminder_0"] + followUpIDs("1", 1...10).map { "scheduled \($0)" })
    let chain = report.timeline.entries(.scheduled).filter { $0.subject.contains("_snooze_") }
    #expect(chain.allSatisfy { $0.instant == F.at("08:10") })
    #expect(chain.map { $0[field: "next"] } ==
      (1...10).map { InstantFormatter.format(F.at("08:10").advanced(by: .minutes(6 * Int64($0))), offsetSeconds: 0) })
    #expect(report.timeline.entries(.fired).filter { $0.subject.contains("_snooze_") }.first?.localInstant == F.local("08:16"))
    let dose = try #require(report.summary.dose("1", .time(DailyTime(hour: 8, minute: 0))))
    #expect(dose.followUpsDelivered == 10)
    #expect(dose.notes.contains { $0.hasPrefix("chain added late") })
  }
}

// MARK: - Platform limits and permission

@Suite struct MedicinePlatformLimitTests {
  @Test func upfrontChainsOverThePendingLimitDropTheFirstAddedRequestsUnderLastAddedRetention() throws {
    let medicines = ["1", "2", "3"].map { F.medicine(MedicineID($0), times: ["08:00", "12:00", "16:00"]) }
    let report = try F.report(MedicineApp(medicineChanges: medicines.map { F.create($0) }), end: "2026-03-28T20:00:00Z")
    let expectedDrops =
      ["medicine_1_reminder_0"] + followUpIDs("1", 1...10) + ["medicine_1_reminder_1"] + followUpIDs("1", 11...20)
      + ["medicine_1_reminder_2"] + followUpIDs("1", 21...30) + ["medicine_2_reminder_0", "medicine_2_snooze_1"]
    #expect(report.summary.droppedByPendingLimit.count == 35)
    #expect(report.summary.droppedByPendingLimit.map(\.id.rawValue) == expectedDrops)
    #expect(report.summary.droppedByPendingLimit.allSatisfy { $0.at == F.at("07:00") })
    // The text summary counts them in one line per instant, by kind and medicine.
    let groups = report.summary.pendingLimitDropGroups
    #expect(groups.map(\.at) == [F.at("07:00")])
    #expect(groups.first?.description == "35: 4 daily reminders, 31 follow-ups of medicines 1, 2")
    #expect(report.summary.text.split(separator: "\n").filter { $0.hasPrefix("#   ") }.count == 1)
    #expect(report.timeline.entries(.dropped).map(\.subject) == expectedDrops)
    #expect(report.timeline.entries(.scheduled).count == 99)
    #expect(report.summary.pendingPeak == 64)
    #expect(report.summary.pendingPeakAt == F.at("07:00"))
    let first = report.summary.doses.filter { $0.key.medicine == "1" }
    #expect(first.map(\.reminder) == ["08:00", "12:00", "16:00"])
    #expect(first.map(\.outcome) == [.missed, .missed, .missed])
    #expect(first.allSatisfy { $0.reason?.contains("pending limit") == true })
  }

  @Test func deliveryWhilePermissionIsDeniedIsSuppressedAndTheDoseIsMissedForPermission() throws {
    let report = try F.report(MedicineApp(
      medicineChanges: [F.create(F.medicine(times: ["08:00"]))],
      appChanges: [AppChange(instant: F.at("07:30"), permission: .denied)]))
    #expect(report.timeline.entries(.fired).isEmpty)
    #expect(report.timeline.entries(at: F.at("08:00")).map(\.kindAndSubject) == ["suppressed medicine_1_reminder_0"])
    #expect(report.timeline.entries(.suppressed).map(\.subject) == ["medicine_1_reminder_0"] + followUpIDs("1", 1...10))
    let dose = try #require(report.summary.dose("1", .time(DailyTime(hour: 8, minute: 0))))
    #expect(dose.outcome == .missed)
    #expect(dose.reason?.contains("permission") == true)
  }
}

// MARK: - Edit and delete

@Suite struct MedicineLifecycleTests {
  @Test func editRemovesEveryPendingRequestOfTheMedicineThenAddsTheNewVersions() throws {
    let edited = F.medicine(times: ["08:00", "10:00"])
    let report = try F.report(MedicineApp(medicineChanges: [
      F.create(F.medicine(times: ["08:00", "14:00"])),
      MedicineChange(instant: F.at("12:00"), kind: .edit(edited)),
    ]), end: "2026-03-28T20:00:00Z")
    let atEdit = report.timeline.entries(at: F.at("12:00"))
    let removedSubjects = ["medicine_1_reminder_0", "medicine_1_reminder_1"] + followUpIDs("1", 11...20)
    let addedSubjects =
      ["medicine_1_reminder_0"] + followUpIDs("1", 1...10) + ["medicine_1_reminder_1"] + followUpIDs("1", 11...20)
    #expect(atEdit.map(\.kindAndSubject) ==
      ["medicine medicine_1"] + removedSubjects.map { "removed \($0)" } + addedSubjects.map { "scheduled \($0)" })
    #expect(atEdit.first?[field: "change"] == "edited")
    #expect(atEdit.filter { $0.kind == .removed }.allSatisfy { $0[field: "reason"] == "medicine edited" })
    let added = atEdit.filter { $0.kind == .scheduled }
    #expect(added.first?[field: "next"] == F.local("08:00", on: F.nextDay))
    #expect(added[11][field: "trigger"] == "calendar hour=10 minute=0")
    #expect(added[11][field: "next"] == F.local("10:00", on: F.nextDay))
    // Nothing of the old 14:00 reminder delivers that afternoon.
    #expect(report.timeline.entries(.fired).allSatisfy { $0.instant < F.at("12:00") })
  }

  @Test func editThatMovesALaterTimeOfTodayEarlierMakesTodaysDoseMissedAsRemovedByTheEdit() throws {
    let report = try F.report(MedicineApp(medicineChanges: [
      F.create(F.medicine(times: ["08:00", "14:00"])),
      MedicineChange(instant: F.at("12:00"), kind: .edit(F.medicine(times: ["08:00", "10:00"]))),
    ]), end: "2026-03-28T20:00:00Z")
    let dose = try #require(report.summary.dose("1", .time(DailyTime(hour: 14, minute: 0))))
    #expect(dose.outcome == .missed)
    #expect(dose.scheduled == F.at("14:00"))
    #expect(dose.reminder == "14:00")
    #expect(dose.reason?.hasPrefix("removed by an edit") == true)
    #expect(report.summary.dose("1", .time(DailyTime(hour: 8, minute: 0)))?.outcome == .unanswered)
    #expect(report.summary.doses.count == 2)
  }

  @Test func deleteRemovesPendingRequestsAndClearsDeliveredNotificationsOfTheMedicine() throws {
    let report = try F.report(MedicineApp(medicineChanges: [
      F.create(F.medicine(times: ["08:00", "14:00"])),
      MedicineChange(instant: F.at("08:15"), kind: .delete("1")),
    ]))
    let atDelete = report.timeline.entries(at: F.at("08:15"))
    let removed = ["medicine_1_reminder_0"] + followUpIDs("1", 3...10) + ["medicine_1_reminder_1"] + followUpIDs("1", 11...20)
    let cleared = ["medicine_1_reminder_0", "medicine_1_snooze_1", "medicine_1_snooze_2"]
    #expect(atDelete.map(\.kindAndSubject) ==
      ["medicine medicine_1"] + removed.map { "removed \($0)" } + cleared.map { "cleared \($0)" })
    #expect(atDelete.first?[field: "change"] == "deleted")
    #expect(atDelete.dropFirst().allSatisfy { $0[field: "reason"] == "medicine deleted" })
    #expect(report.timeline.entries.allSatisfy { $0.instant <= F.at("08:15") })
  }
}

// MARK: - Location reminders

@Suite struct LocationReminderTests {
  @Test func repeatingLocationReminderOpensOneDosePerEntryAtTheEntryInstantWithoutAChainWhenSnoozeIsNil() throws {
    let track = InMemoryTrack(samples: [
      Build.fix("2026-03-28T09:00:00Z", 54.0, 12.0),
      Build.fix("2026-03-28T09:02:00Z", 56.0, 12.0),  // enters at 09:01
      Build.fix("2026-03-28T09:04:00Z", 54.0, 12.0),  // exits at 09:03
      Build.fix("2026-03-28T09:06:00Z", 56.0, 12.0),  // enters at 09:05
    ])
    let medicine = F.medicine(
      times: [], location: LocationReminder(region: "home", onEntry: true, onExit: false, repeats: true), snooze: nil)
    let report = try F.report(
      MedicineApp(medicineChanges: [F.create(medicine, at: "08:00")]), start: "2026-03-28T08:00:00Z",
      end: "2026-03-28T10:00:00Z", regions: [MonitoredRegion(id: "home", shape: NorthOfLatitude(55.0))], track: track)
    #expect(report.timeline.outline == [
      "medicine medicine_1 @ \(F.local("08:00"))",
      "scheduled medicine_1_location @ \(F.local("08:00"))",
      "warning track @ \(F.local("09:00"))",
      "enter home @ \(F.local("09:01"))",
      "fired medicine_1_location @ \(F.local("09:01"))",
      "exit home @ \(F.local("09:03"))",
      "enter home @ \(F.local("09:05"))",
      "fired medicine_1_location @ \(F.local("09:05"))",
      "warning track @ \(F.local("09:06"))",
    ])
    let doses = report.summary.doses
    #expect(doses.map(\.key.slot) == [.location, .location])
    #expect(doses.map(\.key.occurrenceLabel) == ["#1", "#2"])
    #expect(doses.map(\.notified) == [F.at("09:01"), F.at("09:05")])
    #expect(doses.map(\.scheduled) == [F.at("09:01"), F.at("09:05")])
    #expect(doses.map(\.reminder) == ["home on=enter", "home on=enter"])
    #expect(doses.map(\.followUpsDelivered) == [0, 0])
    #expect(doses.map(\.outcome) == [.unanswered, .unanswered])
  }
}

// MARK: - Determinism

@Suite struct MedicineDeterminismTests {
  static func scenario() -> Scenario {
    var category = ReminderCategory()
    category.customDismiss = true
    return F.scenario(MedicineApp(
      medicineChanges: [
        F.create(F.medicine("1", times: ["08:00", "14:00"])),
        F.create(F.medicine("2", name: "Aspirin", dosage: "75", unit: "mg", times: ["09:00"], snooze: F.onDelivery)),
        MedicineChange(instant: F.at("12:00"), kind: .edit(F.medicine("1", times: ["08:00", "13:00"]))),
      ],
      appChanges: [AppChange(instant: F.at("08:30"), state: .foreground), AppChange(instant: F.at("10:00"), state: .background)],
      category: category,
      userActions: [F.action(.snooze(.minutes(15)), on: "medicine_1_reminder_0", at: "08:02")],
      responseRules: [ResponseRule(pattern: IdentifierPattern("medicine_2_*"), after: .minutes(7), actions: [.dismiss])]),
      end: "2026-03-29T12:00:00Z")
  }

  static func doseTable(_ summary: RunSummary) -> [String] {
    summary.doses.map { dose in
      [dose.key.medicine.rawValue, "\(dose.key.slot)", dose.key.occurrenceLabel, dose.reminder, dose.outcome.rawValue,
       "\(dose.scheduled)", "\(dose.notified.map { "\($0)" } ?? "-")", "\(dose.resolved.map { "\($0)" } ?? "-")",
       "\(dose.followUpsDelivered)", "\(dose.snoozedAlertsDelivered)", "\(dose.snoozes)", dose.reason ?? "-",
       dose.notes.joined(separator: "; ")].joined(separator: " | ")
    }
  }

  @Test func sameScenarioTwiceGivesIdenticalCanonicalTextAndDoseTables() throws {
    let first = try Simulation(Self.scenario()).report()
    let second = try Simulation(Self.scenario()).report()
    #expect(first.timeline.canonicalText == second.timeline.canonicalText)
    #expect(Self.doseTable(first.summary) == Self.doseTable(second.summary))
    #expect(first.summary.pendingPeak == second.summary.pendingPeak)
    #expect(first.summary.droppedByPendingLimit.map(\.id) == second.summary.droppedByPendingLimit.map(\.id))
    // The scenario exercises snoozes, dismissals and edits, so the comparison is not vacuous.
    #expect(first.timeline.entries(.action).count >= 3)
    #expect(first.summary.doses.contains { $0.outcome == .dismissed })
    #expect(first.summary.doses.contains { $0.snoozes == 1 })
  }
}
