import Testing

import TrigsimScenario

/// `SHA256Digest` against the FIPS 180-4 example messages, whole and fed in pieces.
@Suite struct SHA256DigestTests {
  static func digest(_ text: String) -> String {
    var digest = SHA256Digest()
    digest.update(Array(text.utf8))
    return digest.hexDigest()
  }

  @Test func theExampleMessagesHaveTheirPublishedDigests() {
    #expect(Self.digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(Self.digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      Self.digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  @Test func aMessageFedInPiecesOfAnySizeHasTheDigestOfTheWhole() {
    var digest = SHA256Digest()
    let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 997)
    var fed = 0
    var size = 1
    while fed < 1_000_000 {
      let count = min(size, 1_000_000 - fed, piece.count)
      digest.update(piece[0..<count])
      fed += count
      size = size % 997 + 13
    }
    #expect(digest.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }
}
