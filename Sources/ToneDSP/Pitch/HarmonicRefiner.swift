#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Refines a fundamental by maximising the harmonic sum `J(ω) = Σₕ |X(h·ω)|²`
/// of the windowed frame's DTFT (the approximate maximum-likelihood pitch of a
/// harmonic signal in white noise) with Newton steps, evaluated exactly on the
/// samples rather than on FFT bins, so it has no bin-grid bias.
///
/// An amplitude envelope (a pluck's decay, an onset) is real, so it widens
/// each partial's peak symmetrically and does not move it.
///
/// Worker only: owns its scratch buffers.
final class HarmonicRefiner {
    let frameSize: Int
    /// The windows in single precision: the fold works in four single-precision lanes.
    private let hann: UnsafeMutablePointer<Float>
    private let blackmanHarris: UnsafeMutablePointer<Float>
    private let hannSum: Double
    private let blackmanHarrisSum: Double
    /// The window is symmetric about the frame's centre, so the sums run over
    /// pairs of samples at ±t (t = ½, 3/2, …): with y = w·x, E = y(t) + y(−t)
    /// and O = y(t) − y(−t), half as many terms as samples. Six folded
    /// arrays, W/2 long: E, O, t·O, t·E, t²·E, t²·O, one after the other
    /// (array `k` at `folded + k·W/2`: each two pairs of samples store their
    /// lanes straight into each; shuffling them into a record per pair cost
    /// twice as much).
    private let folded: UnsafeMutablePointer<Float>
    /// Harmonics used at most.
    let maxHarmonics: Int
    private var sum0: [Double], sum1: [Double], sum2: [Double], sum3: [Double], sum4: [Double], sum5: [Double]

    init(frameSize: Int, maxHarmonics: Int) {
        self.frameSize = frameSize
        self.maxHarmonics = maxHarmonics
        hann = .allocate(capacity: frameSize)
        blackmanHarris = .allocate(capacity: frameSize)
        var hannSum = 0.0, blackmanHarrisSum = 0.0
        for n in 0..<frameSize {
            let phase = 2 * Double.pi * (Double(n) + 0.5) / Double(frameSize)
            let hannValue = 0.5 - 0.5 * cos(phase)
            let blackmanHarrisValue = 0.35875 - 0.48829 * cos(phase) + 0.14128 * cos(2 * phase) - 0.01168 * cos(3 * phase)
            hann[n] = Float(hannValue)
            blackmanHarris[n] = Float(blackmanHarrisValue)
            hannSum += hannValue
            blackmanHarrisSum += blackmanHarrisValue
        }
        self.hannSum = hannSum
        self.blackmanHarrisSum = blackmanHarrisSum
        folded = .allocate(capacity: 6 * (frameSize / 2))
        folded.initialize(repeating: 0, count: 6 * (frameSize / 2))
        sum0 = Array(repeating: 0, count: maxHarmonics)
        sum1 = sum0; sum2 = sum0; sum3 = sum0; sum4 = sum0; sum5 = sum0
    }

    deinit {
        hann.deallocate()
        blackmanHarris.deallocate()
        folded.deallocate()
    }

    /// Result of a refinement: the fundamental and the power the harmonics carry.
    struct Result {
        var omega: Double
        /// Σₕ |X(hω)|² normalised to the mean power of the harmonics in the frame (sum of A²/2).
        var harmonicPower: Double
        var harmonics: Int
    }

