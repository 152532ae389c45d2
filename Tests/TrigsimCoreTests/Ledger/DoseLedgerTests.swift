import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// The fates the device reports to the dose ledger (`DoseLedger`): each
/// changes what the dose table will say, and only that.
@Suite struct DoseLedgerTests {
  let key = DoseKey(medicine: MedicineID("1"), slot: .time(DailyTime(hour: 8, minute: 0)), occurrence: 20577)
  let reminder = NotificationID("medicine_1_reminder_0")
  let alert = DosePerception(notification: "medicine_1_reminder_0", role: "daily reminder", kind: .alert, how: "banner+lock-screen+sound")
  let followUp = DosePerception(notification: "medicine_1_snooze_1", role: "follow-up 1", kind: .afterFocus, how: "lock-screen")

  func ledger(reason: String? = nil, notified: String? = nil) -> DoseLedger {
    var record = DoseRecord(key: key, medicineName: "Metformin", reminder: "08:00", scheduled: Build.instant("2026-05-04T08:00:00+02:00"))
    record.reason = reason
    record.notified = notified.map { Build.instant("2026-05-04T\($0)+02:00") }
    return DoseLedger(doses: [key: record])
  }

  @Test func aPerceivedDoseIsNotifiedOnceAndLosesOnlyTheNeverPerceptibleReason() {
    let held = ledger(reason: "never perceptible: delivered quietly to Notification Center at 08:00, no alert")
    held.perceived(key, by: followUp, at: Build.instant("2026-05-04T08:30:00+02:00"))
    held.perceived(key, by: alert, at: Build.instant("2026-05-04T09:00:00+02:00"))
    #expect(held.doses[key]?.notified == Build.instant("2026-05-04T08:30:00+02:00"))
    // The first perception says how and by what; a later one changes nothing.
    #expect(held.doses[key]?.perception == followUp)
    #expect(held.doses[key]?.reason == nil)

    let other = ledger(reason: "the device had not reported this crossing when the run ended")
    other.perceived(key, by: alert, at: Build.instant("2026-05-04T08:30:00+02:00"))
    #expect(other.doses[key]?.reason == "the device had not reported this crossing when the run ended")
  }

  @Test func aListingIsOneRemarkAndTheReasonUntilNotified() {
    let quiet = ledger()
    quiet.listed(key, note: "listed at 08:00 (delivered quietly)")
    quiet.listed(key, note: "listed at 08:00 (delivered quietly)")
    #expect(quiet.doses[key]?.notes == ["listed at 08:00 (delivered quietly)"])
    #expect(quiet.doses[key]?.reason == "never perceived: listed at 08:00 (delivered quietly), and the patient did not look at the phone after it")
    quiet.perceived(key, by: alert, at: Build.instant("2026-05-04T08:30:00+02:00"))
    #expect(quiet.doses[key]?.reason == nil)

    let notified = ledger(notified: "08:00:00")
    notified.listed(key, note: "listed at 08:06 (delivered quietly)")
    #expect(notified.doses[key]?.reason == nil)
    #expect(notified.doses[key]?.notes == [])
  }

  @Test func aHeldNotificationExplainsOnlyADoseNeverNotified() {
    let held = ledger()
    held.held(key, note: "held by Focus 'Sleep' at 08:00")
    #expect(held.doses[key]?.reason == "never perceptible: held by Focus 'Sleep' at 08:00, not released before the run ended")
    #expect(held.doses[key]?.notes == ["held by Focus 'Sleep' at 08:00"])

    let notified = ledger(notified: "08:00:00")
    notified.held(key, note: "held by Focus 'Sleep' at 08:06")
    #expect(notified.doses[key]?.notes == [])
    #expect(notified.doses[key]?.reason == nil)
  }

  @Test func aDoseWithoutARecordIsLeftWithoutOne() {
    // A notification can be shown before its dose has a record; no fate may invent one.
    let ledger = DoseLedger()
    ledger.perceived(key, by: alert, at: Build.instant("2026-05-04T08:30:00+02:00"))
    ledger.listed(key, note: "listed at 08:00 (delivered quietly)")
    ledger.held(key, note: "held by Focus 'Sleep' at 08:00")
    ledger.requestLost(reminder, "dropped")
    ledger.deliveryNotShown(reminder, dose: key)
    #expect(ledger.doses.isEmpty)
  }

  @Test func aLossExplainsADeliveryNotShownUntilTheRequestIsPendingAgain() {
    let ledger = ledger()
    ledger.requestLost(reminder, "not shown at 08:00: will-present asked for none")
    ledger.deliveryNotShown(reminder, dose: key)
    #expect(ledger.doses[key]?.reason == "not shown at 08:00: will-present asked for none")
    ledger.requestPending(reminder)
    #expect(ledger.lossReason[reminder] == nil)
  }

  @Test func aBannerOnlyNotificationLeavesNotificationCenterWithItsReason() {
    let ledger = ledger()
    ledger.notificationShown(reminder, dose: key)
    ledger.notificationLeft(reminder, "shown as a banner only at 08:00")
    #expect(ledger.shownDose[reminder] == nil)
    #expect(ledger.leftNotificationCenter[reminder] == "shown as a banner only at 08:00")
  }
}
