/// Intermodulation distortion of a chain (`measure --what imd`).
public struct IntermodulationMeasurement: Sendable {
    /// One product: its frequency and its amplitude against the reference
    /// (SMPTE: the 7 kHz tone; CCIF: the sum of the two tones).
    public struct Product: Sendable, Equatable {
        public var frequencyHz: Double
        public var order: Int
        public var levelDB: Double
    }

    /// SMPTE RP120 / DIN 45403: 60 Hz + 7 kHz at 4:1; the sidebands 7 kHz ± n·60 Hz
    /// (n = 1…4), each pair's amplitudes added, the pairs root-sum-squared,
    /// against the 7 kHz tone that came back.
    public var smpteDB: Double
    public var smptePercent: Double { 100 * pow10(smpteDB / 20) }
    public var smpteProducts: [Product]
    /// CCIF / IEC 60268 difference-frequency: 19 + 20 kHz at 1:1 (scaled down
    /// below 44.1 kHz); d2 = the 1 kHz difference tone, d3 = 18 + 21 kHz, each
    /// against the sum of the two tones' amplitudes. Nil when the pair does not fit below Nyquist.
    public var ccifD2DB: Double?
    public var ccifD3DB: Double?
    public var ccifProducts: [Product]
    public var ccifLowHz: Double
    public var ccifHighHz: Double
    /// What came back of each twin tone, for the picture: the amplitude spectrum
    /// (one Hann-squared window over the steady part), SMPTE in dB re the 7 kHz tone,
    /// CCIF in dB re the sum of its two tones.
    public var smpteSpectrum: [SpectrumLine] = []
    public var ccifSpectrum: [SpectrumLine] = []
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
