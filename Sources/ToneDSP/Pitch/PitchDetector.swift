#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the fundamental of one window, or decides there is none.
///
/// 1. McLeod's normalized square difference function (NSDF), computed through
///    FFTW (`NormalizedSquareDifference`) on the frame averaged 4:1 or 2:1
///    when the pitch range allows (`nsdfDecimation`). Its key maxima (the
///    highest point of each positive lobe) are the period candidates,
///    measured at the full rate where they could be chosen (`findPeriod`);
///    the first one that reaches `keyMaximumFraction` of the highest is the period. Taking the
///    first rather than the highest avoids octave-low errors; the fraction
///    keeps a strong second partial (plucked strings) from making it an
///    octave high. A periodic signal whose fundamental is missing still
///    repeats at the fundamental's period, so that is what is found.
/// 2. No-pitch gate: the NSDF value at that period (the clarity) must reach
///    `clarityMin`. White or pink noise and silence do not.
/// 3. `HarmonicRefiner` maximises the harmonic sum of the windowed frame
///    around that period with three Newton steps on the samples, which
///    removes the bias of interpolating the NSDF (a decaying pluck tilts
///    it), counting only the harmonics that stand out of the noise, and
///    reads the first partial's own frequency when it is strong (a tuner's
///    convention: a stiff string's partials are stretched). A fundamental
///    alone in noise gets tone mode's least-squares sine fit (`fittedIfLone`).
/// 4. A clear pitch is tracked: the next window's step starts from it and 1–2
///    are skipped while it stays clear (see `estimate`).
///
/// Worker only: owns its FFT plans and buffers.
public final class PitchDetector {
    public let configuration: PitchDetectorConfiguration
    let nsdf: NormalizedSquareDifference
    private let refiner: HarmonicRefiner
    /// The window, mean removed, at unit peak, in single precision: what the
    /// NSDF, its lags measured at the full rate and the refiner read.
    let singles: UnsafeMutablePointer<Float>
    /// The window in double precision, for a lone fundamental's sine fit (`fittedIfLone`).
    let doubles: UnsafeMutablePointer<Double>
    /// Periods searched, in full-rate samples.
    let lags: ClosedRange<Int>
    /// Lags of the NSDF's key maxima (reused between windows; a pointer, so
    /// the per-window walk has no array uniqueness check or retain).
    let keyLags: UnsafeMutablePointer<Int>
    /// Room in `keyLags`: a key maximum per positive lobe, each a distinct lag in the range searched.
    let keyLagCapacity: Int
    /// The last window's pitch (radians per sample) while it is clear: the
    /// next window's refinement starts there (see `estimate`).
    private var trackedOmega: Double?
    /// Windows read from the last window's pitch, without the NSDF's search (tests read it).
    public private(set) var trackedWindows = 0

    public convenience init(_ configuration: PitchDetectorConfiguration, planning: FFTPlanning = .measure) throws {
        try self.init(configuration, planning: planning, nsdfDecimation: configuration.nsdfDecimation)
    }

    /// With the NSDF's decimation chosen (1, 2 or 4; tests compare them).
    init(_ configuration: PitchDetectorConfiguration, planning: FFTPlanning, nsdfDecimation: Int) throws {
        if let problem = configuration.problem { throw ToneEstimator.SetupError.invalid(problem) }
        guard let lags = configuration.lagRange else { throw ToneEstimator.SetupError.invalid("empty lag range") }
        guard let nsdf = NormalizedSquareDifference(frameSize: configuration.frameSize, maxLag: lags.upperBound + 1,
                                                    decimation: nsdfDecimation, planning: planning) else {
            throw ToneEstimator.SetupError.fftUnavailable(2 * configuration.frameSize)
        }
        self.configuration = configuration
        self.nsdf = nsdf
        self.lags = lags
        refiner = HarmonicRefiner(frameSize: configuration.frameSize, maxHarmonics: configuration.maxHarmonics)
        singles = .allocate(capacity: configuration.frameSize)
        singles.initialize(repeating: 0, count: configuration.frameSize)
        doubles = .allocate(capacity: configuration.frameSize)
        doubles.initialize(repeating: 0, count: configuration.frameSize)
        keyLagCapacity = lags.upperBound + 2
        keyLags = .allocate(capacity: keyLagCapacity)
    }

    deinit {
        singles.deallocate()
        doubles.deallocate()
        keyLags.deallocate()
    }

