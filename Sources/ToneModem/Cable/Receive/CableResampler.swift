#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a stretch of samples at fractional positions: a Kaiser-windowed
/// sinc of 32 taps (about 79 dB of stop band, flat to 20 kHz at 44.1 kHz and
/// above), tabulated at 4096 fractional phases (the nearest is taken: a
/// timing error of 1/8192 sample at most, below −75 dB at the top carrier).
/// The cable receiver reads each OFDM symbol with it where the tracked
/// timing says it lies, stretched by the tracked sample-rate offset, so a
/// path that resamples (zita-njbridge) neither slips nor smears carriers.
enum CableResampler {
    /// Taps each side of the read position.
    static let halfTaps = 16
    static let phases = 4096
    private static let beta = 7.7

    /// `phases + 1` rows of `2 · halfTaps` taps; row `p` reads at fraction `p / phases`, tap `j` weighs sample `j − halfTaps + 1`.
    static let table: [Float] = {
        let taps = 2 * halfTaps
        var table = [Float](repeating: 0, count: (phases + 1) * taps)
        for phase in 0...phases {
            let fraction = Double(phase) / Double(phases)
            var row = [Double](repeating: 0, count: taps)
            for tap in 0..<taps {
                let x = Double(tap - halfTaps + 1) - fraction
                let sinc = abs(x) < 1e-12 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                let edge = x / Double(halfTaps)
                row[tap] = abs(edge) >= 1 ? 0 : sinc * besselI0(beta * (1 - edge * edge).squareRoot()) / besselI0(beta)
            }
            let sum = row.reduce(0, +)
            for tap in 0..<taps { table[phase * taps + tap] = Float(row[tap] / sum) }
        }
        return table
    }()

    /// The modified Bessel function of the first kind, order 0 (its series).
    private static func besselI0(_ x: Double) -> Double {
        var sum = 1.0
        var term = 1.0
        for k in 1..<40 {
            term *= (x / 2) * (x / 2) / Double(k * k)
            sum += term
        }
        return sum
    }

    /// Writes `count` samples of `source` read at `start + n · step` (positions
    /// relative to `source[0]`) into `target`. The caller makes sure that
    /// `halfTaps` samples either side of every position are in `source`.
    static func read(_ source: UnsafeBufferPointer<Float>, start: Double, step: Double, count: Int,
                     into target: UnsafeMutablePointer<Double>) {
        let taps = 2 * halfTaps
        table.withUnsafeBufferPointer { table in
            for index in 0..<count {
                let position = start + Double(index) * step
                var whole = Int(position.rounded(.down))
                var phase = Int(((position - Double(whole)) * Double(phases)).rounded())
                if phase == phases {
                    whole += 1
                    phase = 0
                }
                let first = whole - halfTaps + 1
                var sum = 0.0
                let row = phase * taps
                for tap in 0..<taps { sum += Double(table[row + tap]) * Double(source[first + tap]) }
                target[index] = sum
            }
        }
    }
}
