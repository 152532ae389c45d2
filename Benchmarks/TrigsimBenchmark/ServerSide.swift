// The server side: a three-channel escalation against push only
// (`--only server`).

// Not part of the full run. The medicine benchmark scenario (as for
// `android`: its regions, the six medicines of `medicineAppText` with their
// chains, responses and location reminder) with a reminder server that
// escalates over three channels (push at the due time; email at once if no
// device took the push; SMS 30 minutes later if unconfirmed), against the
// same scenario whose server sends only the push, in paired rounds
// (alternating order; the ratio is taken per round). Both sign the phone out
// halfway through the run, so the email fallback has work to do.

import Foundation
import TrigsimCore

/// The server table's two scenarios: `medicines` (what `medicineScenario`
/// gives for `days` days) with a server that sends only the push
/// (`pushOnly`) and one that escalates over three channels (`escalation`),
/// both signing the phone out halfway through the clock.
func serverScenarios(days: Int, medicines medicinesOnly: String) -> (pushOnly: String, escalation: String) {
  let signOut = InstantFormatter.utc.string(for: start.advanced(by: .hours(Int64(days) * 12)))
  func server(_ steps: String) -> String {
    "server:\n  policy: [\(steps)]\n  email: { reads: [\"07:30\", \"12:30\", \"20:00\"] }\n  changes: [ { at: \(signOut), signOut: phone } ]\n"
  }
  return (
    medicinesOnly + server("{ channel: push }"),
    medicinesOnly + server("{ channel: push }, { channel: email, if: push-failed }, { channel: sms, after: 30m }")
  )
}

extension Benchmark {
  func measureServerSide() throws {
    let rounds = max(3, runs)
    print("")
    print("server: \(rounds) paired rounds; baseline = the same scenario with a push-only server, in the same round")
    print("| track | push only s | escalation s | escalation ÷ push only | push-only lines | escalation lines | sms | email | peak RSS MB (escalation) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for days in dayCounts {
      let medicinesOnly = try medicineScenario(days: days)
      let servers = serverScenarios(days: days, medicines: medicinesOnly)
      let pair = try pairedScenarios(rounds, days: days, baseline: ("push-only", servers.pushOnly), candidate: ("escalation", servers.escalation))
      let (pushOnlyRuns, escalationRuns, ratios, peak) = (pair.baseline, pair.candidate, pair.ratios, pair.candidatePeak)
      let (pushOnlyLines, escalationLines) = (pair.baselineLines, pair.candidateLines)
      let texts = escalationLines.count { $0.dropFirst(30).hasPrefix("sms ") && $0.contains(" status=sent ") }
      let emails = escalationLines.count { $0.dropFirst(30).hasPrefix("email ") && $0.contains(" status=sent ") }
      // The benchmark must measure the escalation at work.
      guard texts > 0, emails > 0 else { fatalError("the escalation sends no text or no email") }
      print(String(
        format: "| %d day%@ | %.3f | %.3f | %.2f× | %d | %d | %d | %d | %.1f |", days, days == 1 ? "" : "s", middle(pushOnlyRuns),
        middle(escalationRuns), middle(ratios), pushOnlyLines.count, escalationLines.count, texts, emails, Double(peak) / 1_048_576))
    }
  }
}
