#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signal `tonenode link` sends through a bridge: one period of a
/// random-phase multisine, repeated for as long as the link is measured.
///
/// Every bin of the period's spectrum from `lowHz` to `highFraction` of
/// Nyquist has the same magnitude and a seeded random phase; the rest is
/// zero. So any `periodFrames` consecutive frames of what comes back hold the
/// whole spectrum once (circular correlation needs no alignment), the
/// transfer function is `received / sent` bin by bin, and its phase slope is
/// the delay to a small fraction of a frame. The band stops short of Nyquist
/// because a bridge's resampler (zita-n2j, JackTrip) cuts there.
///
/// The delay is known only modulo the period: `periodFrames` is the smallest
/// power of two of at least a quarter second (16384 frames at 48 kHz), so
/// delays up to that long are unambiguous (`maximumLatencySeconds`); each
/// period is one reading, about three a second.
///
/// Immutable after init; any thread.
public struct LinkProbe: Sendable {
    public let sampleRateHz: Double
    public let periodFrames: Int
    public let levelDBFS: Double
    /// One period, peak at `levelDBFS`.
    public let samples: [Float]
    /// Mean power of `samples` (a sample's square, averaged over the period).
    public let meanPower: Double
    /// The period's spectrum (bins 0…periodFrames/2) of `samples`, as played.
    public let spectrum: [Complex]
    /// The bins that carry the probe.
    public let band: ClosedRange<Int>

    public static let lowHz = 40.0
    public static let highFraction = 0.8
    /// The probe's peak level unless told otherwise (`link --level`).
    public static let defaultLevelDBFS = -12.0

    /// - Parameters:
    ///   - seed: the phases' seed (fixed, so a run and its analysis agree).
    public init(sampleRateHz: Double, levelDBFS: Double = defaultLevelDBFS, seed: UInt64 = 0x6C69_6E6B) {
        self.sampleRateHz = sampleRateHz
        self.levelDBFS = levelDBFS
        let period = Self.periodFrames(sampleRateHz: sampleRateHz)
        periodFrames = period
        let binHz = sampleRateHz / Double(period)
        let low = max(1, Int((Self.lowHz / binHz).rounded(.up)))
        let high = max(low + 1, Int(Self.highFraction * Double(period / 2)))
        band = low...high
        var state = seed
        var bins = [Complex](repeating: Complex(0, 0), count: period / 2 + 1)
        for k in band {
            let phase = 2 * Double.pi * Self.nextUnit(&state)
            bins[k] = Complex(cos(phase), sin(phase))
        }
        let fft = DoubleFFT(size: period)!   // safe: a power of two
        let raw = fft.signal(from: bins)
        let peak = raw.reduce(0) { max($0, abs($1)) }
        let scale = Decibels.amplitude(dbfs: levelDBFS) / max(peak, 1e-30)
        samples = raw.map { Float($0 * scale) }
        meanPower = Double(samples.reduce(0) { $0 + $1 * $1 }) / Double(period)
        // The spectrum of what is actually played (Float rounding included).
        spectrum = samples.map(Double.init).withUnsafeBufferPointer { fft.spectrum(of: $0) }
    }

    /// The smallest power of two of at least a quarter second (at least 4096).
    public static func periodFrames(sampleRateHz: Double) -> Int {
        var frames = 4096
        while Double(frames) < 0.25 * sampleRateHz { frames *= 2 }
        return frames
    }

    /// Longest delay the probe measures without ambiguity.
    public var maximumLatencySeconds: Double { Double(periodFrames) / sampleRateHz }

    /// SplitMix64, to a uniform number in [0, 1).
    static func nextUnit(_ state: inout UInt64) -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
