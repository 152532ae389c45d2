import Testing
import TrigsimCore

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

  @Test func editDistanceCountsInsertionsDeletionsAndSubstitutions() {
    #expect(NameSuggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
    #expect(NameSuggestion.editDistance(Array(""), Array("abc")) == 3)
    #expect(NameSuggestion.editDistance(Array("same"), Array("same")) == 0)
  }
}
