#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Harmonic distortion by order, THD, phase and group delay from one
/// exponential sweep (Farina, AES 108th Convention, 2000; the phase
/// correction of Novák et al., JAES 58(4), 2010).
///
/// A sweep `sin(φ(t))`, `φ(t) = K(e^{t/L} − 1)`, through a non-linear chain
/// comes back with harmonics `sin(k·φ(t))`. Since `k·φ(t) = φ(t + L·ln k) −
/// (k − 1)K`, harmonic k is the sweep itself, `L·ln k` early and turned by
/// `−(k − 1)K`: after deconvolution its impulse response sits that far before
/// the linear one. Each response is cut out with a window reaching halfway to
/// its neighbours, transformed at the exact frequency asked for and divided
/// by the reference pulse turned by the same angle and cut out the same way
/// (so the window's truncation of the turned pulse's long tails cancels).
/// Harmonic k's transform at `k·f` is the harmonic a sine at `f` produces at
/// the sweep's level. Each point averages five frequencies across its
/// 1/12-octave band (power for the level, the complex ratio for the phase).
///
/// Worker / main thread; never the audio thread.
public enum HarmonicAnalyzer {
    /// Orders reported.
    public static let orders = 2...5

    /// - Parameters:
    ///   - latencyFrames: the chain's latency (`ChainMeasurement.latencyFrames`).
    public static func analyze(_ signal: MeasurementSignal, deconvolution: SweepDeconvolution,
                               latencyFrames: Double) -> HarmonicAnalysis {
        let plan = signal.plan
        let rate = plan.sampleRateHz
        let sweep = signal.sweep
        let referenceCentre = deconvolution.referencePeak
        let linearCentre = Double(referenceCentre) + latencyFrames

        // Linear response: the long window ChainAnalyzer uses, short before the peak (H2 is there).
        let pre = max(64, min(4096, Int(sweep.harmonicOffsetFrames(2) / 2)))
        let post = ChainAnalyzer.responseWindowFrames - pre
        let linearWindow = PulseTransform.window(firstOffset: -pre, lastOffset: post - 1,
                                                 fadeIn: max(1, pre / 2), fadeOut: post / 4)
        let linear = Piece(deconvolution, centre: linearCentre, firstOffset: -pre, window: linearWindow)

        // The turn each harmonic's sweep carries: (k − 1)K, K = 2π f₁ T / ln(f₂/f₁).
        let turnK = 2 * Double.pi * plan.sweepStartHz * (Double(sweep.frames) / rate) / log(plan.sweepEndHz / plan.sweepStartHz)
        // Harmonic k: a symmetric window reaching halfway to k + 1 (the nearer neighbour).
        var pieces: [Int: HarmonicPiece] = [:]
        var lowestForOrder: [Int: Double] = [:]
        for k in orders {
            let half = Int((0.5 * (sweep.harmonicOffsetFrames(k + 1) - sweep.harmonicOffsetFrames(k))).rounded(.down))
            // A short window cannot tell the harmonic from what lies just below the sweep's
            // band (its fade-in, a DC step, every response's band-edge ringing): keep the
            // harmonic 14 window resolutions above 1.4 f₁ (checked on polynomial chains to 0.1 dB at −120 dB).
            let resolutionHz = rate / Double(2 * half + 1)
            lowestForOrder[k] = (1.4 * plan.sweepStartHz + 14 * resolutionHz) / Double(k)
            let window = PulseTransform.window(firstOffset: -half, lastOffset: half,
                                               fadeIn: half / 2, fadeOut: half / 2)
            pieces[k] = HarmonicPiece(deconvolution, offsetFrames: sweep.harmonicOffsetFrames(k), latencyFrames: latencyFrames,
                                      firstOffset: -half, window: window, turnRadians: Double(k - 1) * turnK)
        }

        // Where harmonic k is valid: the fundamental past the sweep's fade-in, the harmonic inside the sweep.
        let bandEdge = pow(2, 1.0 / 24)
        let bandSpread = (-2...2).map { pow(2, Double($0) / 96) }
        let lowestHz = 1.25 * plan.sweepStartHz * bandEdge
        let highestHz = 0.97 * plan.sweepEndHz
        var orderPoints: [Int: [HarmonicAnalysis.HarmonicPoint]] = [:]
        var thd: [HarmonicAnalysis.DistortionPoint] = []
        // 1/12-octave points anchored on 1 kHz (so 100 Hz, 1 kHz, 2 kHz fall on points).
        for f in twelfthOctaves(from: lowestHz, to: highestHz / 2) {
            var power = 0.0, highest = 1, hasSecond = false
            let fundamentals = bandSpread.map { linear.transfer(omega: 2 * Double.pi * f * $0 / rate).value }
            for k in orders where Double(k) * f * bandEdge <= highestHz && f >= lowestForOrder[k]! * bandEdge {
                var ratioPower = 0.0, relative = Complex(0, 0)
                for (spread, fundamental) in zip(bandSpread, fundamentals) {
                    let omega = 2 * Double.pi * f * spread / rate
                    let atHarmonic = linear.transfer(omega: Double(k) * omega).value
                    let harmonic = pieces[k]!.harmonic(omega: Double(k) * omega, linear: atHarmonic)   // safe: one piece per order, made above
                    ratioPower += harmonic.magnitudeSquared / max(fundamental.magnitudeSquared, 1e-300)
                    // φₖ − k·φ₁ as a unit phasor: fundamental^k / |…|.
                    let turn = harmonic.phase - Double(k) * fundamental.phase
                    relative = relative + Complex(cos(turn), sin(turn))
                }
                let ratio = (ratioPower / Double(bandSpread.count)).squareRoot()
                orderPoints[k, default: []].append(.init(frequencyHz: f, levelDB: 20 * log10(max(ratio, 1e-15)),
                                                         phaseDegrees: wrappedDegrees(relative.phase)))
                power += ratio * ratio
                highest = k
                hasSecond = hasSecond || k == 2
            }
            if hasSecond {
                thd.append(.init(frequencyHz: f, thdDB: 10 * log10(max(power, 1e-30)), highestOrder: highest))
            }
        }

        var linearPoints: [HarmonicAnalysis.LinearPoint] = []
        for f in twelfthOctaves(from: plan.sweepStartHz, to: plan.sweepEndHz) {
            let (value, delayFrames) = linear.transfer(omega: 2 * Double.pi * f / rate)
            linearPoints.append(.init(frequencyHz: f, gainDB: 20 * log10(max(value.magnitude, 1e-15)),
                                      phaseDegrees: wrappedDegrees(value.phase),
                                      groupDelayMs: (latencyFrames + delayFrames) / rate * 1000))
        }

        let scale = 1 / abs(deconvolution.reference[referenceCentre])
        let shownFrom = -min(pre, 256), shownCount = 2048
        let peak = Int(linearCentre.rounded())
        let impulse = (0..<shownCount).map { n -> Double in
            let frame = peak + shownFrom + n
            return frame >= 0 && frame < deconvolution.impulse.count ? deconvolution.impulse[frame] * scale : 0
        }
        return HarmonicAnalysis(sampleRateHz: rate, levelDBFS: plan.levelDBFS,
                                orders: orders.map { .init(order: $0, points: orderPoints[$0] ?? []) },
                                thd: thd, linear: linearPoints,
                                impulseResponse: impulse,
                                impulseStartFrame: Int(latencyFrames.rounded()) + shownFrom)
    }

