#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The recorded sweep and the played sweep, each deconvolved by the played
/// sweep (one FFT size, double precision).
///
/// The inverse is the exact one, `B·X*/|X|²` (X the played sweep's
/// spectrum), not Farina's time-reversed sweep: a wire then gives the
/// zero-phase pulse of the band window `B` (flat over the sweep, raised-cosine
/// skirts an octave below and 5 % above), delayed by the sweep's length as the
/// Farina filter would. Farina's filter is only nearly flat, and its pulse
/// carries chirp-shaped pre-ringing from the sweep's fades, 40…90 dB down
/// where the harmonics' responses sit; the exact inverse has none.
///
/// `reference` (played ⊛ inverse) is the band-limited pulse a wire would
/// give; `impulse` (recorded ⊛ inverse) holds the chain's linear impulse
/// response at `impulsePeak` and, earlier by `ExponentialSweep.harmonicOffsetFrames(k)`,
/// the response of each harmonic k. `ChainAnalyzer` (latency, response) and
/// `HarmonicAnalyzer` (harmonics by order, phase, group delay) read it.
///
/// Worker / main thread; never the audio thread.
public struct SweepDeconvolution: Sendable {
    public let reference: [Double]
    /// The Hilbert transform of `reference` (every frequency turned by −90°):
    /// with it, the reference turned by any angle θ is `cos θ·reference + sin θ·quadrature`.
    public let referenceQuadrature: [Double]
    public let impulse: [Double]
    /// Index of the reference pulse's peak.
    public let referencePeak: Int
    /// Index of the chain's linear impulse response peak (at or after `referencePeak`).
    public let impulsePeak: Int

    /// - Parameters:
    ///   - sweepStartFrame: where the played sweep starts (default: the
    ///     measurement's own sweep; a crosstalk slot's otherwise).
    ///   - requireSignal: throw `noSignal` when nothing came back (not for a
    ///     crosstalk path, where next to nothing is the good answer).
    public init(_ signal: MeasurementSignal, recording: UnsafeBufferPointer<Float>,
                sweepStartFrame: Int? = nil, requireSignal: Bool = true) throws(ChainAnalyzer.Failure) {
        let sweepStartFrame = sweepStartFrame ?? signal.sweepStartFrame
        let sweep = signal.sweepSamples
        let sectionFrames = sweep.count + signal.maxLatencyFrames
        guard recording.count >= sweepStartFrame + sectionFrames,
              let fft = DoubleFFT(size: DoubleFFT.size(atLeast: sectionFrames + sweep.count)) else {
            throw .recordingTooShort(recording.count)
        }
        let section = (0..<sectionFrames).map { Double(recording[sweepStartFrame + $0]) }
        let sweepSpectrum = sweep.withUnsafeBufferPointer { fft.spectrum(of: $0) }
        let inverseSpectrum = Self.inverse(of: sweepSpectrum, fftSize: fft.size, delayFrames: sweep.count - 1,
                                           plan: signal.plan)
        let sectionSpectrum = section.withUnsafeBufferPointer { fft.spectrum(of: $0) }
        let referenceSpectrum = zip(sweepSpectrum, inverseSpectrum).map { $0 * $1 }
        reference = fft.signal(from: referenceSpectrum)
        referenceQuadrature = fft.signal(from: referenceSpectrum.map { $0 * Complex(0, -1) })
        impulse = fft.signal(from: zip(sectionSpectrum, inverseSpectrum).map { $0 * $1 })

        referencePeak = ChainAnalyzer.peakIndex(reference, in: 0..<reference.count)
        let searchEnd = min(impulse.count, referencePeak + signal.maxLatencyFrames + 1)
        impulsePeak = ChainAnalyzer.peakIndex(impulse, in: max(0, referencePeak - 2)..<searchEnd)
        guard !requireSignal || abs(impulse[impulsePeak]) > 1e-4 * abs(reference[referencePeak]) else { throw .noSignal }
    }

    /// `B·X*/(|X|² + ε)·e^{−iωD}`: the exact inverse of the played sweep
    /// inside its band, zero outside, delayed by `delayFrames` (ε keeps the
    /// skirts, where the sweep has little energy, from dividing by nothing).
    static func inverse(of x: [Complex], fftSize: Int, delayFrames: Int, plan: MeasurementSignal.Plan) -> [Complex] {
        let binHz = plan.sampleRateHz / Double(fftSize)
        let lowEdgeHz = plan.sweepStartHz / 2, highEdgeHz = min(plan.sweepEndHz * 1.05, plan.sampleRateHz / 2)
        let peak = x.map(\.magnitudeSquared).max() ?? 0
        let epsilon = 1e-12 * peak
        return x.enumerated().map { k, value in
            let f = Double(k) * binHz
            let band: Double
            if f <= lowEdgeHz || f >= highEdgeHz {
                band = 0
            } else if f < plan.sweepStartHz {
                band = 0.5 - 0.5 * cos(Double.pi * log(f / lowEdgeHz) / log(plan.sweepStartHz / lowEdgeHz))
            } else if f > plan.sweepEndHz {
                band = 0.5 - 0.5 * cos(Double.pi * log(highEdgeHz / f) / log(highEdgeHz / plan.sweepEndHz))
            } else {
                band = 1
            }
            guard band > 0 else { return Complex(0, 0) }
            let angle = -2 * Double.pi * Double(k) * Double(delayFrames) / Double(fftSize)
            let scale = band / (value.magnitudeSquared + epsilon)
            return value.conjugate * Complex(scale * cos(angle), scale * sin(angle))
        }
    }
}
