/// A preamble the detector found: where the frame starts and how fast the
/// sender's clock runs against ours.
public struct PreambleCandidate: Sendable, Equatable {
    public let profile: ModemProfile
    /// Stream position (fractional samples) of the frame's sender time 0.
    public let startPosition: Double
    /// Relative clock offset: sender frequencies arrive scaled by (1 + ε).
    public let clockOffset: Double
    /// Normalised matched-filter peak of the up-chirp, 0…1.
    public let strength: Float
    /// The clock offset a quarter-sample error in the chirp peaks amounts to.
    public var clockOffsetStep: Double = 0
    /// How the frame start moves with the clock offset (frames per unit of ε).
    public var startFramesPerClockOffset: Double = 0

    /// The same preamble read with another clock offset.
    func with(clockOffset other: Double) -> PreambleCandidate {
        PreambleCandidate(profile: profile,
                          startPosition: startPosition + (other - clockOffset) * startFramesPerClockOffset,
                          clockOffset: other, strength: strength, clockOffsetStep: clockOffsetStep,
                          startFramesPerClockOffset: startFramesPerClockOffset)
    }

    /// Readings to try in turn: the estimate, then (where the estimate is coarse) its neighbours.
    var alternatives: [PreambleCandidate] {
        guard clockOffsetStep > 50e-6 else { return [self] }
        return [self] + [1.0, -1.0, 2.0, -2.0].map { with(clockOffset: clockOffset + $0 * clockOffsetStep) }
    }
}
