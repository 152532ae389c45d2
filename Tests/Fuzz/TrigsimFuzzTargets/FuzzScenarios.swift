import Foundation

/// The fixed scenarios the `geojson` and `places` targets wrap their input
/// in: small enough to run in milliseconds, and using what the file gives
/// (every region monitored; the nearest places registered along a track).
enum FuzzScenarios {
  static let clock = "trigsim: 1\nclock: { start: 2026-05-04T08:00:00+02:00, end: 2026-05-04T09:00:00+02:00, timezone: Europe/Copenhagen }\n"

  /// A two-kilometre walk in central Copenhagen, a fix a minute.
  static let track: String = {
    var text = "time,latitude,longitude\n"
    for minute in 0...30 {
      let latitude = 55.670 + Double(minute) * 0.0006
      text += "2026-05-04T06:\(minute < 10 ? "0" : "")\(minute):00Z,\(latitude),12.570\n"
    }
    return text
  }()

  /// The regions of `regionsFile`, each with a notification on entering it,
  /// beside a track file (written next to it).
  static func geojson(regionsFile: String) -> String {
    clock + """
      track: { file: \(trackFile(beside: regionsFile)) }
      regions:
        - { file: \((regionsFile as NSString).lastPathComponent) }
      platform: { location: ios }

      """
  }

  /// The places of `placesFile` as a place set, the nearest 20 monitored for
  /// a location medicine along the track.
  static func places(placesFile: String) -> String {
    clock + """
      track: { file: \(trackFile(beside: placesFile)) }
      places:
        shops: { file: \((placesFile as NSString).lastPathComponent), radius: 100 }
      regionSet: { nearest: 20, refresh: 500m }
      medicines:
        - { id: 1, name: Pickup, dosage: 1, location: { places: shops, on: [enter] }, snooze: none }

      """
  }

  /// Writes the track beside `file` (once per folder) and returns its name.
  static func trackFile(beside file: String) -> String {
    let path = ((file as NSString).deletingLastPathComponent as NSString).appendingPathComponent("fuzz-track.csv")
    if !FileManager.default.fileExists(atPath: path) { try? track.write(toFile: path, atomically: true, encoding: .utf8) }
    return "fuzz-track.csv"
  }

  /// Writes `scenario` beside `file` under the file's name + `.yaml` and returns its path.
  static func write(_ scenario: String, beside file: String) -> String {
    let path = file + ".yaml"
    precondition(FileManager.default.createFile(atPath: path, contents: Data(scenario.utf8)), "cannot write \(path)")
    return path
  }
}

/// A scenario and its files in one input, so one fuzz input can change both:
///
///     trigsim: 1
///     ...
///     regions: [{ file: places.geojson }]
///     --- file: places.geojson
///     {"type": "FeatureCollection", ...}
///
/// Everything before the first `--- file: NAME` line is `scenario.yaml`;
/// each such line starts a file NAME (letters, digits, `.`, `_`, `-`; at
/// most 64 of them; a later file of the same name replaces an earlier one)
/// holding the lines up to the next. At most 16 files.
enum FuzzBundle {
  static let marker = Array("--- file: ".utf8)

  /// The files of `bytes`, the scenario first.
  static func files(_ bytes: [UInt8]) -> [(name: String, bytes: [UInt8])] {
    var files: [(name: String, bytes: [UInt8])] = [("scenario.yaml", [])]
    var lineStart = 0
    while lineStart < bytes.count {
      let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      let line = bytes[lineStart..<lineEnd]
      if line.starts(with: marker), files.count <= 16, let name = fileName(line.dropFirst(marker.count)) {
        files.removeAll { $0.name == name && $0.name != "scenario.yaml" }
        files.append((name, []))
      } else {
        files[files.count - 1].bytes += bytes[lineStart..<min(lineEnd + 1, bytes.count)]
      }
      lineStart = lineEnd + 1
    }
    return files
  }

  static func fileName(_ bytes: ArraySlice<UInt8>) -> String? {
    guard (1...64).contains(bytes.count), bytes.first != UInt8(ascii: "."),
      bytes.allSatisfy({ $0.isASCIILetterOrDigit || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
    else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Writes the bundle's files into a new folder, calls `body` with the
  /// scenario's path, and removes the folder.
  static func withFolder(_ bytes: [UInt8], _ body: (String) throws -> Void) throws {
    let folder = FuzzWorkspace.shared.newFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for file in files(bytes) {
      precondition(FileManager.default.createFile(atPath: folder + "/" + file.name, contents: Data(file.bytes)), "cannot write \(file.name)")
    }
    try body(folder + "/scenario.yaml")
  }
}

extension UInt8 {
  fileprivate var isASCIILetterOrDigit: Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
  }
}

/// The parts of a `merge` input: files separated by lines `--- part`, at
/// most 16, each written as `part-N.json` in a folder of its own.
enum FuzzParts {
  static let marker = Array("--- part".utf8)

  /// The parts of `bytes`, in order.
  static func parts(_ bytes: [UInt8]) -> [[UInt8]] {
    var parts: [[UInt8]] = [[]]
    var lineStart = 0
    while lineStart < bytes.count {
      let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      if bytes[lineStart..<lineEnd].elementsEqual(marker), parts.count < 16 {
        parts.append([])
      } else {
        parts[parts.count - 1] += bytes[lineStart..<min(lineEnd + 1, bytes.count)]
      }
      lineStart = lineEnd + 1
    }
    return parts
  }

  /// Writes the parts into a new folder, calls `body` with their paths, and removes the folder.
  static func withFiles(_ bytes: [UInt8], _ body: ([String]) throws -> Void) throws {
    let folder = FuzzWorkspace.shared.newFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var paths: [String] = []
    for (index, part) in parts(bytes).enumerated() {
      let path = folder + "/part-\(index + 1).json"
      precondition(FileManager.default.createFile(atPath: path, contents: Data(part)), "cannot write \(path)")
      paths.append(path)
    }
    try body(paths)
  }
}
