// Baseline copy (commit cb90cd7); see BaselineToneEstimator.swift.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Least-squares fit of one real sinusoid plus a constant to a frame:
/// `x[n] ≈ a·cos(ω t) + b·sin(ω t) + c`, with `t = n − (N−1)/2`.
///
/// Gauss–Newton on all four parameters from a coarse start. Fitting the real
/// model (not a complex exponential) accounts for the negative-frequency image
/// exactly, so tones a few bins from DC or near Nyquist are not biased, and a
/// noise-free sine is recovered to double-precision rounding. In white noise
/// this is the maximum-likelihood estimator, which reaches the Cramér–Rao bound.
///
/// Worker only (uses libm and scratch state).
struct BaselineSinusoidFit: Sendable, Equatable {
    /// Angular frequency in radians per sample.
    var omega: Double
    var cosineAmplitude: Double
    var sineAmplitude: Double
    var offset: Double
    /// Mean square of the residual (per sample, with N − 4 degrees of freedom).
    var residualPower: Double

    /// Peak amplitude `√(a² + b²)`.
    var amplitude: Double { (cosineAmplitude * cosineAmplitude + sineAmplitude * sineAmplitude).squareRoot() }

    /// Refines `omegaStart` on `samples`.
    /// - Parameters:
    ///   - maxStepRadians: the fit is rejected (nil) if ω moves further than this from the start.
    /// - Returns: nil when the fit does not converge to a nearby tone.
    static func refine(_ samples: UnsafeBufferPointer<Double>, omegaStart: Double,
                              maxStepRadians: Double, iterations: Int = 12) -> BaselineSinusoidFit? {
        let n = samples.count
        guard n >= 8 else { return nil }
        var omega = omegaStart
        guard var (a, b, c) = linearFit(samples, omega: omega) else { return nil }
        for _ in 0..<iterations {
            let sums = normalSums(samples, omega: omega, a: a, b: b, c: c)
            guard let delta = solve(sums.jtj, sums.jtr) else { return nil }
            a += delta[0]
            b += delta[1]
            c += delta[2]
            omega += delta[3]
            guard omega > 0, omega < .pi, abs(omega - omegaStart) <= maxStepRadians else { return nil }
            if abs(delta[3]) < 1e-15 * max(1, omega) { break }
        }
        // Final linear solve at the converged ω, then the residual.
        guard let (fa, fb, fc) = linearFit(samples, omega: omega) else { return nil }
        var residualSum = 0.0
        forEachPhasor(count: n, omega: omega) { index, cosine, sine in
            let r = samples[index] - (fa * cosine + fb * sine + fc)
            residualSum += r * r
        }
        return BaselineSinusoidFit(omega: omega, cosineAmplitude: fa, sineAmplitude: fb, offset: fc,
                           residualPower: residualSum / Double(n - 4))
    }

    // MARK: - Pieces

    /// Calls `body(n, cos ωt, sin ωt)` for every sample, by a rotating phasor
    /// re-seeded from libm every 256 samples so rounding cannot build up.
    @inline(__always)
    static func forEachPhasor(count: Int, omega: Double, _ body: (Int, Double, Double) -> Void) {
        let t0 = -Double(count - 1) / 2
        let stepCos = cos(omega), stepSin = sin(omega)
        var index = 0
        while index < count {
            let blockEnd = min(count, index + 256)
            let angle = omega * (t0 + Double(index))
            var cosine = cos(angle), sine = sin(angle)
            while index < blockEnd {
                body(index, cosine, sine)
                let nextCos = cosine * stepCos - sine * stepSin
                sine = sine * stepCos + cosine * stepSin
                cosine = nextCos
                index += 1
            }
        }
    }

    /// Best a, b, c for a fixed ω.
    static func linearFit(_ x: UnsafeBufferPointer<Double>, omega: Double) -> (Double, Double, Double)? {
        var cc = 0.0, ss = 0.0, cs = 0.0, c1 = 0.0, s1 = 0.0, xc = 0.0, xs = 0.0, x1 = 0.0
        forEachPhasor(count: x.count, omega: omega) { index, cosine, sine in
            let v = x[index]
            cc += cosine * cosine; ss += sine * sine; cs += cosine * sine
            c1 += cosine; s1 += sine
            xc += v * cosine; xs += v * sine; x1 += v
        }
        let count = Double(x.count)
        let m: [[Double]] = [[cc, cs, c1], [cs, ss, s1], [c1, s1, count]]
        guard let solution = solve(m, [xc, xs, x1]) else { return nil }
        return (solution[0], solution[1], solution[2])
    }

    /// JᵀJ and Jᵀr of the four-parameter model at (a, b, c, ω).
    static func normalSums(_ x: UnsafeBufferPointer<Double>, omega: Double, a: Double, b: Double, c: Double)
        -> (jtj: [[Double]], jtr: [Double]) {
        var m = [Double](repeating: 0, count: 10)   // upper triangle of JᵀJ
        var v = [Double](repeating: 0, count: 4)
        let t0 = -Double(x.count - 1) / 2
        m.withUnsafeMutableBufferPointer { m in
            v.withUnsafeMutableBufferPointer { v in
                forEachPhasor(count: x.count, omega: omega) { index, cosine, sine in
                    let t = t0 + Double(index)
                    let jw = t * (b * cosine - a * sine)
                    let r = x[index] - (a * cosine + b * sine + c)
                    m[0] += cosine * cosine; m[1] += cosine * sine; m[2] += cosine; m[3] += cosine * jw
                    m[4] += sine * sine; m[5] += sine; m[6] += sine * jw
                    m[7] += 1; m[8] += jw
                    m[9] += jw * jw
                    v[0] += cosine * r; v[1] += sine * r; v[2] += r; v[3] += jw * r
                }
            }
        }
        let jtj: [[Double]] = [
            [m[0], m[1], m[2], m[3]],
            [m[1], m[4], m[5], m[6]],
            [m[2], m[5], m[7], m[8]],
            [m[3], m[6], m[8], m[9]],
        ]
        return (jtj, v)
    }

    /// Gaussian elimination with partial pivoting; nil when singular.
    static func solve(_ matrix: [[Double]], _ rhs: [Double]) -> [Double]? {
        var a = matrix, y = rhs
        let n = y.count
        for col in 0..<n {
            var pivot = col
            for row in (col + 1)..<n where abs(a[row][col]) > abs(a[pivot][col]) { pivot = row }
            guard a[pivot][col] != 0, a[pivot][col].isFinite else { return nil }
            if pivot != col { a.swapAt(pivot, col); y.swapAt(pivot, col) }
            for row in (col + 1)..<n {
                let f = a[row][col] / a[col][col]
                for k in col..<n { a[row][k] -= f * a[col][k] }
                y[row] -= f * y[col]
            }
        }
        var out = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var s = y[row]
            for k in (row + 1)..<n { s -= a[row][k] * out[k] }
            out[row] = s / a[row][row]
        }
        return out.allSatisfy(\.isFinite) ? out : nil
    }

}
