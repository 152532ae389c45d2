import Foundation
import Testing

@testable import TrigsimCore

@Suite struct TrialRandomTests {
  /// The largest latency and spread a scenario may set (a year, 5): a far
  /// tail draw used to overflow Int64 and trap; it is the longest latency now.
  @Test func latencyDrawsOfTheLargestAllowedRulesNeverOverflow() {
    var rules = RegionMonitoringRules()
    rules.latency = SimulationDuration(milliseconds: 366 * 86_400_000)
    rules.latencySpread = 5
    var sampler = LatencySampler(rules: rules, random: TrialRandom(seed: 10))
    var atTheBound = 0
    for _ in 0..<200_000 {
      let latency = sampler.next()
      #expect(latency > 0 && latency <= LatencySampler.longestLatency)
      if latency == LatencySampler.longestLatency { atTheBound += 1 }
    }
    #expect(atTheBound > 0)
    // The same stream, drawn directly: some of these draws exceed Int64, so
    // converting them unclamped (as before) would have trapped.
    var random = TrialRandom(seed: 10)
    let overflowing = (0..<200_000).filter { _ in
      Double(rules.latency.milliseconds) * exp(rules.latencySpread * random.nextGaussian()) > Double(Int64.max)
    }
    #expect(!overflowing.isEmpty)
  }
}
