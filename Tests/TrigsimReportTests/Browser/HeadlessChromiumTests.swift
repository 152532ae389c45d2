import CZlib
import Foundation
import Testing
import TrigsimTestSupport

/// The test harness itself: the PNG decoder on images built here, and the
/// headless browser on small pages whose answers are known.
@Suite struct PNGImageTests {
  /// A PNG of `rows` (pixels as RGB or RGBA bytes), every row filtered with
  /// `filter`. The filters are written here again on purpose: an encoder
  /// sharing the decoder's predictor would hide a mistake in it.
  static func png(width: Int, rows: [[UInt8]], channels: Int, filter: UInt8) -> Data {
    var raw: [UInt8] = []
    for (y, row) in rows.enumerated() {
      raw.append(filter)
      for (x, value) in row.enumerated() {
        let a = x >= channels ? Int(row[x - channels]) : 0
        let b = y > 0 ? Int(rows[y - 1][x]) : 0
        let c = y > 0 && x >= channels ? Int(rows[y - 1][x - channels]) : 0
        let predicted: Int
        switch filter {
        case 1: predicted = a
        case 2: predicted = b
        case 3: predicted = (a + b) / 2
        case 4:
          let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
          predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
        default: predicted = 0
        }
        raw.append(UInt8(truncatingIfNeeded: Int(value) - predicted))
      }
    }
    var compressedLength = compressBound(uLong(raw.count))
    var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
    _ = compressed.withUnsafeMutableBufferPointer { target in
      raw.withUnsafeBufferPointer { source in compress(target.baseAddress, &compressedLength, source.baseAddress, uLong(source.count)) }
    }
    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
      let length = UInt32(body.count)
      // The CRC is not checked by the decoder; zeros stand in for it.
      return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + Array(type.utf8) + body + [0, 0, 0, 0]
    }
    let w = UInt32(width), h = UInt32(rows.count)
    let header: [UInt8] = [UInt8(w >> 24), UInt8(w >> 16 & 0xFF), UInt8(w >> 8 & 0xFF), UInt8(w & 0xFF), UInt8(h >> 24), UInt8(h >> 16 & 0xFF), UInt8(h >> 8 & 0xFF), UInt8(h & 0xFF),
      8, channels == 4 ? 6 : 2, 0, 0, 0]
    let bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", Array(compressed[0..<Int(compressedLength)])) + chunk("IEND", [])
    return Data(bytes)
  }

  @Test(arguments: [UInt8(0), 1, 2, 3, 4])
  func everyRowFilterDecodesToTheSamePixels(filter: UInt8) throws {
    let rows: [[UInt8]] = [[255, 0, 0, 10, 200, 30, 0, 0, 255], [1, 2, 3, 250, 251, 252, 128, 64, 32]]
    let image = try PNGImage(data: Self.png(width: 3, rows: rows, channels: 3, filter: filter))
    #expect(image.width == 3 && image.height == 2)
    #expect(image.pixels == [
      .init(255, 0, 0), .init(10, 200, 30), .init(0, 0, 255), .init(1, 2, 3), .init(250, 251, 252), .init(128, 64, 32),
    ])
    #expect(image.distinctColours == 6 && !image.isBlank)
  }

  @Test func rgbaKeepsItsAlphaAndOneColourIsBlank() throws {
    let image = try PNGImage(data: Self.png(width: 2, rows: [[9, 8, 7, 128, 9, 8, 7, 128]], channels: 4, filter: 4))
    #expect(image.pixels == [.init(9, 8, 7, 128), .init(9, 8, 7, 128)])
    #expect(image.isBlank)
    #expect(image.fractionOfPixels(differingFrom: .init(9, 8, 7, 128)) == 0)
  }

  @Test func otherKindsAreRefusedWithTheReason() throws {
    var greyscale = [UInt8](Self.png(width: 1, rows: [[0, 0, 0]], channels: 3, filter: 0))
    greyscale[8 + 8 + 9] = 0  // IHDR's colour type: greyscale
    #expect(throws: PNGImage.DecodingError(description: "colour type 0 at bit depth 8: only 8-bit RGB (2) and RGBA (6) are decoded")) {
      try PNGImage(data: Data(greyscale))
    }
    #expect(throws: PNGImage.DecodingError(description: "not a PNG file (no signature)")) { try PNGImage(data: Data("GIF89a".utf8)) }
  }
}

