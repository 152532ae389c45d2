import ArgumentParser
import Foundation
import TrigsimCore
import TrigsimTracks

struct GenerateTrackCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate-track",
    abstract: "Write a synthetic, seeded daily-routine track (CSV or GPX).")

  func run() throws {
    printError("error: generate-track is not available yet")
    throw ExitCode(TrigsimExitCode.internalError)
  }
}
