#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A signal band-limited to 0.8 of Nyquist (the link probe, its
/// correlations) between its samples: a Blackman-windowed sinc of
/// 2·`halfTaps` taps, tabulated at `phases` fractions of a frame and
/// interpolated linearly between them. In the probe's band it is exact to
/// about −60 dB, enough to tell a late frame from a lost one.
///
/// Immutable after init; any thread.
struct BandLimitedInterpolator: Sendable {
    static let halfTaps = 32
    static let phases = 512
    /// Row `p` (fraction p/phases) holds the taps for offsets −halfTaps+1 … halfTaps.
    private let table: [Double]

    init() {
        let taps = Self.halfTaps, width = 2 * taps
        var table = [Double](repeating: 0, count: (Self.phases + 1) * width)
        for phase in 0...Self.phases {
            let fraction = Double(phase) / Double(Self.phases)
            for slot in 0..<width {
                let x = Double(slot - taps + 1) - fraction
                let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                let angle = Double.pi * x / Double(taps)
                let window: Double = 0.42 + 0.5 * cos(angle) + 0.08 * cos(2 * angle)
                table[phase * width + slot] = abs(x) < Double(taps) ? sinc * window : 0
            }
        }
        self.table = table
    }

    /// Σ sample(index)·h(position − index) over the `halfTaps` samples each
    /// side of `position`; `sample` is asked for each of those indices once.
    func value(at position: Double, _ sample: (Int) -> Double) -> Double {
        let base = Int(position.rounded(.down))
        let scaled = (position - Double(base)) * Double(Self.phases)
        let phase = min(Int(scaled), Self.phases - 1)
        let blend = scaled - Double(phase)
        let width = 2 * Self.halfTaps
        return table.withUnsafeBufferPointer { table in
            var sum = 0.0
            var row = phase * width
            for slot in 0..<width {
                let weight = table[row] + blend * (table[row + width] - table[row])
                sum += sample(base + slot - Self.halfTaps + 1) * weight
                row += 1
            }
            return sum
        }
    }
}
