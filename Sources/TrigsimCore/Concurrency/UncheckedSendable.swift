/// A value handed across threads or into a task whose safety the caller
/// guarantees: the scenario handed to trial workers (its track is immutable
/// and its region shapes are copied per worker, `copyForAnotherThread`), or
/// an app callback run on the engine's own thread (`HostedAppLayer`).
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