    /// Analyses one window (`frameSize` samples, oldest first).
    public func estimate(_ frame: UnsafeBufferPointer<Float>) -> ToneReading {
        let w = configuration.frameSize
        precondition(frame.count == w, "frame must hold frameSize samples")   // a multiple of 8: a power of two ≥ 256
        // Whatever this window reads, only a clear pitch is tracked on from it.
        let tracked = trackedOmega
        trackedOmega = nil
        guard let base = frame.baseAddress else { return .invalid }
        // One pass for the sum and the extremes, eight samples a step in two
        // sets of four lanes (one set waits on the adds' latency). A NaN or
        // ±Inf anywhere makes the (double-precision, so never overflowing) sum non-finite.
        var sums = SIMD4<Double>(), sums4 = SIMD4<Double>(), lows = SIMD4<Float>(repeating: .infinity), highs = -lows
        var n = 0
        while n + 8 <= w {
            let v = UnsafeRawPointer(base + n).loadUnaligned(as: SIMD4<Float>.self)
            let v4 = UnsafeRawPointer(base + n + 4).loadUnaligned(as: SIMD4<Float>.self)
            sums += SIMD4<Double>(v)
            sums4 += SIMD4<Double>(v4)
            // Masked replaces, not pointwiseMin/Max: those compile to a
            // compare and branch per lane here (NaN rules), four times slower.
            lows.replace(with: v, where: v .< lows)
            highs.replace(with: v, where: v .> highs)
            lows.replace(with: v4, where: v4 .< lows)
            highs.replace(with: v4, where: v4 .> highs)
            n += 8
        }
        let sum = (sums + sums4).sum()
        guard sum.isFinite else { return .invalid }
        let mean = sum / Double(w)
        // Digital silence or a constant.
        let peak = max(Double(highs.max()) - mean, mean - Double(lows.min()))
        guard peak > 0 else { return ToneReading() }
        // Analysed at unit peak: the NSDF's single-precision sums neither
        // overflow on huge samples nor lose tiny ones; levels are scaled back.
        let scale = 1 / peak
        var energies = SIMD4<Double>(), energies4 = SIMD4<Double>()
        n = 0
        // Near a zero mean (any audio), in single precision: x·s − μ·s
        // cannot overflow there (|x·s| ≤ |μ|·s + 1), and its two roundings
        // move a sample by about one unit in the last place at most. A huge
        // offset under a small signal keeps the double-precision pass below.
        if abs(mean) * scale < 1e6 {
            let s = SIMD4<Float>(repeating: Float(scale)), offset = SIMD4<Float>(repeating: Float(mean * scale))
            while n < w {
                let end = min(w, n + 256)
                var squares = SIMD4<Float>(), squares4 = SIMD4<Float>()
                while n + 8 <= end {
                    let v = UnsafeRawPointer(base + n).loadUnaligned(as: SIMD4<Float>.self) * s - offset
                    let v4 = UnsafeRawPointer(base + n + 4).loadUnaligned(as: SIMD4<Float>.self) * s - offset
                    UnsafeMutableRawPointer(singles + n).storeBytes(of: v, as: SIMD4<Float>.self)
                    UnsafeMutableRawPointer(singles + n + 4).storeBytes(of: v4, as: SIMD4<Float>.self)
                    squares += v * v
                    squares4 += v4 * v4
                    n += 8
                }
                energies += SIMD4<Double>(squares)
                energies4 += SIMD4<Double>(squares4)
            }
        }
        while n + 8 <= w {
            let v = (SIMD4<Double>(UnsafeRawPointer(base + n).loadUnaligned(as: SIMD4<Float>.self)) - mean) * scale
            let v4 = (SIMD4<Double>(UnsafeRawPointer(base + n + 4).loadUnaligned(as: SIMD4<Float>.self)) - mean) * scale
            UnsafeMutableRawPointer(singles + n).storeBytes(of: SIMD4<Float>(v), as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(singles + n + 4).storeBytes(of: SIMD4<Float>(v4), as: SIMD4<Float>.self)
            energies += v * v
            energies4 += v4 * v4
            n += 8
        }
        let energy = (energies + energies4).sum()
        let meanPower = energy / Double(w)
        let levelOffsetDB = 20 * log10(peak)
        // Sine-referenced RMS (AES17): a full-scale sine reads 0 dBFS.
        let rmsDBFS = 10 * log10(2 * meanPower) + levelOffsetDB
        let rms: Double? = rmsDBFS.isFinite ? rmsDBFS : nil
        let topOmega = min(0.95 * Double.pi, 2 * Double.pi * configuration.refinementTopHz / configuration.sampleRateHz)
        // A clear pitch in the last window (a steady tone, a held note): the
        // refinement starts from it, without the NSDF's search (about 40 %
        // of a window's work). It stands only if it is as clear here (SNR,
        // the fundamental's share) and moved less than `trackingStepMaxBins`:
        // a new note, an octave up or down, or noise fails one of those and
        // the window is searched from scratch. What it reads is what the
        // search reads but for where the Newton steps start (within
        // 1.5e-5 cent and 3.5e-6 dB on PitchTrackingTests' clean tones).
        if let tracked {
            let refined = fittedIfLone(refiner.refine(singles, omega: tracked, harmonicLimit: topOmega, iterations: 3))
            let binRadians = 2 * Double.pi / Double(w)
            if abs(refined.omega - tracked) <= configuration.trackingStepMaxBins * binRadians,
               lags.contains(Int((2 * Double.pi / refined.omega).rounded())),
               let reading = clearReading(refined, levelOffsetDB: levelOffsetDB, rmsDBFS: rms) {
                trackedOmega = refined.omega
                trackedWindows += 1
                return reading
            }
        }
        guard let period = findPeriod(energy: energy) else { return ToneReading(rmsDBFS: rms) }
        let start = 2 * Double.pi / period.lag
        let refined = fittedIfLone(refiner.refine(singles, omega: start, harmonicLimit: topOmega, iterations: 3))
        // A refinement that wandered off (noise) keeps the NSDF's period.
        guard abs(refined.omega / start - 1) < 0.03 else {
            return reading(omega: start, refined, levelOffsetDB: levelOffsetDB, rmsDBFS: rms)
        }
        if let clear = clearReading(refined, levelOffsetDB: levelOffsetDB, rmsDBFS: rms) {
            trackedOmega = refined.omega
            return clear
        }
        return reading(omega: refined.omega, refined, levelOffsetDB: levelOffsetDB, rmsDBFS: rms)
    }

    /// The reading at `refined.omega` if its pitch is clear enough to track
    /// (and tracking is on), else nil.
    private func clearReading(_ refined: HarmonicRefiner.Result, levelOffsetDB: Double, rmsDBFS: Double?) -> ToneReading? {
        guard configuration.tracksClearPitch,
              refined.fundamentalShare >= configuration.trackingFundamentalShareMin else { return nil }
        let reading = reading(omega: refined.omega, refined, levelOffsetDB: levelOffsetDB, rmsDBFS: rmsDBFS)
        guard reading.frequencyHz != nil, let snrDB = reading.snrDB, snrDB >= configuration.trackingSNRMinDB else { return nil }
        return reading
    }

    /// The reading of a fundamental at `omega` radians per sample, its level
    /// and SNR from the refinement's powers.
    private func reading(omega: Double, _ refined: HarmonicRefiner.Result, levelOffsetDB: Double,
                         rmsDBFS: Double?) -> ToneReading {
        let frequencyHz = omega * configuration.sampleRateHz / (2 * Double.pi)
        guard frequencyHz.isFinite, frequencyHz > 0 else { return ToneReading(rmsDBFS: rmsDBFS) }
        // The rest is measured under the refiner's window too (see `windowedPower`).
        let harmonicPower = min(refined.harmonicPower, refined.windowedPower * 0.999_999)
        let snrDB = 10 * log10(harmonicPower / (refined.windowedPower - harmonicPower))
        let levelDBFS = 10 * log10(2 * harmonicPower) + levelOffsetDB
        return ToneReading(frequencyHz: frequencyHz, levelDBFS: levelDBFS.isFinite ? levelDBFS : nil,
                           snrDB: snrDB.isFinite ? snrDB : nil, rmsDBFS: rmsDBFS)
    }

    /// `refined` with its fundamental from a least-squares sine fit on the
    /// window's samples (`SinusoidFit`, tone mode's, at the Cramér–Rao
    /// bound) when it is lone (every other harmonic under the noise: a sine
    /// in noise). The refiner's Blackman–Harris reads about 1.8 times the
    /// bound's deviation there (440 Hz at 20 dB SNR: 0.0158 Hz rms against
    /// tone mode's 0.0088). A fit that does not converge within half a bin
    /// keeps the refiner's.
    private func fittedIfLone(_ refined: HarmonicRefiner.Result) -> HarmonicRefiner.Result {
        guard refined.isLone else { return refined }
        let w = configuration.frameSize
        for n in 0..<w { doubles[n] = Double(singles[n]) }
        let binRadians = 2 * Double.pi / Double(w)
        guard let fit = SinusoidFit.refine(UnsafeBufferPointer(start: doubles, count: w), omegaStart: refined.omega,
                                           maxStepRadians: 0.5 * binRadians) else { return refined }
        var result = refined
        result.omega = fit.omega
        return result
    }
}
