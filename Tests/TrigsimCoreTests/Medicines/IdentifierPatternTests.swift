import Testing

@testable import TrigsimCore

@Suite struct IdentifierPatternTests {
  @Test func starMatchesAnyRunIncludingNone() {
    let pattern = IdentifierPattern("medicine_1_*")
    #expect(pattern.matches("medicine_1_snooze_3"))
    #expect(pattern.matches("medicine_1_reminder_0_snoozed"))
    #expect(pattern.matches("medicine_1_"))
    #expect(IdentifierPattern("*").matches(""))
    #expect(IdentifierPattern("*").matches("anything at all"))
    #expect(IdentifierPattern("medicine_*_location").matches("medicine_42_location"))
    #expect(IdentifierPattern("medicine_*_location").matches("medicine__location"))
    #expect(!IdentifierPattern("medicine_*_location").matches("medicine_42_location_x"))
  }

  @Test func literalPrefixMustMatchExactlySoMedicine1DoesNotMatchMedicine10() {
    let pattern = IdentifierPattern("medicine_1_*")
    #expect(!pattern.matches("medicine_10_reminder_0"))
    #expect(!pattern.matches("medicine_1"))
    #expect(!pattern.matches("Medicine_1_reminder_0"))  // case-sensitive
    #expect(!pattern.matches("xmedicine_1_reminder_0"))
  }

  @Test func questionMarkMatchesExactlyOneCharacter() {
    let pattern = IdentifierPattern("medicine_?_reminder_0")
    #expect(pattern.matches("medicine_1_reminder_0"))
    #expect(pattern.matches("medicine_x_reminder_0"))
    #expect(!pattern.matches("medicine_10_reminder_0"))
    #expect(!pattern.matches("medicine__reminder_0"))
    #expect(IdentifierPattern("???").matches("abc"))
    #expect(!IdentifierPattern("???").matches("ab"))
    #expect(!IdentifierPattern("???").matches("abcd"))
    #expect(!IdentifierPattern("?").matches(""))
  }

  @Test func withoutWildcardsThePatternMatchesOnlyItself() {
    let pattern = IdentifierPattern("medicine_1_snooze_3")
    #expect(pattern.matches("medicine_1_snooze_3"))
    #expect(!pattern.matches("medicine_1_snooze_30"))
    #expect(!pattern.matches("medicine_1_snooze_"))
    #expect(!pattern.matches("medicine_1_snooze_4"))
    // Regex and shell metacharacters other than * and ? are literal.
    #expect(IdentifierPattern("a.b[1]").matches("a.b[1]"))
    #expect(!IdentifierPattern("a.b").matches("axb"))
    #expect(!IdentifierPattern("[ab]").matches("a"))
  }

  @Test func emptyPatternMatchesOnlyTheEmptyIdentifier() {
    #expect(IdentifierPattern("").matches(""))
    #expect(!IdentifierPattern("").matches("a"))
    #expect(!IdentifierPattern("").matches("medicine_1_reminder_0"))
  }

  @Test func consecutiveStarsActAsOneStar() {
    #expect(IdentifierPattern("**").matches(""))
    #expect(IdentifierPattern("***").matches("medicine_1_snooze_3"))
    #expect(IdentifierPattern("medicine_**_snooze_*").matches("medicine_1_snooze_3"))
    #expect(IdentifierPattern("medicine_**_snooze_*").matches("medicine_12_snooze_"))
    #expect(!IdentifierPattern("medicine_**_snooze_*").matches("medicine_1_reminder_0"))
    #expect(IdentifierPattern("a**b").matches("ab"))
    #expect(IdentifierPattern("a*?*b").matches("axb"))
    #expect(!IdentifierPattern("a*?*b").matches("ab"))
  }

  @Test func starBacktracksToFindALaterMatch() {
    #expect(IdentifierPattern("*_snooze_3").matches("medicine_1_snooze_1_snooze_3"))
    #expect(IdentifierPattern("*a*b").matches("aaaaab"))
    #expect(!IdentifierPattern("*a*b").matches("aaaaaba"))
    #expect(IdentifierPattern("medicine_*_*_0").matches("medicine_1_reminder_0"))
    #expect(!IdentifierPattern("medicine_*_*_0").matches("medicine_1_reminder_1"))
  }

  @Test func patternMatchesWholeCharactersNotBytes() {
    #expect(IdentifierPattern("pille_?").matches("pille_é"))
    #expect(IdentifierPattern("*é").matches("café"))
  }
}
