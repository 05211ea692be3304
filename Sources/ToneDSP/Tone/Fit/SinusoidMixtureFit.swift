#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Joint least-squares fit of several real sinusoids plus a constant:
/// `x[n] ≈ Σₚ (aₚ cos ωₚt + bₚ sin ωₚt) + c`, with `t = n − (N−1)/2`.
///
/// Gauss–Newton on all 3P + 1 parameters at once, so a strong tone's leakage
/// (its sidelobes in any window) cannot bias a weak tone next to it: each
/// tone is estimated with the others in the model, not subtracted as noise.
/// With one tone it is `SinusoidFit`; that specialised version is what the
/// single-tone path uses.
///
/// Worker only.
public struct SinusoidMixtureFit: Sendable, Equatable {
    public struct Tone: Sendable, Equatable {
        /// Radians per sample.
        public var omega: Double
        public var cosineAmplitude: Double
        public var sineAmplitude: Double
        public var amplitude: Double { (cosineAmplitude * cosineAmplitude + sineAmplitude * sineAmplitude).squareRoot() }
    }

    public var tones: [Tone]
    public var offset: Double
    /// Mean square of the residual (per sample, with N − 3P − 1 degrees of freedom).
    public var residualPower: Double

    /// Refines `omegaStarts` jointly on `samples`.
    /// - Parameters:
    ///   - maxStepRadians: the fit is rejected (nil) if any ω moves further than this from its start.
    /// - Returns: nil when the fit does not converge near the starts or is singular (two tones merging).
    public static func refine(_ samples: UnsafeBufferPointer<Double>, omegaStarts: [Double],
                              maxStepRadians: Double, iterations: Int = 20) -> SinusoidMixtureFit? {
        let n = samples.count, tones = omegaStarts.count
        guard tones >= 1, n >= 3 * tones + 8 else { return nil }
        var omegas = omegaStarts
        guard var linear = linearFit(samples, omegas: omegas) else { return nil }
        // Stop as `SinusoidFit` does: once every ω's step is below a tenth of
        // its own standard deviation, or 1e-6 bin on clean tones.
        let floor = 1e-6 * 2 * Double.pi / Double(n)
        let degreesOfFreedom = Double(n - 3 * tones - 1)
        var residualSum = 0.0
        for _ in 0..<max(1, iterations) {
            guard let step = gaussNewtonStep(samples, omegas: omegas, linear: linear) else { return nil }
            let delta = step.delta
            residualSum = step.residualSquaresAfter
            var converged = true
            for p in 0..<tones {
                linear[2 * p] += delta[3 * p]
                linear[2 * p + 1] += delta[3 * p + 1]
                omegas[p] += delta[3 * p + 2]
                guard omegas[p] > 0, omegas[p] < .pi, abs(omegas[p] - omegaStarts[p]) <= maxStepRadians else { return nil }
                let sigma = (residualSum / degreesOfFreedom * step.omegaVariances[p]).squareRoot()
                if abs(delta[3 * p + 2]) >= max(floor, 0.1 * sigma) { converged = false }
            }
            linear[2 * tones] += delta[3 * tones]
            if converged { break }
        }
        let fitted = (0..<tones).map { Tone(omega: omegas[$0], cosineAmplitude: linear[2 * $0], sineAmplitude: linear[2 * $0 + 1]) }
        return SinusoidMixtureFit(tones: fitted, offset: linear[2 * tones], residualPower: residualSum / degreesOfFreedom)
    }

    /// Calls `body(n, x̂[n])` with the fitted model at every sample.
    public func forEachModelSample(count: Int, _ body: (Int, Double) -> Void) {
        var linear: [Double] = []
        for tone in tones { linear += [tone.cosineAmplitude, tone.sineAmplitude] }
        linear.append(offset)
        Self.model(count, omegas: tones.map(\.omega), linear: linear, body)
    }

    // MARK: - Pieces