    /// `1000·2^(n/12)` Hz for every n with the frequency in `low…high`.
    static func twelfthOctaves(from low: Double, to high: Double) -> [Double] {
        guard low > 0, high >= low else { return [] }
        let first = Int((12 * log2(low / 1000)).rounded(.up)), last = Int((12 * log2(high / 1000)).rounded(.down))
        return first <= last ? (first...last).map { 1000 * pow(2, Double($0) / 12) } : []
    }

    /// An angle in radians as degrees in (−180, 180].
    static func wrappedDegrees(_ radians: Double) -> Double {
        var degrees = radians * 180 / Double.pi
        degrees -= 360 * (degrees / 360).rounded()
        return degrees <= -180 ? degrees + 360 : degrees
    }

    /// Harmonic k's response: the deconvolved recording cut out `offsetFrames`
    /// before the linear response; the reference turned by the harmonic's
    /// angle, cut out at its own peak (the divisor); and the reference cut out
    /// `offsetFrames` before its peak, unturned: what the linear response's
    /// own skirts leave in the harmonic's window (the band window's ringing
    /// below the sweep's lowest frequency), subtracted once scaled by the
    /// linear transfer function.
    struct HarmonicPiece {
        let response: PulseTransform
        let fraction: Double
        let turned: PulseTransform
        let leak: PulseTransform
        let leakFraction: Double

