/// A decoded track held in memory in a few bytes a fix, for replaying it many
/// times (trials): lossless, immutable, and shared by every reader, each of
/// which decodes it a block at a time as it goes (`readSamples`), so that
/// replaying costs one block of decoded fixes rather than a copy.
///
/// Every fix read back is the fix appended, bit for bit (`TrackSample`'s
/// `==` and every coordinate's and accuracy's sign and bit pattern).
///
/// **Encoding.** Fixes are kept in blocks of `CompactTrack.blockSize`. Each
/// fix gives five tokens, unsigned numbers, small when the track is regular
/// (a signed difference is zigzag-mapped: small either way → small); each
/// block starts from zero, so it can be read alone:
///
/// - the instant: the difference between this fix's step (milliseconds
///   since the previous fix) and the previous step, 0 at a steady rate;
/// - the line: the difference from the previous fix's line;
/// - latitude, longitude and accuracy, each in the block's decimal scale
///   10^k (k in 0...15, the smallest that holds every value of the column in
///   the block): a value v is stored as the integer n with `Double(n) / 10^k`
///   equal to v bit for bit (checked for each value, `DecimalScale.integer`),
///   as the difference from the previous such n. Reading multiplies by the
///   rounded reciprocal 1/10^k instead of dividing (three divisions a fix
///   were most of the cost of reading), which is within one unit in the last
///   place of the quotient: two bits of the token say which bit pattern (the
///   product's, one above, one below) is v's. A value with no such n, or
///   further from the product (more significant digits than a double's 15,
///   -0.0, a coordinate computed rather than read), is escaped: its 8-byte bit
///   pattern is kept in a list beside the block. An absent accuracy is a token.
///
/// A block stores each of the five columns of tokens at one width, 0 to 8
/// bytes a token, the width that takes the fewest bytes with the tokens that
/// do not fit kept in an exception list beside the block (a gap, a jump of
/// line): a steady 1 Hz clock costs 0 bytes a fix. Fixed widths are read
/// without a branch or a dependency from one token to the next (a varint's
/// length would be both, and cost more than the bytes it saves).
///
/// A value parsed from a decimal with k or fewer fraction digits and fewer
/// than 16 significant digits always has such an n: the parse is the
/// correctly rounded quotient of its digits by a power of ten, and so is
/// `Double(n) / 10^k`, of the same rational number (the property tests check
/// this over random decimals). A 1 Hz track of 7-decimal coordinates and
/// 1-decimal accuracies takes about 6 to 7 bytes a fix.
///
/// Segment starts are rare; their fix indices are kept in a sorted list.
public struct CompactTrack: TrackSource, SampleBlockSource, Sendable {
  /// Fixes a block holds (the last may hold fewer).
  public static let blockSize = 4096

  public let name: String
  /// How many fixes the track holds.
  public let count: Int
  private let blocks: [Block]
  /// Indices of the fixes that start a segment, ascending.
  private let segmentStarts: [Int]

  /// Bytes the encoded fixes take (blocks, their exceptions and escaped
  /// values, segment starts; without the arrays' fixed overheads).
  public var byteCount: Int {
    blocks.reduce(0) { total, block in
      total + block.bytes.count + block.exceptions.count * MemoryLayout<TokenException>.stride + block.rawValues.count * 8
    } + segmentStarts.count * MemoryLayout<Int>.stride
  }

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

  /// Decodes the fixes in order into `consume`, `decodingChunk` fixes at a
  /// time: holds that many tokens and decoded fixes (small enough to stay in
  /// the processor's first-level cache while the consumer works).
  public func readSamples(_ consume: (TrackSample) throws -> Bool) throws {
    try readSampleBlocks { decoded in
      for sample in decoded where try !consume(sample) { return false }
      return true
    }
  }

