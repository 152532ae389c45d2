import Foundation
import TrigsimCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure to write a track file (a tool error, not an input problem).
public struct TrackWriteError: Error, Sendable, CustomStringConvertible {
  public var path: String
  public var reason: String
  public var description: String { "cannot write track file '\(path)': \(reason)" }
}

/// Where a track writer's bytes go, a buffer at a time (for example an
/// output file that replaces its destination atomically).
public typealias TrackByteSink = (UnsafeRawBufferPointer) throws -> Void

/// Writes samples to a file as they come, in either format.
public enum TrackWriter {
  /// Writes every sample of `samples` to `sink`, a buffer at a time, and
  /// returns how many were written; the sink's errors are rethrown.
  @discardableResult
  public static func write<Samples: Sequence>(_ samples: Samples, format: TrackFormat, to sink: @escaping TrackByteSink) throws -> Int
  where Samples.Element == TrackSample {
    switch format {
    case .csv:
      var writer = CSVTrackWriter(sink: sink)
      for sample in samples { try writer.append(sample) }
      try writer.close()
      return writer.count
    case .gpx:
      var writer = GPXTrackWriter(sink: sink)
      for sample in samples { try writer.append(sample) }
      try writer.close()
      return writer.count
    }
  }

  /// Writes every sample of `samples` to `path`, replacing the file, and
  /// returns how many were written. Output depends only on the samples.
  @discardableResult
  public static func write<Samples: Sequence>(_ samples: Samples, to path: String, format: TrackFormat) throws -> Int
  where Samples.Element == TrackSample {
    switch format {
    case .csv:
      var writer = try CSVTrackWriter(path: path)
      for sample in samples { try writer.append(sample) }
      try writer.close()
      return writer.count
    case .gpx:
      var writer = try GPXTrackWriter(path: path)
      for sample in samples { try writer.append(sample) }
      try writer.close()
      return writer.count
    }
  }
}

/// Streams samples to a CSV file: header `time,latitude,longitude,accuracy`,
/// then one row per sample with epoch milliseconds, coordinates rounded to
/// 7 decimals (about 1 cm) and accuracy to 1 decimal (empty when unknown),
/// LF line ends. Numbers are formatted by hand, so output is byte-identical
/// for the same samples on every platform.
public struct CSVTrackWriter {
  private var output: BufferedOutput
  public private(set) var count = 0

  public init(path: String) throws {
    output = try BufferedOutput(path: path)
    output.append("time,latitude,longitude,accuracy\n")
  }

  /// A writer whose bytes go to `sink`.
  public init(sink: @escaping TrackByteSink) {
    output = BufferedOutput(sink: sink)
    output.append("time,latitude,longitude,accuracy\n")
  }

  public mutating func append(_ sample: TrackSample) throws {
    output.appendInteger(sample.instant.millisecondsSinceEpoch)
    output.append(UInt8(ascii: ","))
    output.appendFixed(sample.coordinate.latitude, decimals: 7)
    output.append(UInt8(ascii: ","))
    output.appendFixed(sample.coordinate.longitude, decimals: 7)
    output.append(UInt8(ascii: ","))
    if let accuracy = sample.horizontalAccuracy { output.appendFixed(accuracy, decimals: 1) }
    output.append(UInt8(ascii: "\n"))
    count += 1
    try output.flushIfFull()
  }

  public mutating func close() throws { try output.close() }
}

/// Streams samples to a GPX 1.1 file: one `trk`, a new `trkseg` wherever a
/// sample starts a segment, times in UTC with milliseconds, accuracy as an
/// `<extensions><hAcc>` element (which `GPXTrackReader` reads back).
public struct GPXTrackWriter {
  private var output: BufferedOutput
  public private(set) var count = 0

  public init(path: String, trackName: String = "trigsim synthetic track") throws {
    self.init(output: try BufferedOutput(path: path), trackName: trackName)
  }

  /// A writer whose bytes go to `sink`.
  public init(sink: @escaping TrackByteSink, trackName: String = "trigsim synthetic track") {
    self.init(output: BufferedOutput(sink: sink), trackName: trackName)
  }

