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
public struct SinusoidFit: Sendable, Equatable {
    /// Angular frequency in radians per sample.
    public var omega: Double
    public var cosineAmplitude: Double
    public var sineAmplitude: Double
    public var offset: Double
    /// Mean square of the residual (per sample, with N − 4 degrees of freedom).
    public var residualPower: Double

    /// Peak amplitude `√(a² + b²)`.
    public var amplitude: Double { (cosineAmplitude * cosineAmplitude + sineAmplitude * sineAmplitude).squareRoot() }

    /// Refines `omegaStart` on `samples`.
    /// - Parameters:
    ///   - maxStepRadians: the fit is rejected (nil) if ω moves further than this from the start.
    ///   - iterations: Gauss–Newton passes over the frame at most.
    /// - Returns: nil when the fit does not converge to a nearby tone.
    public static func refine(_ samples: UnsafeBufferPointer<Double>, omegaStart: Double,
                              maxStepRadians: Double, iterations: Int = 12) -> SinusoidFit? {
        let n = samples.count
        guard n >= 8 else { return nil }
        var omega = omegaStart
        var a = 0.0, b = 0.0, c = 0.0
        // When to stop: Gauss–Newton converges quadratically on a clean tone
        // and, in noise, with a rate of about 3/√(2ηN) (0.03 at 0 dB SNR and
        // N = 4096). So once a step is below a tenth of the estimate's own
        // standard deviation (or 1e-6 bin on a clean tone), the next would
        // move ω by less than 0.003 σ: below anything the noise lets one see.
        // Or, sparing the pass that would only confirm it, once what the
        // step just taken leaves is below a tenth of σ (see `leftAfterStep`).
        let binRadians = 2 * Double.pi / Double(n)
        let floor = 1e-6 * binRadians
        var residualSum = 0.0, sumSquares = 0.0
        var lastStep = 0.0, measuredHere = false
        for pass in 0..<max(1, iterations) {
            // One pass over the frame per step: only the sums that involve
            // the samples; those of the model alone are in closed form.
            var sums = residualSums(samples, omega: omega, a: a, b: b, c: c)
            let basis = ModelSums(count: n, omega: omega)
            if pass == 0 {
                // The first pass is at a = b = c = 0, so its sums are those of
                // the samples: the best a, b, c for ω come from them (the
                // linear part of the fit), and the sums move with them.
                sumSquares = sums.rr
                guard let linear = solve(SIMD16(basis.cc, 0, basis.c1, 0, 0, basis.ss, 0, 0,
                                                basis.c1, 0, basis.count, 0, 0, 0, 0, 0),
                                         SIMD4(sums.cr, sums.sr, sums.r1, 0), size: 3) else { return nil }
                (a, b, c) = (linear[0], linear[1], linear[2])
                sums.moveModel(by: (a, b, c), basis: basis)
            }
            let jtj = basis.normalMatrix(a: a, b: b)
            let jtr = SIMD4(sums.cr, sums.sr, sums.r1, b * sums.tcr - a * sums.tsr)
            guard let delta = solve(jtj, jtr) else { return nil }
            // The residual after the step, from the linearised model:
            // |r − Jδ|² = |r|² − δᵀJᵀr for the Gauss–Newton δ; to second order
            // in a step that, at the end, is a small fraction of σ.
            residualSum = max(0, sums.rr - (delta[0] * jtr[0] + delta[1] * jtr[1] + delta[2] * jtr[2] + delta[3] * jtr[3]))
            a += delta[0]
            b += delta[1]
            c += delta[2]
            omega += delta[3]
            lastStep = delta[3]
            guard omega > 0, omega < .pi, abs(omega - omegaStart) <= maxStepRadians else { return nil }
            // The first pass's residual comes from the sums of the samples,
            // which rounding swamps on a very clean tone (beyond 100 dB SNR):
            // there it is measured at the fitted tone, in a lighter pass, so
            // that σ (and the stop below) rest on the real residual.
            measuredHere = pass == 0 && residualSum < 1e-10 * sumSquares
            if measuredHere { residualSum = residualSquares(samples, omega: omega, a: a, b: b, c: c) }
            if abs(delta[3]) < floor { break }
            // σ_ω² = residual variance · (JᵀJ)⁻¹ at ω.
            guard let column = solve(jtj, SIMD4(0, 0, 0, 1)), column[3] > 0 else { continue }
            let residualVariance = residualSum / Double(n - 4)
            let sigma = (residualVariance * column[3]).squareRoot()
            if abs(delta[3]) < 0.1 * sigma { break }
            // A step leaves rate·|δ| (noise) plus what `leftAfterStep` says:
            // less than a tenth of σ (taken twice over) is where to stop;
            // from an interpolated start that is the first pass, in noise and
            // on a tone from a 24-bit or float source alike.
            let rate = 3 / ((a * a + b * b) / residualVariance * Double(n)).squareRoot()
            let left = rate * abs(delta[3]) + leftAfterStep(delta[3], omega: omega, count: n)
            if 2 * left < 0.1 * sigma { break }
        }
        // On a very clean tone the linearised residual after a last step
        // above the floor is only good to second order: measured again.
        if !measuredHere && abs(lastStep) >= floor && residualSum < 1e-10 * sumSquares {
            residualSum = residualSquares(samples, omega: omega, a: a, b: b, c: c)
        }
        return SinusoidFit(omega: omega, cosineAmplitude: a, sineAmplitude: b, offset: c,
                           residualPower: residualSum / Double(n - 4))
    }

