/// A decoded track held in memory in a few bytes a fix, for replaying it many
/// times (trials): lossless, immutable, and shared by every reader, each of
/// which decodes it as it goes (`readSamples`), so that replaying costs one
/// cursor rather than a copy.
///
/// Every fix read back is the fix appended, bit for bit (`TrackSample`'s
/// `==` and every coordinate's and accuracy's sign and bit pattern).
///
/// **Encoding.** Fixes are kept in blocks of `CompactTrack.blockSize`, each
/// block a byte string written fix by fix, every number an unsigned LEB128
/// varint of a zigzag-mapped signed difference (small either way → few bytes).
/// Each block starts from zero, so it can be read alone:
///
/// - the instant, as the difference between this fix's step (milliseconds
///   since the previous fix) and the previous step: 0 at a steady rate, 1 byte;
/// - the line, as the difference from the previous fix's line;
/// - latitude, longitude and accuracy, each in the block's decimal scale
///   10^k (k in 0...15, the smallest that holds every value of the column in
///   the block): a value v is stored as the integer n with `Double(n) / 10^k`
///   equal to v bit for bit (checked for each value, `DecimalScale.integer`),
///   as the difference from the previous such n. A value with no such n
///   (more significant digits than a double's 15, -0.0, a coordinate computed
///   rather than read) is escaped and stored as its 8-byte bit pattern; an
///   absent accuracy is a 1-byte mark.
///
/// A value parsed from a decimal with k or fewer fraction digits and fewer
/// than 16 significant digits always has such an n: the parse is the
/// correctly rounded quotient of its digits by a power of ten, and so is
/// `Double(n) / 10^k`, of the same rational number (the property tests check
/// this over random decimals). A 1 Hz track of 7-decimal coordinates and
/// 1-decimal accuracies takes about 7 bytes a fix.
///
/// Segment starts are rare; their fix indices are kept in a sorted list.
public struct CompactTrack: TrackSource, Sendable {
  /// Fixes a block holds (the last may hold fewer).
  public static let blockSize = 4096

  public let name: String
  /// How many fixes the track holds.
  public let count: Int
  private let blocks: [Block]
  /// Indices of the fixes that start a segment, ascending.
  private let segmentStarts: [Int]

  /// Bytes the encoded fixes take (blocks and segment starts, without the
  /// arrays' fixed overheads).
  public var byteCount: Int { blocks.reduce(0) { $0 + $1.bytes.count } + segmentStarts.count * MemoryLayout<Int>.stride }

  /// A track holding `samples`, in their order.
  public init(name: String, samples: some Sequence<TrackSample>) {
    var builder = Builder(name: name)
    for sample in samples { builder.append(sample) }
    self = builder.finish()
  }

  fileprivate init(name: String, count: Int, blocks: [Block], segmentStarts: [Int]) {
    self.name = name
    self.count = count
    self.blocks = blocks
    self.segmentStarts = segmentStarts
  }

  /// Decodes the fixes in order, block by block, into `consume`; holds one
  /// fix at a time.
  public func readSamples(_ consume: (TrackSample) throws -> Bool) throws {
    var index = 0
    var nextSegmentStart = 0
    for block in blocks {
      let finished = try block.bytes.withUnsafeBufferPointer { bytes -> Bool in
        var reader = BlockReader(bytes: bytes, block: block)
        for _ in 0..<block.count {
          var sample = reader.next()
          if nextSegmentStart < segmentStarts.count && segmentStarts[nextSegmentStart] == index {
            sample.startsSegment = true
            nextSegmentStart += 1
          }
          index += 1
          if try !consume(sample) { return true }
        }
        return false
      }
      if finished { return }
    }
  }

  /// Appends fixes one at a time, encoding each block once it is full:
  /// holds at most one block of decoded fixes.
  public struct Builder {
    private let name: String
    private var count = 0
    private var blocks: [Block] = []
    private var segmentStarts: [Int] = []
    private var pending: [TrackSample] = []
    private var scratch: [UInt8] = []
    private let powers = DecimalScale.powers

    public init(name: String) {
      self.name = name
      pending.reserveCapacity(CompactTrack.blockSize)
    }

    public mutating func append(_ sample: TrackSample) {
      if sample.startsSegment { segmentStarts.append(count) }
      count += 1
      pending.append(sample)
      if pending.count == CompactTrack.blockSize { encodePending() }
    }

