/// Placeholder: the alarm rules of the `android` profile (filled by the alarm model).
public struct AndroidAlarmRules: Sendable, Equatable { public init() {} }
/// Placeholder: Doze rules.
public struct DozeRules: Sendable, Equatable { public init() {} }
