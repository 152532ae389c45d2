import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

@Suite struct InstantFormatterTests {
  @Test func utcInstantsPrintWithZ() {
    #expect(SimulationInstant(millisecondsSinceEpoch: 0).description == "1970-01-01T00:00:00.000Z")
    #expect(SimulationInstant(millisecondsSinceEpoch: 1_774_674_000_123).description == "2026-03-28T05:00:00.123Z")
  }

  @Test func localInstantsCarryTheOffsetInForceAtThatInstant() {
    let copenhagen = InstantFormatter(timeZone: Build.zone("Europe/Copenhagen"))
    // 2026-03-29 01:00Z is the spring-forward moment in the EU.
    #expect(copenhagen.string(for: Build.instant("2026-03-29T00:59:59.999Z")) == "2026-03-29T01:59:59.999+01:00")
    #expect(copenhagen.string(for: Build.instant("2026-03-29T01:00:00Z")) == "2026-03-29T03:00:00.000+02:00")
  }

  @Test func negativeOffsetsAndPreEpochInstantsFormat() {
    #expect(InstantFormatter.format(SimulationInstant(millisecondsSinceEpoch: -1), offsetSeconds: -5 * 3600) == "1969-12-31T18:59:59.999-05:00")
    #expect(InstantFormatter.format(SimulationInstant(millisecondsSinceEpoch: 0), offsetSeconds: 5 * 3600 + 45 * 60) == "1970-01-01T05:45:00.000+05:45")
  }

  @Test func civilDateRoundTripsOverFourCenturies() {
    var day: Int64 = -146_097
    while day < 146_097 * 2 {
      let (y, m, d) = civilDate(fromDaysSinceEpoch: day)
      #expect(daysSinceEpoch(year: y, month: m, day: d) == day, "day \(day)")
      day += 37
    }
  }

  @Test(arguments: [
    (0, "0s"), (90_000, "1m30s"), (7_200_000, "2h"), (500, "500ms"), (1500, "1.5s"), (86_400_000 + 60_000, "1d1m"), (-30_000, "-30s"),
  ] as [(Int64, String)])
  func durationsPrintInTheScenarioSyntax(milliseconds: Int64, expected: String) {
    #expect(SimulationDuration(milliseconds: milliseconds).description == expected)
  }
}
