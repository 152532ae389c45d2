import Foundation

/// The app's wrapper around the system location manager
/// (`CLLocationManager` on iOS). Arrivals come back to the app through
/// `ReminderApp.patientArrived(at:)`, which the app's location delegate calls.
public protocol RegionMonitoring: AnyObject {
  /// Starts watching for arrivals at `place`.
  func startMonitoring(_ place: SavedPlace)
  /// Stops watching `place`.
  func stopMonitoring(_ place: SavedPlace)
  /// The identifiers of the places being watched, sorted.
  var monitoredPlaceIDs: [String] { get }
}

/// A place the patient saved in the app (home, the pharmacy): a circle.
public struct SavedPlace: Codable, Equatable, Sendable {
  public var id: String
  public var latitude: Double
  public var longitude: Double
  /// Metres. The app's location reminders use 100 m.
  public var radius: Double

  public init(id: String, latitude: Double, longitude: Double, radius: Double = SavedPlace.reminderRadius) {
    self.id = id
    self.latitude = latitude
    self.longitude = longitude
    self.radius = radius
  }

  /// The radius of the circle a location reminder watches.
  public static let reminderRadius = 100.0
}
