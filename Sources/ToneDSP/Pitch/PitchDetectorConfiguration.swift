/// Settings of the pitch detector.
public struct PitchDetectorConfiguration: Sendable, Equatable {
    public var sampleRateHz: Double
    /// Analysis window in samples (a power of two).
    public var frameSize: Int
    /// Lowest and highest fundamental searched, in Hz.
    public var lowHz: Double
    public var highHz: Double
    /// McLeod's threshold: the first key maximum of the NSDF reaching this
    /// fraction of the highest one is the period (lower → more octave-low
    /// errors, higher → more octave-high errors).
    public var keyMaximumFraction: Double = 0.9
    /// No-pitch gate: the NSDF at the period (the "clarity", 0…1) must reach this.
    public var clarityMin: Double = 0.35
    /// Highest partial used for the refinement, in Hz.
    public var refinementTopHz: Double = 5000
    /// Harmonics used for the refinement at most.
    public var maxHarmonics: Int = 8
    /// Start a window's refinement from the last window's pitch while that
    /// pitch is clear (see `PitchDetector.estimate`), skipping the NSDF. Off:
    /// every window searched from scratch (tests compare the two).
    public var tracksClearPitch = true
    /// A pitch is clear, and tracked, at this SNR or above…
    public var trackingSNRMinDB = 30.0
    /// …with at least this share of the harmonic power in its fundamental.
    public var trackingFundamentalShareMin = 0.5
    /// A tracked window's refined pitch must stay within this many bins of
    /// the last: its one Newton step then ends as close to the top as the
    /// search's does (a step of 0.08 bin, 5 cents at 330 Hz, ended 0.05
    /// cent short of it; this is 16 times shorter, its error 256 times less).
    public var trackingStepMaxBins = 0.005

    /// Lowest fundamental the default settings search: below the open low B of a five-string bass (30.9 Hz).
    public static let defaultLowHz = 30.0
    /// Highest fundamental the default settings search: above a guitar's top fret (~1.3 kHz) and a soprano's C6 (1047 Hz).
    public static let defaultHighHz = 2000.0

    public init(sampleRateHz: Double, frameSize: Int, lowHz: Double = defaultLowHz, highHz: Double = defaultHighHz) {
        self.sampleRateHz = sampleRateHz
        self.frameSize = frameSize
        self.lowHz = lowHz
        self.highHz = highHz
    }

    /// Shortest window the detector works on (it must be a power of two).
    public static let minimumFrameSize = 256

    /// The highest fundamental looked for at `sampleRateHz`: a quarter of the
    /// rate (the node's and the LV2 analyzer's cap on the range's top).
    public static func highestHz(sampleRateHz: Double) -> Double { sampleRateHz / 4 }

    /// Whether the frame holds two periods of some pitch in `lowHz…highHz`.
    public var holdsTwoPeriods: Bool { lagRange != nil }

    /// The period range in samples the frame can hold: at least two periods of `lowHz` must fit.
    var lagRange: ClosedRange<Int>? {
        let shortest = max(2, Int((sampleRateHz / highHz).rounded(.down)))
        let longest = min(frameSize / 2, Int((sampleRateHz / lowHz).rounded(.up)))
        return shortest < longest ? shortest...longest : nil
    }

    /// Lowest fundamental this frame size can detect, in Hz.
    public var lowestDetectableHz: Double { max(lowHz, sampleRateHz / Double(frameSize / 2)) }

    /// Why these settings cannot work, or nil.
    public var problem: String? {
        guard sampleRateHz.isFinite, sampleRateHz > 0 else { return "sample rate \(sampleRateHz) Hz is not positive" }
        guard frameSize >= Self.minimumFrameSize, frameSize & (frameSize - 1) == 0 else {
            return "pitch window \(frameSize) must be a power of two of at least 256 samples"
        }
        guard lowHz.isFinite, highHz.isFinite, lowHz > 0, highHz > lowHz else {
            return "pitch range \(lowHz)…\(highHz) Hz is empty"
        }
        guard lagRange != nil else {
            return "a window of \(frameSize) samples at \(sampleRateHz) Hz cannot hold two periods of any pitch from \(lowHz) to \(highHz) Hz"
        }
        return nil
    }
}

extension PitchDetectorConfiguration {
    /// How many full-rate samples the NSDF averages into one (1, 2 or 4):
    /// as many as keep its rate at five times `highHz` or more (a period of
    /// at least five decimated samples, the highest fundamental 0.5 dB down
    /// in the averaging) and the decimated window at 128 samples or more.
    public var nsdfDecimation: Int {
        for factor in [4, 2] where sampleRateHz / Double(factor) >= 5 * highHz && frameSize / factor >= 128 {
            return factor
        }
        return 1
    }
}
