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
/// The harmonic sums over the folded frame are in `HarmonicRefiner+Sums`,
/// the joint fit under Hann in `HarmonicRefiner+JointFit`; the scratch they
/// share is internal for them, never used outside.
///
/// Worker only: owns its scratch buffers.
final class HarmonicRefiner {
    let frameSize: Int
    /// The windows in single precision: the fold works in four single-precision lanes.
    private let hann: UnsafeMutablePointer<Float>
    private let blackmanHarris: UnsafeMutablePointer<Float>
    let hannSum: Double
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
    let folded: UnsafeMutablePointer<Float>
    /// Harmonics used at most.
    let maxHarmonics: Int
    /// The last evaluation's sums, harmonic `h` at `h − 1` (`maxHarmonics` of them).
    let sums: UnsafeMutablePointer<HarmonicSums>
    /// Under Hann, the loud harmonics' orders and their S0, X′ and X″ (re, re′,
    /// re″, im, im′, im″ each), and room for the joint fit's Gram matrix and
    /// right-hand side (`jointFitEnergy`).
    let loudOrders: UnsafeMutablePointer<Double>
    let loudSums: UnsafeMutablePointer<Double>
    let fitScratch: UnsafeMutablePointer<Double>
    /// W(k·ω) for k = 0…2·maxHarmonics, the joint fit's Gram entries.
    let transforms: UnsafeMutablePointer<Double>
    /// The windows' transforms W(θ) (see `WindowTransform`).
    let hannTransform: WindowTransform
    private let blackmanHarrisTransform: WindowTransform
    /// Whether harmonic `h` (at `h − 1`) was loud in the last evaluation
    /// (quiet: below `quietFraction` of the power before it, S1 and S2 zero):
    /// what `refine` reads right after it, and the next evaluation's guess of
    /// the path that costs least, never of the result.
    let isLoud: UnsafeMutablePointer<Bool>
    /// Per harmonic, whether it was under the last noise floor, and its S1 and S2 left to do (`completeDerivatives`).
    let deferred: UnsafeMutablePointer<DeferredDerivatives>
    /// Evaluations of the harmonic sums so far, each a pass over the folded frame (tests read it).
    var evaluations = 0

    init(frameSize: Int, maxHarmonics: Int) {
        self.frameSize = frameSize
        self.maxHarmonics = maxHarmonics
        hann = .allocate(capacity: frameSize)
        blackmanHarris = .allocate(capacity: frameSize)
        var hannSum = 0.0, blackmanHarrisSum = 0.0, hannSquareSum = 0.0, blackmanHarrisSquareSum = 0.0
        for n in 0..<frameSize {
            let hannValue = CosineSumWindow.hann.value(n, size: frameSize, sampling: .halfSampleShifted)
            let blackmanHarrisValue = CosineSumWindow.blackmanHarris.value(n, size: frameSize, sampling: .halfSampleShifted)
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
        hannTransform = WindowTransform(.hann, frameSize: frameSize)
        blackmanHarrisTransform = WindowTransform(.blackmanHarris, frameSize: frameSize)
        let foldedCount = 6 * (frameSize / 2)
        folded = UnsafeMutableRawPointer.allocate(byteCount: foldedCount * MemoryLayout<Float>.stride, alignment: 64)
            .bindMemory(to: Float.self, capacity: foldedCount)
        folded.initialize(repeating: 0, count: foldedCount)
        sums = .allocate(capacity: maxHarmonics)
        sums.initialize(repeating: HarmonicSums(), count: maxHarmonics)
        isLoud = .allocate(capacity: maxHarmonics)
        isLoud.initialize(repeating: true, count: maxHarmonics)
        deferred = .allocate(capacity: maxHarmonics)
        deferred.initialize(repeating: DeferredDerivatives(), count: maxHarmonics)
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
        deferred.deallocate()
        loudOrders.deallocate()
        loudSums.deallocate()
        fitScratch.deallocate()
        transforms.deallocate()
    }

    /// - Parameters:
    ///   - frame: `frameSize` samples, mean removed (single precision, as the sums are).
    ///   - omega: start, in radians per sample, close enough that each used harmonic is within its main lobe.
    ///   - harmonicLimit: use harmonics `h` with `h·ω` below this (radians per sample).
    ///   - iterations: Newton steps at most; one suffices from an NSDF start on a clean sound (quadratic
    ///     convergence); `PitchDetector` takes three, which noise needs. Fewer when one is converged
    ///     (`convergedStepBins`; 0 takes every step).
    func refine(_ frame: UnsafePointer<Float>, omega start: Double, harmonicLimit: Double,
                iterations: Int = 1, convergedStepBins: Double = HarmonicRefiner.convergedStepBins) -> Result {
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
        var noiseFloor = 0.0, converged: Double?    // converged: where the last evaluation was, if its step was below the tolerance
        for _ in 0..<iterations {
            harmonics = evaluate(omega: omega, harmonics: harmonics)
            noiseFloor = self.noiseFloor(harmonics: harmonics, windowedPower: windowedPower, sumWindow: sumWindow,
                                         squareSumWindow: squareSumWindow)
            var first = 0.0, second = 0.0
            power = 0
            var plainPower = 0.0, corrected = 0.0, loud = 0
            for k in 0..<harmonics {
                let h = Double(k + 1)
                // X = S0, X' = −i·S1, X'' = −S2 (derivatives in ω at h·ω).
                plainPower += sums[k].power
                // A quiet harmonic, or one that does not stand out of the
                // noise (`noiseFloor`): its power, nothing for the step.
                deferred[k].belowFloor = !(isLoud[k] && (k == 0 || sums[k].power >= noiseFloor))
                guard !deferred[k].belowFloor else {
                    power += sums[k].power
                    corrected += sums[k].power
                    continue
                }
                completeDerivatives(k)
                let sum = sums[k]
                let xr = sum.s0r, xi = sum.s0i            // S0 (re, im)
                let dr = sum.s1i, di = -sum.s1r           // X' = −i(S1r + i S1i) = S1i − i S1r
                let sr = -sum.s2r, si = -sum.s2i          // X''
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
            if abs(step) * Double(w * harmonics) <= convergedStepBins * 2 * Double.pi { converged = omega - step; break }
        }
        let lone = isLone(noiseFloor: noiseFloor, harmonics: harmonics)
        if useBlackmanHarris {
            omega = anchoredOnFirstPartial(omega, evaluatedAt: converged, noiseFloor: noiseFloor, harmonics: harmonics)
        }
        // |X|² of a sine of amplitude A is (A·Σw/2)²; A²/2 per harmonic.
        return Result(omega: omega, harmonicPower: power * imageFree * 2 / (sumWindow * sumWindow),
                      windowedPower: windowedPower, harmonics: harmonics, fundamentalShare: fundamentalShare,
                      isLone: lone)
    }
}