  /// Hands the fixes to `consume` as they are decoded, `decodingChunk` at a time.
  func readSampleBlocks(_ consume: (ArraySlice<TrackSample>) throws -> Bool) throws {
    let capacity = Swift.min(count, Self.decodingChunk)
    var tokens = [UInt64](repeating: 0, count: tokenColumns * capacity)
    var decoded: [TrackSample] = []
    decoded.reserveCapacity(capacity)
    var index = 0
    var nextSegmentStart = 0
    for block in blocks {
      var decoder = BlockDecoder(block)
      while decoder.next < block.count {
        decoded.removeAll(keepingCapacity: true)
        decoder.decode(Self.decodingChunk, tokens: &tokens, into: &decoded)
        while nextSegmentStart < segmentStarts.count && segmentStarts[nextSegmentStart] < index + decoded.count {
          decoded[segmentStarts[nextSegmentStart] - index].startsSegment = true
          nextSegmentStart += 1
        }
        index += decoded.count
        guard try consume(decoded[...]) else { return }
      }
    }
  }

  /// Fixes decoded at once by `readSamples`.
  static let decodingChunk = 256

  /// Appends fixes one at a time, encoding each block once it is full:
  /// holds at most one block of decoded fixes.
  public struct Builder {
    private let name: String
    private var count = 0
    private var blocks: [Block] = []
    private var segmentStarts: [Int] = []
    private var pending: [TrackSample] = []
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
      let latitude = DecimalColumn(scale: powers[DecimalScale.smallest(for: pending.lazy.map(\.coordinate.latitude), powers: powers)])
      let longitude = DecimalColumn(scale: powers[DecimalScale.smallest(for: pending.lazy.map(\.coordinate.longitude), powers: powers)])
      let accuracy = DecimalColumn(scale: powers[DecimalScale.smallest(for: pending.lazy.compactMap(\.horizontalAccuracy), powers: powers)])
      blocks.append(Block(encoding: pending, latitude: latitude, longitude: longitude, accuracy: accuracy))
      pending.removeAll(keepingCapacity: true)
    }
  }
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

/// Tokens a fix gives: instant, line, latitude, longitude, accuracy.
private let tokenColumns = 5

/// Maps a signed difference to an unsigned one, small magnitudes of either sign to small numbers.
@inline(__always)
private func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

@inline(__always)
private func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

/// A decimal column's token: the zigzag difference of n shifted left by two,
/// its two low bits saying which bit pattern is the value: 0 the product
/// `Double(n) * inverse`, 1 one above it, 2 one below; or an escape (low
/// bits 3): `rawValueToken` (the value's bit pattern is the block's next raw
/// value) or `absentValueToken` (no value: an absent accuracy).
private let escapeBits: UInt64 = 3
private let rawValueToken: UInt64 = 0 << 2 | escapeBits
private let absentValueToken: UInt64 = 1 << 2 | escapeBits

/// A column's decimal scale 10^k in a block, and the reciprocal reading multiplies by.
private struct DecimalColumn: Sendable {
  let scale: Double
  /// 1 / 10^k, rounded (the same bits wherever it is computed).
  let inverse: Double

  init(scale: Double) {
    self.scale = scale
    inverse = 1 / scale
  }

  /// The token of `value` (nil: absent), the difference from `previous`
  /// (updated); an escaped value's bit pattern is appended to `raw`.
  func token(_ value: Double?, previous: inout Int64, raw: inout [UInt64]) -> UInt64 {
    guard let value else { return absentValueToken }
    // The bit pattern's distance from the product the reader computes: -1, 0 or 1, or the value is escaped.
    let n = DecimalScale.integer(value, scale: scale)
    let distance = n.map { Int64(bitPattern: value.bitPattern &- (Double($0) * inverse).bitPattern) }
    guard let n, let distance, (-1...1).contains(distance) else {
      raw.append(value.bitPattern)
      return rawValueToken
    }
    defer { previous = n }
    // |n| < 2^53, so the difference's zigzag is below 2^55 and shifts without loss.
    return zigzag(n - previous) << 2 | (distance == 0 ? 0 : distance == 1 ? 1 : 2)
  }

