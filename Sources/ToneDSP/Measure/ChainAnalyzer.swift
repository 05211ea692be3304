#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the recording of one `MeasurementSignal` into a `ChainMeasurement`.
///
/// - Sweep: the recorded sweep and the played sweep are both convolved with
///   the Farina inverse filter (FFT, double precision). The played one gives
///   the reference pulse, the recorded one the chain's impulse response; the
///   distance between their peaks is the latency to a frame. The same window
///   around each peak, transformed, gives the transfer function
///   `H = IR / reference`: its magnitude is the frequency response, and the
///   slope of its phase (weighted least squares over the sweep's band) is the
///   remaining fraction of a frame.
/// - Tone: a four-parameter sine fit (`SinusoidFit`) to the steady part of the
///   returned tone gives its amplitude (gain), frequency (shift) and the
///   residual (THD+N).
///
/// Worker / main thread; never the audio thread.
public enum ChainAnalyzer {
    public enum Failure: Error, CustomStringConvertible, Equatable {
        case recordingTooShort(Int)
        case noSignal
        case noTone

        public var description: String {
            switch self {
            case .recordingTooShort(let frames):
                return "the recording is too short (\(frames) frames) for this measurement"
            case .noSignal:
                return "no test signal came back on `in` (more than 80 dB down or silent): is the chain connected?"
            case .noTone:
                return "the test tone did not come back clearly enough to measure gain and distortion"
            }
        }
    }

    /// Length of the window around the impulse response that becomes the transfer function.
    static let responseWindowFrames = 32768

    /// - Parameter deconvolution: the sweep's deconvolution when the caller
    ///   already made it (for `HarmonicAnalyzer` too); made here otherwise.
    public static func analyze(_ signal: MeasurementSignal, recording: UnsafeBufferPointer<Float>,
                               deconvolution: SweepDeconvolution? = nil) throws -> ChainMeasurement {
        guard recording.count >= signal.recordingFrames else { throw Failure.recordingTooShort(recording.count) }
        let rate = signal.plan.sampleRateHz
        let deconvolution = try deconvolution ?? SweepDeconvolution(signal, recording: recording)
        let (latency, response) = analyzeSweep(signal, deconvolution: deconvolution)
        let tone = try analyzeTone(signal, recording: recording, latencyFrames: latency)
        return ChainMeasurement(sampleRateHz: rate, latencyFrames: latency,
                                gainDB: 20 * log10(tone.amplitude / signal.amplitude),
                                toneFrequencyHz: signal.plan.toneFrequencyHz,
                                measuredFrequencyHz: tone.frequencyHz,
                                thdPlusNoiseDB: tone.thdPlusNoiseDB,
                                toneGlitches: tone.glitches,
                                response: response,
                                sweepStartHz: signal.plan.sweepStartHz, sweepEndHz: signal.plan.sweepEndHz)
    }

    // MARK: - Sweep: latency and frequency response

    static func analyzeSweep(_ signal: MeasurementSignal, deconvolution: SweepDeconvolution)
        -> (latencyFrames: Double, response: [ChainMeasurement.ResponsePoint]) {
        let reference = deconvolution.reference, impulse = deconvolution.impulse
        let referencePeak = deconvolution.referencePeak, impulsePeak = deconvolution.impulsePeak

        // Window: start before the peak (the pulse rings on both sides) but
        // after the second harmonic's response; taper both ends.
        let preFrames = max(64, min(4096, Int(signal.sweep.harmonicOffsetFrames(2) / 2)))
        let windowFrames = responseWindowFrames
        let window = responseWindow(frames: windowFrames, preFrames: preFrames)
        /// The windowed piece from `start`, zero-padded to `fft`'s size, transformed.
        func windowed(_ x: [Double], from start: Int, _ fft: DoubleFFT) -> [Complex] {
            let piece = (0..<fft.size).map { n -> Double in
                let index = start + n
                return n < windowFrames && index >= 0 && index < x.count ? x[index] * window[n] : 0
            }
            return piece.withUnsafeBufferPointer { fft.spectrum(of: $0) }
        }
        func transferFunction(_ fft: DoubleFFT) -> (transfer: [Complex], impulse: [Complex], reference: [Complex]) {
            let referenceBins = windowed(reference, from: referencePeak - preFrames, fft)
            let impulseBins = windowed(impulse, from: impulsePeak - preFrames, fft)
            return (zip(impulseBins, referenceBins).map { $0 / $1 }, impulseBins, referenceBins)
        }
        let (transfer, impulseBins, referenceBins) = transferFunction(DoubleFFT(size: windowFrames)!)   // safe: a fixed power of two

        let binHz = signal.plan.sampleRateHz / Double(windowFrames)
        let fraction = phaseSlopeDelay(transfer: transfer, impulseBins: impulseBins, referenceBins: referenceBins,
                                       bins: Int((2 * signal.plan.sweepStartHz / binHz).rounded(.up))...Int(0.8 * signal.plan.sweepEndHz / binHz),
                                       fftSize: windowFrames)
        let latency = Double(impulsePeak - referencePeak) + fraction
        // The window's bins (1.46 Hz at 48 kHz) are coarser than 1/24 octave below about 50 Hz, where
        // several points would read one bin. The same windowed pulses zero-padded sample their
        // transforms (exactly, not by interpolation) finely enough for two bins per point's band.
        let padding = responsePadding(binHz: binHz, fromHz: signal.plan.sweepStartHz)
        let fineTransfer = padding == 1 ? transfer : transferFunction(DoubleFFT(size: windowFrames * padding)!).transfer   // safe: a power of two
        let response = responsePoints(transfer: fineTransfer, binHz: binHz / Double(padding),
                                      fromHz: signal.plan.sweepStartHz, toHz: signal.plan.sweepEndHz)
        return (latency, response)
    }

