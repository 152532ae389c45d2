import Foundation

/// The app's persistent storage (`UserDefaults` on iOS): it outlives the
/// app's process, so a relaunched app finds here what it saved.
public protocol KeyValueStore: AnyObject {
  func data(forKey key: String) -> Data?
  /// Stores `data` under `key`; nil removes it.
  func set(_ data: Data?, forKey key: String)
}
