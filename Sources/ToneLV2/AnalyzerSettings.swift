import ToneDSP

/// The analysis the control inputs ask for, made valid the way the node's
/// settings are (`tonenode run --mode --a4 --band`; ToneCore's `NodeSettings`;
/// the band in tone mode, the fundamental's range in pitch mode, as there):
/// values out of range are clamped rather than refused, since a plugin host's
/// slider cannot be told no. Worker thread.
struct AnalyzerSettings: Equatable {
    var mode: AnalysisMode
    var a4Hz: Double
    var lowHz: Double
    var highHz: Double
    var pitchLowHz: Double
    var pitchHighHz: Double
    /// The longest steady span (`SteadySpan.maxSecondsRange`, 0: off).
    var steadySeconds: Double
    let sampleRateHz: Double

    /// The node's default window and hop (`--fft-size`, `--hop`), declared
    /// in ToneDSP for ToneCore's `Parameters` and this plugin alike (ToneLV2
    /// does not link ToneCore and its Foundation).
    static let windowFrames = ToneEstimatorConfiguration.defaultFFTSize
    static let hopFrames = ToneEstimatorConfiguration.defaultHopFrames

    init(_ request: AnalyzerRequest, sampleRateHz: Double) {
        self.sampleRateHz = sampleRateHz
        mode = request.mode >= 0.5 ? .pitch : .tone
        let range = EqualTemperament.a4RangeHz
        let a4 = Double(request.a4Hz)
        a4Hz = a4.isFinite ? min(max(a4, range.lowerBound), range.upperBound) : EqualTemperament.standardA4Hz
        let nyquist = sampleRateHz / 2
        // The band needs `minimumBandBins` bins; a low edge too close to the top gives way.
        let minimumWidth = ToneEstimatorConfiguration.minimumBandBins * sampleRateHz / Double(Self.windowFrames)
        let high = Double(request.highHz)
        highHz = high.isFinite ? min(max(high, minimumWidth), nyquist) : nyquist
        let low = Double(request.lowHz)
        lowHz = low.isFinite ? min(max(low, 0), highHz - minimumWidth) : 0
        // The fundamental's range: positive, its top capped at a quarter of the rate (the node's cap).
        let pitchHigh = Double(request.pitchHighHz), pitchLow = Double(request.pitchLowHz)
        let highestHz = PitchDetectorConfiguration.highestHz(sampleRateHz: sampleRateHz)
        pitchHighHz = pitchHigh.isFinite ? min(max(pitchHigh, 2), highestHz) : highestHz
        pitchLowHz = pitchLow.isFinite ? min(max(pitchLow, 1), pitchHighHz / 2) : 1
        let steady = Double(request.steadySeconds), steadyRange = SteadySpan.maxSecondsRange
        steadySeconds = steady.isFinite ? min(max(steady, steadyRange.lowerBound), steadyRange.upperBound) : 0
    }

    /// The node's analyzer for these settings (`NodeSettings.makeAnalyzer`):
    /// the tone estimator over the band, or the pitch detector over the
    /// fundamental's range.
    func makeAnalyzer() throws -> any StreamAnalyzer {
        switch mode {
        case .tone:
            let configuration = ToneEstimatorConfiguration(sampleRateHz: sampleRateHz, fftSize: Self.windowFrames,
                                                           lowHz: lowHz, highHz: highHz)
            let estimator = try ToneEstimator(configuration, planning: .estimate)
            return try ToneAnalyzer(estimator: estimator, hopFrames: Self.hopFrames, steadySpanSeconds: steadySeconds)
        case .pitch:
            let configuration = PitchDetectorConfiguration(sampleRateHz: sampleRateHz, frameSize: Self.windowFrames,
                                                           lowHz: pitchLowHz, highHz: pitchHighHz)
            let detector = try PitchDetector(configuration, planning: .estimate)
            return try PitchAnalyzer(detector: detector, hopFrames: Self.hopFrames,
                                     temperament: EqualTemperament(a4Hz: a4Hz), steadySpanSeconds: steadySeconds)
        }
    }
}
