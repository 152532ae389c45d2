import Foundation
import Crypto

/// SHA-256 fed in pieces, written as 64 lower-case hex digits: the identity
/// of a partial report's inputs (`ScenarioFile.inputDigest`) and of a sharded
/// batch's scenarios. swift-crypto's `SHA256` does the hashing.
public struct SHA256Digest: Sendable {
  private var hasher = SHA256()

  public init() {}

  /// Adds `bytes` to the message.
  public mutating func update(_ bytes: some DataProtocol) {
    hasher.update(data: bytes)
  }

  /// The digest of everything added so far (more may be added after).
  public func hexDigest() -> String {
    let hex = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(64)
    for byte in hasher.finalize() {
      text.append(hex[Int(byte >> 4)])
      text.append(hex[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
