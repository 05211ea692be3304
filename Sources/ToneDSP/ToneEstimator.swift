#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the strongest tone in a window, or decides there is none.
///
/// 1. Hann-windowed FFT (FFTW) of the mean-removed frame; the loudest local
///    maximum inside the band is the candidate.
/// 2. No-tone test: the candidate must stand `prominenceMinDB` above the local
///    noise floor (median of the neighbouring bins, main lobe excluded), which
///    white, pink or no signal does not do, however loud.
/// 3. A log-parabola through the peak bins gives a start within a few
///    hundredths of a bin; `SinusoidFit` refines frequency, amplitude and
///    offset by least squares on the raw samples (sub-millihertz, exact level).
/// 4. The fitted tone must carry at least `snrMinDB` of the window's power.
///
/// Worker only: owns its FFT plan and scratch buffers.
public final class ToneEstimator {
    public let configuration: ToneEstimatorConfiguration
    private let fft: RealFFT
    private let window: [Float]
    private let samples: UnsafeMutablePointer<Double>
    private let power: UnsafeMutablePointer<Double>
    private var neighbours: [Double] = []
    private let lowBin: Int
    private let highBin: Int
    private let prominenceMinRatio: Double
    private let snrMinRatio: Double

    /// Half-width of the neighbourhood used for the noise floor, in bins.
    static let floorHalfWidthBins = 32
    /// Bins on each side of the peak left out of the floor (Hann main lobe and a margin).
    static let mainLobeBins = 4

    public enum SetupError: Error, CustomStringConvertible {
        case invalid(String)
        case fftUnavailable(Int)
        public var description: String {
            switch self {
            case .invalid(let problem): problem
            case .fftUnavailable(let size): "FFTW could not plan a transform of \(size) samples"
            }
        }
    }

    public init(_ configuration: ToneEstimatorConfiguration, planning: FFTPlanning = .measure) throws {
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
    }

    deinit {
        samples.deallocate()
        power.deallocate()
    }

    /// Analyses one window of exactly `fftSize` samples.
    public func estimate(_ frame: UnsafeBufferPointer<Float>) -> ToneReading {
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

        guard let peak = strongestPeak() else { return noTone }
        let floor = noiseFloor(around: peak)
        guard power[peak] > 0, power[peak] >= prominenceMinRatio * floor else { return noTone }

        let offset = parabolicOffset(at: peak)
        let binRadians = 2 * Double.pi / Double(n)
        let omegaStart = (Double(peak) + offset) * binRadians
        guard let fit = SinusoidFit.refine(UnsafeBufferPointer(start: samples, count: n),
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

    /// The loudest local maximum inside the band.
    private func strongestPeak() -> Int? {
        var best: Int?
        var bestPower = 0.0
        for k in lowBin...highBin where power[k] > bestPower && power[k] >= power[k - 1] && power[k] >= power[k + 1] {
            best = k
            bestPower = power[k]
        }
        return best
    }

    /// Mean noise power per bin near `peak`: the median of the neighbours
    /// outside the main lobe, scaled by 1/ln 2 (median → mean of an
    /// exponential). Where the two sides differ (coloured noise), the louder
    /// side is taken so a slope is not mistaken for a tone.
    private func noiseFloor(around peak: Int) -> Double {
        let lastBin = configuration.fftSize / 2 - 1
        let below = median(from: max(1, peak - Self.floorHalfWidthBins), to: peak - Self.mainLobeBins - 1)
        let above = median(from: peak + Self.mainLobeBins + 1, to: min(lastBin, peak + Self.floorHalfWidthBins))
        return max(below ?? 0, above ?? 0) / log(2.0)
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