@Suite(.enabled(if: HeadlessChromium.locate() != nil, Comment(rawValue: HeadlessChromium.unavailableMessage)))
struct HeadlessChromiumTests {
  let browser = HeadlessChromium.locate()!

  @Test func withoutATimeoutToolThereIsNoBrowserToRun() {
    #expect(HeadlessChromium.locate(environment: ["PATH": "/nonexistent", "TRIGSIM_CHROMIUM": browser.executable]) == nil)
    let found = HeadlessChromium.locate(environment: ["PATH": "/usr/bin:/bin", "TRIGSIM_CHROMIUM": browser.executable])
    #expect(found?.executable == browser.executable && found?.timeoutTool == "/usr/bin/timeout")
  }

  @Test func aScriptErrorIsReportedAndACleanPageHasNone() throws {
    let broken = try browser.render(html: "<!DOCTYPE html><html><head></head><body><script>undefinedFunction();</script></body></html>")
    #expect(broken.scriptErrors == ["Uncaught ReferenceError: undefinedFunction is not defined"])
    #expect(broken.consoleMessages == ["Uncaught ReferenceError: undefinedFunction is not defined"])
    let clean = try browser.render(html: "<!DOCTYPE html><html><head></head><body><script>document.body.setAttribute('data-ready','1')</script></body></html>")
    #expect(clean.scriptErrors.isEmpty && clean.consoleMessages.isEmpty)
    #expect(HTMLDocument(clean.dom).attributeValues(xpath: "/html/body/@data-ready") == ["1"])
  }

  @Test func marksInInlineSVGAreCountedExactly() throws {
    let page = try browser.render(html: """
      <!DOCTYPE html><html><head></head><body>
      <svg id="chart" xmlns="http://www.w3.org/2000/svg"><circle data-mark="fired" data-count="3"/><rect data-mark="fired" data-count="2"/><path data-mark="held" data-count="1"/></svg>
      <svg id="map" xmlns="http://www.w3.org/2000/svg"><circle data-mark="fired" data-count="7"/></svg>
      <script>var s=document.getElementById('map');var c=document.createElementNS('http://www.w3.org/2000/svg','circle');c.setAttribute('data-mark','seen');c.setAttribute('data-count','4');s.appendChild(c)</script>
      </body></html>
      """)
    let dom = HTMLDocument(page.dom)
    #expect(dom.count(xpath: "//svg[@id='chart']//*[@data-mark='fired']") == 2)
    #expect(dom.number(xpath: "sum(//svg[@id='chart']//*[@data-mark='fired']/@data-count)") == 5)
    #expect(dom.number(xpath: "sum(//svg[@id='map']//*[@data-mark='fired']/@data-count)") == 7)
    // What the script added is in the DOM too.
    #expect(dom.number(xpath: "sum(//svg[@id='map']//*[@data-mark='seen']/@data-count)") == 4)
  }

  @Test func aRedRectangleOnAWhitePageIsExactlyItsPixels() throws {
    let image = try browser.screenshot(
      html: "<!DOCTYPE html><html><body style=\"margin:0;background:#fff\"><div style=\"position:absolute;left:10px;top:20px;width:100px;height:50px;background:#ff0000\"></div></body></html>",
      width: 300, height: 200)
    #expect(image.width == 300 && image.height == 200)
    #expect(image.pixels.count { $0 == .init(255, 0, 0) } == 5000)
    #expect(image.pixel(x: 10, y: 20) == .init(255, 0, 0) && image.pixel(x: 9, y: 20) == .init(255, 255, 255))
    let blank = try browser.screenshot(html: "<!DOCTYPE html><html><body style=\"background:#fff\"></body></html>", width: 300, height: 200)
    #expect(blank.isBlank)
  }

  @Test func aPageThatNeverStopsIsKilledAtTheTimeout() throws {
    var impatient = browser
    impatient.timeout = 5
    #expect(throws: HeadlessChromium.Failure.self) {
      try impatient.render(html: "<!DOCTYPE html><html><head></head><body><script>while(true){}</script></body></html>")
    }
  }
}
