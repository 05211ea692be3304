import Foundation
import ToneDSP

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
    /// - Parameter decisions: phases of every symbol and subcarrier from an earlier
    ///   decoding (re-encoded); with them the channel is estimated from the
    ///   decided symbols instead of the P-th power (a third pass).
    ///   - smoothingSubcarriers: when positive, each subcarrier's channel is averaged with
    ///     this many neighbours on either side (after removing the common phase slope of a
    ///     timing offset): better estimates in white noise over a flat channel, worse in a
    ///     reverberant room whose response changes from one subcarrier to the next.
    func coherentSoftBits(decisions: [[Double]]? = nil, smoothingSubcarriers: Int = 0) {
        let p = parameters
        let k = p.subcarrierCount
        let count = symbolCount
        let power = p.bitsPerSubcarrier == 1 ? 2 : 4
        // z[j][k]: bins with the known reference phase (and the π/4 per symbol of DQPSK) removed,
        // so the constellation is ±H (BPSK) or H·{1, j, −1, −j} (QPSK).
        var z = [Complex](repeating: Complex(0, 0), count: count * k)
        var d = [Complex](repeating: Complex(1, 0), count: count * k)
        for symbol in 0..<count {
            for subcarrier in 0..<k {
                let angle = p.referencePhase(subcarrier) + (power == 4 ? Double(symbol) * Double.pi / 4 : 0)
                let bin = Complex(bins[2 * (symbol * k + subcarrier)], bins[2 * (symbol * k + subcarrier) + 1])
                z[symbol * k + subcarrier] = bin * Complex(cos(angle), -sin(angle))
                if let decisions {
                    let decided = decisions[symbol][subcarrier] - angle
                    d[symbol * k + subcarrier] = Complex(cos(decided), -sin(decided))  // conjugate of the decided symbol
                }
            }
        }
        // What is left of a symbol once its data is removed: z^P, or z·conj(decided).
        func stripped(_ index: Int) -> Complex {
            decisions == nil ? z[index].power(power) : z[index] * d[index]
        }
        let order = decisions == nil ? Double(power) : 1
        // Common phase drift per symbol (residual clock offset; the band is narrow
        // enough relative to its centre that one step fits every subcarrier).
        var drift = Complex(0, 0)
        for symbol in 1..<count {
            for subcarrier in 0..<k {
                drift = drift + stripped(symbol * k + subcarrier) * stripped((symbol - 1) * k + subcarrier).conjugate
            }
        }
        let step = atan2(drift.im, drift.re) / order
        for symbol in 0..<count {
            let rotation = Complex(cos(-step * Double(symbol)), sin(-step * Double(symbol)))
            for subcarrier in 0..<k { z[symbol * k + subcarrier] = z[symbol * k + subcarrier] * rotation }
        }
        // Per subcarrier: rotate the channel phase away (BPSK: ±a; QPSK: a·{1, j, −1, −j}),
        // then QPSK by π/4 more so each axis carries one bit.
        var sums = [Complex](repeating: Complex(0, 0), count: k)
        for subcarrier in 0..<k {
            for symbol in 0..<count { sums[subcarrier] = sums[subcarrier] + stripped(symbol * k + subcarrier) }
        }
        if smoothingSubcarriers > 0 {
            sums = Self.smoothed(sums, halfWidth: smoothingSubcarriers)
        }
        var w = z
        for subcarrier in 0..<k {
            let sum = sums[subcarrier]
            var angle = atan2(sum.im, sum.re) / order
            if power == 4 { angle -= Double.pi / 4 }
            let rotation = Complex(cos(-angle), sin(-angle))
            for symbol in 0..<count { w[symbol * k + subcarrier] = z[symbol * k + subcarrier] * rotation }
        }
        // Amplitude per subcarrier and axis; noise per component.
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
                let c = amplitude[subcarrier]
                let current = w[symbol * k + subcarrier], previous = w[(symbol - 1) * k + subcarrier]
                let slot = ((symbol - 1) * k + subcarrier) * p.bitsPerSubcarrier
                if power == 2 {
                    slotSoft[slot] = Float(Self.boxPlus(2 * c * current.re / noise, 2 * c * previous.re / noise))
                } else {
                    let (b0, b1) = Self.quadratureIncrement(
                        previous: (2 * c * previous.re / noise, 2 * c * previous.im / noise),
                        current: (2 * c * current.re / noise, 2 * c * current.im / noise))
                    slotSoft[slot] = Float(b0)
                    slotSoft[slot + 1] = Float(b1)
                }
            }
        }
    }

    /// Each value averaged with `halfWidth` neighbours on either side, after the
    /// common phase step from one value to the next (a timing offset) is removed.
    static func smoothed(_ values: [Complex], halfWidth: Int) -> [Complex] {
        guard values.count > 1 else { return values }
        var slope = Complex(0, 0)
        for index in 1..<values.count { slope = slope + values[index] * values[index - 1].conjugate }
        let step = atan2(slope.im, slope.re)
        return values.indices.map { index in
            var total = Complex(0, 0)
            for other in max(0, index - halfWidth)...min(values.count - 1, index + halfWidth) {
                let angle = -step * Double(other - index)
                total = total + values[other] * Complex(cos(angle), sin(angle))
            }
            return total
        }
    }

    /// LLR of a ⊕ b from the LLRs of a and b (positive: bit 0).
    static func boxPlus(_ a: Double, _ b: Double) -> Double {
        let sign: Double = (a < 0) != (b < 0) ? -1 : 1
        let x = abs(a), y = abs(b)
        // Exact: min + log(1 + e^-(x+y)) − log(1 + e^-|x−y|).
        return sign * (min(x, y) + log1p(exp(-(x + y))) - log1p(exp(-abs(x - y))))
    }

    /// LLRs of the two bits of a DQPSK increment from the axis LLRs (x, y) of two QPSK symbols.
    static func quadratureIncrement(previous: (Double, Double), current: (Double, Double)) -> (Double, Double) {
        // Quarter turn m ↔ axis signs: 0 (+,+), 1 (−,+), 2 (−,−), 3 (+,−).
        func logProbabilities(_ l: (Double, Double)) -> [Double] {
            [(l.0 + l.1) / 2, (-l.0 + l.1) / 2, (-l.0 - l.1) / 2, (l.0 - l.1) / 2]
        }
        let a = logProbabilities(previous), b = logProbabilities(current)
        var increment = [Double](repeating: -Double.infinity, count: 4)
        for d in 0..<4 {
            increment[d] = logSumExp((0..<4).map { a[$0] + b[($0 + d) % 4] })
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