    static func peakIndex(_ x: [Double], in range: Range<Int>) -> Int {
        var best = range.lowerBound
        for index in range where abs(x[index]) > abs(x[best]) { best = index }
        return best
    }

    /// Flat, with raised-cosine fades over the first half of the pre-peak part and the last quarter.
    static func responseWindow(frames: Int, preFrames: Int) -> [Double] {
        let fadeIn = max(1, preFrames / 2)
        let fadeOut = frames / 4
        return (0..<frames).map { n in
            if n < fadeIn { return 0.5 - 0.5 * cos(Double.pi * Double(n) / Double(fadeIn)) }
            let fromEnd = frames - 1 - n
            if fromEnd < fadeOut { return 0.5 - 0.5 * cos(Double.pi * Double(fromEnd) / Double(fadeOut)) }
            return 1
        }
    }

    /// The delay (in frames, usually within ±0.5) that best explains the
    /// phase of `transfer` over `bins`: phase ≈ φ₀ − 2π k d / N, fitted by
    /// weighted least squares on the unwrapped phase, weight |IR|·|reference|
    /// (bins where the chain or the sweep carry little energy count little).
    static func phaseSlopeDelay(transfer: [Complex], impulseBins: [Complex], referenceBins: [Complex],
                                bins: ClosedRange<Int>, fftSize: Int) -> Double {
        let lower = max(1, bins.lowerBound), upper = min(transfer.count - 1, bins.upperBound)
        guard upper > lower + 2 else { return 0 }
        var sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0
        var previous = transfer[lower].phase
        var unwrapped = previous
        for k in lower...upper {
            let phase = transfer[k].phase
            var step = phase - previous
            step -= 2 * Double.pi * (step / (2 * Double.pi)).rounded()
            unwrapped += k == lower ? 0 : step
            previous = phase
            let weight = impulseBins[k].magnitude * referenceBins[k].magnitude
            guard weight.isFinite, weight > 0 else { continue }
            let x = Double(k)
            sw += weight; sx += weight * x; sy += weight * unwrapped
            sxx += weight * x * x; sxy += weight * x * unwrapped
        }
        let denominator = sw * sxx - sx * sx
        guard denominator > 0 else { return 0 }
        let slope = (sw * sxy - sx * sy) / denominator
        return -slope * Double(fftSize) / (2 * Double.pi)
    }

    /// The zero-padding factor (a power of two, at most 16) that puts two bins of `binHz / factor` into
    /// the 1/24-octave band of the lowest point, `fromHz`.
    static func responsePadding(binHz: Double, fromHz: Double) -> Int {
        let bandHz = fromHz * (pow(2, 1.0 / 48) - pow(2, -1.0 / 48))
        var factor = 1
        while factor < 16, binHz / Double(factor) > bandHz / 2 { factor *= 2 }
        return factor
    }

