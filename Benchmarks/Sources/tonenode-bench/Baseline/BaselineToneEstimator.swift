// The estimator as it was at commit cb90cd7 (before the speed work of issue 3),
// kept so the benchmark can show old against new in one run. Not used elsewhere.
import ToneDSP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the most prominent tone in a window, or decides there is none.
///
/// 1. Hann-windowed FFT (FFTW) of the mean-removed frame. Every local maximum
///    inside the band is measured against its own local noise floor (median
///    of the neighbouring bins, main lobe excluded); the one that stands
///    highest above its floor is the candidate. Taking the loudest peak
///    instead would let a random bump of pink noise near DC hide a clear tone
///    higher up.
/// 2. No-tone test: the candidate must stand `prominenceMinDB` above that
///    floor, which white, pink or no signal does not do, however loud. Near
///    DC, where there are no bins below a peak, the floor is extrapolated from
///    the bins above it along their slope, because noise that rises towards DC
///    (pink noise, rumble) would otherwise look like a tone there.
/// 3. A log-parabola through the peak bins gives a start within a few
///    hundredths of a bin; `BaselineSinusoidFit` refines frequency, amplitude and
///    offset by least squares on the raw samples (sub-millihertz, exact level).
/// 4. The fitted tone must carry at least `snrMinDB` of the window's power.
///
/// Worker only: owns its FFT plan and scratch buffers.
final class BaselineToneEstimator {
    let configuration: ToneEstimatorConfiguration
    private let fft: RealFFT
    private let window: [Float]
    private let samples: UnsafeMutablePointer<Double>
    private let power: UnsafeMutablePointer<Double>
    private var neighbours: [Double] = []
    private var floorBelow: BaselineSlidingMedian
    private var floorAbove: BaselineSlidingMedian
    private let lowBin: Int
    private let highBin: Int
    private let prominenceMinRatio: Double
    private let snrMinRatio: Double

    /// Half-width of the neighbourhood used for the noise floor, in bins.
    static let floorHalfWidthBins = 32
    /// Bins on each side of the peak left out of the floor (Hann main lobe and a margin).
    static let mainLobeBins = 4
    /// A side of the neighbourhood needs this many bins for its median to count.
    static let floorMinimumBins = 4
    /// Bands above a peak near DC whose medians give the slope of the floor:
    /// 128 bins in all, local enough to follow rumble, wide enough that the
    /// slope is not a guess (4 × 16 bins let pink noise through 10× as often).
    static let slopeBands = 4
    static let slopeBandBins = 32
    /// Log-log slope of brown noise; no noise floor is assumed to rise faster towards DC.
    static let steepestNoiseSlope = -2.0

    enum SetupError: Error, CustomStringConvertible {
        case invalid(String)
        case fftUnavailable(Int)
        public var description: String {
            switch self {
            case .invalid(let problem): problem
            case .fftUnavailable(let size): "FFTW could not plan a transform of \(size) samples"
            }
        }
    }

    init(_ configuration: ToneEstimatorConfiguration, planning: FFTPlanning = .measure) throws {
        if let problem = configuration.problem { throw SetupError.invalid(problem) }
        let n = configuration.fftSize
        guard let fft = RealFFT(size: n, planning: planning) else { throw SetupError.fftUnavailable(n) }
        self.configuration = configuration
        self.fft = fft
        window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
        samples = .allocate(capacity: n)
        power = .allocate(capacity: n / 2 + 1)
        let binHz = configuration.sampleRateHz / Double(n)
        lowBin = max(1, Int((configuration.lowHz / binHz).rounded(.up)))
        highBin = min(n / 2 - 1, Int((configuration.highHz / binHz).rounded(.down)))
        let searched = Double(max(1, highBin - lowBin + 1))
        // The peak of M exponential bins exceeds T·mean with probability ≈ M·e^(−T).
        let defaultProminenceDB = 10 * log10(log(searched / 1e-4)) + 3
        prominenceMinRatio = pow(10, (configuration.prominenceMinDB ?? defaultProminenceDB) / 10)
        snrMinRatio = pow(10, configuration.snrMinDB / 10)
        neighbours.reserveCapacity(2 * Self.floorHalfWidthBins + 1)
        let sideBins = Self.floorHalfWidthBins - Self.mainLobeBins
        floorBelow = BaselineSlidingMedian(capacity: sideBins)
        floorAbove = BaselineSlidingMedian(capacity: sideBins)
    }

