import Testing
import TrigsimCore

@Suite struct ISO8601DateTimeTests {
  func parse(_ text: String) -> Result<ISO8601DateTime, ISO8601DateTime.Problem> {
    var text = text
    return text.withUTF8 { ISO8601DateTime.parse($0) }
  }

  // 2026-03-28T06:00:00 as milliseconds on its own clock.
  let sixAM: Int64 = 1_774_677_600_000

  @Test(arguments: [
    ("2026-03-28T06:00:00Z", 0, Int64(0) as Int64?),
    ("2026-03-28 06:00", 0, nil),
    ("2026-03-28t06:00:00z", 0, 0),
    ("2026-03-28T06:00:00+01:00", 0, 3_600_000),
    ("2026-03-28T06:00:00-0530", 0, -19_800_000),
    ("2026-03-28T06:00:00+02", 0, 7_200_000),
    ("2026-03-28T06:00:00,5Z", 1, 0),
  ] as [(String, Int, Int64?)])
  func offsetsAndSeparatorsOfTheGrammarAreRead(text: String, fractionDigits: Int, offset: Int64?) throws {
    let time = try parse(text).get()
    #expect(time.offsetMilliseconds == offset)
    #expect(time.fractionDigits == fractionDigits)
    #expect(time.localMilliseconds == sixAM + (fractionDigits == 1 ? 500 : 0))
  }

  @Test func fractionsBeyondMillisecondsAreTruncatedAndCounted() throws {
    let time = try parse("2026-03-28T06:00:00.123987Z").get()
    #expect(time.localMilliseconds == sixAM + 123)
    #expect(time.fractionDigits == 6)
  }

  @Test(arguments: ["2026-03-28", "2026-03-28T6:00", "2026-03-28T06:00:00.", "2026-03-28T06:00:00+1", "2026-03-28T06:00:00Zx", "28/03/2026 06:00"])
  func textOutsideTheGrammarIsMalformed(text: String) {
    #expect(parse(text) == .failure(.malformed))
  }

  @Test(arguments: ["2026-02-29T00:00", "2026-04-31T00:00", "2026-03-28T24:00", "2026-13-01T00:00"])
  func datesAndTimesThatDoNotExistAreOutOfRange(text: String) {
    #expect(parse(text) == .failure(.outOfRange))
  }

  @Test func leapDayExistsInLeapYears() {
    #expect((try? parse("2028-02-29T00:00").get()) != nil)
    #expect(daysInMonth(year: 2000, month: 2) == 29)
    #expect(daysInMonth(year: 2100, month: 2) == 28)
  }
}
