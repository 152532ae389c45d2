import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// `CompactTrack`: every fix read back is the fix appended, bit for bit, and
/// decimals read from files take a few bytes.
@Suite struct CompactTrackTests {
  /// Every field of every fix, with the doubles as bit patterns (so -0.0 and
  /// 0.0, or two NaNs, are told apart and compared exactly).
  struct Bits: Equatable, CustomStringConvertible {
    var instant: Int64
    var latitude: UInt64
    var longitude: UInt64
    var accuracy: UInt64?
    var line: Int
    var startsSegment: Bool

    init(_ sample: TrackSample) {
      instant = sample.instant.millisecondsSinceEpoch
      latitude = sample.coordinate.latitude.bitPattern
      longitude = sample.coordinate.longitude.bitPattern
      accuracy = sample.horizontalAccuracy?.bitPattern
      line = sample.line
      startsSegment = sample.startsSegment
    }

    var description: String {
      "\(instant) \(Double(bitPattern: latitude)) \(Double(bitPattern: longitude)) \(accuracy.map { Double(bitPattern: $0) } as Any) line \(line)\(startsSegment ? " starts" : "")"
    }
  }

  static func readBack(_ track: CompactTrack) throws -> [TrackSample] {
    var samples: [TrackSample] = []
    try track.readSamples { sample in
      samples.append(sample)
      return true
    }
    return samples
  }

  static func expectRoundTrip(_ samples: [TrackSample], _ comment: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let track = CompactTrack(name: "t", samples: samples)
    #expect(track.count == samples.count, "\(comment)", sourceLocation: sourceLocation)
    let back = try readBack(track)
    #expect(back.count == samples.count, "\(comment)", sourceLocation: sourceLocation)
    for (index, (read, written)) in zip(back, samples).enumerated() where Bits(read) != Bits(written) {
      Issue.record("\(comment): fix \(index) reads back as \(Bits(read)), written \(Bits(written))", sourceLocation: sourceLocation)
      return
    }
  }

  /// A decimal string with `digits` significant digits (its mantissa), `fraction` of them after the point.
  static func decimal(mantissa: UInt64, fraction: Int, negative: Bool) -> String {
    var digits = String(mantissa)
    if digits.count <= fraction { digits = String(repeating: "0", count: fraction - digits.count + 1) + digits }
    let point = digits.index(digits.endIndex, offsetBy: -fraction)
    return (negative ? "-" : "") + digits[..<point] + (fraction > 0 ? "." + digits[point...] : "")
  }

  /// The claim the encoding rests on: a decimal with f fraction digits and at
  /// most 15 significant digits, parsed as a correctly rounded double, is
  /// `Double(n) / 10^k` bit for bit for its digits n scaled to any k ≥ f
  /// (while n stays below 10^15): the same rational number, rounded the same way.
  @Test func aParsedDecimalIsItsScaledDigitsOverAPowerOfTen() throws {
    let seed: UInt64 = 28_003
    var random = SplitMix64(seed: seed)
    for _ in 0..<200_000 {
      let digits = Int(random.next(below: 15)) + 1
      var mantissa = UInt64(random.next(below: Int64(pow(10, Double(digits)))))
      if random.next(below: 4) == 0 { mantissa = UInt64(pow(10, Double(digits))) - 1 }  // all nines: the largest of its length
      let fraction = Int(random.next(below: 16))
      let negative = random.next(below: 2) == 0
      let text = Self.decimal(mantissa: mantissa, fraction: fraction, negative: negative)
      let value = try #require(Double(text), "seed \(seed): \(text)")
      var scaled = Int64(mantissa)
      for k in fraction...DecimalScale.largestExponent {
        if k > fraction { scaled *= 10 }
        guard scaled < 1_000_000_000_000_000 else { break }
        let expected: Int64? = mantissa == 0 && negative ? nil : (negative ? -scaled : scaled)  // -0.0 has no integer
        #expect(DecimalScale.integer(value, scale: DecimalScale.powers[k]) == expected, "seed \(seed): \(text) at 10^\(k)")
      }
    }
  }

