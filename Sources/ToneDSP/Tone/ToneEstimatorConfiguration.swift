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

    /// Whether `size` is a window length the estimator accepts.
    public static func isValidFFTSize(_ size: Int) -> Bool {
        fftSizeRange.contains(size) && size & (size - 1) == 0
    }

    public init(sampleRateHz: Double, fftSize: Int = 4096, lowHz: Double = 20, highHz: Double? = nil,
                snrMinDB: Double = -20, prominenceMinDB: Double? = nil, maxTones: Int = 1) {
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
            return "sample rate \(sampleRateHz) Hz is outside 1000…1536000 Hz"
        }
        if !Self.isValidFFTSize(fftSize) {
            return "FFT size \(fftSize) must be a power of two from \(Self.fftSizeRange.lowerBound) to \(Self.fftSizeRange.upperBound)"
        }
        let nyquist = sampleRateHz / 2
        if !(lowHz.isFinite && highHz.isFinite) || lowHz < 0 || highHz <= lowHz {
            return "band \(lowHz):\(highHz) must be two frequencies with LO < HI"
        }
        if highHz > nyquist {
            return "band upper edge \(highHz) Hz is above the Nyquist frequency \(nyquist) Hz"
        }
        if highHz - lowHz < Self.minimumBandBins * sampleRateHz / Double(fftSize) {
            return "band \(lowHz):\(highHz) is narrower than 3 FFT bins (\(sampleRateHz / Double(fftSize)) Hz each)"
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
