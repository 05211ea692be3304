#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The harmonic sums over the folded frame

extension HarmonicRefiner {
    /// S0 = Σ y e^{−ihωt}, S1 = Σ t y e^{−ihωt} and S2 = Σ t² y e^{−ihωt} of one harmonic `h`.
    struct HarmonicSums {
        var s0r = 0.0, s0i = 0.0, s1r = 0.0, s1i = 0.0, s2r = 0.0, s2i = 0.0

        /// |X(hω)|² = |S0|².
        var power: Double { s0r * s0r + s0i * s0i }
    }

    /// A harmonic's S1 and S2 put off: under the last noise floor, it
    /// likely stays under it, and then the step does not read them.
    struct DeferredDerivatives {
        /// Whether the harmonic was under the noise floor at the last evaluation `refine` read.
        var belowFloor = false
        /// The harmonic's angles when its S1 and S2 are still to be summed, else nil.
        var angles: Angles?
    }

    /// Sums harmonic `k`'s S1 and S2 if `evaluate` put them off: the same
    /// sums, so the same values, as summing them with its S0.
    func completeDerivatives(_ k: Int) {
        guard let angles = deferred[k].angles else { return }
        var derivatives = DerivativeSums()
        accumulate(angles, into: &derivatives)
        (sums[k].s1r, sums[k].s1i, sums[k].s2r, sums[k].s2i) = derivatives.result
        deferred[k].angles = nil
    }

    /// −60 dB: below this share of the power, further harmonics are not evaluated.
    static let quietFraction = 1e-6

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
    func evaluate(omega: Double, harmonics: Int) -> Int {
        evaluations += 1
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
                deferred[k].angles = nil
                if k == 0 || (isLoud[k] && !deferred[k].belowFloor) {
                    var all = AllSums()
                    accumulate(angles, into: &all)
                    sum = all.result
                } else {
                    var power = PowerSums()
                    accumulate(angles, into: &power)
                    sum = power.result
                }
                let loud = k == 0 || sum.power >= Self.quietFraction * found
                if loud && k > 0 && isLoud[k] && deferred[k].belowFloor {
                    // Loud but under the last noise floor: S1 and S2 when `refine` finds it over this one.
                    deferred[k].angles = angles
                    (sum.s1r, sum.s1i, sum.s2r, sum.s2i) = (0, 0, 0, 0)
                } else if loud && !(k == 0 || isLoud[k]) {
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
}

/// Four floats from `array + m` (`m` a multiple of four), an aligned load.
@inline(__always)
private func lanes(_ array: UnsafeMutablePointer<Float>, _ m: Int) -> SIMD4<Float> {
    UnsafeRawPointer(array + m).load(as: SIMD4<Float>.self)
}
