#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The sums of one Gauss–Newton pass

extension SinusoidFit {
    /// The sums of one pass that involve the samples, for the residual
    /// `r = x − (a·C + b·S + c)` with `C = cos ωt`, `S = sin ωt`.
    struct ResidualSums {
        /// Σ C·r, Σ S·r, Σ r, Σ t·C·r, Σ t·S·r, Σ r².
        var cr = 0.0, sr = 0.0, r1 = 0.0, tcr = 0.0, tsr = 0.0, rr = 0.0

        /// The same sums after the model gains `a·C + b·S + c` (from the closed-form `basis`).
        mutating func moveModel(by added: (a: Double, b: Double, c: Double), basis: ModelSums) {
            let (a, b, c) = added
            // Σ r'² = Σ r² − 2 Σ r·m + Σ m² for the added m.
            rr += -2 * (a * cr + b * sr + c * r1)
                + a * a * basis.cc + b * b * basis.ss + c * c * basis.count + 2 * a * c * basis.c1
            cr -= a * basis.cc + c * basis.c1
            sr -= b * basis.ss
            r1 -= a * basis.c1 + c * basis.count
            tcr -= b * basis.tcs
            tsr -= a * basis.tcs + c * basis.ts
        }
    }

    /// Sums of the model's own terms over `t = n − (N−1)/2`, in closed form
    /// from the Dirichlet kernel `D(θ) = Σ cos θt = sin(Nθ/2)/sin(θ/2)` and
    /// its derivatives (`Σ t sin θt = −D′`, `Σ t² cos θt = −D″`), so a pass
    /// over the frame need not accumulate them. Σ S, Σ C·S, Σ t·C, Σ t·C²,
    /// Σ t·S² and Σ t²·C·S vanish: odd functions of the symmetric t.
    struct ModelSums {
        let count: Double
        /// Σ C², Σ S², Σ C.
        let cc: Double, ss: Double, c1: Double
        /// Σ t·C·S, Σ t·S.
        let tcs: Double, ts: Double
        /// Σ t²·C², Σ t²·S².
        let ttcc: Double, ttss: Double

        init(count: Int, omega: Double) {
            let n = Double(count)
            let double = Self.dirichlet(count: n, theta: 2 * omega), single = Self.dirichlet(count: n, theta: omega)
            let squares = n * (n * n - 1) / 12    // Σ t²
            self.count = n
            cc = (n + double.value) / 2
            ss = (n - double.value) / 2
            c1 = single.value
            tcs = -double.first / 2
            ts = -single.first
            ttcc = (squares - double.second) / 2
            ttss = (squares + double.second) / 2
        }

        /// JᵀJ of the model at (a, b, c, ω); the columns are ∂/∂a = C,
        /// ∂/∂b = S, ∂/∂c = 1 and ∂/∂ω = t·(b·C − a·S).
        /// Row-major, fixed-size (no allocation).
        func normalMatrix(a: Double, b: Double) -> SIMD16<Double> {
            let cw = -a * tcs, sw = b * tcs, w1 = -a * ts
            let ww = b * b * ttcc + a * a * ttss
            return SIMD16(cc, 0, c1, cw,
                          0, ss, 0, sw,
                          c1, 0, count, w1,
                          cw, sw, w1, ww)
        }

        /// D(θ), D′(θ), D″(θ) for the symmetric t of `count` samples (θ not a multiple of 2π).
        static func dirichlet(count n: Double, theta: Double) -> (value: Double, first: Double, second: Double) {
            let f = sin(n * theta / 2), f1 = n / 2 * cos(n * theta / 2), f2 = -n * n / 4 * f
            let g = sin(theta / 2), g1 = cos(theta / 2) / 2, g2 = -g / 4
            let value = f / g
            let first = (f1 * g - f * g1) / (g * g)
            let second = (f2 * g * g - f * g * g2 - 2 * g1 * (f1 * g - f * g1)) / (g * g * g)
            return (value, first, second)
        }
    }

    /// Calls `body(n, cos ωt, sin ωt)` for the sample pairs n, n + 1 (n even)
    /// as two lanes, each lane's phasor stepped by 2ω and re-seeded from
    /// libm every 256 samples so rounding cannot build up; then `last` for
    /// the last sample of an odd count.
    @inline(__always)
    static func forEachPhasorPair(count: Int, omega: Double,
                                  _ body: (Int, SIMD2<Double>, SIMD2<Double>) -> Void,
                                  last: (Int, Double, Double) -> Void) {
        let pairs = count & ~1
        let t0 = -Double(count - 1) / 2
        let stepCos = cos(2 * omega), stepSin = sin(2 * omega)
        var index = 0
        while index < pairs {
            let blockEnd = min(pairs, index + 256)
            let angle = omega * (t0 + Double(index))
            var cosine = SIMD2(cos(angle), cos(angle + omega)), sine = SIMD2(sin(angle), sin(angle + omega))
            while index < blockEnd {
                body(index, cosine, sine)
                let nextCos = cosine * stepCos - sine * stepSin
                sine = sine * stepCos + cosine * stepSin
                cosine = nextCos
                index += 2
            }
        }
        if pairs < count {
            let t = t0 + Double(pairs)
            last(pairs, cos(omega * t), sin(omega * t))
        }
    }

    /// The `ResidualSums` of `x` at (a, b, c, ω): one pass over the frame,
    /// even and odd samples side by side in two lanes.
    static func residualSums(_ x: UnsafeBufferPointer<Double>, omega: Double,
                             a: Double, b: Double, c: Double) -> ResidualSums {
        guard let base = x.baseAddress else { return ResidualSums() }
        let t0 = -Double(x.count - 1) / 2
        var cr = SIMD2<Double>(), sr = SIMD2<Double>(), r1 = SIMD2<Double>()
        var tcr = SIMD2<Double>(), tsr = SIMD2<Double>(), rr = SIMD2<Double>()
        var tail = ResidualSums()
        forEachPhasorPair(count: x.count, omega: omega) { index, cosine, sine in
            let v = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD2<Double>.self)
            let r = v - (a * cosine + b * sine + c)
            cr += cosine * r; sr += sine * r; r1 += r; rr += r * r
            let tr = (SIMD2(t0, t0 + 1) + Double(index)) * r
            tcr += cosine * tr; tsr += sine * tr
        } last: { index, cosine, sine in
            let t = t0 + Double(index), r = x[index] - (a * cosine + b * sine + c)
            tail = ResidualSums(cr: cosine * r, sr: sine * r, r1: r, tcr: cosine * t * r, tsr: sine * t * r, rr: r * r)
        }
        return ResidualSums(cr: cr.sum() + tail.cr, sr: sr.sum() + tail.sr, r1: r1.sum() + tail.r1,
                            tcr: tcr.sum() + tail.tcr, tsr: tsr.sum() + tail.tsr, rr: rr.sum() + tail.rr)
    }

    /// Σ r² at (a, b, c, ω) alone: the lighter pass that measures a fit's residual.
    static func residualSquares(_ x: UnsafeBufferPointer<Double>, omega: Double,
                                a: Double, b: Double, c: Double) -> Double {
        guard let base = x.baseAddress else { return 0 }
        var squares = SIMD2<Double>()
        var tail = 0.0
        forEachPhasorPair(count: x.count, omega: omega) { index, cosine, sine in
            let r = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD2<Double>.self)
                - (a * cosine + b * sine + c)
            squares += r * r
        } last: { index, cosine, sine in
            let r = x[index] - (a * cosine + b * sine + c)
            tail = r * r
        }
        return squares.sum() + tail
    }
}
