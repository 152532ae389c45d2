import Testing
import TrigsimCore
import TrigsimTestSupport

@Suite struct NameSuggestionTests {
  @Test func aTypoWithinTheEditBudgetIsSuggestedIgnoringCase() {
    #expect(NameSuggestion.closest(to: "ofice", among: ["home", "office"]) == "office")
    #expect(NameSuggestion.closest(to: "Europe/Copenhagn", among: ["Europe/Berlin", "Europe/Copenhagen"]) == "Europe/Copenhagen")
    #expect(NameSuggestion.closest(to: "TITEL", among: ["title", "body"]) == "title")
  }

  @Test func nothingIsSuggestedWhenEveryCandidateIsTooFar() {
    #expect(NameSuggestion.closest(to: "pharmacy", among: ["home", "office"]) == nil)
    #expect(NameSuggestion.closest(to: "x", among: []) == nil)
  }

  @Test func theEarliestOfEquallyNearCandidatesWins() {
    #expect(NameSuggestion.closest(to: "cat", among: ["bat", "hat"]) == "bat")
  }

  @Test func aNearerLaterCandidateReplacesAFartherEarlierOne() {
    #expect(NameSuggestion.closest(to: "pharmacies", among: ["pharmacy", "pharmacie"]) == "pharmacie")
  }

  @Test func editDistanceCountsInsertionsDeletionsAndSubstitutions() {
    #expect(NameSuggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
    #expect(NameSuggestion.editDistance(Array(""), Array("abc")) == 3)
    #expect(NameSuggestion.editDistance(Array("same"), Array("same")) == 0)
  }

  @Test func theBandedDistanceIsTheDistanceWhenWithinTheLimitAndNilBeyondIt() {
    #expect(NameSuggestion.editDistance(Array("kitten"), Array("sitting"), atMost: 3) == 3)
    #expect(NameSuggestion.editDistance(Array("kitten"), Array("sitting"), atMost: 2) == nil)
    #expect(NameSuggestion.editDistance(Array("abc"), Array("abcdefg"), atMost: 3) == nil)  // lengths alone differ by 4
    #expect(NameSuggestion.editDistance(Array(""), Array("ab"), atMost: 2) == 2)
    #expect(NameSuggestion.editDistance(Array("ab"), Array("ba"), atMost: 0) == nil)
  }

  /// The banded computation against the full table, on seeded random pairs
  /// over a small alphabet (so near pairs are common).
  @Test func theBandedDistanceAgreesWithTheFullTableOnRandomPairs() {
    func fullTable(_ a: [Character], _ b: [Character]) -> Int {
      var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
      for i in 0...a.count { table[i][0] = i }
      for j in 0...b.count { table[0][j] = j }
      for i in stride(from: 1, through: a.count, by: 1) {
        for j in stride(from: 1, through: b.count, by: 1) {
          table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
      }
      return table[a.count][b.count]
    }
    let alphabet: [Character] = ["a", "b", "c"]
    for seed in UInt64(0)..<2000 {
      var random = SplitMix64(seed: seed)
      let a = (0..<Int.random(in: 0...9, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
      let b = (0..<Int.random(in: 0...9, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
      let limit = Int.random(in: 0...6, using: &random)
      let expected = fullTable(a, b)
      #expect(
        NameSuggestion.editDistance(a, b, atMost: limit) == (expected <= limit ? expected : nil),
        "seed \(seed): '\(String(a))' '\(String(b))' limit \(limit)")
      #expect(NameSuggestion.editDistance(a, b) == expected, "seed \(seed)")
    }
  }

  @Test func namesLongerThanTheComparedLengthGetNoSuggestion() {
    let long = String(repeating: "a", count: NameSuggestion.longestComparedName)
    #expect(NameSuggestion.closest(to: long + "b", among: [long]) == nil)
    #expect(NameSuggestion.closest(to: long, among: [long + "b"]) == nil)
    #expect(NameSuggestion.closest(to: String(long.dropLast()) + "b", among: [long]) == long)
  }

  /// The reproducer: 200 KB names used to take 68 s (quadratic in the
  /// length). Long names are skipped after 64 characters are looked at.
  @Test func twoHundredKilobyteNamesAreSkippedWithoutBeingCompared() {
    let huge = String(repeating: "pharmacy", count: 25_000)
    #expect(NameSuggestion.closest(to: huge + "x", among: [huge, huge + "y", "pharmacy"]) == nil)
    #expect(NameSuggestion.closest(to: "pharmacx", among: [huge, "pharmacy"]) == "pharmacy")
  }
}
