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
}