    /// 1/24-octave points: the power of `transfer` averaged over each point's
    /// 1/24-octave band (at least the nearest bin).
    static func responsePoints(transfer: [Complex], binHz: Double, fromHz: Double, toHz: Double)
        -> [ChainMeasurement.ResponsePoint] {
        var points: [ChainMeasurement.ResponsePoint] = []
        let steps = Int((24 * log2(toHz / fromHz)).rounded(.down))
        for step in 0...steps {
            let frequency = fromHz * pow(2, Double(step) / 24)
            let low = Int((frequency * pow(2, -1.0 / 48) / binHz).rounded(.up))
            let high = Int((frequency * pow(2, 1.0 / 48) / binHz).rounded(.down))
            var sum = 0.0, count = 0
            if high >= low {
                for k in low...high where k < transfer.count {
                    sum += transfer[k].magnitudeSquared
                    count += 1
                }
            }
            if count == 0 {
                let k = min(transfer.count - 1, Int((frequency / binHz).rounded()))
                sum = transfer[k].magnitudeSquared
                count = 1
            }
            points.append(.init(frequencyHz: frequency, gainDB: 10 * log10(max(sum / Double(count), 1e-30))))
        }
        return points
    }

    // MARK: - Tone: gain, frequency, THD+N

    struct ToneResult {
        var amplitude: Double
        var frequencyHz: Double
        var thdPlusNoiseDB: Double
        var glitches: Int
    }

    /// Frames per block in the glitch count.
    static let glitchBlockFrames = 256

    /// Blocks of the tone where the residual of the fit jumps: more than 100
    /// times the median block's and above −60 dB against the sine. Harmonics
    /// and steady noise spread evenly; a dropout, a lost period or a click
    /// lands in one or two blocks.
    static func countGlitches(_ segment: [Double], fit: SinusoidFit) -> Int {
        let blocks = segment.count / glitchBlockFrames
        guard blocks >= 3 else { return 0 }
        var residual = [Double](repeating: 0, count: blocks)
        SinusoidFit.forEachPhasor(count: segment.count, omega: fit.omega) { index, cosine, sine in
            let block = index / glitchBlockFrames
            guard block < blocks else { return }
            let r = segment[index] - (fit.cosineAmplitude * cosine + fit.sineAmplitude * sine + fit.offset)
            residual[block] += r * r
        }
        let median = residual.sorted()[blocks / 2]
        let floor = 1e-6 * fit.amplitude * fit.amplitude / 2 * Double(glitchBlockFrames)
        return residual.filter { $0 > max(100 * median, floor) }.count
    }

    static func analyzeTone(_ signal: MeasurementSignal, recording: UnsafeBufferPointer<Float>,
                            latencyFrames: Double) throws -> ToneResult {
        let rate = signal.plan.sampleRateHz
        let settle = signal.toneRampFrames + Int(0.02 * rate)
        let start = signal.toneStartFrame + Int(latencyFrames.rounded()) + settle
        let count = signal.toneFrames - 2 * settle
        guard count >= 1024, start >= 0, start + count <= recording.count else {
            throw Failure.recordingTooShort(recording.count)
        }
        let segment = (0..<count).map { Double(recording[start + $0]) }
        // Coarse frequency: loudest bin of a Hann-windowed FFT, parabolic on log magnitude.
        var fftSize = 1024
        while fftSize * 2 <= count, fftSize < 1 << 16 { fftSize *= 2 }
        guard let fft = DoubleFFT(size: fftSize) else { throw Failure.noTone }
        let windowedSegment = (0..<fftSize).map { n in
            segment[n] * CosineSumWindow.hann.value(n, size: fftSize, sampling: .periodic)
        }
        let spectrum = windowedSegment.withUnsafeBufferPointer { fft.spectrum(of: $0) }
        var peak = 2
        for k in 2..<(spectrum.count - 2) where spectrum[k].magnitudeSquared > spectrum[peak].magnitudeSquared { peak = k }
        let a = log(max(spectrum[peak - 1].magnitude, 1e-300))
        let b = log(max(spectrum[peak].magnitude, 1e-300))
        let c = log(max(spectrum[peak + 1].magnitude, 1e-300))
        let denominator = a - 2 * b + c
        let offset = denominator < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / denominator)) : 0
        let binRadians = 2 * Double.pi / Double(fftSize)
        let omegaStart = (Double(peak) + offset) * binRadians
        guard let fit = segment.withUnsafeBufferPointer({
            SinusoidFit.refine($0, omegaStart: omegaStart, maxStepRadians: 2 * binRadians)
        }), fit.amplitude > 1e-4 * signal.amplitude else { throw Failure.noTone }
        let sinePower = fit.amplitude * fit.amplitude / 2
        let thdN = 10 * log10(max(fit.residualPower, 1e-30 * sinePower) / sinePower)
        return ToneResult(amplitude: fit.amplitude, frequencyHz: fit.omega * rate / (2 * Double.pi),
                          thdPlusNoiseDB: thdN, glitches: countGlitches(segment, fit: fit))
    }
}
