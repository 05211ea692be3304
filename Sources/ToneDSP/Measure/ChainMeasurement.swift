/// What `measure` found out about a chain (`out` → tools under test → `in`).
public struct ChainMeasurement: Sendable {
    /// One point of the frequency response.
    public struct ResponsePoint: Sendable, Equatable {
        public var frequencyHz: Double
        public var gainDB: Double
        public init(frequencyHz: Double, gainDB: Double) {
            self.frequencyHz = frequencyHz
            self.gainDB = gainDB
        }
    }

    public var sampleRateHz: Double
    /// Round trip from our `out` to our `in`, in frames, with sub-sample precision.
    public var latencyFrames: Double
    public var latencyMs: Double { latencyFrames / sampleRateHz * 1000 }
    /// Level of the test tone that came back against the level played.
    public var gainDB: Double
    public var toneFrequencyHz: Double
    /// Frequency of the tone that came back.
    public var measuredFrequencyHz: Double
    public var frequencyShiftHz: Double { measuredFrequencyHz - toneFrequencyHz }
    /// Everything in the returned tone segment that is not the fitted sine
    /// (harmonics, noise, hum; DC removed), against the sine, in dB.
    public var thdPlusNoiseDB: Double
    public var thdPlusNoisePercent: Double { 100 * pow10(thdPlusNoiseDB / 20) }
    /// 256-frame blocks of the returned tone with a sudden burst of residual
    /// (a dropout, a lost period, a click); 0 for a steady chain.
    public var toneGlitches: Int
    /// Magnitude response from the sweep, 1/24-octave points from `sweepStartHz` to `sweepEndHz`.
    public var response: [ResponsePoint]
    public var sweepStartHz: Double
    public var sweepEndHz: Double

    public init(sampleRateHz: Double, latencyFrames: Double, gainDB: Double, toneFrequencyHz: Double,
                measuredFrequencyHz: Double, thdPlusNoiseDB: Double, toneGlitches: Int = 0,
                response: [ResponsePoint], sweepStartHz: Double, sweepEndHz: Double) {
        self.sampleRateHz = sampleRateHz
        self.latencyFrames = latencyFrames
        self.gainDB = gainDB
        self.toneFrequencyHz = toneFrequencyHz
        self.measuredFrequencyHz = measuredFrequencyHz
        self.thdPlusNoiseDB = thdPlusNoiseDB
        self.toneGlitches = toneGlitches
        self.response = response
        self.sweepStartHz = sweepStartHz
        self.sweepEndHz = sweepEndHz
    }

    /// The response at the point nearest `frequencyHz` (log distance).
    public func responseDB(at frequencyHz: Double) -> Double? {
        response.min { abs(log2($0.frequencyHz / frequencyHz)) < abs(log2($1.frequencyHz / frequencyHz)) }?.gainDB
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