  private init(output buffered: BufferedOutput, trackName: String) {
    output = buffered
    output.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    output.append("<gpx version=\"1.1\" creator=\"trigsim\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n")
    output.append("  <trk>\n    <name>")
    output.append(trackName.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;"))
    output.append("</name>\n    <trkseg>\n")
  }

  public mutating func append(_ sample: TrackSample) throws {
    if sample.startsSegment && count > 0 { output.append("    </trkseg>\n    <trkseg>\n") }
    output.append("      <trkpt lat=\"")
    output.appendFixed(sample.coordinate.latitude, decimals: 7)
    output.append("\" lon=\"")
    output.appendFixed(sample.coordinate.longitude, decimals: 7)
    output.append("\"><time>")
    output.append(InstantFormatter.utc.string(for: sample.instant))
    output.append("</time>")
    if let accuracy = sample.horizontalAccuracy {
      output.append("<extensions><hAcc>")
      output.appendFixed(accuracy, decimals: 1)
      output.append("</hAcc></extensions>")
    }
    output.append("</trkpt>\n")
    count += 1
    try output.flushIfFull()
  }

  public mutating func close() throws {
    output.append("    </trkseg>\n  </trk>\n</gpx>\n")
    try output.close()
  }
}

/// Bytes written through a 256 KiB buffer, to a file or a sink.
private struct BufferedOutput {
  private let sink: TrackByteSink
  private let finish: () throws -> Void
  private var bytes: [UInt8] = []
  private static let flushSize = 1 << 18

  init(path: String) throws {
    guard let file = fopen(path, "wb") else {
      throw TrackWriteError(path: path, reason: String(cString: strerror(errno)))
    }
    self.init(
      sink: { buffer in
        if fwrite(buffer.baseAddress, 1, buffer.count, file) != buffer.count {
          throw TrackWriteError(path: path, reason: String(cString: strerror(errno)))
        }
      },
      finish: {
        if fclose(file) != 0 { throw TrackWriteError(path: path, reason: String(cString: strerror(errno))) }
      })
  }

  init(sink: @escaping TrackByteSink, finish: @escaping () throws -> Void = {}) {
    self.sink = sink
    self.finish = finish
    bytes.reserveCapacity(Self.flushSize + 256)
  }

  mutating func append(_ byte: UInt8) { bytes.append(byte) }
  mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

  mutating func appendInteger(_ value: Int64) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    appendDigits(value.magnitude, minimumWidth: 1)
  }

  private mutating func appendDigits(_ value: UInt64, minimumWidth: Int) {
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var n = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[n] = UInt8(48 + rest % 10)
        rest /= 10
        n += 1
      } while rest > 0
      while n < minimumWidth {
        buffer[n] = 48
        n += 1
      }
      for i in stride(from: n - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
    }
  }

  /// `value` rounded half away from zero to `decimals` places, no exponent.
  mutating func appendFixed(_ value: Double, decimals: Int) {
    var scale: Double = 1
    var divisor: UInt64 = 1
    for _ in 0..<decimals {
      scale *= 10
      divisor *= 10
    }
    let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
    guard scaled.isFinite, abs(scaled) < 9.0e18 else {
      append(value.isNaN ? "nan" : value > 0 ? "inf" : "-inf")
      return
    }
    let integer = Int64(scaled)
    if integer < 0 { bytes.append(UInt8(ascii: "-")) }
    let magnitude = integer.magnitude
    appendDigits(magnitude / divisor, minimumWidth: 1)
    if decimals > 0 {
      bytes.append(UInt8(ascii: "."))
      appendDigits(magnitude % divisor, minimumWidth: decimals)
    }
  }

  mutating func flushIfFull() throws {
    if bytes.count >= Self.flushSize { try flush() }
  }

  mutating func flush() throws {
    guard !bytes.isEmpty else { return }
    try bytes.withUnsafeBytes { try sink($0) }
    bytes.removeAll(keepingCapacity: true)
  }

  mutating func close() throws {
    try flush()
    try finish()
  }
}