    /// The track holding every fix appended.
    public mutating func finish() -> CompactTrack {
      encodePending()
      return CompactTrack(name: name, count: count, blocks: blocks, segmentStarts: segmentStarts)
    }

    private mutating func encodePending() {
      guard !pending.isEmpty else { return }
      let latitudeScale = DecimalScale.smallest(for: pending.lazy.map(\.coordinate.latitude), powers: powers)
      let longitudeScale = DecimalScale.smallest(for: pending.lazy.map(\.coordinate.longitude), powers: powers)
      let accuracyScale = DecimalScale.smallest(for: pending.lazy.compactMap(\.horizontalAccuracy), powers: powers)
      scratch.removeAll(keepingCapacity: true)
      var writer = BlockWriter(
        latitudeScale: powers[latitudeScale], longitudeScale: powers[longitudeScale], accuracyScale: powers[accuracyScale])
      for sample in pending { writer.append(sample, to: &scratch) }
      // A copy of exactly the block's size (the scratch buffer keeps its capacity for the next block).
      blocks.append(Block(
        bytes: Array(scratch[...]), count: pending.count, latitudeScale: writer.latitudeScale, longitudeScale: writer.longitudeScale,
        accuracyScale: writer.accuracyScale))
      pending.removeAll(keepingCapacity: true)
    }
  }
}

/// One block of encoded fixes and the decimal scales of its columns.
private struct Block: Sendable {
  var bytes: [UInt8]
  var count: Int
  var latitudeScale: Double
  var longitudeScale: Double
  var accuracyScale: Double
}

/// Decimal scales 10^k and the exact integer a value has in one.
enum DecimalScale {
  /// The largest k: 10^15 is below 2^53, so every power up to it is an exact double.
  static let largestExponent = 15

  /// 10^0 ... 10^15, exact (products of exact doubles that stay below 2^53).
  static let powers: [Double] = (0...largestExponent).reduce(into: []) { powers, k in powers.append(k == 0 ? 1 : powers[k - 1] * 10) }

  /// The integer n, |n| < 2^53, with `Double(n) / scale` equal to `value`
  /// bit for bit, or nil when there is none (also for -0.0, NaN and infinities).
  @inline(__always)
  static func integer(_ value: Double, scale: Double) -> Int64? {
    let product = (value * scale).rounded()
    guard abs(product) < 9_007_199_254_740_992 else { return nil }  // 2^53; false for NaN
    let n = Int64(product)
    return (Double(n) / scale).bitPattern == value.bitPattern ? n : nil
  }

  /// The smallest k such that every value that has an exact integer in some
  /// scale 10^j (j ≤ 15) has one in 10^k, going through the values once and
  /// raising k only when a value needs it. A value with none at all is
  /// escaped by the encoder and does not raise k.
  static func smallest(for values: some Sequence<Double>, powers: [Double]) -> Int {
    var k = 0
    for value in values where integer(value, scale: powers[k]) == nil {
      var j = k + 1
      while j <= largestExponent && integer(value, scale: powers[j]) == nil { j += 1 }
      if j <= largestExponent { k = j }
    }
    return k
  }
}

// MARK: - Tokens

/// Maps a signed difference to an unsigned one, small magnitudes of either sign to small numbers.
@inline(__always)
private func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

@inline(__always)
private func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

/// A decimal column's token: an even number is a zigzag difference shifted
/// left by one; odd numbers are escapes: 1 (the value's 8-byte bit pattern
/// follows), 3 (no value: an absent accuracy).
private let rawValueToken: UInt64 = 1
private let absentValueToken: UInt64 = 3

private struct BlockWriter {
  let latitudeScale: Double
  let longitudeScale: Double
  let accuracyScale: Double
  private var previousInstant: Int64 = 0
  private var previousStep: Int64 = 0
  private var previousLine: Int64 = 0
  private var latitude: Int64 = 0
  private var longitude: Int64 = 0
  private var accuracy: Int64 = 0

  init(latitudeScale: Double, longitudeScale: Double, accuracyScale: Double) {
    self.latitudeScale = latitudeScale
    self.longitudeScale = longitudeScale
    self.accuracyScale = accuracyScale
  }