  @Test func valuesWithNoExactIntegerAreEscapedAndReadBackBitForBit() throws {
    let awkward: [Double] = [
      -0.0, 0.0, 0.1 + 0.2, 55.676123456789012, -179.99999999999997, 1e-300, .leastNonzeroMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity,
      .nan, Double(bitPattern: 0x7FF8_0000_0000_1234), 9_007_199_254_740_992, -12.5683, 12.5683,
    ]
    // None of these has an exact integer in any scale, so each is escaped.
    #expect(DecimalScale.integer(0.1 + 0.2, scale: DecimalScale.powers[15]) == nil)  // 17 significant digits
    #expect(DecimalScale.integer(9_007_199_254_740_992, scale: 1) == nil)  // 2^53: out of the integers' range
    #expect(DecimalScale.integer(-0.0, scale: 1) == nil)
    #expect(DecimalScale.integer(.nan, scale: 1) == nil)
    #expect(DecimalScale.integer(.infinity, scale: 1) == nil)
    let start = Build.instant("2026-05-04T06:00:00Z")
    // Each awkward value between plain 7-digit neighbours, as latitude, longitude and accuracy.
    var samples: [TrackSample] = []
    for (index, value) in awkward.enumerated() {
      for (offset, v) in [55.6761234, value, -12.5683001].enumerated() {
        samples.append(TrackSample(
          instant: start.advanced(by: .seconds(Int64(3 * index + offset))), coordinate: Coordinate(latitude: v, longitude: -v),
          horizontalAccuracy: v, line: 3 * index + offset + 2))
      }
    }
    try Self.expectRoundTrip(samples, "escapes")
    let back = try Self.readBack(CompactTrack(name: "t", samples: samples))
    #expect(back[1].coordinate.latitude.sign == .minus && back[1].coordinate.latitude == 0)  // -0.0 stays negative
    #expect(back[4].coordinate.latitude.sign == .plus && back[4].coordinate.latitude == 0)
  }

  /// Random tracks over block boundaries: instants steady, jittered, equal,
  /// far apart and before 1970; lines counting up, jumping, going back and
  /// 0; coordinates with 0 to 15 decimals of either sign, -0.0 and computed
  /// doubles; accuracy absent, constant or changing; rare segment starts.
  @Test func randomTracksReadBackBitForBit() throws {
    let block = CompactTrack.blockSize
    let lengths = [0, 1, 2, block - 1, block, block + 1, 2 * block, 3 * block + 17]
    for seed in UInt64(1)...12 {
      var random = SplitMix64(seed: seed)
      let count = lengths[Int(seed) % lengths.count]
      let digits = Int(random.next(below: 16))
      var instant = Int64(random.next(below: 1 << 40)) - (1 << 39)
      var step = Int64(random.next(below: 5000))
      var line = Int(random.next(below: 1000))
      var latitude = random.nextUnit() * 180 - 90
      var longitude = random.nextUnit() * 360 - 180
      var accuracy: Double? = 12.5
      var samples: [TrackSample] = []
      samples.reserveCapacity(count)
      func rounded(_ value: Double) -> Double {
        // A value as a file with `digits` decimals holds it, now and then one with more, or computed.
        switch random.next(below: 50) {
        case 0: return value  // computed: usually 17 significant digits
        case 1: return -0.0
        case 2: return Double(String(format: "%.15f", value))!
        default: return Double(String(format: "%.\(digits)f", value))!
        }
      }
      for _ in 0..<count {
        switch random.next(below: 20) {
        case 0: step = Int64(random.next(below: 86_400_000 * 400))  // far apart: up to 400 days
        case 1: step = 0  // equal instants
        case 2: step = Int64(random.next(below: 2000))
        default: break  // steady
        }
        instant += step
        switch random.next(below: 30) {
        case 0: line += Int(random.next(below: 10_000_000))
        case 1: line = max(0, line - Int(random.next(below: 100)))
        case 2: line = 0
        default: line += 1 + Int(random.next(below: 4))
        }
        latitude = min(90, max(-90, latitude + (random.nextUnit() - 0.5) * 1e-3))
        longitude = min(180, max(-180, longitude + (random.nextUnit() - 0.5) * 1e-3))
        switch random.next(below: 10) {
        case 0: accuracy = nil
        case 1, 2: accuracy = rounded(random.nextUnit() * 100)
        default: break  // unchanged
        }
        samples.append(TrackSample(
          instant: SimulationInstant(millisecondsSinceEpoch: instant), coordinate: Coordinate(latitude: rounded(latitude), longitude: rounded(longitude)),
          horizontalAccuracy: accuracy, line: line, startsSegment: samples.isEmpty || random.next(below: 500) == 0))
      }
      try Self.expectRoundTrip(samples, "seed \(seed), \(count) fixes, \(digits) decimals")
    }
  }