    /// - Parameters:
    ///   - frame: `frameSize` samples, mean removed (single precision, as the sums are).
    ///   - omega: start, in radians per sample, close enough that each used harmonic is within its main lobe.
    ///   - harmonicLimit: use harmonics `h` with `h·ω` below this (radians per sample).
    ///   - iterations: Newton steps; one suffices from an NSDF start (quadratic convergence).
    func refine(_ frame: UnsafePointer<Float>, omega start: Double, harmonicLimit: Double,
                iterations: Int = 1) -> Result {
        let w = frameSize
        // Partials this many bins apart: with ≥ 6, Blackman–Harris's main
        // lobes (±4 bins) stay clear of the neighbours and of the negative-
        // frequency images, and its −92 dB sidelobes leave no leakage bias;
        // closer partials need Hann's narrower main lobe.
        let spacingBins = start * Double(w) / (2 * Double.pi)
        let useBlackmanHarris = spacingBins >= 6
        let window = useBlackmanHarris ? blackmanHarris : hann
        let sumWindow = useBlackmanHarris ? blackmanHarrisSum : hannSum
        let half = w / 2
        // Four pairs at a time, in four single-precision lanes (the lower
        // halves loaded together and reversed); t and t² are exact in single
        // precision (t² ≤ 2²² with a quarter's fraction for W ≤ 4096, and
        // within rounding above). Half the frame is a multiple of four (a
        // power of two ≥ 128).
        let folded = self.folded
        var t = SIMD4<Float>(0.5, 1.5, 2.5, 3.5)
        var m = 0
        while m + 4 <= half {
            let upper = UnsafeRawPointer(window + half + m).loadUnaligned(as: SIMD4<Float>.self)
                * UnsafeRawPointer(frame + half + m).loadUnaligned(as: SIMD4<Float>.self)
            let below = UnsafeRawPointer(window + half - 4 - m).loadUnaligned(as: SIMD4<Float>.self)
                * UnsafeRawPointer(frame + half - 4 - m).loadUnaligned(as: SIMD4<Float>.self)
            let lower = SIMD4(below[3], below[2], below[1], below[0])
            let even = upper + lower, odd = upper - lower
            let squares = t * t
            UnsafeMutableRawPointer(folded + m).storeBytes(of: even, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(folded + half + m).storeBytes(of: odd, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(folded + 2 * half + m).storeBytes(of: t * odd, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(folded + 3 * half + m).storeBytes(of: t * even, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(folded + 4 * half + m).storeBytes(of: squares * even, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(folded + 5 * half + m).storeBytes(of: squares * odd, as: SIMD4<Float>.self)
            t += 4
            m += 4
        }
        var omega = start
        var harmonics = max(1, min(maxHarmonics, Int(harmonicLimit / start)))
        var power = 0.0
        for _ in 0..<iterations {
            harmonics = evaluate(omega: omega, harmonics: harmonics)
            var first = 0.0, second = 0.0
            power = 0
            for k in 0..<harmonics {
                let h = Double(k + 1)
                // X = S0, X' = −i·S1, X'' = −S2 (derivatives in ω at h·ω).
                let xr = sum0[k], xi = sum1[k]            // S0 (re, im)
                let dr = sum3[k], di = -sum2[k]           // X' = −i(S1r + i S1i) = S1i − i S1r
                let sr = -sum4[k], si = -sum5[k]          // X''
                power += xr * xr + xi * xi
                first += h * 2 * (xr * dr + xi * di)
                second += h * h * 2 * (xr * sr + xi * si + dr * dr + di * di)
            }
            guard second < 0 else { break }
            var step = -first / second
            // Never leave the main lobe of the fundamental's peak.
            let limit = Double.pi / Double(w)
            step = min(max(step, -limit), limit)
            omega += step
        }
        // |X|² of a sine of amplitude A is (A·Σw/2)²; A²/2 per harmonic. The
        // power is from the evaluation before the last step: one Newton step
        // from the NSDF's period moves ω by far less than a main lobe.
        return Result(omega: omega, harmonicPower: power * 2 / (sumWindow * sumWindow), harmonics: harmonics)
    }

    /// S0 = Σ y e^{−ihωt}, S1 = Σ t y e^{−ihωt}, S2 = Σ t² y e^{−ihωt} for h = 1…harmonics,
    /// over the folded pairs: S0 = Σ E cos − i O sin, S1 = Σ tO cos − i tE sin,
    /// S2 = Σ t²E cos − i t²O sin (t > 0).
    ///
    /// Four harmonics per pass in single-precision lanes (four, not eight:
    /// eight lanes' accumulators and phasors overflow the sixteen SSE
    /// registers and spill every sample), each with its own
    /// phasor recurrence over t, restarted from exact values every short block
    /// and summed into double precision per block, so rounding neither drifts
    /// nor accumulates.
    ///
    /// Returns how many harmonics it evaluated: it stops after a pass whose
    /// harmonics (the fundamental aside) carry less than `quietFraction` of
    /// the power found so far, three or four of them in a row, so a pure
    /// tone costs one pass instead of two. What the rest would add to the
    /// Newton step is of that order too (their own leakage and noise).
    private func evaluate(omega: Double, harmonics: Int) -> Int {
        let half = frameSize / 2
        let block = 64
        let e = folded, o = folded + half, to = folded + 2 * half, te = folded + 3 * half
        let tte = folded + 4 * half, tto = folded + 5 * half
        var first = 0, found = 0.0
        while first < harmonics {
            let count = min(4, harmonics - first)
            var t0r = SIMD4<Double>(), t0i = SIMD4<Double>(), t1r = SIMD4<Double>(), t1i = SIMD4<Double>()
            var t2r = SIMD4<Double>(), t2i = SIMD4<Double>()
            var hOmega = SIMD4<Double>()
            for lane in 0..<4 { hOmega[lane] = Double(first + 1 + min(lane, count - 1)) * omega }
            var stepC = SIMD4<Float>(), stepS = SIMD4<Float>()
            // Block starts advance by a double-precision rotation (a few dozen
            // steps per frame: no drift worth the name, and no libm per block).
            var blockC = SIMD4<Double>(), blockS = SIMD4<Double>(), startC = SIMD4<Double>(), startS = SIMD4<Double>()
            for lane in 0..<4 {
                stepC[lane] = Float(cos(hOmega[lane])); stepS[lane] = Float(sin(hOmega[lane]))
                blockC[lane] = cos(hOmega[lane] * Double(block)); blockS[lane] = sin(hOmega[lane] * Double(block))
                startC[lane] = cos(hOmega[lane] * 0.5); startS[lane] = sin(hOmega[lane] * 0.5)
            }
            var start = 0
            while start < half {
                let end = min(half, start + block)
                var c = SIMD4<Float>(startC), s = SIMD4<Float>(startS)
                let nextC = startC * blockC - startS * blockS
                startS = startC * blockS + startS * blockC
                startC = nextC
                var a0r = SIMD4<Float>(), a0i = SIMD4<Float>(), a1r = SIMD4<Float>(), a1i = SIMD4<Float>()
                var a2r = SIMD4<Float>(), a2i = SIMD4<Float>()
                for m in start..<end {
                    a0r += e[m] * c; a0i += o[m] * s
                    a1r += to[m] * c; a1i += te[m] * s
                    a2r += tte[m] * c; a2i += tto[m] * s
                    let nc = c * stepC - s * stepS
                    s = c * stepS + s * stepC
                    c = nc
                }
                t0r += SIMD4<Double>(a0r); t0i -= SIMD4<Double>(a0i)
                t1r += SIMD4<Double>(a1r); t1i -= SIMD4<Double>(a1i)
                t2r += SIMD4<Double>(a2r); t2i -= SIMD4<Double>(a2i)
                start = end
            }
            for lane in 0..<count {
                sum0[first + lane] = t0r[lane]; sum1[first + lane] = t0i[lane]
                sum2[first + lane] = t1r[lane]; sum3[first + lane] = t1i[lane]
                sum4[first + lane] = t2r[lane]; sum5[first + lane] = t2i[lane]
            }
            let powers = t0r * t0r + t0i * t0i
            var quiet = 0.0
            for lane in (first == 0 ? 1 : 0)..<count { quiet += powers[lane] }
            for lane in 0..<count { found += powers[lane] }
            first += count
            if count >= 4 && quiet < Self.quietFraction * found { break }
        }
        return first
    }

    /// −60 dB: below this share of the power, further harmonics are not evaluated.
    static let quietFraction = 1e-6
}