  /// The value of `token`, `previous` updated; an escaped value is the next of `raw`.
  @inline(__always)
  func value(_ token: UInt64, previous: inout Int64, raw: [UInt64], nextRaw: inout Int) -> Double? {
    let low = token & 3
    if low != escapeBits {
      previous &+= unzigzag(token >> 2)
      // 0 → 0, 1 → +1, 2 → -1, without a branch.
      let distance = UInt64(bitPattern: Int64(low & 1) - Int64(low >> 1))
      return Double(bitPattern: (Double(previous) * inverse).bitPattern &+ distance)
    }
    if token == absentValueToken { return nil }
    nextRaw += 1
    return Double(bitPattern: raw[nextRaw - 1])
  }
}

/// A token too wide for its column's width: its place among the block's
/// tokens (column × count + fix) and its value.
private struct TokenException: Sendable {
  var slot: Int
  var token: UInt64
}

/// One block of fixes: five columns of fixed-width tokens.
private struct Block: Sendable {
  /// Bytes after the last column, so that reading 8 bytes at any token stays inside.
  static let padding = 7

  /// The columns one after another, each `count` tokens of its width in
  /// bytes (least significant first), then `padding` zero bytes.
  let bytes: [UInt8]
  let count: Int
  /// Bytes a token of each column takes, 0...8.
  let widths: [Int]
  /// Tokens wider than their column (stored there as 0), by slot.
  let exceptions: [TokenException]
  /// The bit patterns of escaped values, in the order of their tokens.
  let rawValues: [UInt64]
  let latitude: DecimalColumn
  let longitude: DecimalColumn
  let accuracy: DecimalColumn

  init(encoding samples: [TrackSample], latitude: DecimalColumn, longitude: DecimalColumn, accuracy: DecimalColumn) {
    count = samples.count
    self.latitude = latitude
    self.longitude = longitude
    self.accuracy = accuracy
    var tokens = [UInt64](repeating: 0, count: tokenColumns * count)
    var raw: [UInt64] = []
    var previousInstant: Int64 = 0
    var previousStep: Int64 = 0
    var previousLine: Int64 = 0
    var previous = (latitude: Int64(0), longitude: Int64(0), accuracy: Int64(0))
    // Differences wrap, so any instant and line round-trips.
    for (index, sample) in samples.enumerated() {
      let instant = sample.instant.millisecondsSinceEpoch
      let step = instant &- previousInstant
      tokens[index] = zigzag(step &- previousStep)
      previousInstant = instant
      previousStep = step
      let line = Int64(truncatingIfNeeded: sample.line)
      tokens[count + index] = zigzag(line &- previousLine)
      previousLine = line
      tokens[2 * count + index] = latitude.token(sample.coordinate.latitude, previous: &previous.latitude, raw: &raw)
      tokens[3 * count + index] = longitude.token(sample.coordinate.longitude, previous: &previous.longitude, raw: &raw)
      tokens[4 * count + index] = accuracy.token(sample.horizontalAccuracy, previous: &previous.accuracy, raw: &raw)
    }
    var bytes: [UInt8] = []
    var widths: [Int] = []
    var exceptions: [TokenException] = []
    for column in 0..<tokenColumns {
      let slots = column * count..<(column + 1) * count
      let width = Self.cheapestWidth(tokens[slots])
      widths.append(width)
      for slot in slots {
        var token = tokens[slot]
        if Self.byteLength(token) > width {
          exceptions.append(TokenException(slot: slot, token: token))
          token = 0
        }
        for _ in 0..<width {
          bytes.append(UInt8(truncatingIfNeeded: token))
          token >>= 8
        }
      }
    }
    bytes.append(contentsOf: repeatElement(0, count: Self.padding))
    self.bytes = bytes
    self.widths = widths
    self.exceptions = exceptions
    rawValues = raw
  }

  /// Bytes `token` needs: 0 for 0.
  private static func byteLength(_ token: UInt64) -> Int { (64 - token.leadingZeroBitCount + 7) / 8 }