    deinit {
        samples.deallocate()
        power.deallocate()
    }

    /// Analyses one window of exactly `fftSize` samples.
    func estimate(_ frame: UnsafeBufferPointer<Float>) -> ToneReading {
        let n = configuration.fftSize
        precondition(frame.count == n, "estimate needs exactly fftSize samples")
        var sum = 0.0, sumSquares = 0.0
        for index in 0..<n {
            let v = Double(frame[index])
            guard v.isFinite else { return .invalid }
            samples[index] = v
            sum += v
            sumSquares += v * v
        }
        let mean = sum / Double(n)
        let meanSquare = sumSquares / Double(n)
        guard meanSquare > 1e-30 else { return ToneReading() }
        // Sine-referenced RMS: a full-scale sine reads 0 dBFS.
        let rmsDBFS = 10 * log10(2 * meanSquare)
        var noTone = ToneReading(rmsDBFS: rmsDBFS)

        for index in 0..<n { fft.input[index] = Float(samples[index] - mean) * window[index] }
        fft.powerSpectrum(into: power)

        guard let (peak, prominence) = mostProminentPeak(), prominence >= prominenceMinRatio else { return noTone }

        let offset = parabolicOffset(at: peak)
        let binRadians = 2 * Double.pi / Double(n)
        let omegaStart = (Double(peak) + offset) * binRadians
        guard let fit = BaselineSinusoidFit.refine(UnsafeBufferPointer(start: samples, count: n),
                                           omegaStart: omegaStart, maxStepRadians: 1.5 * binRadians)
        else { return noTone }

        let frequencyHz = fit.omega / (2 * Double.pi) * configuration.sampleRateHz
        guard frequencyHz >= configuration.lowHz, frequencyHz <= configuration.highHz else { return noTone }
        let amplitude = fit.amplitude
        let tonePower = amplitude * amplitude / 2
        let snrRatio = fit.residualPower > 0 ? tonePower / fit.residualPower : .infinity
        guard snrRatio >= snrMinRatio else {
            noTone.snrDB = nil
            return noTone
        }
        noTone.frequencyHz = frequencyHz
        noTone.levelDBFS = 20 * log10(amplitude)
        noTone.snrDB = min(300, 10 * log10(snrRatio))
        return noTone
    }

    // MARK: - Spectrum helpers

    /// The local maximum inside the band that stands highest above its own
    /// noise floor, and by how much (a power ratio); nil when the band holds
    /// no local maximum or the spectrum is not finite.
    private func mostProminentPeak() -> (bin: Int, prominence: Double)? {
        let lastBin = configuration.fftSize / 2 - 1
        // The sliding medians compare values: a non-finite bin (float overflow
        // of an absurdly loud input) would break their order.
        for k in 0...(configuration.fftSize / 2) where !power[k].isFinite { return nil }
        floorBelow.reset()
        floorAbove.reset()
        var best: (bin: Int, prominence: Double)?
        for k in lowBin...highBin {
            // Both windows only move up with k, so each step is one bin out and one in.
            floorBelow.slide(to: max(1, k - Self.floorHalfWidthBins), k - Self.mainLobeBins - 1, of: power)
            floorAbove.slide(to: k + Self.mainLobeBins + 1, min(lastBin, k + Self.floorHalfWidthBins), of: power)
            guard power[k] > 0, power[k] >= power[k - 1], power[k] >= power[k + 1] else { continue }
            let below = floorBelow.median(minimumCount: Self.floorMinimumBins)
            let above = floorAbove.median(minimumCount: Self.floorMinimumBins)
            let floor = noiseFloor(at: k, below: below, above: above)
            let prominence = floor > 0 ? power[k] / floor : .infinity
            if let current = best,
               prominence < current.prominence || (prominence == current.prominence && power[k] <= power[current.bin]) {
                continue
            }
            best = (k, prominence)
        }
        return best
    }

