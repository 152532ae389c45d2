import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

private typealias F = MedicineFixture

/// Issue 41, item 8, as the server runs it: SMS quiet hours 01:00–02:30 in
/// Copenhagen on the spring-forward night, a 01:30 dose, a text at once and
/// another 30 minutes later. Step 1 waited until 03:30 (after step 2 at
/// 03:00), and a day with `dstGap: strict`; it now goes out at the jump,
/// 03:00 CEST, the first instant outside the quiet hours.
@Suite struct ServerQuietHoursAcrossZoneChangesTests {
  @Test func aStepWaitingForQuietHoursThatEndInTheGapIsSentAtTheJump() throws {
    var scenario = ServerFixture.scenario([ServerFixture.step(.sms), ServerFixture.step(.sms, after: 30)], times: ["01:30"], end: "2026-03-29T06:00:00Z")
    scenario.clock = Build.clock("2026-03-28T06:00:00Z", "2026-03-29T06:00:00Z", zone: "Europe/Copenhagen")
    scenario.server.preferences.quietHours[.sms] = QuietHours(from: F.time("01:00"), to: F.time("02:30"))
    let report = try ServerFixture.report(scenario)
    let label = "1.2026-03-29T01:30"
    let waiting = report.timeline.entries(.server).filter { $0.subject == label }
    #expect(waiting.map { "\($0.localInstant) step=\($0[field: "step"] ?? "-") \($0[field: "status"] ?? "-") until=\($0[field: "until"] ?? "-")" } == [
      "2026-03-29T01:30:00.000+01:00 step=1 waiting until=2026-03-29T03:00:00.000+02:00"
    ])
    // Both texts go out at the jump (step 2 was queued first, at 01:30, so it comes first at the same instant).
    let sent = report.timeline.entries(.sms).filter { $0[field: "status"] == "sent" }
    #expect(sent.map { "\($0.localInstant) \($0.subject)" } == [
      "2026-03-29T03:00:00.000+02:00 \(label).s2",
      "2026-03-29T03:00:00.000+02:00 \(label).s1",
    ])
  }
}
