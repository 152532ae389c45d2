import Foundation

/// The name of a set of candidate places (`places: { pharmacies: ... }`).
/// Each place of the set is the region `{set}/{place}`.
public struct PlaceSetID: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }
  public var description: String { rawValue }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The identifier of one place in a set (`p017`); it names the place's
/// region (`pharmacies/p017`) and the app's request for it
/// (`medicine_{id}_location_{place}`).
public struct PlaceID: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }
  public var description: String { rawValue }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A candidate place: a circle the app may monitor.
public struct Place: Sendable {
  public var id: PlaceID
  public var center: Coordinate
  /// Metres.
  public var radius: Double
  /// Where the place is written (a CSV row or a YAML item).
  public var origin: InputLocation?

  public init(id: PlaceID, center: Coordinate, radius: Double, origin: InputLocation? = nil) {
    self.id = id
    self.center = center
    self.radius = radius
    self.origin = origin
  }
}

/// A named set of candidate places, more than the platform lets an app
/// monitor at once. The world knows every place (each is a region whose true
/// crossings the geometry records); the app registers location requests for
/// the nearest N only (`RegionSetPolicy`).
public struct PlaceSet: Sendable {
  public var id: PlaceSetID
  /// In the order the scenario lists them (ids unique within the set).
  public var places: [Place]
  /// Where the places come from, for the timeline header: the CSV file as the
  /// scenario names it, or nil when they are listed in the scenario.
  public var source: String?

  public init(id: PlaceSetID, places: [Place], source: String? = nil) {
    self.id = id
    self.places = places
    self.source = source
  }

  /// The region of a place: `{set}/{place}`.
  public func regionID(of place: PlaceID) -> RegionID { RegionID("\(id)/\(place)") }
}

/// How the app chooses and refreshes the places it monitors when a
/// medicine's location reminder covers a place set (`regionSet:`).
///
/// Rules (see the manual, "Many places: the nearest N"):
/// - the app registers one location request per place for the `nearest`
///   places, by geodesic distance from the device's known position to each
///   circle's centre, ties by place id;
/// - it computes the set at its first fix (or when the medicine is created,
///   if the position is known then), and again whenever its code runs for a
///   location: at a fix while it is in the foreground, once the device is
///   `refresh` metres from where the set was last computed; and, with
///   `significantChange`, at every report of the significant-change service,
///   which wakes it in the background.
public struct RegionSetPolicy: Sendable, Equatable {
  /// How many places the app monitors; nil: the platform's region limit.
  public var nearest: Int?
  /// Metres the device moves from where the set was computed before app code
  /// that learns the position (in the foreground) computes it again.
  public var refresh: Double = 500
  /// Whether the app starts the significant-change service and refreshes at each of its reports.
  public var significantChange = true

  public init() {}

  /// The number of places monitored under `platform`.
  public func count(under platform: PlatformSettings) -> Int { nearest ?? platform.monitoredRegionLimit }

  /// `nearest=20 refresh=500m significant-change=yes (500m, at most every 5m)`, for the timeline header.
  func summary(under platform: PlatformSettings) -> String {
    let rules = platform.significantChange
    let change = significantChange ? "yes (\(Self.metres(rules.distance)), at most every \(rules.minimumInterval))" : "no"
    return "nearest=\(count(under: platform)) refresh=\(Self.metres(refresh)) significant-change=\(change)"
  }

  public static func metres(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))m" : "\(value)m"
  }
}

/// The significant-change location service
/// (`CLLocationManager.startMonitoringSignificantLocationChanges()`): it
/// reports a new location only after the device has moved `distance` metres
/// from the last reported one, no more often than once per `minimumInterval`,
/// and wakes (or relaunches) the app to deliver it. Apple's documentation of
/// that method: "Apps can expect a notification as soon as the device moves
/// 500 meters or more from its previous notification. It should not expect
/// notifications more frequently than once every five minutes."
public struct SignificantChangeRules: Sendable, Equatable {
  /// Metres from the last report (Apple: 500 m or more).
  public var distance: Double = 500
  /// Shortest time between two reports (Apple: not more often than every 5 minutes).
  public var minimumInterval: SimulationDuration = .minutes(5)

  public init() {}
}

extension Scenario {
  /// Adds a place set: every place becomes a region `{set}/{place}` (a
  /// circle) after the regions declared so far, so the geometry records
  /// the true crossings of all of them.
  public mutating func addPlaceSet(_ set: PlaceSet) {
    placeSetRegions.append(regions.count..<(regions.count + set.places.count))
    for place in set.places {
      regions.append(
        MonitoredRegion(id: set.regionID(of: place.id), shape: CircularRegion(center: place.center, radius: place.radius), origin: place.origin))
    }
    placeSets.append(set)
  }

  /// The place set and place a region belongs to, if it is a place.
  func place(ofRegion region: Int) -> (set: Int, place: Int)? {
    guard let first = placeSetRegions.first, region >= first.lowerBound else { return nil }
    for (set, range) in placeSetRegions.enumerated() where range.contains(region) { return (set, region - range.lowerBound) }
    return nil
  }
}