    /// Mean noise power per bin at `peak`, from the medians of the bins below
    /// and above it (main lobe excluded), scaled by 1/ln 2 (median → mean of
    /// an exponential). Where the two sides differ (coloured noise), the
    /// louder side is taken so a slope is not mistaken for a tone. Where there
    /// is no side below (a peak within a few bins of DC), the floor is also
    /// extrapolated down from above, for the same reason.
    private func noiseFloor(at peak: Int, below: Double?, above: Double?) -> Double {
        var floor = max(below ?? 0, above ?? 0)
        if below == nil, let trend = extrapolatedFloor(at: peak) { floor = max(floor, trend) }
        return floor / log(2.0)
    }

    /// The noise floor at a peak near DC, extrapolated from above.
    ///
    /// Noise that rises towards DC (pink noise, rumble, wind) follows a power
    /// law there, so the medians of `slopeBands` bands above the main lobe are
    /// fitted with a line in log power against log bin (slope between 0 and
    /// that of brown noise) and the line is read at the peak. For white noise
    /// the line is flat and changes little; for pink noise it restores the
    /// 5–10 dB the bins above understate.
    /// - Returns: a median-scale power (like the side medians), or nil when
    ///   the spectrum is too short or a band median is zero.
    private func extrapolatedFloor(at peak: Int) -> Double? {
        let first = peak + Self.mainLobeBins + 1
        let width = min(Self.slopeBandBins, (configuration.fftSize / 2 - first) / Self.slopeBands)
        guard width >= Self.floorMinimumBins else { return nil }
        var sumX = 0.0, sumY = 0.0, sumXX = 0.0, sumXY = 0.0
        for band in 0..<Self.slopeBands {
            let start = first + band * width
            guard let level = median(from: start, to: start + width - 1), level > 0 else { return nil }
            let x = log(Double(start) + Double(width - 1) / 2), y = log(level)
            sumX += x; sumY += y; sumXX += x * x; sumXY += x * y
        }
        let count = Double(Self.slopeBands)
        // Noise near DC is rarely steeper than brown (1/f²); a steeper slope
        // is the skirt of a strong tone's own window sidelobes (1/f⁶), which
        // must not be mistaken for noise that would hide that tone.
        let fitted = (count * sumXY - sumX * sumY) / (count * sumXX - sumX * sumX)
        let slope = min(0, max(Self.steepestNoiseSlope, fitted))
        return exp((sumY + slope * (count * log(Double(peak)) - sumX)) / count)
    }

    /// Median power of bins `first…last`; nil when fewer than 4 bins.
    private func median(from first: Int, to last: Int) -> Double? {
        guard last - first + 1 >= 4 else { return nil }
        neighbours.removeAll(keepingCapacity: true)
        for k in first...last { neighbours.append(power[k]) }
        neighbours.sort()
        return neighbours[neighbours.count / 2]
    }

    /// Vertex of the parabola through the log power of the peak and its neighbours, in bins.
    private func parabolicOffset(at peak: Int) -> Double {
        let tiny = 1e-300
        let left = log(power[peak - 1] + tiny), centre = log(power[peak] + tiny), right = log(power[peak + 1] + tiny)
        let denominator = left - 2 * centre + right
        guard denominator < 0 else { return 0 }
        return max(-0.5, min(0.5, 0.5 * (left - right) / denominator))
    }
}