    /// Calls `body(n, row)` for every sample with `row[2p] = cos ωₚt`, `row[2p+1] = sin ωₚt`,
    /// by rotating phasors re-seeded from libm every 256 samples.
    static func forEachPhasorRow(count: Int, omegas: [Double], _ body: (Int, UnsafeMutablePointer<Double>) -> Void) {
        let tones = omegas.count
        let row = UnsafeMutablePointer<Double>.allocate(capacity: 2 * tones)
        let steps = UnsafeMutablePointer<Double>.allocate(capacity: 2 * tones)
        defer { row.deallocate(); steps.deallocate() }
        for p in 0..<tones { steps[2 * p] = cos(omegas[p]); steps[2 * p + 1] = sin(omegas[p]) }
        let t0 = -Double(count - 1) / 2
        var index = 0
        while index < count {
            let blockEnd = min(count, index + 256)
            for p in 0..<tones {
                let angle = omegas[p] * (t0 + Double(index))
                row[2 * p] = cos(angle); row[2 * p + 1] = sin(angle)
            }
            while index < blockEnd {
                body(index, row)
                for p in 0..<tones {
                    let c = row[2 * p], s = row[2 * p + 1]
                    row[2 * p] = c * steps[2 * p] - s * steps[2 * p + 1]
                    row[2 * p + 1] = s * steps[2 * p] + c * steps[2 * p + 1]
                }
                index += 1
            }
        }
    }

    /// The model with amplitudes `linear` (`a₁ b₁ … a_P b_P c`) at every sample.
    static func model(_ count: Int, omegas: [Double], linear: [Double], _ body: (Int, Double) -> Void) {
        let tones = omegas.count
        forEachPhasorRow(count: count, omegas: omegas) { index, row in
            var value = linear[2 * tones]
            for k in 0..<(2 * tones) { value += linear[k] * row[k] }
            body(index, value)
        }
    }

    /// Best amplitudes and offset (`a₁ b₁ … a_P b_P c`) for fixed frequencies.
    static func linearFit(_ x: UnsafeBufferPointer<Double>, omegas: [Double]) -> [Double]? {
        let size = 2 * omegas.count + 1
        let normal = NormalEquations(size: size)
        let column = UnsafeMutablePointer<Double>.allocate(capacity: size)
        defer { column.deallocate() }
        forEachPhasorRow(count: x.count, omegas: omegas) { index, row in
            for k in 0..<(size - 1) { column[k] = row[k] }
            column[size - 1] = 1
            normal.add(column, residual: x[index])
        }
        return normal.solve()
    }

    /// One Gauss–Newton step `(δa₁ δb₁ δω₁ … δc)` at the current parameters, the
    /// residual sum of squares after it (linearised: |r|² − δᵀJᵀr) and the
    /// diagonal of (JᵀJ)⁻¹ for each ω (its variance per unit noise variance).
    static func gaussNewtonStep(_ x: UnsafeBufferPointer<Double>, omegas: [Double], linear: [Double])
        -> (delta: [Double], residualSquaresAfter: Double, omegaVariances: [Double])? {
        let tones = omegas.count, size = 3 * tones + 1
        let t0 = -Double(x.count - 1) / 2
        let normal = NormalEquations(size: size)
        var residualSquares = 0.0
        let column = UnsafeMutablePointer<Double>.allocate(capacity: size)
        defer { column.deallocate() }
        linear.withUnsafeBufferPointer { linear in
            forEachPhasorRow(count: x.count, omegas: omegas) { index, row in
                let t = t0 + Double(index)
                var value = linear[2 * tones]
                for p in 0..<tones {
                    let c = row[2 * p], s = row[2 * p + 1], a = linear[2 * p], b = linear[2 * p + 1]
                    value += a * c + b * s
                    column[3 * p] = c
                    column[3 * p + 1] = s
                    column[3 * p + 2] = t * (b * c - a * s)
                }
                column[size - 1] = 1
                let r = x[index] - value
                residualSquares += r * r
                normal.add(column, residual: r)
            }
        }
        guard let delta = normal.solve() else { return nil }
        var variances: [Double] = []
        for p in 0..<tones {
            var unit = [Double](repeating: 0, count: size)
            unit[3 * p + 2] = 1
            guard let column = normal.solve(unit) else { return nil }
            variances.append(max(0, column[3 * p + 2]))
        }
        let after = residualSquares - zip(delta, normal.rightHandSide).reduce(0) { $0 + $1.0 * $1.1 }
        return (delta, max(0, after), variances)
    }
}

