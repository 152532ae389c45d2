import Foundation
import Testing
import TrigsimTestSupport
import TrigsimMedicineApp

@testable import TrigsimCore

/// The scenario's medicine app's nearest-N region set (`MedicineReminderApp`): which places it registers, when it
/// refreshes, the timeline entries of a refresh, and the doses of places it
/// did not monitor. The patient walks due north from `origin` at 3 m/s (a fix
/// every 10 s); five 100 m pharmacies lie on the way, so the distance from
/// each fix to each centre is a difference of metres along the meridian.
@Suite struct PlaceSetDoseTests {
  static let origin = Coordinate(latitude: 55.0, longitude: 12.0)
  /// Metres north of `origin`: p1 300, p2 650, p3 1000, p4 1350, p5 1700.
  static let offsets: [(PlaceID, Double)] = [("p1", 300), ("p2", 650), ("p3", 1000), ("p4", 1350), ("p5", 1700)]

  static func north(_ metres: Double) -> Coordinate { Geodesic.destination(from: origin, azimuth: 0, distance: metres) }

  static var pharmacies: PlaceSet {
    PlaceSet(id: "pharmacies", places: offsets.map { Place(id: $0.0, center: north($0.1), radius: 100) })
  }

  /// Fixes from 07:00:00 every 10 s, 30 m apart, for `seconds`.
  static func walk(seconds: Int) -> InMemoryTrack {
    let start = Build.instant("2026-03-28T07:00:00Z")
    return InMemoryTrack(samples: stride(from: 0, through: seconds, by: 10).map {
      TrackSample(instant: start.advanced(byMilliseconds: Int64($0) * 1000), coordinate: north(Double($0) * 3))
    })
  }

  static func run(
    nearest: Int = 2, significantChange: Bool = true, foreground: Bool = false, regionLimit: Int = 20, seconds: Int = 600
  ) throws -> SimulationReport {
    var location = LocationReminder(region: "pharmacies/*", onEntry: true, onExit: false)
    location.places = "pharmacies"
    let medicine = MedicineFixture.medicine(times: [], location: location, snooze: nil)
    var app = MedicineApp(medicineChanges: [MedicineFixture.create(medicine, at: "07:00")])
    if foreground { app.appChanges = [AppChange(instant: MedicineFixture.at("07:00"), state: .foreground)] }
    var platform = PlatformSettings.idealLocation
    platform.monitoredRegionLimit = regionLimit
    var scenario = MedicineFixture.scenario(app, start: "2026-03-28T07:00:00Z", end: "2026-03-28T07:15:00Z", track: walk(seconds: seconds), platform: platform)
    scenario.addPlaceSet(pharmacies)
    scenario.regionSet.nearest = nearest
    scenario.regionSet.significantChange = significantChange
    return try Simulation(scenario).report()
  }

  /// The `regions` entries: `HH:MM:SS cause added removed`.
  static func refreshes(_ report: SimulationReport) -> [String] {
    report.timeline.entries(.regions).map {
      "\($0.localInstant.dropFirst(11).prefix(8)) \($0[field: "cause"]!) +\($0[field: "added"]!) -\($0[field: "removed"]!)"
    }
  }

