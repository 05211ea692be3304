/// Idle noise, dynamic range and hum of a chain in the AES17 way
/// (`measure --what noise`). Levels in dBFS against a full-scale sine's RMS
/// (a full-scale sine reads 0 dBFS, white noise of RMS σ reads `20·log10(σ·√2)`).
public struct NoiseMeasurement: Sendable {
    /// One hum line: a 50 or 60 Hz harmonic standing out of the idle noise.
    public struct HumLine: Sendable, Equatable {
        public var frequencyHz: Double
        /// Mains frequency of its family (50 or 60) and the harmonic number.
        public var mainsHz: Double
        public var harmonic: Int
        /// Peak level of the line, dBFS.
        public var levelDBFS: Double
    }

    /// Idle noise 20 Hz…20 kHz (or to 95 % of Nyquist), unweighted and A-weighted.
    public var noiseDBFS: Double
    public var noiseAWeightedDBFS: Double
    /// Signal-to-noise ratio of a full-scale sine over the idle noise (unweighted / A-weighted), dB.
    public var snrDB: Double { -noiseDBFS }
    public var snrAWeightedDB: Double { -noiseAWeightedDBFS }
    /// AES17 dynamic range: THD+N of a −60 dBFS tone (20 Hz…20 kHz, A-weighted) referred to full scale, dB.
    public var dynamicRangeDB: Double
    /// The same, unweighted.
    public var dynamicRangeUnweightedDB: Double
    public var humLines: [HumLine]
    public var bandLowHz: Double
    public var bandHighHz: Double
    /// For the picture: power per bin (Welch, Hann 8192) in dBFS, from the band's
    /// low edge to Nyquist, of the idle noise and of what is left of the −60 dBFS
    /// tone once its fitted sine is taken away.
    public var idleSpectrum: [SpectrumLine] = []
    public var toneResidualSpectrum: [SpectrumLine] = []
    /// Width of one bin of those spectra.
    public var spectrumBinHz: Double = 0
}