/// Accumulates JᵀJ and Jᵀr row by row and solves them.
///
/// Rows are gathered in blocks of `blockRows` and each block is folded in as
/// dot products of contiguous columns (four lanes at a time), so the sums
/// stay in registers instead of a load and store of every matrix element
/// for every sample.
///
/// Worker only; owns its buffers. A class rather than a `~Copyable` struct:
/// the fits fill it from inside closures, and a captured noncopyable `var`
/// crashes this toolchain's compiler under `-sanitize=thread` ("Invalid bitcast").
final class NormalEquations {
    static let blockRows = 64
    let size: Int
    private let matrix: UnsafeMutablePointer<Double>
    private let rhs: UnsafeMutablePointer<Double>
    /// Column-major block: parameter k of row i at `block[k * blockRows + i]`; residuals after the last parameter.
    private let block: UnsafeMutablePointer<Double>
    private var filled = 0

    init(size: Int) {
        self.size = size
        matrix = .allocate(capacity: size * size)
        matrix.initialize(repeating: 0, count: size * size)
        rhs = .allocate(capacity: size)
        rhs.initialize(repeating: 0, count: size)
        block = .allocate(capacity: (size + 1) * Self.blockRows)
        block.initialize(repeating: 0, count: (size + 1) * Self.blockRows)
    }

    deinit {
        matrix.deallocate()
        rhs.deallocate()
        block.deallocate()
    }

    var rightHandSide: [Double] { (0..<size).map { rhs[$0] } }

    /// Adds one row `j` of the Jacobian with its residual.
    @inline(__always)
    func add(_ j: UnsafeMutablePointer<Double>, residual: Double) {
        for k in 0..<size { block[k * Self.blockRows + filled] = j[k] }
        block[size * Self.blockRows + filled] = residual
        filled += 1
        if filled == Self.blockRows { fold() }
    }

    /// Folds the gathered rows into JᵀJ (upper triangle) and Jᵀr.
    private func fold() {
        for row in 0..<size {
            let left = block + row * Self.blockRows
            for col in row...size {
                let sum = Self.dot(left, block + col * Self.blockRows)
                if col == size { rhs[row] += sum } else { matrix[row * size + col] += sum }
            }
        }
        filled = 0
    }

    @inline(__always)
    private static func dot(_ x: UnsafeMutablePointer<Double>, _ y: UnsafeMutablePointer<Double>) -> Double {
        // Lanes built from elements, not `loadUnaligned` of a SIMD type: the
        // latter crashes this toolchain's compiler under -sanitize=thread
        // ("Invalid bitcast"); release builds vectorise both the same.
        var acc0 = SIMD4<Double>(), acc1 = SIMD4<Double>()
        var i = 0
        // safe: blockRows is a multiple of 8, so every read is inside the block.
        while i < blockRows {
            acc0 += SIMD4(x[i], x[i + 1], x[i + 2], x[i + 3]) * SIMD4(y[i], y[i + 1], y[i + 2], y[i + 3])
            acc1 += SIMD4(x[i + 4], x[i + 5], x[i + 6], x[i + 7]) * SIMD4(y[i + 4], y[i + 5], y[i + 6], y[i + 7])
            i += 8
        }
        return (acc0 + acc1).sum()
    }

    /// Solves JᵀJ δ = `rightHandSide` (Jᵀr when nil) by Gaussian elimination
    /// with partial pivoting on the mirrored matrix; nil when singular.
    func solve(_ rightHandSide: [Double]? = nil) -> [Double]? {
        if filled > 0 {
            // Zeros past the last row, so the dot products can run the whole block.
            for k in 0...size { (block + k * Self.blockRows + filled).update(repeating: 0, count: Self.blockRows - filled) }
            fold()
        }
        var full = [[Double]](repeating: [Double](repeating: 0, count: size), count: size)
        for row in 0..<size {
            for col in row..<size {
                full[row][col] = matrix[row * size + col]
                full[col][row] = matrix[row * size + col]
            }
        }
        return SinusoidFit.solve(full, rightHandSide ?? self.rightHandSide)
    }
}
