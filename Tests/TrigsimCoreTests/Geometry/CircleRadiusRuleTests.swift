import Testing
import TrigsimCore

/// `CircularRegion.radiusProblem`: the radius rule every reader applies.
@Suite struct CircleRadiusRuleTests {
  @Test func radiiFromAMillimetreToTenThousandKilometresAreCircles() {
    for radius in [0.001, 1, 100, 250, 1_000_000, CircularRegion.maximumRadius] {
      #expect(CircularRegion.radiusProblem(radius) == nil, "\(radius)")
    }
  }

  @Test func zeroNegativeAndNaNAreNotPositive() {
    for radius in [0, -0.0, -5, -Double.infinity, Double.nan] {
      #expect(CircularRegion.radiusProblem(radius) == .notPositive, "\(radius)")
    }
  }

  /// Issue 27: the report trapped converting a radius of 9.2e18 m to Int, and
  /// `run` took radii up to 1e308.
  @Test func beyondTenThousandKilometresAndInfinityAreTooLarge() {
    for radius in [CircularRegion.maximumRadius.nextUp, 9.2e18, 1e308, Double.infinity] {
      #expect(CircularRegion.radiusProblem(radius) == .tooLarge, "\(radius)")
    }
    #expect(CircularRegion.RadiusProblem.tooLarge.message == "radius must be at most 10000000 metres (10,000 km)")
  }
}
