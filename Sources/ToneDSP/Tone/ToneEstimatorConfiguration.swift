/// Settings of the single-tone detector, checked once at construction.
public struct ToneEstimatorConfiguration: Sendable, Equatable {
    public var sampleRateHz: Double
    /// Analysis window length in samples (a power of two, 256 … 1 048 576).
    public var fftSize: Int
    /// Only tones whose frequency lies here are reported.
    public var lowHz: Double
    public var highHz: Double
    /// The no-tone gate on `snrDB` (tone power over everything else in the window).
    public var snrMinDB: Double
    /// How far above the local noise floor the spectral peak must stand.
    /// Default: set from the number of bins searched so that white noise
    /// alone passes it in fewer than 1 window in 10 000; pink noise, whose
    /// floor near DC has to be extrapolated, in a few.
    public var prominenceMinDB: Double?
    /// How many tones to look for (1…`maxTonesLimit`): the K strongest that pass the gates.
    public var maxTones: Int

    // MARK: - Limits (the settings layer checks against these and names its own flags)

    public static let maxTonesLimit = 16
    /// Window lengths the estimator plans FFTs for (powers of two only).
    public static let fftSizeRange = 256...(1 << 20)
    /// Sample rates the estimator's thresholds are tuned for.
    public static let sampleRateRangeHz: ClosedRange<Double> = 1000...1_536_000
    /// The band must hold at least this many FFT bins for a peak and its neighbours.
    public static let minimumBandBins = 3.0

    // MARK: - Defaults (the node's `--fft-size`, `--hop` and `--band`'s lower edge: ToneCore's
    // `Parameters` and the LV2 analyzer read them here)

    public static let defaultFFTSize = 4096
    /// Frames between two readings of a `ToneAnalyzer` or `PitchAnalyzer`.
    public static let defaultHopFrames = 512
    /// The tone band's lower edge (its upper is the Nyquist frequency).
    public static let defaultLowHz = 20.0
    /// The no-tone gate: a tone carries at least this SNR unless told otherwise (`--snr-min`).
    public static let defaultSnrMinDB = -20.0

    /// Whether `size` is a window length the estimator accepts.
    public static func isValidFFTSize(_ size: Int) -> Bool {
        fftSizeRange.contains(size) && size & (size - 1) == 0
    }

    public init(sampleRateHz: Double, fftSize: Int = defaultFFTSize, lowHz: Double = defaultLowHz, highHz: Double? = nil,
                snrMinDB: Double = defaultSnrMinDB, prominenceMinDB: Double? = nil, maxTones: Int = 1) {
        self.sampleRateHz = sampleRateHz
        self.fftSize = fftSize
        self.lowHz = lowHz
        self.highHz = highHz ?? sampleRateHz / 2
        self.snrMinDB = snrMinDB
        self.prominenceMinDB = prominenceMinDB
        self.maxTones = maxTones
    }

    /// The first problem with these settings, as a sentence (the library's
    /// words: a caller that takes these from a person checks first and names its own options).
    public var problem: String? {
        if !(sampleRateHz.isFinite && Self.sampleRateRangeHz.contains(sampleRateHz)) {
            return "sample rate \(sampleRateHz) Hz is outside \(Int(Self.sampleRateRangeHz.lowerBound))…\(Int(Self.sampleRateRangeHz.upperBound)) Hz"
        }
        if !Self.isValidFFTSize(fftSize) {
            return "FFT size \(fftSize) must be a power of two from \(Self.fftSizeRange.lowerBound) to \(Self.fftSizeRange.upperBound)"
        }
        switch Self.bandFault(lowHz: lowHz, highHz: highHz, sampleRateHz: sampleRateHz, fftSize: fftSize) {
        case .empty?: return "band \(lowHz):\(highHz) must be two frequencies with LO < HI"
        case .aboveNyquist(let nyquist)?: return "band upper edge \(highHz) Hz is above the Nyquist frequency \(nyquist) Hz"
        case .narrowerThanBins(let binHz)?:
            return "band \(lowHz):\(highHz) is narrower than \(Int(Self.minimumBandBins)) FFT bins (\(binHz) Hz each)"
        case nil: break
        }
        if !snrMinDB.isFinite { return "the snr threshold \(snrMinDB) dB must be a finite number of dB" }
        if let prominenceMinDB, !prominenceMinDB.isFinite {
            return "the prominence threshold \(prominenceMinDB) dB must be a finite number of dB"
        }
        if maxTones < 1 || maxTones > Self.maxTonesLimit {
            return "the tone count \(maxTones) must be between 1 and \(Self.maxTonesLimit)"
        }
        return nil
    }
}

// MARK: - The band's rules

extension ToneEstimatorConfiguration {
    /// What is wrong with an analysis band (the one home of its rules: the
    /// estimator and `NodeSettings` both ask here and word it their way).
    public enum BandFault: Equatable, Sendable {
        /// Not `0 ≤ low < high`.
        case empty
        case aboveNyquist(nyquistHz: Double)
        /// Fewer than `minimumBandBins` bins of `binHz` wide.
        case narrowerThanBins(binHz: Double)
    }

    /// The band's fault, or nil.
    /// - Parameters:
    ///   - sampleRateHz: nil checks only what does not depend on the rate.
    ///   - fftSize: nil skips the bin count (no tone analysis runs on the band).
    public static func bandFault(lowHz: Double, highHz: Double, sampleRateHz: Double?, fftSize: Int?) -> BandFault? {
        guard lowHz.isFinite, lowHz >= 0, highHz > lowHz else { return .empty }
        guard let sampleRateHz else { return nil }
        if highHz > sampleRateHz / 2 { return .aboveNyquist(nyquistHz: sampleRateHz / 2) }
        if let fftSize, highHz - lowHz < minimumBandBins * sampleRateHz / Double(fftSize) {
            return .narrowerThanBins(binHz: sampleRateHz / Double(fftSize))
        }
        return nil
    }
}
