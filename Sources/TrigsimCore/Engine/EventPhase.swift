/// Where an event stands among the events due at the same instant.
///
/// The engine orders its queue by `(instant, phase, rank, sequence)`: a
/// phase is a position in that one total order, and within a phase events
/// are ordered by a rank the phase defines, then by the order they were
/// scheduled, so a run is fully deterministic.
///
/// The engine declares only the world's two phases: the clock's time-zone
/// changes come first at an instant and the track's position events in the
/// middle. Each layer's phases are declared beside the layers
/// (`EventPhase+Layers.swift`, in the order a layer's event must see the
/// others), so the engine orders events it knows nothing about.
public struct EventPhase: Comparable, Hashable, Sendable {
  /// The position in the order: a lower one is handled first.
  public let order: Int

  /// A phase at `order` in the one total order.
  public init(order: Int) { self.order = order }

  /// The device changes time zone first, so everything due at this instant
  /// sees the new zone. Rank: the change's position in the clock.
  public static let timeZoneChange = EventPhase(order: 0)
  /// Position-derived events: a gap in the track, then region entries and
  /// exits and what the device reports of them. Rank: the region's position
  /// in the scenario (a gap ranks before every region).
  public static let position = EventPhase(order: 40)

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.order < rhs.order }
}
