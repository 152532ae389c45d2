/// Placeholder: notification permission, channels and Do Not Disturb of the `android` profile.
public struct AndroidNotificationRules: Sendable, Equatable { public init() {} }