        init(_ deconvolution: SweepDeconvolution, offsetFrames: Double, latencyFrames: Double,
             firstOffset: Int, window: [Double], turnRadians: Double) {
            let leakCentre = Double(deconvolution.referencePeak) - offsetFrames
            let centre = leakCentre + latencyFrames
            let whole = Int(centre.rounded()), leakWhole = Int(leakCentre.rounded())
            fraction = centre - Double(whole)
            leakFraction = leakCentre - Double(leakWhole)
            response = PulseTransform(deconvolution.impulse, centre: whole, firstOffset: firstOffset, window: window)
            leak = PulseTransform(deconvolution.reference, centre: leakWhole, firstOffset: firstOffset, window: window)
            let c = cos(turnRadians), s = sin(turnRadians)
            let turnedReference = zip(deconvolution.reference, deconvolution.referenceQuadrature).map { c * $0 + s * $1 }
            turned = PulseTransform(turnedReference, centre: deconvolution.referencePeak,
                                    firstOffset: firstOffset, window: window)
        }

        /// Hₖ at `omega` (the harmonic's own frequency), given the linear transfer function there.
        func harmonic(omega: Double, linear: Complex) -> Complex {
            let x = response.transform(omega: omega).value * Complex(cos(omega * fraction), sin(omega * fraction))
            let l = leak.transform(omega: omega).value * Complex(cos(omega * leakFraction), sin(omega * leakFraction))
            return (x + Complex(-1, 0) * linear * l) / turned.transform(omega: omega).value
        }
    }

    /// A response cut out of the deconvolved recording at a fractional centre,
    /// and the reference pulse cut out with the same window at its own centre.
    struct Piece {
        let response: PulseTransform
        let reference: PulseTransform
        /// Centre − the whole frame the response piece is centred on.
        let fraction: Double

        init(_ deconvolution: SweepDeconvolution, centre: Double, firstOffset: Int, window: [Double]) {
            let whole = Int(centre.rounded())
            fraction = centre - Double(whole)
            response = PulseTransform(deconvolution.impulse, centre: whole, firstOffset: firstOffset, window: window)
            reference = PulseTransform(deconvolution.reference, centre: deconvolution.referencePeak,
                                       firstOffset: firstOffset, window: window)
        }

        /// The response over the reference at `omega`, the centre's fraction
        /// undone (a pulse exactly at the centre reads phase 0), and its group delay in frames.
        func transfer(omega: Double) -> (value: Complex, delayFrames: Double) {
            let x = response.transform(omega: omega)
            let r = reference.transform(omega: omega)
            let value = x.value / r.value * Complex(cos(omega * fraction), sin(omega * fraction))
            let delay = (x.weighted / x.value).re - (r.weighted / r.value).re - fraction
            return (value, delay)
        }
    }
}