  @Test func extremeInstantsAndLinesReadBackExactly() throws {
    let coordinate = Coordinate(latitude: 1.5, longitude: -2.25)
    let samples = [Int64.min, 0, .max, .min + 1, -1, .max].enumerated().map { index, milliseconds in
      TrackSample(
        instant: SimulationInstant(millisecondsSinceEpoch: milliseconds), coordinate: coordinate,
        line: [Int.max, 0, Int.min, 7, .max, 1][index])
    }
    try Self.expectRoundTrip(samples, "extremes")
  }

  @Test func anEmptyTrackReadsNothingAndASingleFixReadsItself() throws {
    var calls = 0
    try CompactTrack(name: "empty", samples: []).readSamples { _ in
      calls += 1
      return true
    }
    #expect(calls == 0)
    let fix = TrackSample(
      instant: Build.instant("2026-05-04T06:00:00Z"), coordinate: Coordinate(latitude: -33.8688, longitude: 151.2093), horizontalAccuracy: 4.5,
      line: 2, startsSegment: true)
    let track = CompactTrack(name: "one", samples: [fix])
    #expect(track.name == "one")
    #expect(try Self.readBack(track) == [fix])
  }

  @Test func readingStopsWhereTheConsumerSaysSoEvenInsideALaterBlock() throws {
    let start = Build.instant("2026-05-04T06:00:00Z")
    let count = CompactTrack.blockSize * 2 + 10
    let samples = (0..<count).map { index in
      TrackSample(instant: start.advanced(by: .seconds(Int64(index))), coordinate: Coordinate(latitude: 55, longitude: 12), line: index + 2)
    }
    let track = CompactTrack(name: "t", samples: samples)
    let stopAt = CompactTrack.blockSize + 3
    var read: [Int] = []
    try track.readSamples { sample in
      read.append(sample.line)
      return read.count < stopAt
    }
    #expect(read == Array(2..<(stopAt + 2)))
  }

  /// A 1 Hz walk as a CSV file holds it (7-decimal coordinates, 1-decimal
  /// accuracy, a line a fix): under 7 bytes a fix, against 56 for a `TrackSample`.
  @Test func aFileLikeTrackTakesUnderSevenBytesAFix() throws {
    var random = SplitMix64(seed: 9)
    let start = Build.instant("2026-05-04T06:00:00Z")
    var position = Coordinate(latitude: 55.6761, longitude: 12.5683)
    var samples: [TrackSample] = []
    for index in 0..<(3 * CompactTrack.blockSize) {
      position = Geodesic.destination(from: position, azimuth: random.nextUnit() * 360, distance: 1.4)
      let fix = Coordinate(
        latitude: Double(String(format: "%.7f", position.latitude))!, longitude: Double(String(format: "%.7f", position.longitude))!)
      samples.append(TrackSample(
        instant: start.advanced(by: .seconds(Int64(index))), coordinate: fix,
        horizontalAccuracy: Double(String(format: "%.1f", 5 + random.nextUnit() * 3))!, line: index + 2))
    }
    let track = CompactTrack(name: "walk", samples: samples)
    try Self.expectRoundTrip(samples, "walk")
    #expect(track.byteCount < 7 * samples.count, "\(track.byteCount) bytes for \(samples.count) fixes")
  }
}
