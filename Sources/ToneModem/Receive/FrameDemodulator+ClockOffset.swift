import Foundation
import ToneDSP

extension FrameDemodulator {
    /// Removes the clock offset the preamble left over from the bins.
    ///
    /// A residual offset δ turns the phase of subcarrier k by 2π·f_k·δ·T from
    /// one symbol to the next (T: the symbol period). In a wide band (1–5 kHz)
    /// that turn differs across subcarriers, so no common phase step removes it,
    /// and the preamble's estimate (a few hundred ppm in the audible band) can
    /// leave a turn near the DQPSK decision boundary. δ is found from the data:
    /// the differential products raised to the P-th power (P = 2 for DBPSK, 4 for
    /// DQPSK) lose their data and keep P times the turn; the δ whose predicted
    /// turns best match them (a grid within the range P makes unambiguous) is
    /// removed from every symbol.
    ///
    /// Only in a wide band: in the narrow ultrasonic band the chirps measure the
    /// offset to a few ppm and the turn is nearly common to every subcarrier
    /// (the coherent tries estimate it), while a search in strong noise could
    /// lock onto a wrong offset.
    func removeResidualClockOffset() {
        let p = parameters
        guard (p.highHz - p.lowHz) / ((p.highHz + p.lowHz) / 2) > 0.5 else { return }
        let k = p.subcarrierCount
        let power = p.bitsPerSubcarrier == 1 ? 2 : 4
        // Data-free differential products point along +1 (DBPSK) or −1 (DQPSK, whose π/4 step per symbol becomes π).
        let expectedSign: Double = power == 2 ? 1 : -1
        var sums = [Complex](repeating: Complex(0, 0), count: k)
        for subcarrier in 0..<k {
            for symbol in 1..<symbolCount {
                guard let d = differentialProduct(symbol: symbol, subcarrier: subcarrier) else { continue }
                let magnitude = d.magnitude
                let raised = d.power(power)
                let scale = 1 / pow(magnitude, Double(power - 1))
                sums[subcarrier] = sums[subcarrier] + Complex(raised.re * scale, raised.im * scale)
            }
        }
        let period = p.symbolPeriodSeconds
        // The turns repeat only when δ·T·P·spacing is an integer (δ of several percent),
        // so the grid can cover what the preamble may have missed, in steps that move the
        // highest subcarrier's P-th power by 0.1 rad at most.
        let span = 800e-6
        let steps = max(40, Int((span * Double(power) * 2 * Double.pi * p.subcarrierHz(k - 1) * period / 0.1).rounded(.up)))
        var best = 0.0
        var bestScore = -Double.infinity
        for step in -steps...steps {
            let delta = span * Double(step) / Double(steps)
            var score = 0.0
            for subcarrier in 0..<k {
                let angle = -Double(power) * 2 * Double.pi * p.subcarrierHz(subcarrier) * delta * period
                score += expectedSign * (sums[subcarrier].re * cos(angle) - sums[subcarrier].im * sin(angle))
            }
            if score > bestScore {
                bestScore = score
                best = delta
            }
        }
        guard best != 0 else { return }
        for subcarrier in 0..<k {
            let turn = -2 * Double.pi * p.subcarrierHz(subcarrier) * best * period
            for symbol in 1..<symbolCount {
                let index = 2 * (symbol * k + subcarrier)
                let c = cos(turn * Double(symbol)), s = sin(turn * Double(symbol))
                let re = bins[index], im = bins[index + 1]
                bins[index] = re * c - im * s
                bins[index + 1] = re * s + im * c
            }
        }
    }

    /// The product of a subcarrier's bin with the conjugate of its bin one
    /// symbol earlier (its phase step), or nil when it carries no phase (zero
    /// or non-finite). Both clock-offset readings are built from these.
    func differentialProduct(symbol: Int, subcarrier: Int) -> Complex? {
        let k = parameters.subcarrierCount
        let current = 2 * (symbol * k + subcarrier), previous = 2 * ((symbol - 1) * k + subcarrier)
        let d = Complex(bins[current], bins[current + 1]) * Complex(bins[previous], -bins[previous + 1])
        let magnitude = d.magnitude
        guard magnitude > 0, magnitude.isFinite else { return nil }
        return d
    }
}
