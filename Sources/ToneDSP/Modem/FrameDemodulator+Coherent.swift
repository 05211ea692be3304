import Foundation

extension FrameDemodulator {
    /// Soft bits by coherent detection of the differentially encoded symbols.
    ///
    /// The channel of each subcarrier is estimated without decisions: raising
    /// the symbols to the P-th power (P = 2 for BPSK, 4 for QPSK) removes the
    /// data, leaving H^P averaged over every symbol of the frame; a common
    /// phase drift (residual clock offset) is estimated the same way first.
    /// The per-symbol likelihoods are then combined into the likelihood of each
    /// phase increment. At low SNR this gains over plain differential detection,
    /// whose reference (the previous symbol) is as noisy as the symbol itself.
    func coherentSoftBits() {
        let p = parameters
        let k = p.subcarrierCount
        let count = symbolCount
        let power = p.bitsPerSubcarrier == 1 ? 2 : 4
        // z[j][k]: bins with the known reference phase (and the π/4 per symbol of DQPSK) removed.
        var z = [Complex](repeating: Complex(0, 0), count: count * k)
        for symbol in 0..<count {
            for subcarrier in 0..<k {
                let angle = p.referencePhase(subcarrier) + (power == 4 ? Double(symbol) * Double.pi / 4 : 0)
                let bin = Complex(bins[2 * (symbol * k + subcarrier)], bins[2 * (symbol * k + subcarrier) + 1])
                z[symbol * k + subcarrier] = bin * Complex(cos(angle), -sin(angle))
            }
        }
        // Common phase drift per symbol.
        var drift = Complex(0, 0)
        for symbol in 1..<count {
            for subcarrier in 0..<k {
                drift = drift + z[symbol * k + subcarrier].power(power) * z[(symbol - 1) * k + subcarrier].power(power).conjugate
            }
        }
        let step = atan2(drift.im, drift.re) / Double(power)
        for symbol in 0..<count {
            let rotation = Complex(cos(-step * Double(symbol)), sin(-step * Double(symbol)))
            for subcarrier in 0..<k { z[symbol * k + subcarrier] = z[symbol * k + subcarrier] * rotation }
        }
        // Per subcarrier: rotate so the constellation sits on the axes (BPSK: ±1; QPSK: (±1 ± j)/√2).
        var w = z
        for subcarrier in 0..<k {
            var sum = Complex(0, 0)
            for symbol in 0..<count { sum = sum + z[symbol * k + subcarrier].power(power) }
            var angle = atan2(sum.im, sum.re) / Double(power)
            if power == 4 { angle -= Double.pi / 4 }
            let rotation = Complex(cos(-angle), sin(-angle))
            for symbol in 0..<count { w[symbol * k + subcarrier] = z[symbol * k + subcarrier] * rotation }
        }
        // Amplitude per subcarrier and noise per component.
        var amplitude = [Double](repeating: 0, count: k)
        var noise = 0.0
        for subcarrier in 0..<k {
            var magnitude = 0.0
            for symbol in 0..<count {
                let v = w[symbol * k + subcarrier]
                magnitude += power == 2 ? abs(v.re) : (abs(v.re) + abs(v.im)) / 2
            }
            magnitude /= Double(count)
            amplitude[subcarrier] = magnitude
            for symbol in 0..<count {
                let v = w[symbol * k + subcarrier]
                if power == 2 {
                    noise += v.im * v.im
                } else {
                    noise += ((abs(v.re) - magnitude) * (abs(v.re) - magnitude) + (abs(v.im) - magnitude) * (abs(v.im) - magnitude)) / 2
                }
            }
        }
        noise = max(noise / Double(count * k), 1e-30)
        // Likelihoods of each symbol, then of each increment.
        for symbol in 1..<count {
            for subcarrier in 0..<k {
                let a = amplitude[subcarrier]
                let current = w[symbol * k + subcarrier], previous = w[(symbol - 1) * k + subcarrier]
                let slot = ((symbol - 1) * k + subcarrier) * p.bitsPerSubcarrier
                if power == 2 {
                    let lc = 2 * a * current.re / noise, lp = 2 * a * previous.re / noise
                    slotSoft[slot] = Float(Self.boxPlus(lc, lp))
                } else {
                    let (b0, b1) = Self.quadratureIncrement(current: current, previous: previous, amplitude: a, noise: noise)
                    slotSoft[slot] = Float(b0)
                    slotSoft[slot + 1] = Float(b1)
                }
            }
        }
    }

    /// LLR of a ⊕ b from the LLRs of a and b (positive: bit 0).
    static func boxPlus(_ a: Double, _ b: Double) -> Double {
        let sign: Double = (a < 0) != (b < 0) ? -1 : 1
        let x = abs(a), y = abs(b)
        // Exact: min + log(1 + e^-(x+y)) − log(1 + e^-|x−y|).
        return sign * (min(x, y) + log1p(exp(-(x + y))) - log1p(exp(-abs(x - y))))
    }

    /// LLRs of the two bits of a DQPSK increment from two coherent QPSK symbols.
    static func quadratureIncrement(current: Complex, previous: Complex, amplitude: Double, noise: Double) -> (Double, Double) {
        // Quarter turn m ↔ axis signs of v·e^{jπ/4}: 0 (+,+), 1 (−,+), 2 (−,−), 3 (+,−).
        func logProbabilities(_ v: Complex) -> [Double] {
            let turned = v * Complex(cos(Double.pi / 4), sin(Double.pi / 4))
            let scale = amplitude / (2.0.squareRoot() * noise)
            let lx = 2 * scale * turned.re, ly = 2 * scale * turned.im
            return [(lx + ly) / 2, (-lx + ly) / 2, (-lx - ly) / 2, (lx - ly) / 2]
        }
        let a = logProbabilities(previous), b = logProbabilities(current)
        var increment = [Double](repeating: -Double.infinity, count: 4)
        for d in 0..<4 {
            var terms: [Double] = []
            for m in 0..<4 { terms.append(a[m] + b[(m + d) % 4]) }
            increment[d] = logSumExp(terms)
        }
        // d = 0 → bits (0,0), 1 → (1,0), 2 → (1,1), 3 → (0,1).
        let b0 = logSumExp([increment[0], increment[3]]) - logSumExp([increment[1], increment[2]])
        let b1 = logSumExp([increment[0], increment[1]]) - logSumExp([increment[2], increment[3]])
        return (b0, b1)
    }

    static func logSumExp(_ values: [Double]) -> Double {
        let top = values.max() ?? -Double.infinity
        guard top.isFinite else { return top }
        return top + log(values.reduce(0) { $0 + exp($1 - top) })
    }
}

/// A small complex number for the detector's arithmetic.
struct Complex {
    var re: Double
    var im: Double
    init(_ re: Double, _ im: Double) {
        self.re = re
        self.im = im
    }
    static func + (a: Complex, b: Complex) -> Complex { Complex(a.re + b.re, a.im + b.im) }
    static func * (a: Complex, b: Complex) -> Complex { Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re) }
    var conjugate: Complex { Complex(re, -im) }
    func power(_ n: Int) -> Complex {
        var result = Complex(1, 0)
        for _ in 0..<n { result = result * self }
        return result
    }
}
