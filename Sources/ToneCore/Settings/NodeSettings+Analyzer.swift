import ToneDSP

extension NodeSettings {
    /// The pitch detector's settings at `sampleRateHz`: the window is `fftSize`,
    /// the fundamental range `pitchLowHz…pitchHighHz` (capped below Nyquist).
    public func pitchConfiguration(sampleRateHz: Double) -> PitchDetectorConfiguration {
        PitchDetectorConfiguration(sampleRateHz: sampleRateHz, frameSize: fftSize, lowHz: pitchLowHz,
                                   highHz: min(pitchHighHz, PitchDetectorConfiguration.highestHz(sampleRateHz: sampleRateHz)))
    }

    /// The analyzer for `mode`, its FFTs planned with `planning`. Worker thread's to use.
    public func makeAnalyzer(sampleRateHz: Double, planning: FFTPlanning) throws -> any StreamAnalyzer {
        switch mode {
        case .tone:
            let estimator = try ToneEstimator(estimatorConfiguration(sampleRateHz: sampleRateHz), planning: planning)
            return try ToneAnalyzer(estimator: estimator, hopFrames: hopFrames, steadySpanSeconds: steadySpanSeconds)
        case .pitch:
            let detector = try PitchDetector(pitchConfiguration(sampleRateHz: sampleRateHz), planning: planning)
            return try PitchAnalyzer(detector: detector, hopFrames: hopFrames, temperament: EqualTemperament(a4Hz: a4Hz),
                                     steadySpanSeconds: steadySpanSeconds)
        }
    }
}
