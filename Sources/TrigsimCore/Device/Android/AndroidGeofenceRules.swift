/// Placeholder: geofencing rules of the `android` profile.
public struct AndroidGeofenceRules: Sendable, Equatable { public init() {} }
