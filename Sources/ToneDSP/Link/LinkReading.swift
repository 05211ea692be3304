/// One period of probe as it came back: what `LinkEstimator` read from it.
public struct LinkReading: Sendable, Equatable {
    /// Seconds from the first frame analysed to the end of this period.
    public var timeSeconds: Double
    /// Delay of the probe in frames of the receiving clock, modulo the
    /// probe's period (0 ..< periodFrames) as estimated; `LinkAnalyzer`
    /// unwraps it into a continuous figure.
    public var latencyFrames: Double
    /// Gain of the link over the probe's band (dB; 0 is a wire).
    public var gainDB: Double
    /// RMS level of what came back (dBFS).
    public var levelDBFS: Double
    /// Power not explained by the delayed, scaled probe, against the
    /// power received (dB; a clean bridge reads below −40).
    public var residualDB: Double
    /// Whether the probe was there: gain above −60 dB and residual below −3 dB.
    public var hasProbe: Bool
    /// Blocks (`LinkEstimator.blockFrames` each) in this period whose
    /// content did not match the probe (a dropout, a repeat, a click), as a
    /// bit per block, oldest first.
    public var badBlocks: [Bool]

    public init(timeSeconds: Double, latencyFrames: Double, gainDB: Double, levelDBFS: Double,
                residualDB: Double, hasProbe: Bool, badBlocks: [Bool]) {
        self.timeSeconds = timeSeconds
        self.latencyFrames = latencyFrames
        self.gainDB = gainDB
        self.levelDBFS = levelDBFS
        self.residualDB = residualDB
        self.hasProbe = hasProbe
        self.badBlocks = badBlocks
    }
}
