import Foundation

/// Work items `0..<count` handed out to worker threads one at a time, and a
/// result slot per item, behind one lock. Results come back in item order,
/// whatever order the workers finish in.
public final class IndexedResults<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var next = 0
  private var slots: [Value?]

  public init(count: Int) { slots = Array(repeating: nil, count: count) }

  /// The next item no worker has claimed yet, or nil when all are claimed.
  public func claimNext() -> Int? {
    lock.withLock {
      guard next < slots.count else { return nil }
      next += 1
      return next - 1
    }
  }

  public func store(_ value: Value, at index: Int) {
    lock.withLock { slots[index] = value }
  }

  /// Every slot in item order (nil where nothing was stored).
  public func all() -> [Value?] {
    lock.withLock { slots }
  }
}
