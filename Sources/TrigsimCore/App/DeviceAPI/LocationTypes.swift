import Foundation

/// A circular region the app monitors or names in a location trigger
/// (`CLCircularRegion`). The simulated world knows where a place is only from
/// the scenario: the identifier, centre and radius must be those of a circle
/// under the scenario's `regions:`.
public struct CircularRegionSpec: Hashable, Sendable {
  public var identifier: RegionID
  public var center: Coordinate
  /// Metres.
  public var radius: Double
  public var notifyOnEntry: Bool
  public var notifyOnExit: Bool

  public init(identifier: RegionID, center: Coordinate, radius: Double, notifyOnEntry: Bool = true, notifyOnExit: Bool = true) {
    self.identifier = identifier
    self.center = center
    self.radius = radius
    self.notifyOnEntry = notifyOnEntry
    self.notifyOnExit = notifyOnExit
  }
}

/// Why region monitoring failed (`CLError`).
public enum LocationManagerError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `CLError.regionMonitoringFailure`: the app already monitors the most
  /// regions the platform allows (20 on iOS, shared with location triggers).
  case regionMonitoringFailure(RegionID, limit: Int)
  /// `CLError.regionMonitoringDenied`: location authorization does not allow monitoring.
  case regionMonitoringDenied(RegionID, reason: String)

  public var description: String {
    switch self {
    case .regionMonitoringFailure(let region, let limit):
      "region monitoring failed for '\(region)': the app already monitors \(limit) regions (the platform's limit, shared with pending location triggers)"
    case .regionMonitoringDenied(let region, let reason):
      "region monitoring denied for '\(region)': \(reason)"
    }
  }
}
