import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

private typealias F = MedicineFixture
private typealias S = ServerFixture

/// Email is perceived at the patient's mail readings; the in-app inbox when
/// the app, open, fetches it.
@Suite struct EmailChannelTests {
  @Test func anEmailIsPerceivedAtTheFirstScriptedDailyReadAfterItsDelivery() throws {
    var scenario = S.scenario([S.step(.email, after: 10)])
    scenario.server.email.reads = [F.time("07:00"), F.time("12:00"), F.time("19:00")]
    let report = try S.report(scenario)
    let email = try #require(report.attempts(step: 1).first)
    #expect(email.sent == F.at("08:10"))
    #expect(email.delivered == F.at("08:11"))
    #expect(email.perceived == F.at("12:00"))
    #expect(report.timeline.entries(.email).map { $0.brief("status", "read") } == [
      "08:10 status=sent read=-", "08:11 status=delivered read=\(F.local("12:00"))", "12:00 status=perceived read=-",
    ])
    #expect(report.dueDose?.notified == F.at("12:00"))
    #expect(report.dueDose?.perception?.channel == .email)
  }

  @Test func anEmailDeliveredAfterTheDaysLastReadIsReadAtTheNextDaysFirst() throws {
    var scenario = S.scenario([S.step(.email, after: 10)], end: "2026-03-29T08:00:00Z")
    scenario.server.email.reads = [F.time("07:00")]
    let report = try S.report(scenario)
    #expect(report.attempts(step: 1).first?.perceived == F.at("07:00", on: F.nextDay))
    // The same email in a run that ends first: read after the run.
    var shorter = S.scenario([S.step(.email, after: 10)])
    shorter.server.email.reads = [F.time("07:00")]
    let short = try S.report(shorter)
    #expect(short.timeline.entries(.email).map { $0.brief("status", "read") } == ["08:10 status=sent read=-", "08:11 status=delivered read=after the run"])
    #expect(short.attempts(step: 1).first?.perceived == nil)
  }

  @Test func anEmailIsNeverPerceivedWhenThePatientReadsNoMail() throws {
    let report = try S.report(S.scenario([S.step(.email, after: 10)]))
    let email = try #require(report.attempts(step: 1).first)
    #expect(email.delivered == F.at("08:11"))
    #expect(email.perceived == nil)
    let delivered = try #require(report.timeline.entries(.email).first { $0[field: "status"] == "delivered" })
    #expect(delivered[field: "read"] == nil)
    #expect(delivered[field: "reason"] == "the patient reads no mail (email reads: none)")
    #expect(!report.timeline.entries(.email).contains { $0[field: "status"] == "perceived" })
    #expect(report.dueDose?.notified == nil)
  }
}

@Suite struct InboxChannelTests {
  @Test func anInboxItemIsPerceivedWhenTheAppIsNextOpenedAndFetchesOnOpening() throws {
    var scenario = S.scenario([S.step(.inbox, after: 10)])
    scenario.medicineApp.appChanges += [S.appState(.foreground, at: "09:00"), S.appState(.background, at: "09:03")]
    let report = try S.report(scenario)
    let item = try #require(report.attempts(step: 1).first)
    #expect(item.sent == F.at("08:10"))
    #expect(item.delivered == F.at("08:10"))
    #expect(item.perceived == F.at("09:00"))
    #expect(report.timeline.entries(.inbox).map { $0.brief("status", "fetch") } == [
      "08:10 status=posted fetch=\(F.local("09:00"))", "09:00 status=perceived fetch=-",
    ])
    #expect(report.dueDose?.perception?.channel == .inbox)
  }

  @Test func anInboxItemPostedWhileTheAppIsOpenIsPerceivedAtTheNextPoll() throws {
    var scenario = S.scenario([S.step(.inbox, after: 12)])
    // Open from 08:00: fetches at 08:00, then every 5 minutes (inbox pollInterval 300 s): 08:05, 08:10, 08:15.
    scenario.medicineApp.appChanges += [S.appState(.foreground, at: "08:00"), S.appState(.background, at: "09:00")]
    let report = try S.report(scenario)
    let item = try #require(report.attempts(step: 1).first)
    #expect(item.sent == F.at("08:12"))
    #expect(item.perceived == F.at("08:15"))
  }

  @Test func anInboxItemPostedWhileTheAppIsOpenIsNotPerceivedWhenTheAppClosesBeforeTheNextPoll() throws {
    var scenario = S.scenario([S.step(.inbox, after: 12)])
    // Closed at 08:14, before the 08:15 poll; opened again at 10:00.
    scenario.medicineApp.appChanges += [
      S.appState(.foreground, at: "08:00"), S.appState(.background, at: "08:14"),
      S.appState(.foreground, at: "10:00"), S.appState(.background, at: "10:01"),
    ]
    let report = try S.report(scenario)
    #expect(report.attempts(step: 1).first?.perceived == F.at("10:00"))
  }

  @Test func withoutFetchOnOpenAnItemIsPerceivedAtTheFirstPollOfALaterOpeningThatLastsUntilAPoll() throws {
    var scenario = S.scenario([S.step(.inbox, after: 10)])
    scenario.server.inbox.fetchOnOpen = false
    // 09:00–09:02 ends before its first poll (09:05); 10:00–10:10 polls at 10:05.
    scenario.medicineApp.appChanges += [
      S.appState(.foreground, at: "09:00"), S.appState(.background, at: "09:02"),
      S.appState(.foreground, at: "10:00"), S.appState(.background, at: "10:10"),
    ]
    let report = try S.report(scenario)
    #expect(report.timeline.entries(.inbox).first?.brief("status", "fetch") == "08:10 status=posted fetch=\(F.local("10:05"))")
    #expect(report.attempts(step: 1).first?.perceived == F.at("10:05"))
  }

  @Test func withoutFetchOnOpenAnOpeningThatEndsAtOnceNeverFetches() throws {
    var scenario = S.scenario([S.step(.inbox, after: 10)])
    scenario.server.inbox.fetchOnOpen = false
    // Opened and left at 09:00: no poll while open.
    scenario.medicineApp.appChanges += [S.appState(.foreground, at: "09:00"), S.appState(.background, at: "09:00")]
    let report = try S.report(scenario)
    #expect(report.timeline.entries(.inbox).map { $0.brief("status", "fetch") } == ["08:10 status=posted fetch=never: the app is not opened again"])
    #expect(report.attempts(step: 1).first?.perceived == nil)
  }

  @Test func anInboxItemIsNeverPerceivedWhenTheAppIsNotOpened() throws {
    let report = try S.report(S.scenario([S.step(.inbox, after: 10)]))
    let item = try #require(report.attempts(step: 1).first)
    #expect(item.delivered == F.at("08:10"))
    #expect(item.perceived == nil)
    #expect(report.timeline.entries(.inbox).map { $0.brief("status", "fetch") } == ["08:10 status=posted fetch=never: the app is not opened again"])
    #expect(report.dueDose?.notified == nil)
  }
}