  @Test func theAppRegistersTheNearestPlacesNearestFirstWhenItFirstKnowsThePosition() throws {
    let report = try Self.run(seconds: 0)
    let at = report.timeline.entries(at: MedicineFixture.at("07:00"))
    #expect(at.map(\.kindAndSubject) == [
      "medicine medicine_1", "regions pharmacies", "scheduled medicine_1_location_p1", "scheduled medicine_1_location_p2",
      "warning track",  // the one-fix track ends at once
    ])
    let summary = at[1]
    #expect(summary[field: "medicine"] == "1")
    #expect(summary[field: "cause"] == "medicine added")
    #expect(summary[field: "nearest"] == "2")
    #expect(summary[field: "at"] == Self.origin.description)
    // Same title, body and userInfo as the medicine's single location request.
    #expect(at[2][field: "trigger"] == "region pharmacies/p1 on=enter")
    #expect(at[2][field: "title"] == "Metformin")
    #expect(at[2][field: "location"] == "enter")
  }

  /// In the background only the significant-change service wakes the app:
  /// a report at the first fix 500 m from the last report and 5 minutes after it.
  @Test func significantChangeReportsRefreshAtMostEveryFiveMinutesAfter500Metres() throws {
    let report = try Self.run()
    // 500 m is reached at 07:02:50, but the 5 minutes only at 07:05:00 (900 m); then 07:10:00 (1800 m).
    #expect(Self.refreshes(report) == ["07:00:00 medicine added +2 -0", "07:05:00 significant change +1 -1", "07:10:00 significant change +2 -2"])
    // p3's boundary is crossed at the same instant: position events come first, so the crossing sees the old set.
    let at5 = report.timeline.entries(at: MedicineFixture.at("07:05")).filter { $0.kind != .regions }
    #expect(at5.map(\.kindAndSubject) == ["enter pharmacies/p3", "removed medicine_1_location_p1", "scheduled medicine_1_location_p3"])
    #expect(at5[1][field: "reason"] == "region set refresh: not among the nearest 2")
  }

  @Test func withoutSignificantChangeABackgroundAppNeverRefreshes() throws {
    let report = try Self.run(significantChange: false)
    #expect(Self.refreshes(report) == ["07:00:00 medicine added +2 -0"])
  }

  /// In the foreground the app receives every fix and refreshes once the
  /// device is `refresh` (500 m) from where it last computed the set.
  @Test func inTheForegroundTheAppRefreshesEvery500Metres() throws {
    let report = try Self.run(significantChange: false, foreground: true)
    // At 510 m (07:02:50) the nearest are still p2 and p1: a refresh that changes nothing adds no
    // entry but moves the centre; then 1020 m (07:05:40: p3, p4) and 1530 m (07:08:30: p5, p4).
    #expect(Self.refreshes(report) == ["07:00:00 medicine added +2 -0", "07:05:40 moved +2 -2", "07:08:30 moved +1 -1"])
  }

  /// A place crossed while not among the nearest is a missed dose with the
  /// distance at the last refresh; a monitored one notifies its dose.
  @Test func aCrossingOfAPlaceNotMonitoredIsMissedWithTheLastRefresh() throws {
    let report = try Self.run()
    let doses = report.summary.doses.map { "\($0.reminder) \($0.outcome)" }
    #expect(doses == [
      "pharmacies/p1 on=enter unanswered", "pharmacies/p2 on=enter unanswered", "pharmacies/p3 on=enter missed",
      "pharmacies/p4 on=enter missed", "pharmacies/p5 on=enter missed",
    ])
    let reasons = report.summary.doses.map { $0.reason ?? "-" }
    #expect(reasons[2] == "not monitored: p3 was not among the nearest 2 at the last refresh (at 2026-03-28T07:00:00.000+00:00, 1000m away)")
    #expect(reasons[3] == "not monitored: p4 was not among the nearest 2 at the last refresh (at 2026-03-28T07:05:00.000+00:00, 450m away)")
    #expect(reasons[4] == "not monitored: p5 was not among the nearest 2 at the last refresh (at 2026-03-28T07:05:00.000+00:00, 800m away)")
    // p3 is registered at 07:05:00, right after the patient crossed into it: no later entry, so nothing fires for it.
    #expect(!report.timeline.entries(.fired).contains { $0.subject == "medicine_1_location_p3" })
    #expect(report.timeline.entries(.fired).map(\.subject) == ["medicine_1_location_p1", "medicine_1_location_p2"])
  }

  /// A place-set dose is keyed by its place and that place's own crossing
  /// count, so it keeps its key whatever other places a run crosses first.
  @Test func aPlaceSetDoseIsKeyedByItsPlaceAndItsOwnCrossingCount() throws {
    let report = try Self.run()
    let keys = report.summary.doses.map { "\($0.key.place?.rawValue ?? "-") \($0.key.occurrenceLabel)" }
    #expect(keys == ["p1 #1", "p2 #1", "p3 #1", "p4 #1", "p5 #1"])
    // Five different doses, though each is its place's first crossing.
    #expect(Set(report.summary.doses.map(\.key)).count == 5)
    #expect(DoseKey(medicine: "1", slot: .location, occurrence: 1, place: "p1") != DoseKey(medicine: "1", slot: .location, occurrence: 1, place: "p2"))
  }

  /// The platform's region limit still applies: asking for more places than
  /// it allows drops the farthest with the notification center's reason.
  @Test func placesBeyondTheRegionLimitAreDroppedAndTheirDosesSayWhy() throws {
    let report = try Self.run(nearest: 3, significantChange: false, regionLimit: 2)
    let dropped = report.timeline.entries(.dropped)
    #expect(dropped.map(\.subject) == ["medicine_1_location_p3"])
    #expect(dropped.first?[field: "reason"] == "region monitoring limit of 2 reached: pending location requests already monitor 2 regions")
    let p3 = report.summary.doses.first { $0.reminder == "pharmacies/p3 on=enter" }
    #expect(p3?.reason == "dropped at 2026-03-28T07:00:00.000+00:00: region monitoring limit of 2 reached: pending location requests already monitor 2 regions")
  }

  @Test func theHeaderSumsUpEachPlaceSetAndThePolicy() throws {
    let report = try Self.run(seconds: 0)
    let header = report.timeline.header
    #expect(header.first { $0.key == "places pharmacies" }?.value == "5 circles r=100m listed in the scenario, regions pharmacies/{place}")
    #expect(header.first { $0.key == "region set" }?.value == "nearest=2 refresh=500m significant-change=yes (500m, at most every 5m)")
    #expect(!header.contains { $0.key.hasPrefix("region pharmacies/") })
  }
}
