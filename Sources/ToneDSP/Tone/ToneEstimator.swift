#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the strongest tone in a window (or the K strongest), or decides there is none.
///
/// 1. Hann-windowed FFT (FFTW) of the mean-removed frame. Every local maximum
///    inside the band is measured against its own local noise floor (median
///    of the neighbouring bins, main lobe excluded; see `findPeakCandidates`).
/// 2. No-tone test: a peak must stand `prominenceMinDB` above that floor,
///    which white, pink or no signal does not do, however loud. Near DC,
///    where there are no bins below a peak, the floor is extrapolated from
///    the bins above it along their slope, because noise that rises towards
///    DC (pink noise, rumble) would otherwise look like a tone there.
/// 3. Of the peaks that pass, the strongest tone is taken: the loudest few
///    are fitted and the largest fitted amplitude wins (not the peak that
///    stands highest above its floor: that let the 3rd harmonic of a clipped
///    sine, on a quieter floor, win over its fundamental). Grandke's Hann
///    interpolation gives a start within about a thousandth of a bin;
///    `SinusoidFit` refines frequency, amplitude and offset by least squares
///    on the raw samples (the Cramér–Rao bound, exact level).
/// 4. The fitted tone must carry at least `snrMinDB` of the window's power.
/// 5. With `maxTones` K > 1, the fitted tones are subtracted, the residual's
///    spectrum goes through the same gate, and its strongest peak joins the
///    others in a joint fit of all of them (`SinusoidMixtureFit`), so a strong
///    tone's leakage does not bias a weak one beside it; until K tones or no
///    peak passes the gates.
///
/// Worker only: owns its FFT plan and scratch buffers.
public final class ToneEstimator {
    public let configuration: ToneEstimatorConfiguration
    private let fft: RealFFT
    /// The Hann window (a pointer, like the buffers: no exclusivity check per sample).
    private let window: UnsafeMutablePointer<Float>
    private let samples: UnsafeMutablePointer<Double>
    private let residual: UnsafeMutablePointer<Double>
    let power: UnsafeMutablePointer<Double>
    let medianScratch: UnsafeMutablePointer<Double>
    /// A lower bound (within 1.5×) of the median power of each block of
    /// `blockBins` bins, from `blockFloor` (a pointer, not an
    /// array: a class's array property pays an exclusivity check per access).
    let blockFloors: UnsafeMutablePointer<Double>
    let blockCount: Int
    /// `blockFloor`'s histogram: `floorBuckets` byte counts, all zero
    /// between calls.
    let floorCounts: UnsafeMutablePointer<UInt8>
    /// Bins of the peaks that may pass the prominence gate and that
    /// `nextGatedPeak` has not measured yet, in bin order.
    var candidatePeaks: [Int] = []
    /// Where `findLocalMaxima` writes them first: `highBin − lowBin + 1`
    /// bins (a pointer: no uniqueness check or growth inside that loop).
    let candidateScratch: UnsafeMutablePointer<Int>
    let lowBin: Int
    let highBin: Int
    let prominenceMinRatio: Double
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
    /// Gated peaks within this power ratio (2 dB, more than the Hann window's
    /// 1.42 dB scalloping) of the loudest are fitted to find the strongest tone.
    static let strongestCandidateRatio = 0.63
    static let strongestCandidatesMax = 4
    /// A further tone closer than this to one already fitted is not a new tone.
    static let toneSeparationBins = 1.0
    /// A further tone more than this far below the strongest is not reported.
    /// Rounding a tone to 32-bit floats leaves real, periodic spectral lines
    /// some 150–170 dB below it (the node's own 440 Hz shows lines at 360 Hz
    /// and 17.96 kHz, 168 dB down, that pass every gate), which nobody asking
    /// for several tones means; 120 dB is also below what 20-bit audio carries.
    static let furtherToneRangeRatio = 1e-6

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
        window = .allocate(capacity: n)
        for index in 0..<n { window[index] = Float(CosineSumWindow.hann.value(index, size: n, sampling: .periodic)) }
        samples = .allocate(capacity: n)
        residual = .allocate(capacity: n)
        power = .allocate(capacity: n / 2 + 1)
        medianScratch = .allocate(capacity: 2 * Self.floorHalfWidthBins)
        blockCount = (n / 2) / Self.blockBins + 1
        blockFloors = .allocate(capacity: blockCount)
        floorCounts = .allocate(capacity: Self.floorBuckets)
        floorCounts.initialize(repeating: 0, count: Self.floorBuckets)
        let binHz = configuration.sampleRateHz / Double(n)
        lowBin = max(1, Int((configuration.lowHz / binHz).rounded(.up)))
        highBin = min(n / 2 - 1, Int((configuration.highHz / binHz).rounded(.down)))
        let searched = Double(max(1, highBin - lowBin + 1))
        // The peak of M exponential bins exceeds T·mean with probability ≈ M·e^(−T).
        let defaultProminenceDB = 10 * log10(log(searched / 1e-4)) + 3
        prominenceMinRatio = pow(10, (configuration.prominenceMinDB ?? defaultProminenceDB) / 10)
        snrMinRatio = pow(10, configuration.snrMinDB / 10)
        candidatePeaks.reserveCapacity(highBin - lowBin + 1)
        candidateScratch = .allocate(capacity: max(1, highBin - lowBin + 1))
    }

    deinit {
        window.deallocate()
        samples.deallocate()
        residual.deallocate()
        power.deallocate()
        medianScratch.deallocate()
        blockFloors.deallocate()
        floorCounts.deallocate()
        candidateScratch.deallocate()
    }

    /// Analyses one window of exactly `fftSize` samples.
    public func estimate(_ frame: UnsafeBufferPointer<Float>) -> ToneReading {
        let n = configuration.fftSize
        precondition(frame.count == n, "estimate needs exactly fftSize samples")   // a power of two ≥ 256
        guard let base = frame.baseAddress else { return .invalid }
        // One pass, four lanes wide: the samples in double precision, their
        // sum and sum of squares. A NaN or ±Inf anywhere makes the sum of
        // squares non-finite (finite floats squared never overflow a double).
        var sums = SIMD4<Double>(), squares = SIMD4<Double>()
        var index = 0
        while index < n {
            let v = SIMD4<Double>(UnsafeRawPointer(base + index).loadUnaligned(as: SIMD4<Float>.self))
            UnsafeMutableRawPointer(samples + index).storeBytes(of: v, as: SIMD4<Double>.self)
            sums += v
            squares += v * v
            index += 4
        }
        let sum = sums.sum(), sumSquares = squares.sum()
        guard sumSquares.isFinite else { return .invalid }
        let mean = sum / Double(n)
        let meanSquare = sumSquares / Double(n)
        guard meanSquare > 1e-30 else { return ToneReading() }
        // Sine-referenced RMS: a full-scale sine reads 0 dBFS.
        let rmsDBFS = 10 * log10(2 * meanSquare)
        var reading = ToneReading(rmsDBFS: rmsDBFS)

        guard let first = strongestTone(mean: mean) else { return reading }

        let amplitude = first.amplitude
        let snrRatio = first.residualPower > 0 ? amplitude * amplitude / 2 / first.residualPower : .infinity
        guard snrRatio >= snrMinRatio else {
            reading.snrDB = nil
            return reading
        }
        let strongest = Self.component(omega: first.omega, amplitude: amplitude, residualPower: first.residualPower,
                                       sampleRateHz: configuration.sampleRateHz)
        reading.frequencyHz = strongest.frequencyHz
        reading.levelDBFS = strongest.levelDBFS
        reading.snrDB = strongest.snrDB
        if configuration.maxTones > 1 {
            let tones = moreTones(after: first)
            // The first tone passed its gate alone; the joint fit only lowers the residual.
            reading.tones = tones.isEmpty ? [strongest] : tones
            if let loudest = reading.tones.first {
                reading.frequencyHz = loudest.frequencyHz
                reading.levelDBFS = loudest.levelDBFS
                reading.snrDB = loudest.snrDB
            }
        }
        return reading
    }

    // MARK: - Tones

    /// The strongest gated tone of `samples` less their `mean`, fitted on `samples`.
    private func strongestTone(mean: Double) -> SinusoidFit? {
        spectrum(of: samples, less: mean)
        guard findPeakCandidates(), let loudest = nextGatedPeak() else { return nil }
        let n = configuration.fftSize
        let binRadians = 2 * Double.pi / Double(n)
        let minimumPower = Self.strongestCandidateRatio * power[loudest]
        var best: SinusoidFit?
        var peak: Int? = loudest, fitted = 0
        while let candidate = peak {
            fitted += 1
            let omegaStart = (Double(candidate) + interpolatedOffset(at: candidate)) * binRadians
            if let fit = SinusoidFit.refine(UnsafeBufferPointer(start: samples, count: n),
                                            omegaStart: omegaStart, maxStepRadians: 1.5 * binRadians),
               inBand(fit.omega), best.map({ fit.amplitude > $0.amplitude }) ?? true {
                best = fit
            }
            peak = fitted < Self.strongestCandidatesMax ? nextGatedPeak(minimumPower: minimumPower) : nil
        }
        return best
    }

    /// Tones 2…K: subtract, search the residual, fit all jointly; strongest first.
    /// Each further tone must pass the prominence gate on the residual and the SNR gate.
    private func moreTones(after first: SinusoidFit) -> [ToneComponent] {
        let n = configuration.fftSize
        let binRadians = 2 * Double.pi / Double(n)
        let frame = UnsafeBufferPointer(start: samples, count: n)
        var fit = SinusoidMixtureFit(
            tones: [.init(omega: first.omega, cosineAmplitude: first.cosineAmplitude, sineAmplitude: first.sineAmplitude)],
            offset: first.offset, residualPower: first.residualPower)
        while fit.tones.count < configuration.maxTones {
            fit.forEachModelSample(count: n) { index, value in residual[index] = samples[index] - value }
            spectrum(of: residual, less: 0)
            guard findPeakCandidates() else { break }
            let known = fit.tones.map { $0.omega / binRadians }
            var next = nextGatedPeak()
            while let peak = next, !known.allSatisfy({ abs($0 - Double(peak)) > Self.toneSeparationBins + 0.5 }) {
                next = nextGatedPeak()
            }
            guard let peak = next else { break }
            let omegaStart = (Double(peak) + interpolatedOffset(at: peak)) * binRadians
            guard let joint = SinusoidMixtureFit.refine(frame, omegaStarts: fit.tones.map(\.omega) + [omegaStart],
                                                        maxStepRadians: 1.5 * binRadians),
                  let added = joint.tones.last, inBand(added.omega),
                  fit.tones.allSatisfy({ abs($0.omega - added.omega) > Self.toneSeparationBins * binRadians }),
                  added.amplitude * added.amplitude / 2 >= snrMinRatio * joint.residualPower,
                  added.amplitude >= Self.furtherToneRangeRatio * (joint.tones.map(\.amplitude).max() ?? 0)
            else { break }
            fit = joint
        }
        return fit.tones
            .filter { $0.amplitude * $0.amplitude / 2 >= snrMinRatio * fit.residualPower }
            .sorted { $0.amplitude > $1.amplitude }
            .map { Self.component(omega: $0.omega, amplitude: $0.amplitude, residualPower: fit.residualPower,
                                  sampleRateHz: configuration.sampleRateHz) }
    }

    private static func component(omega: Double, amplitude: Double, residualPower: Double,
                                  sampleRateHz: Double) -> ToneComponent {
        let snrRatio = residualPower > 0 ? amplitude * amplitude / 2 / residualPower : .infinity
        return ToneComponent(frequencyHz: omega / (2 * Double.pi) * sampleRateHz, levelDBFS: 20 * log10(amplitude),
                             snrDB: min(300, 10 * log10(snrRatio)))
    }

    private func inBand(_ omega: Double) -> Bool {
        let frequencyHz = omega / (2 * Double.pi) * configuration.sampleRateHz
        return frequencyHz >= configuration.lowHz && frequencyHz <= configuration.highHz
    }

    /// Hann-windowed power spectrum of `values − offset` into `power`.
    private func spectrum(of values: UnsafeMutablePointer<Double>, less offset: Double) {
        let input = fft.input
        var index = 0
        while index < configuration.fftSize {    // a power of two ≥ 256: whole lanes
            let v = UnsafeRawPointer(values + index).loadUnaligned(as: SIMD4<Double>.self) - offset
            let w = UnsafeRawPointer(window + index).loadUnaligned(as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(input + index).storeBytes(of: SIMD4<Float>(v) * w, as: SIMD4<Float>.self)
            index += 4
        }
        fft.powerSpectrum(into: power)
    }
}
