import Foundation

/// The entry point of a fuzz executable built without libFuzzer: runs the
/// target once on every file named on the command line (folders are read
/// file by file, in name order), so a crash file a fuzzer saved can be
/// replayed under a debugger, and a corpus can be checked in an ordinary build.
public enum FuzzReplay {
  public static func main(_ target: FuzzTarget) {
    let arguments = CommandLine.arguments.dropFirst()
    guard !arguments.isEmpty else {
      FileHandle.standardError.write(Data("usage: fuzz-\(target.rawValue) FILE_OR_FOLDER...\n".utf8))
      exit(64)
    }
    var count = 0
    for argument in arguments {
      for file in files(at: argument) {
        guard let data = FileManager.default.contents(atPath: file) else {
          FileHandle.standardError.write(Data("cannot read \(file)\n".utf8))
          exit(66)
        }
        _ = data.withUnsafeBytes { target.run($0) }
        count += 1
      }
    }
    print("\(target.rawValue): \(count) inputs replayed, none crashed")
  }

  /// `path` itself, or the regular files directly inside it, sorted by name.
  public static func files(at path: String) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.sorted().map { path + "/" + $0 }.filter {
      var nested: ObjCBool = false
      return FileManager.default.fileExists(atPath: $0, isDirectory: &nested) && !nested.boolValue
    }
  }
}
