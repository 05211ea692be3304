#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Refines a fundamental by maximising the harmonic sum `J(ω) = Σₕ |X(h·ω)|²`
/// of the windowed frame's DTFT (the approximate maximum-likelihood pitch of a
/// harmonic signal in white noise) with Newton steps, evaluated exactly on the
/// samples rather than on FFT bins, so it has no bin-grid bias. Below 6 bins
/// of spacing (Hann) J is instead the energy of the joint least-squares fit
/// of the loud partials and a constant (`jointFitEnergy`): there |X|² carries
/// each partial's image, its neighbours and the frame's constant.
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
    /// Σw² of each window (of the single-precision values the fold uses).
    private let hannSquareSum: Double
    private let blackmanHarrisSquareSum: Double
    /// The window is symmetric about the frame's centre, so the sums run over
    /// pairs of samples at ±t (t = ½, 3/2, …): with y = w·x, E = y(t) + y(−t)
    /// and O = y(t) − y(−t), half as many terms as samples. Six folded
    /// arrays, W/2 long: E, O, t·O, t·E, t²·E, t²·O, one after the other
    /// (array `k` at `folded + k·W/2`: each two pairs of samples store their
    /// lanes straight into each; shuffling them into a record per pair cost
    /// twice as much). 64-byte aligned, so every array is 16-byte aligned.
    private let folded: UnsafeMutablePointer<Float>
    /// Harmonics used at most.
    let maxHarmonics: Int
    /// The last evaluation's sums, harmonic `h` at `h − 1` (`maxHarmonics` of them).
    private let sums: UnsafeMutablePointer<HarmonicSums>
    /// Under Hann, the loud harmonics' orders and their S0, X′ and X″ (re, re′,
    /// re″, im, im′, im″ each), and room for the joint fit's Gram matrix and
    /// right-hand side (`jointFitEnergy`).
    private let loudOrders: UnsafeMutablePointer<Double>
    private let loudSums: UnsafeMutablePointer<Double>
    private let fitScratch: UnsafeMutablePointer<Double>
    /// W(k·ω) for k = 0…2·maxHarmonics, the joint fit's Gram entries.
    private let transforms: UnsafeMutablePointer<Double>
    /// The windows' transforms W(θ) (see `WindowTransform`).
    private let hannTransform: WindowTransform
    private let blackmanHarrisTransform: WindowTransform
    /// Whether harmonic `h` (at `h − 1`) was loud in the last evaluation
    /// (quiet: below `quietFraction` of the power before it, S1 and S2 zero):
    /// what `refine` reads right after it, and the next evaluation's guess of
    /// the path that costs least, never of the result.
    private let isLoud: UnsafeMutablePointer<Bool>

    init(frameSize: Int, maxHarmonics: Int) {
        self.frameSize = frameSize
        self.maxHarmonics = maxHarmonics
        hann = .allocate(capacity: frameSize)
        blackmanHarris = .allocate(capacity: frameSize)
        var hannSum = 0.0, blackmanHarrisSum = 0.0, hannSquareSum = 0.0, blackmanHarrisSquareSum = 0.0
        for n in 0..<frameSize {
            let phase = 2 * Double.pi * (Double(n) + 0.5) / Double(frameSize)
            let hannValue = 0.5 - 0.5 * cos(phase)
            let blackmanHarrisValue = 0.35875 - 0.48829 * cos(phase) + 0.14128 * cos(2 * phase) - 0.01168 * cos(3 * phase)
            hann[n] = Float(hannValue)
            blackmanHarris[n] = Float(blackmanHarrisValue)
            hannSum += hannValue
            blackmanHarrisSum += blackmanHarrisValue
            hannSquareSum += Double(hann[n]) * Double(hann[n])
            blackmanHarrisSquareSum += Double(blackmanHarris[n]) * Double(blackmanHarris[n])
        }
        self.hannSum = hannSum
        self.blackmanHarrisSum = blackmanHarrisSum
        self.hannSquareSum = hannSquareSum
        self.blackmanHarrisSquareSum = blackmanHarrisSquareSum
        hannTransform = WindowTransform(terms: Self.hannTerms, frameSize: frameSize)
        blackmanHarrisTransform = WindowTransform(terms: Self.blackmanHarrisTerms, frameSize: frameSize)
        let foldedCount = 6 * (frameSize / 2)
        folded = UnsafeMutableRawPointer.allocate(byteCount: foldedCount * MemoryLayout<Float>.stride, alignment: 64)
            .bindMemory(to: Float.self, capacity: foldedCount)
        folded.initialize(repeating: 0, count: foldedCount)
        sums = .allocate(capacity: maxHarmonics)
        sums.initialize(repeating: HarmonicSums(), count: maxHarmonics)
        isLoud = .allocate(capacity: maxHarmonics)
        isLoud.initialize(repeating: true, count: maxHarmonics)
        loudOrders = .allocate(capacity: maxHarmonics)
        loudSums = .allocate(capacity: 6 * maxHarmonics)
        fitScratch = .allocate(capacity: (maxHarmonics + 1) * (maxHarmonics + 2))
        transforms = .allocate(capacity: 2 * maxHarmonics + 1)
    }

    deinit {
        hann.deallocate()
        blackmanHarris.deallocate()
        UnsafeMutableRawPointer(folded).deallocate()
        sums.deallocate()
        isLoud.deallocate()
        loudOrders.deallocate()
        loudSums.deallocate()
        fitScratch.deallocate()
        transforms.deallocate()
    }

    /// S0 = Σ y e^{−ihωt}, S1 = Σ t y e^{−ihωt} and S2 = Σ t² y e^{−ihωt} of one harmonic `h`.
    struct HarmonicSums {
        var s0r = 0.0, s0i = 0.0, s1r = 0.0, s1i = 0.0, s2r = 0.0, s2i = 0.0

        /// |X(hω)|² = |S0|².
        var power: Double { s0r * s0r + s0i * s0i }
    }

    /// Result of a refinement: the fundamental and the power the harmonics carry.
    struct Result {
        var omega: Double
        /// Σₕ |X(hω)|² normalised to the mean power of the harmonics in the frame (sum of A²/2).
        var harmonicPower: Double
        /// The frame's mean power under the same window (Σ(w·x)² / Σw²): what
        /// `harmonicPower` is a part of. The plain mean of x² is not: over a
        /// window that holds a fraction of a cycle more or less, a clean
        /// sine's reads up to about 1e-3 of its power off, which an SNR then
        /// took for noise.
        var windowedPower: Double
        var harmonics: Int
        /// The fundamental's share of the harmonics' power (at the start ω).
        var fundamentalShare: Double
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
        let transform = useBlackmanHarris ? blackmanHarrisTransform : hannTransform
        let sumWindow = useBlackmanHarris ? blackmanHarrisSum : hannSum
        let squareSumWindow = useBlackmanHarris ? blackmanHarrisSquareSum : hannSquareSum
        let half = w / 2
        // Four pairs at a time, in four single-precision lanes (the lower
        // halves loaded together and reversed); t and t² are exact in single
        // precision (t² ≤ 2²² with a quarter's fraction for W ≤ 4096, and
        // within rounding above). Half the frame is a multiple of four (a
        // power of two ≥ 128).
        let folded = self.folded
        var t = SIMD4<Float>(0.5, 1.5, 2.5, 3.5)
        // For the windowed power: Σy² (y(t)² + y(−t)² = (E² + O²) / 2), Σw·y
        // (= Σw(t)·E: the window is symmetric) and Σy (= ΣE), a block's
        // worth in single precision, then in double. Half the frame is whole
        // blocks (a power of two ≥ 128).
        var squares = SIMD4<Double>(), weighted = SIMD4<Double>(), plain = SIMD4<Double>()
        var blockStart = 0
        while blockStart < half {
            let end = blockStart + Angles.block
            var blockSquares = SIMD4<Float>(), blockWeighted = SIMD4<Float>(), blockPlain = SIMD4<Float>()
            var m = blockStart
            while m < end {
                let upperWindow = UnsafeRawPointer(window + half + m).loadUnaligned(as: SIMD4<Float>.self)
                let upper = upperWindow * UnsafeRawPointer(frame + half + m).loadUnaligned(as: SIMD4<Float>.self)
                let below = UnsafeRawPointer(window + half - 4 - m).loadUnaligned(as: SIMD4<Float>.self)
                    * UnsafeRawPointer(frame + half - 4 - m).loadUnaligned(as: SIMD4<Float>.self)
                let lower = SIMD4(below[3], below[2], below[1], below[0])
                let even = upper + lower, odd = upper - lower
                blockSquares += even * even + odd * odd
                blockWeighted += upperWindow * even
                blockPlain += even
                let tSquares = t * t
                UnsafeMutableRawPointer(folded + m).storeBytes(of: even, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(folded + half + m).storeBytes(of: odd, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(folded + 2 * half + m).storeBytes(of: t * odd, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(folded + 3 * half + m).storeBytes(of: t * even, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(folded + 4 * half + m).storeBytes(of: tSquares * even, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(folded + 5 * half + m).storeBytes(of: tSquares * odd, as: SIMD4<Float>.self)
                t += 4
                m += 4
            }
            squares += SIMD4<Double>(blockSquares)
            weighted += SIMD4<Double>(blockWeighted)
            plain += SIMD4<Double>(blockPlain)
            blockStart = end
        }
        // Σw(x − μ)² / Σw² with μ the windowed mean Σwx / Σw: the frame's
        // plain mean, taken out before, leaves a constant under the window
        // when the frame holds a fraction of a cycle more or less, and that
        // constant is not part of any harmonic.
        let constant = plain.sum()
        let windowedMean = constant / sumWindow
        let windowedPower = (squares.sum() / 2 - 2 * windowedMean * weighted.sum()
                             + windowedMean * windowedMean * squareSumWindow) / squareSumWindow
        var omega = start
        var harmonics = max(1, min(maxHarmonics, Int(harmonicLimit / start)))
        var power = 0.0, fundamentalShare = 0.0, imageFree = 1.0
        for _ in 0..<iterations {
            harmonics = evaluate(omega: omega, harmonics: harmonics)
            var first = 0.0, second = 0.0
            power = 0
            var plainPower = 0.0, corrected = 0.0, loud = 0
            for k in 0..<harmonics {
                let h = Double(k + 1)
                // X = S0, X' = −i·S1, X'' = −S2 (derivatives in ω at h·ω).
                let sum = sums[k]
                let xr = sum.s0r, xi = sum.s0i            // S0 (re, im)
                let dr = sum.s1i, di = -sum.s1r           // X' = −i(S1r + i S1i) = S1i − i S1r
                let sr = -sum.s2r, si = -sum.s2i          // X''
                plainPower += sum.power
                // A quiet harmonic: its power, nothing for the step.
                guard isLoud[k] else {
                    power += sum.power
                    corrected += sum.power
                    continue
                }
                // The partial's own power. A real partial's S0 carries its
                // negative-frequency image, A/2·(e^{iφ}·W(0) + e^{−iφ}·W(2hω)),
                // W the window's transform (real: the window is symmetric
                // about t = 0): its real part carries W(0) + W(2hω), its
                // imaginary part W(0) − W(2hω). |S0|² is then off A²/4·W(0)²
                // by a cross term that moves with the phase, up to 1e-5 of it
                // through Blackman–Harris at 7 bins and 1e-3 through Hann at
                // 4 (a clean sine's SNR read 58 dB, or 34); each part divided
                // by its own is not.
                let image = transform.at(2 * h * omega)
                let along = xr * sumWindow / (sumWindow + image), across = xi * sumWindow / (sumWindow - image)
                corrected += along * along + across * across
                if useBlackmanHarris {
                    // J = Σ|X|²: its top is the partials' frequency within a
                    // thousandth of a cent at 6 bins and more (Blackman–Harris's
                    // sidelobes, −92 dB, keep the image and the neighbours out).
                    power += sum.power
                    first += h * 2 * (xr * dr + xi * di)
                    second += h * h * 2 * (xr * sr + xi * si + dr * dr + di * di)
                } else {
                    (loudOrders + loud).pointee = h
                    let stored = loudSums + 6 * loud
                    (stored[0], stored[1], stored[2], stored[3], stored[4], stored[5]) = (xr, dr, sr, xi, di, si)
                    loud += 1
                }
            }
            if !useBlackmanHarris && loud > 0 {
                // Below 6 bins of spacing, under Hann, the partials' main lobes
                // reach their images, each other and the frame's constant, and
                // |S0|²'s top was off the pitch: 3.7 cents low at 30.87 Hz
                // (2.6 bins), 0.15 cent at 50 Hz. What is maximised there is
                // the energy of the window-weighted least-squares fit of the
                // loud partials and a constant together (`jointFitEnergy`),
                // whose top is a clean harmonic sound's pitch; at ω ± δ, each
                // partial's S0 carried there by its Taylor series (S1, S2),
                // for the Newton step's derivatives.
                let delta = 0.001 * 2 * Double.pi / Double(w)
                let below = jointFitEnergy(omega: omega, offset: -delta, loud: loud, constant: constant)
                let centre = jointFitEnergy(omega: omega, offset: 0, loud: loud, constant: constant)
                let above = jointFitEnergy(omega: omega, offset: delta, loud: loud, constant: constant)
                power += centre
                first = (above - below) / (2 * delta)
                second = (above - 2 * centre + below) / (delta * delta)
            }
            fundamentalShare = plainPower > 0 ? sums[0].power / plainPower : 0
            imageFree = power > 0 && corrected.isFinite ? corrected / power : 1
            guard second < 0 else { break }
            var step = -first / second
            // Never leave the main lobe of the fundamental's peak.
            let limit = Double.pi / Double(w)
            step = min(max(step, -limit), limit)
            omega += step
            // The power at the new ω, by the quadratic model the step comes
            // from (J the fit's energy, `first` = J′, `second` = J″): the
            // evaluation's own is at the old ω, on the flank of each main
            // lobe, and a start a fifth of a bin off (a high note's NSDF
            // period) lost 0.1 % of a sine's power there: 0.005 dB of level,
            // and an SNR of 30 dB.
            power += first * step + 0.5 * second * step * step
        }
        // |X|² of a sine of amplitude A is (A·Σw/2)²; A²/2 per harmonic.
        return Result(omega: omega, harmonicPower: power * imageFree * 2 / (sumWindow * sumWindow),
                      windowedPower: windowedPower, harmonics: harmonics, fundamentalShare: fundamentalShare)
    }

    /// S0 = Σ y e^{−ihωt}, S1 = Σ t y e^{−ihωt}, S2 = Σ t² y e^{−ihωt} for h = 1…harmonics,
    /// into `sums`.
    ///
    /// Returns how many harmonics it evaluated: it stops after a group of
    /// four whose harmonics (the fundamental aside) carry less than
    /// `quietFraction` of the power found so far, so a pure tone costs four
    /// harmonics instead of eight. What the rest would add to the Newton step
    /// is of that order too (their own leakage and noise).
    ///
    /// A quiet harmonic (below `quietFraction` of the power found before it)
    /// counts with its power only: its S1 and S2, a part of the Newton step
    /// of that order, are zero, so it needs only S0 (two of the six folded
    /// arrays). A harmonic quiet in the last evaluation gets its S0 first and
    /// its S1 and S2 only if it turns out loud; one loud then gets all three
    /// in one pass (and loses S1 and S2 if it turns out quiet). The guess
    /// picks the cheaper path for a steady sound and never the result.
    private func evaluate(omega: Double, harmonics: Int) -> Int {
        // Harmonic h's angles are h times the fundamental's: libm for the
        // fundamental only, a double-precision rotation per further harmonic
        // (≤ 7 of them: an error of a few 1e-16, far below the phasors' single precision).
        let fundamental = Angles(omega: omega)
        var angles = fundamental
        var first = 0, found = 0.0
        while first < harmonics {
            let count = min(4, harmonics - first)
            var quiet = 0.0
            for k in first..<(first + count) {
                if k > 0 { angles.rotate(by: fundamental) }
                var sum: HarmonicSums
                if k == 0 || isLoud[k] {
                    var all = AllSums()
                    accumulate(angles, into: &all)
                    sum = all.result
                } else {
                    var power = PowerSums()
                    accumulate(angles, into: &power)
                    sum = power.result
                }
                let loud = k == 0 || sum.power >= Self.quietFraction * found
                if loud && !(k == 0 || isLoud[k]) {
                    var derivatives = DerivativeSums()
                    accumulate(angles, into: &derivatives)
                    (sum.s1r, sum.s1i, sum.s2r, sum.s2i) = derivatives.result
                } else if !loud {
                    (sum.s1r, sum.s1i, sum.s2r, sum.s2i) = (0, 0, 0, 0)
                }
                isLoud[k] = loud
                sums[k] = sum
                if k > 0 { quiet += sum.power }
                found += sum.power
            }
            first += count
            if count >= 4 && quiet < Self.quietFraction * found { break }
        }
        return first
    }

    /// What one pass over the folded pairs sums: `Lanes` accumulators, fed
    /// eight pairs a step (two runs of four lanes, the phasors of each).
    private protocol PairSums {
        /// Adds pairs m…m+7 with the phasors `c`, `s` (pairs m…m+3) and `c4`, `s4` (m+4…m+7).
        mutating func add(_ folded: UnsafeMutablePointer<Float>, half: Int, _ m: Int,
                          c: SIMD4<Float>, s: SIMD4<Float>, c4: SIMD4<Float>, s4: SIMD4<Float>)
        /// Moves a block's single-precision sums into the double-precision totals.
        mutating func endBlock()
    }

    /// S0, S1 and S2: all six arrays, in one pass.
    private struct AllSums: PairSums {
        var power = PowerSums(), derivatives = DerivativeSums()
        @inline(__always)
        mutating func add(_ folded: UnsafeMutablePointer<Float>, half: Int, _ m: Int,
                          c: SIMD4<Float>, s: SIMD4<Float>, c4: SIMD4<Float>, s4: SIMD4<Float>) {
            power.add(folded, half: half, m, c: c, s: s, c4: c4, s4: s4)
            derivatives.add(folded, half: half, m, c: c, s: s, c4: c4, s4: s4)
        }
        @inline(__always)
        mutating func endBlock() {
            power.endBlock()
            derivatives.endBlock()
        }
        var result: HarmonicSums {
            var sums = power.result
            (sums.s1r, sums.s1i, sums.s2r, sums.s2i) = derivatives.result
            return sums
        }
    }

    /// S0 only: the arrays E and O.
    private struct PowerSums: PairSums {
        var block = (SIMD4<Float>(), SIMD4<Float>())
        var total = (SIMD4<Double>(), SIMD4<Double>())
        @inline(__always)
        mutating func add(_ folded: UnsafeMutablePointer<Float>, half: Int, _ m: Int,
                          c: SIMD4<Float>, s: SIMD4<Float>, c4: SIMD4<Float>, s4: SIMD4<Float>) {
            let e = folded, o = folded + half
            block.0 += lanes(e, m) * c + lanes(e, m + 4) * c4
            block.1 += lanes(o, m) * s + lanes(o, m + 4) * s4
        }
        @inline(__always)
        mutating func endBlock() {
            total.0 += SIMD4<Double>(block.0); total.1 -= SIMD4<Double>(block.1)
            block = (SIMD4<Float>(), SIMD4<Float>())
        }
        var result: HarmonicSums { HarmonicSums(s0r: total.0.sum(), s0i: total.1.sum()) }
    }

    /// S1 and S2 only: the four arrays weighted by t and t².
    private struct DerivativeSums: PairSums {
        var block = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
        var total = (SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>())
        @inline(__always)
        mutating func add(_ folded: UnsafeMutablePointer<Float>, half: Int, _ m: Int,
                          c: SIMD4<Float>, s: SIMD4<Float>, c4: SIMD4<Float>, s4: SIMD4<Float>) {
            let to = folded + 2 * half, te = folded + 3 * half, tte = folded + 4 * half, tto = folded + 5 * half
            block.0 += lanes(to, m) * c + lanes(to, m + 4) * c4
            block.1 += lanes(te, m) * s + lanes(te, m + 4) * s4
            block.2 += lanes(tte, m) * c + lanes(tte, m + 4) * c4
            block.3 += lanes(tto, m) * s + lanes(tto, m + 4) * s4
        }
        @inline(__always)
        mutating func endBlock() {
            total.0 += SIMD4<Double>(block.0); total.1 -= SIMD4<Double>(block.1)
            total.2 += SIMD4<Double>(block.2); total.3 -= SIMD4<Double>(block.3)
            block = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
        }
        /// (S1 re, S1 im, S2 re, S2 im).
        var result: (Double, Double, Double, Double) { (total.0.sum(), total.1.sum(), total.2.sum(), total.3.sum()) }
    }

    /// One harmonic's sums at `angles` over the folded pairs, S0 = Σ E cos − i O sin,
    /// S1 = Σ tO cos − i tE sin, S2 = Σ t²E cos − i t²O sin (t > 0): those of them `sums` takes.
    ///
    /// Eight consecutive pairs a step, as two runs of four single-precision
    /// lanes loaded straight from the folded arrays (one lane per harmonic
    /// instead needs a broadcast per array and pair, the loop's costliest
    /// part), each run with its own phasor recurrence eight pairs a step:
    /// two independent rotations, so the loop waits on neither's latency.
    /// The phasors restart from exact values every `block` pairs and the
    /// sums go into double precision per block, so rounding neither drifts
    /// nor accumulates.
    @inline(__always)
    private func accumulate<Sums: PairSums>(_ angles: Angles, into sums: inout Sums) {
        let half = frameSize / 2, block = Angles.block    // half is a power of two ≥ 128: whole blocks of whole steps
        // Lane l of the first run starts at t = l + ½, of the second at
        // t = l + 4½; each start advances by a block through a double-
        // precision rotation (a few dozen per frame: no drift worth the name,
        // and no libm per block).
        let oneC = angles.cosines[1], oneS = angles.sines[1]
        var startC = SIMD8<Double>(repeating: angles.cosines[0]), startS = SIMD8<Double>(repeating: angles.sines[0])
        for lane in 1..<8 {
            startC[lane] = startC[lane - 1] * oneC - startS[lane - 1] * oneS
            startS[lane] = startC[lane - 1] * oneS + startS[lane - 1] * oneC
        }
        let blockC = angles.cosines[3], blockS = angles.sines[3]
        let stepC = SIMD4<Float>(repeating: Float(angles.cosines[2])), stepS = SIMD4<Float>(repeating: Float(angles.sines[2]))
        var start = 0
        while start < half {
            let end = min(half, start + block)
            var c = SIMD4<Float>(startC.lowHalf), s = SIMD4<Float>(startS.lowHalf)
            var c4 = SIMD4<Float>(startC.highHalf), s4 = SIMD4<Float>(startS.highHalf)
            let nextC = startC * blockC - startS * blockS
            startS = startC * blockS + startS * blockC
            startC = nextC
            var m = start
            // safe: `folded` is 64-byte aligned and every array in it starts at a multiple of four floats.
            while m < end {
                sums.add(folded, half: half, m, c: c, s: s, c4: c4, s4: s4)
                let nc = c * stepC - s * stepS, nc4 = c4 * stepC - s4 * stepS
                s = c * stepS + s * stepC
                s4 = c4 * stepS + s4 * stepC
                c = nc
                c4 = nc4
                m += 8
            }
            sums.endBlock()
            start = end
        }
    }

    /// Cosines and sines of the angles one harmonic's sums need, for `ωₕ`
    /// radians per sample: ωₕ/2 (the first pair's), ωₕ (a pair's step), 8ωₕ
    /// (a step of the recurrences) and `block`·ωₕ (a block's), in lanes 0–3.
    struct Angles {
        /// Pairs between two exact restarts of the phasors.
        static var block: Int { 128 }
        var cosines: SIMD4<Double>, sines: SIMD4<Double>

        init(omega: Double) {
            let angles = SIMD4<Double>(0.5, 1, 8, Double(Self.block)) * omega
            cosines = SIMD4(cos(angles[0]), cos(angles[1]), cos(angles[2]), cos(angles[3]))
            sines = SIMD4(sin(angles[0]), sin(angles[1]), sin(angles[2]), sin(angles[3]))
        }

        /// From harmonic h's angles to harmonic h + 1's: adds the fundamental's.
        @inline(__always)
        mutating func rotate(by fundamental: Angles) {
            let nextCosines = cosines * fundamental.cosines - sines * fundamental.sines
            sines = cosines * fundamental.sines + sines * fundamental.cosines
            cosines = nextCosines
        }
    }


    /// The energy of the window-weighted least-squares fit of the loud
    /// partials (`loudOrders`, with their S0 and its derivatives in
    /// `loudSums`) and a constant to the frame, at the fundamental
    /// `omega + offset`, in |S0|²'s units (W(0)²/4 per unit amplitude
    /// squared): what the partials add to the constant's fit alone. Each
    /// partial's S0 there is its Taylor series from `omega`. With t about the
    /// frame's centre and the window symmetric, the cosines and the constant
    /// are one set of normal equations and the sines another; their Gram
    /// matrices come from the window's transform W:
    /// Σw·cos(h·ωt)·cos(h′·ωt) = (W((h − h′)ω) + W((h + h′)ω))/2, the sines'
    /// with a minus, Σw·cos(h·ωt) = W(hω). One partial alone, with no
    /// constant and W(2hω) = 0, gives |S0|².
    private func jointFitEnergy(omega centre: Double, offset: Double, loud: Int, constant: Double) -> Double {
        let omega = centre + offset
        let w0 = hannSum
        // W at every multiple of ω the matrices need (the orders are whole
        // numbers: their sums and differences reach twice the highest).
        let highest = Int(loudOrders[loud - 1])
        for multiple in 0...(2 * highest) {
            transforms[multiple] = multiple == 0 ? w0
                : hannTransform.at(Double(multiple) * omega)
        }
        func window(_ multiple: Double) -> Double { transforms[Int(multiple)] }
        let even = loud + 1
        let gram = fitScratch, right = fitScratch + even * even
        // The cosines and the constant.
        gram[0] = w0
        right[0] = constant
        for i in 0..<loud {
            let h = loudOrders[i]
            let sums = loudSums + 6 * i
            right[i + 1] = sums[0] + offset * h * sums[1] + 0.5 * offset * offset * h * h * sums[2]
            gram[i + 1] = window(h)
            gram[(i + 1) * even] = gram[i + 1]
            for j in 0...i {
                let other = loudOrders[j]
                let value = (window(abs(h - other)) + window(h + other)) / 2
                gram[(i + 1) * even + j + 1] = value
                gram[(j + 1) * even + i + 1] = value
            }
        }
        let evenEnergy = Self.quadraticForm(gram, right, even) - constant * constant / w0
        // The sines.
        for i in 0..<loud {
            let h = loudOrders[i]
            let sums = loudSums + 6 * i
            right[i] = sums[3] + offset * h * sums[4] + 0.5 * offset * offset * h * h * sums[5]
            for j in 0...i {
                let other = loudOrders[j]
                let value = (window(abs(h - other)) - window(h + other)) / 2
                gram[i * loud + j] = value
                gram[j * loud + i] = value
            }
        }
        let oddEnergy = Self.quadraticForm(gram, right, loud)
        return w0 / 2 * (evenEnergy + oddEnergy)
    }

    /// rᵀ·G⁻¹·r for the symmetric positive definite n × n `gram` (row-major;
    /// both are overwritten), by Cholesky: ‖L⁻¹r‖² with G = L·Lᵀ.
    static func quadraticForm(_ gram: UnsafeMutablePointer<Double>, _ right: UnsafeMutablePointer<Double>,
                              _ n: Int) -> Double {
        for j in 0..<n {
            var diagonal = gram[j * n + j]
            for k in 0..<j { diagonal -= gram[j * n + k] * gram[j * n + k] }
            guard diagonal > 0 else { return .nan }
            let root = diagonal.squareRoot()
            gram[j * n + j] = root
            for i in (j + 1)..<n {
                var value = gram[i * n + j]
                for k in 0..<j { value -= gram[i * n + k] * gram[j * n + k] }
                gram[i * n + j] = value / root
            }
        }
        var energy = 0.0
        for i in 0..<n {
            var value = right[i]
            for k in 0..<i { value -= gram[i * n + k] * right[k] }
            right[i] = value / gram[i * n + i]
            energy += right[i] * right[i]
        }
        return energy
    }

    /// The windows as cosine sums about the frame's centre, w(t) = Σₖ cₖ·cos(2πkt/W)
    /// (t = n + ½ − W/2): the stored windows' terms with their signs turned by that shift.
    static let hannTerms = [0.5, 0.5]
    static let blackmanHarrisTerms = [0.35875, 0.48829, 0.14128, 0.01168]

    /// W(θ) = Σₜ w(t)·cos(θt) of a window of `frameSize` samples with these
    /// cosine terms, over t = ±½, ±3/2, …: each term a pair of Dirichlet
    /// kernels D(θ ∓ 2πk/W), D(x) = sin(Wx/2) / sin(x/2). The shifts turn each
    /// numerator into (−1)ᵏ·sin(Wθ/2) and each denominator into
    /// sin(θ/2)·cos(πk/W) ∓ cos(θ/2)·sin(πk/W): three libm calls for all of
    /// them, the shifts' sines and cosines made once. θ stays clear of every
    /// 2πk/W (two periods and more in a frame: θ = 2hω is four bins and more)
    /// and of 2π (harmonics below 0.95π).
    struct WindowTransform {
        let terms: [Double]
        let frameSize: Int
        /// cos(πk/W) and sin(πk/W) of each term k ≥ 1 (at k − 1).
        private let shiftCosines: [Double], shiftSines: [Double]

        init(terms: [Double], frameSize: Int) {
            self.terms = terms
            self.frameSize = frameSize
            let shifts = (1..<terms.count).map { Double.pi * Double($0) / Double(frameSize) }
            shiftCosines = shifts.map { cos($0) }
            shiftSines = shifts.map { sin($0) }
        }

        func at(_ theta: Double) -> Double {
            let numerator = sin(Double(frameSize) * theta / 2)
            let halfSine = sin(theta / 2), halfCosine = cos(theta / 2)
            var total = terms[0] / halfSine
            var sign = 1.0
            for k in 1..<terms.count {
                sign = -sign
                let along = halfSine * shiftCosines[k - 1], across = halfCosine * shiftSines[k - 1]
                total += sign * terms[k] / 2 * (1 / (along - across) + 1 / (along + across))
            }
            return numerator * total
        }
    }

    /// −60 dB: below this share of the power, further harmonics are not evaluated.
    static let quietFraction = 1e-6
}

/// Four floats from `array + m` (`m` a multiple of four), an aligned load.
@inline(__always)
private func lanes(_ array: UnsafeMutablePointer<Float>, _ m: Int) -> SIMD4<Float> {
    UnsafeRawPointer(array + m).load(as: SIMD4<Float>.self)
}
