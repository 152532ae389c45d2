import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport

@testable import TrigsimScenario

/// A key valid elsewhere in the format is placed there (`ScenarioKeyPlaces`,
/// read from the embedded JSON Schema); a misspelt key keeps its nearest-spelling
/// note and the list of the mapping's keys.
@Suite struct ScenarioKeyPlacesTests: LoaderDiagnosticAssertions {
  static let clock = "clock: { start: 2026-05-05T06:00:00+02:00, end: 2026-05-05T09:00:00+02:00, timezone: Europe/Copenhagen }"

  @Test func anAndroidKeyWrittenDirectlyUnderPlatformBelongsUnderAndroid() {
    assertDiagnostics(
      """
      trigsim: 1
      \(Self.clock)
      platform: { 1️⃣exactAlarms: denied }
      """,
      [
        Expected(
          marker: "1️⃣",
          message: "unknown key 'exactAlarms' in 'platform': it belongs under 'platform: { android: { exactAlarms: … } }'",
          note: "move it there")
      ])
  }

  @Test func aLocationRuleWrittenUnderPlatformBelongsUnderLocation() {
    let (_, found) = diagnostics(
      """
      trigsim: 1
      \(Self.clock)
      platform:
        pendingLimit: 64
        1️⃣dwell: 30s
      """)
    #expect(found.map(\.message) == ["unknown key 'dwell' in 'platform': it belongs under 'platform: { location: { dwell: … } }'"])
    // The note replaces the list of every key 'platform' accepts.
    #expect(found.first?.notes == ["move it there"])
  }

  @Test func aKeyValidAtOnePlaceOnlyIsPlacedThereFromTheTopLevel() {
    assertDiagnostics(
      """
      trigsim: 1
      \(Self.clock)
      1️⃣bucketsFollowUse: true
      """,
      [
        Expected(
          marker: "1️⃣", message: "unknown key 'bucketsFollowUse' in the scenario: it belongs under 'platform: { android: { bucketsFollowUse: … } }'")
      ])
  }

  @Test func aMisspeltKeyKeepsItsNearestSpellingAndTheListOfKeys() {
    let (text, found) = diagnostics(
      """
      trigsim: 1
      \(Self.clock)
      platform: { 1️⃣pendingLimt: 64 }
      """)
    #expect(found.count == 1)
    #expect(found.first?.location == text.location("1️⃣", file: "s.yaml"))
    #expect(found.first?.message == "unknown key 'pendingLimt' in 'platform'")
    #expect(found.first?.notes.first == "did you mean 'pendingLimit'?")
    #expect(found.first?.notes.dropFirst().first?.hasPrefix("'platform' accepts: ") == true)
  }

  @Test func aNearSpellingOfAKeyHereWinsOverAPlaceInAnotherSection() {
    // 'time' is a key of track: { columns: … } only, but in a medicine it is 'times' misspelt.
    let (_, found) = diagnostics(
      """
      trigsim: 1
      \(Self.clock)
      medicines:
        - { id: met, name: Metformin, dosage: 500, unit: mg, time: ["08:00"] }
      """)
    // (The medicine without 'times' is reported too, at the medicine.)
    let unknown = found.filter { $0.message.hasPrefix("unknown key") }
    #expect(unknown.map(\.message) == ["unknown key 'time' in a medicine"])
    #expect(unknown.first?.notes.first == "did you mean 'times'?")
  }

  @Test func aKeyValidAtSeveralEquallyDistantPlacesIsNotPlaced() {
    // 'timezone' is a key of clock, of a clock change, of a calendar trigger and of track: none shares 'platform'.
    #expect(ScenarioKeyPlaces.scenario.placement(of: "timezone", writtenAt: ["platform"]) == nil)
    #expect(ScenarioKeyPlaces.scenario.placement(of: "noSuchKey", writtenAt: []) == nil)
  }

  @Test func theNearestOfSeveralPlacesIsTheOneSharingTheLongestPath() {
    // 'exactAlarms' is a key of an app change (app: [{ exactAlarms }]) and of platform.android.
    let places = ScenarioKeyPlaces.scenario
    #expect(places.places["exactAlarms"]?.count == 2)
    #expect(places.placement(of: "exactAlarms", writtenAt: ["platform"]) == .init(path: ["platform", "android"], shared: 1))
    #expect(places.placement(of: "exactAlarms", writtenAt: ["app", "[]", "unknown"]) == .init(path: ["app", "[]"], shared: 2))
  }

  @Test func aPlaceIsSpelledAsFlowYAML() {
    #expect(ScenarioKeyPlaces.spelled("exactAlarms", at: ["platform", "android"]) == "platform: { android: { exactAlarms: … } }")
    #expect(ScenarioKeyPlaces.spelled("exactAlarms", at: ["app", "[]"]) == "app: [{ exactAlarms: … }]")
    #expect(ScenarioKeyPlaces.spelled("at", at: ["medicines", "[]", "prescription"]) == "medicines: [{ prescription: { at: … } }]")
    #expect(ScenarioKeyPlaces.spelled("radius", at: ["places", "*"]) == "places: { <name>: { radius: … } }")
  }
}