  /// The width with the fewest bytes for `tokens`, counting an exception as its size.
  private static func cheapestWidth(_ tokens: ArraySlice<UInt64>) -> Int {
    var atLength = [Int](repeating: 0, count: 9)
    for token in tokens { atLength[byteLength(token)] += 1 }
    var wider = tokens.count  // tokens longer than the width tried
    var best = (width: 0, bytes: Int.max)
    for width in 0...8 {
      wider -= atLength[width]
      let bytes = width * tokens.count + wider * MemoryLayout<TokenException>.stride
      if bytes < best.bytes { best = (width, bytes) }
    }
    return best.width
  }
}

/// Decodes a block's fixes in order, a chunk at a time.
private struct BlockDecoder {
  let block: Block
  /// The first fix not decoded yet.
  private(set) var next = 0
  /// Where each column starts in the block's bytes.
  private var columnOffsets: [Int] = []
  /// Per column, the first of its exceptions not applied yet (exceptions are ordered by slot, so column by column).
  private var nextException: [Int] = []
  private var nextRaw = 0
  private var instant: Int64 = 0
  private var step: Int64 = 0
  private var line: Int64 = 0
  private var latitude: Int64 = 0
  private var longitude: Int64 = 0
  private var accuracy: Int64 = 0

  init(_ block: Block) {
    self.block = block
    var offset = 0
    var exception = 0
    for (column, width) in block.widths.enumerated() {
      columnOffsets.append(offset)
      offset += width * block.count
      nextException.append(exception)
      while exception < block.exceptions.count && block.exceptions[exception].slot < (column + 1) * block.count { exception += 1 }
    }
  }

  /// Decodes up to `limit` more fixes into `samples` (`startsSegment` false:
  /// segment starts are kept apart), with `tokens` (`tokenColumns` × `limit`) as scratch.
  mutating func decode(_ limit: Int, tokens: inout [UInt64], into samples: inout [TrackSample]) {
    let first = next
    let count = Swift.min(limit, block.count - first)
    next += count
    let blockCount = block.count
    block.bytes.withUnsafeBytes { bytes in
      tokens.withUnsafeMutableBufferPointer { tokens in
        for (column, width) in block.widths.enumerated() {
          let output = tokens.baseAddress! + column * count
          if width == 0 {
            output.update(repeating: 0, count: count)
          } else {
            let mask: UInt64 = width == 8 ? .max : (1 << UInt64(8 * width)) &- 1
            let input = bytes.baseAddress! + columnOffsets[column] + first * width
            // Offsets stay within the block's bytes: no overflow to check.
            for index in 0..<count {
              output[index] = UInt64(littleEndian: (input + index &* width).loadUnaligned(as: UInt64.self)) & mask
            }
          }
          // The column's exceptions within the chunk.
          let end = column * blockCount + first + count
          while nextException[column] < block.exceptions.count && block.exceptions[nextException[column]].slot < end {
            let exception = block.exceptions[nextException[column]]
            output[exception.slot - column * blockCount - first] = exception.token
            nextException[column] += 1
          }
        }
      }
    }
    tokens.withUnsafeBufferPointer { tokens in
      for index in 0..<count {
        step &+= unzigzag(tokens[index])
        instant &+= step
        line &+= unzigzag(tokens[count &+ index])
        // A coordinate is never written absent.
        let coordinate = Coordinate(
          latitude: block.latitude.value(tokens[2 &* count &+ index], previous: &latitude, raw: block.rawValues, nextRaw: &nextRaw)!,
          longitude: block.longitude.value(tokens[3 &* count &+ index], previous: &longitude, raw: block.rawValues, nextRaw: &nextRaw)!)
        samples.append(TrackSample(
          instant: SimulationInstant(millisecondsSinceEpoch: instant), coordinate: coordinate,
          horizontalAccuracy: block.accuracy.value(tokens[4 &* count &+ index], previous: &accuracy, raw: block.rawValues, nextRaw: &nextRaw),
          line: Int(truncatingIfNeeded: line)))
      }
    }
  }
}
