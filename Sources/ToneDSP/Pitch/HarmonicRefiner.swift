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
    private let window: UnsafeMutablePointer<Double>
    private let weighted0: UnsafeMutablePointer<Double>   // w·x
    private let weighted1: UnsafeMutablePointer<Double>   // t·w·x
    private let weighted2: UnsafeMutablePointer<Double>   // t²·w·x
    private let center: Double
    /// Harmonics used at most.
    let maxHarmonics: Int
    private var sum0: [Double], sum1: [Double], sum2: [Double], sum3: [Double], sum4: [Double], sum5: [Double]

    init(frameSize: Int, maxHarmonics: Int) {
        self.frameSize = frameSize
        self.maxHarmonics = maxHarmonics
        window = .allocate(capacity: frameSize)
        for n in 0..<frameSize {
            window[n] = 0.5 - 0.5 * cos(2 * Double.pi * (Double(n) + 0.5) / Double(frameSize))
        }
        weighted0 = .allocate(capacity: frameSize)
        weighted1 = .allocate(capacity: frameSize)
        weighted2 = .allocate(capacity: frameSize)
        center = Double(frameSize - 1) / 2
        sum0 = Array(repeating: 0, count: maxHarmonics)
        sum1 = sum0; sum2 = sum0; sum3 = sum0; sum4 = sum0; sum5 = sum0
    }

    deinit {
        window.deallocate()
        weighted0.deallocate()
        weighted1.deallocate()
        weighted2.deallocate()
    }

    /// Result of a refinement: the fundamental and the power the harmonics carry.
    struct Result {
        var omega: Double
        /// Σₕ |X(hω)|² normalised to the mean power of the harmonics in the frame (sum of A²/2).
        var harmonicPower: Double
        var harmonics: Int
    }

    /// - Parameters:
    ///   - frame: `frameSize` samples, mean removed.
    ///   - omega: start, in radians per sample, close enough that each used harmonic is within its main lobe.
    ///   - harmonicLimit: use harmonics `h` with `h·ω` below this (radians per sample).
    func refine(_ frame: UnsafePointer<Double>, omega start: Double, harmonicLimit: Double,
                iterations: Int = 2) -> Result {
        let w = frameSize
        for n in 0..<w {
            let t = Double(n) - center
            let y = window[n] * frame[n]
            weighted0[n] = y
            weighted1[n] = t * y
            weighted2[n] = t * t * y
        }
        var omega = start
        let harmonics = max(1, min(maxHarmonics, Int(harmonicLimit / start)))
        var power = 0.0
        for iteration in 0...iterations {
            evaluate(omega: omega, harmonics: harmonics)
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
            if iteration == iterations { break }
            guard second < 0 else { break }
            var step = -first / second
            // Never leave the main lobe of the fundamental's peak.
            let limit = Double.pi / Double(w)
            step = min(max(step, -limit), limit)
            omega += step
        }
        var windowPower = 0.0
        for n in 0..<w { windowPower += window[n] * window[n] }
        let sumWindow = Double(w) / 2
        // |X|² of a sine of amplitude A is (A·Σw/2)²; A²/2 per harmonic.
        _ = windowPower
        return Result(omega: omega, harmonicPower: power * 2 / (sumWindow * sumWindow), harmonics: harmonics)
    }

    /// S0 = Σ y e^{−ihωt}, S1 = Σ t y e^{−ihωt}, S2 = Σ t² y e^{−ihωt} for h = 1…harmonics.
    private func evaluate(omega: Double, harmonics: Int) {
        for k in 0..<harmonics { sum0[k] = 0; sum1[k] = 0; sum2[k] = 0; sum3[k] = 0; sum4[k] = 0; sum5[k] = 0 }
        let w = frameSize
        let block = 64
        sum0.withUnsafeMutableBufferPointer { s0r in
        sum1.withUnsafeMutableBufferPointer { s0i in
        sum2.withUnsafeMutableBufferPointer { s1r in
        sum3.withUnsafeMutableBufferPointer { s1i in
        sum4.withUnsafeMutableBufferPointer { s2r in
        sum5.withUnsafeMutableBufferPointer { s2i in
            let stepC = cos(omega), stepS = -sin(omega)
            var start = 0
            while start < w {
                let end = min(w, start + block)
                let t0 = Double(start) - center
                // Exact phasor at each block start; a short recurrence inside.
                var pc = cos(omega * t0), ps = -sin(omega * t0)
                for n in start..<end {
                    let y0 = weighted0[n], y1 = weighted1[n], y2 = weighted2[n]
                    var qc = pc, qs = ps
                    for k in 0..<harmonics {
                        s0r[k] += y0 * qc; s0i[k] += y0 * qs
                        s1r[k] += y1 * qc; s1i[k] += y1 * qs
                        s2r[k] += y2 * qc; s2i[k] += y2 * qs
                        let nc = qc * pc - qs * ps
                        qs = qc * ps + qs * pc
                        qc = nc
                    }
                    let nc = pc * stepC - ps * stepS
                    ps = pc * stepS + ps * stepC
                    pc = nc
                }
                start = end
            }
        }}}}}}
    }
}
