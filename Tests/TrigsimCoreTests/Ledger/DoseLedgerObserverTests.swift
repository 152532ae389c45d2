import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// The dose ledger on its own, as the engine and the app feed it
/// (`DoseLedger`): what it keeps of an observation is what it knew then.
@Suite struct DoseLedgerObserverTests {
  let eight = DailyTime(hour: 8, minute: 0)

  @Test func aPendingLimitDropKeepsTheRoleItsRequestHadWhenDropped() {
    let ledger = DoseLedger()
    let reminder = NotificationID("medicine_1_reminder_0")
    let first = Build.instant("2026-05-04T08:00:00Z")
    let later = Build.instant("2026-05-04T09:00:00Z")
    ledger.requestAttributed(reminder, to: MedicineRequestInfo(medicine: "1", role: .reminder(0, eight)))
    ledger.notePendingLimitDrop(reminder, at: first)
    ledger.notePendingLimitDrop("other", at: first)
    // Attributed anew after its drop: the drop still counts the daily reminder.
    ledger.requestAttributed(reminder, to: MedicineRequestInfo(medicine: "2", role: .followUp(index: 1)))
    ledger.notePendingLimitDrop(reminder, at: later)
    let groups = ledger.pendingLimitDropGroups()
    #expect(groups.map(\.at) == [first, later])
    #expect(groups.map(\.description) == ["2: 1 daily reminder, 1 other request of medicine 1", "1: 1 follow-up of medicine 2"])
    #expect(ledger.droppedByPendingLimit.map(\.id) == [reminder, "other", reminder])
  }

  @Test func aVisitHasAStayOnlyWhenItsEntryWasSeen() {
    let ledger = DoseLedger()
    ledger.regionCrossed(0, visit: 1, entering: true, at: Build.instant("2026-05-04T08:00:00Z"))
    ledger.regionCrossed(0, visit: 1, entering: false, at: Build.instant("2026-05-04T08:12:30Z"))
    // Visit 2 of region 1 began before the ledger heard of it.
    ledger.regionCrossed(1, visit: 2, entering: false, at: Build.instant("2026-05-04T08:20:00Z"))
    #expect(ledger.visitStays[DoseLedger.RegionVisit(region: 0, visit: 1)] == Build.instant("2026-05-04T08:00:00Z").duration(to: Build.instant("2026-05-04T08:12:30Z")))
    #expect(ledger.visitStays[DoseLedger.RegionVisit(region: 1, visit: 2)] == nil)
  }
}
