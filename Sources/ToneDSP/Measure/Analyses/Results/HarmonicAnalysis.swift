/// What one exponential sweep says beyond the magnitude response: the
/// harmonic distortion by order, THD, and the linear response's phase and
/// group delay (`HarmonicAnalyzer`).
public struct HarmonicAnalysis: Sendable {
    /// Harmonic k at one fundamental frequency.
    public struct HarmonicPoint: Sendable, Equatable {
        /// Frequency of the fundamental played (the harmonic is at `order ×` this).
        public var frequencyHz: Double
        /// Level of the harmonic against the fundamental that came back, in dB.
        public var levelDB: Double
        /// Phase of the harmonic against the fundamental's (`φₖ − k·φ₁`), in
        /// degrees (−180…180]: a sine in comes back as `sin(kωt + φ)`. Independent of the chain's delay.
        public var phaseDegrees: Double
    }

    /// One harmonic order's curve.
    public struct Order: Sendable {
        public var order: Int
        public var points: [HarmonicPoint]
    }

    /// THD at one fundamental frequency: `√(Σ|Hₖ|²)/|H₁|` over the orders measured there.
    public struct DistortionPoint: Sendable, Equatable {
        public var frequencyHz: Double
        public var thdDB: Double
        public var thdPercent: Double { 100 * pow10(thdDB / 20) }
        /// Highest order included (orders whose harmonic lies above the sweep are left out).
        public var highestOrder: Int
    }

    /// The linear response at one frequency.
    public struct LinearPoint: Sendable, Equatable {
        public var frequencyHz: Double
        public var gainDB: Double
        /// Phase with the measured latency removed (a pure delay reads 0°), degrees (−180…180].
        public var phaseDegrees: Double
        /// Group delay of the whole chain, latency included, in ms.
        public var groupDelayMs: Double
    }

    public var sampleRateHz: Double
    /// Sweep level (peak) the distortion was measured at.
    public var levelDBFS: Double
    /// H2 … H5, each over the fundamentals whose harmonic lies inside the sweep.
    public var orders: [Order]
    public var thd: [DistortionPoint]
    /// 1/12-octave points over the sweep.
    public var linear: [LinearPoint]
    /// The linear impulse response (a wire gives the band-limited pulse with
    /// peak 1), from `impulseStartFrame` frames relative to the latency's whole frames.
    public var impulseResponse: [Double]
    public var impulseStartFrame: Int

    /// The point of order `order` nearest `frequencyHz` (log distance).
    public func harmonic(_ order: Int, at frequencyHz: Double) -> HarmonicPoint? {
        orders.first { $0.order == order }?.points.min {
            abs(log2($0.frequencyHz / frequencyHz)) < abs(log2($1.frequencyHz / frequencyHz))
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