    // MARK: - Pieces

    /// What remains of ω's error after a Gauss–Newton step `step` (radians)
    /// on a clean tone, at most: κ·δ² with κ = 1.5/d per bin, d the tone's
    /// distance in bins from DC or Nyquist, whichever is nearer (its
    /// negative-frequency image, 2d away, is what slows the convergence:
    /// κ·d measured at most 1.3 from 1.2 bins to N/2 − 1.2, N = 256 and 4096).
    static func leftAfterStep(_ step: Double, omega: Double, count: Int) -> Double {
        let binRadians = 2 * Double.pi / Double(count)
        let distanceBins = max(1, min(omega, Double.pi - omega) / binRadians)
        let stepBins = step / binRadians
        return 1.5 / distanceBins * stepBins * stepBins * binRadians
    }

    /// Calls `body(n, cos ωt, sin ωt)` for every sample, in order: the even
    /// and odd phasors of `forEachPhasorPair`, one sample at a time.
    @inline(__always)
    static func forEachPhasor(count: Int, omega: Double, _ body: (Int, Double, Double) -> Void) {
        forEachPhasorPair(count: count, omega: omega, { index, cosine, sine in
            body(index, cosine[0], sine[0])
            body(index + 1, cosine[1], sine[1])
        }, last: body)
    }

    /// Gaussian elimination with partial pivoting; nil when singular (any size:
    /// `SinusoidMixtureFit`'s systems).
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

    /// Gaussian elimination with partial pivoting on the leading `size`×`size`
    /// block (3 or 4) of a row-major 4×4 matrix; nil when singular. Fixed-size
    /// SIMD storage: no heap allocation per solve (the fit does two or three a pass).
    static func solve(_ matrix: SIMD16<Double>, _ rhs: SIMD4<Double>, size n: Int = 4) -> SIMD4<Double>? {
        var a = matrix, y = rhs
        for col in 0..<n {
            var pivot = col
            for row in (col + 1)..<n where abs(a[4 * row + col]) > abs(a[4 * pivot + col]) { pivot = row }
            guard a[4 * pivot + col] != 0, a[4 * pivot + col].isFinite else { return nil }
            if pivot != col {
                for k in 0..<4 { (a[4 * pivot + k], a[4 * col + k]) = (a[4 * col + k], a[4 * pivot + k]) }
                (y[pivot], y[col]) = (y[col], y[pivot])
            }
            for row in (col + 1)..<n {
                let f = a[4 * row + col] / a[4 * col + col]
                for k in col..<n { a[4 * row + k] -= f * a[4 * col + k] }
                y[row] -= f * y[col]
            }
        }
        var out = SIMD4<Double>()
        for row in stride(from: n - 1, through: 0, by: -1) {
            var s = y[row]
            for k in (row + 1)..<n { s -= a[4 * row + k] * out[k] }
            out[row] = s / a[4 * row + row]
        }
        for k in 0..<n where !out[k].isFinite { return nil }
        return out
    }

}