  /// Writes one fix; differences wrap, so any instant and line round-trips.
  mutating func append(_ sample: TrackSample, to bytes: inout [UInt8]) {
    let instant = sample.instant.millisecondsSinceEpoch
    let step = instant &- previousInstant
    Self.appendVarint(zigzag(step &- previousStep), to: &bytes)
    previousInstant = instant
    previousStep = step
    let line = Int64(truncatingIfNeeded: sample.line)
    Self.appendVarint(zigzag(line &- previousLine), to: &bytes)
    previousLine = line
    Self.appendDecimal(sample.coordinate.latitude, scale: latitudeScale, previous: &latitude, to: &bytes)
    Self.appendDecimal(sample.coordinate.longitude, scale: longitudeScale, previous: &longitude, to: &bytes)
    Self.appendDecimal(sample.horizontalAccuracy, scale: accuracyScale, previous: &accuracy, to: &bytes)
  }

  private static func appendDecimal(_ value: Double?, scale: Double, previous: inout Int64, to bytes: inout [UInt8]) {
    guard let value else { return appendVarint(absentValueToken, to: &bytes) }
    guard let n = DecimalScale.integer(value, scale: scale) else {
      appendVarint(rawValueToken, to: &bytes)
      var bits = value.bitPattern
      for _ in 0..<8 {
        bytes.append(UInt8(truncatingIfNeeded: bits))
        bits >>= 8
      }
      return
    }
    // |n| < 2^53, so the difference's zigzag is below 2^55 and shifts without loss.
    appendVarint(zigzag(n - previous) << 1, to: &bytes)
    previous = n
  }

  private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }
}

/// Reads a block written by `BlockWriter`, one fix at a time.
private struct BlockReader {
  private var cursor: ByteCursor
  private let latitudeScale: Double
  private let longitudeScale: Double
  private let accuracyScale: Double
  private var previousInstant: Int64 = 0
  private var previousStep: Int64 = 0
  private var previousLine: Int64 = 0
  private var latitude: Int64 = 0
  private var longitude: Int64 = 0
  private var accuracy: Int64 = 0

  init(bytes: UnsafeBufferPointer<UInt8>, block: Block) {
    cursor = ByteCursor(bytes: bytes)
    latitudeScale = block.latitudeScale
    longitudeScale = block.longitudeScale
    accuracyScale = block.accuracyScale
  }

  /// The next fix (its `startsSegment` is false: segment starts are kept apart).
  @inline(__always)
  mutating func next() -> TrackSample {
    previousStep &+= unzigzag(cursor.readVarint())
    previousInstant &+= previousStep
    previousLine &+= unzigzag(cursor.readVarint())
    // A coordinate is never written absent.
    let coordinate = Coordinate(
      latitude: Self.readDecimal(&cursor, scale: latitudeScale, previous: &latitude)!,
      longitude: Self.readDecimal(&cursor, scale: longitudeScale, previous: &longitude)!)
    return TrackSample(
      instant: SimulationInstant(millisecondsSinceEpoch: previousInstant), coordinate: coordinate,
      horizontalAccuracy: Self.readDecimal(&cursor, scale: accuracyScale, previous: &accuracy), line: Int(truncatingIfNeeded: previousLine))
  }

  @inline(__always)
  private static func readDecimal(_ cursor: inout ByteCursor, scale: Double, previous: inout Int64) -> Double? {
    let token = cursor.readVarint()
    if token & 1 == 0 {
      previous &+= unzigzag(token >> 1)
      return Double(previous) / scale
    }
    if token == absentValueToken { return nil }
    return Double(bitPattern: cursor.readUInt64())
  }
}

/// A position in a block's bytes.
private struct ByteCursor {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  @inline(__always)
  mutating func readVarint() -> UInt64 {
    var byte = bytes[position]
    position += 1
    if byte < 0x80 { return UInt64(byte) }
    var value = UInt64(byte & 0x7F)
    var shift: UInt64 = 7
    repeat {
      byte = bytes[position]
      position += 1
      value |= UInt64(byte & 0x7F) << shift
      shift += 7
    } while byte >= 0x80
    return value
  }

  /// Eight bytes, least significant first.
  mutating func readUInt64() -> UInt64 {
    var value: UInt64 = 0
    for shift in stride(from: 0, to: 64, by: 8) {
      value |= UInt64(bytes[position]) << UInt64(shift)
      position += 1
    }
    return value
  }
}
