import CZlib
import Foundation

/// A decoded PNG image: the 8-bit RGB or RGBA, non-interlaced kind browsers
/// write for screenshots (ISO/IEC 15948: the IHDR, IDAT and IEND chunks, the
/// zlib stream, the five row filters). Other kinds are refused with the
/// reason.
public struct PNGImage: Sendable {
  public struct Pixel: Hashable, Sendable {
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8 = 255) {
      self.red = red
      self.green = green
      self.blue = blue
      self.alpha = alpha
    }
  }

  public struct DecodingError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(description: String) { self.description = description }
  }

  public let width: Int
  public let height: Int
  /// Row-major pixels.
  public let pixels: [Pixel]

  public init(data: Data) throws {
    let bytes = [UInt8](data)
    guard bytes.count >= 8, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
      throw DecodingError(description: "not a PNG file (no signature)")
    }
    func bigEndian(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    var offset = 8
    var header: (width: Int, height: Int, depth: UInt8, colour: UInt8, interlace: UInt8)?
    var compressed: [UInt8] = []
    while offset + 8 <= bytes.count {
      let length = bigEndian(offset)
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      let start = offset + 8
      guard length >= 0, start + length + 4 <= bytes.count else { throw DecodingError(description: "chunk \(type) runs past the end of the file") }
      let body = bytes[start..<start + length]
      switch type {
      case "IHDR":
        guard length == 13 else { throw DecodingError(description: "IHDR is \(length) bytes, not 13") }
        header = (bigEndian(start), bigEndian(start + 4), bytes[start + 8], bytes[start + 9], bytes[start + 12])
      case "IDAT": compressed += body
      default: break
      }
      offset = start + length + 4
      if type == "IEND" { break }
    }
    guard let header else { throw DecodingError(description: "no IHDR chunk") }
    guard header.depth == 8, header.colour == 2 || header.colour == 6 else {
      throw DecodingError(description: "colour type \(header.colour) at bit depth \(header.depth): only 8-bit RGB (2) and RGBA (6) are decoded")
    }
    guard header.interlace == 0 else { throw DecodingError(description: "interlaced PNG: not decoded") }
    guard header.width > 0, header.height > 0, header.width <= 20_000, header.height <= 20_000 else {
      throw DecodingError(description: "size \(header.width)×\(header.height) is out of range")
    }
    let channels = header.colour == 6 ? 4 : 3
    let stride = header.width * channels
    var raw = [UInt8](repeating: 0, count: header.height * (stride + 1))
    var rawLength = uLongf(raw.count)
    let status = raw.withUnsafeMutableBufferPointer { target in
      compressed.withUnsafeBufferPointer { source in uncompress(target.baseAddress, &rawLength, source.baseAddress, uLong(source.count)) }
    }
    guard status == Z_OK, Int(rawLength) == raw.count else {
      throw DecodingError(description: "the image data does not inflate to \(raw.count) bytes (zlib status \(status))")
    }
    // Undo the row filters in place.
    var rows = [UInt8](repeating: 0, count: header.height * stride)
    for row in 0..<header.height {
      let filter = raw[row * (stride + 1)]
      let source = row * (stride + 1) + 1, target = row * stride
      for column in 0..<stride {
        let x = raw[source + column]
        let a = column >= channels ? Int(rows[target + column - channels]) : 0
        let b = row > 0 ? Int(rows[target - stride + column]) : 0
        let c = row > 0 && column >= channels ? Int(rows[target - stride + column - channels]) : 0
        let predicted: Int
        switch filter {
        case 0: predicted = 0
        case 1: predicted = a
        case 2: predicted = b
        case 3: predicted = (a + b) / 2
        case 4:
          let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
          predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
        default: throw DecodingError(description: "row \(row) has filter type \(filter); 0 to 4 exist")
        }
        rows[target + column] = UInt8(truncatingIfNeeded: Int(x) + predicted)
      }
    }
    width = header.width
    height = header.height
    pixels = (0..<(header.width * header.height)).map { index in
      let base = index * channels
      return Pixel(rows[base], rows[base + 1], rows[base + 2], channels == 4 ? rows[base + 3] : 255)
    }
  }

  public func pixel(x: Int, y: Int) -> Pixel { pixels[y * width + x] }

  /// How many different colours the image has.
  public var distinctColours: Int { Set(pixels).count }

  /// The share of pixels (0…1) that are not `background`.
  public func fractionOfPixels(differingFrom background: Pixel) -> Double {
    Double(pixels.count { $0 != background }) / Double(pixels.count)
  }

  /// One colour all over.
  public var isBlank: Bool { pixels.allSatisfy { $0 == pixels[0] } }
}
