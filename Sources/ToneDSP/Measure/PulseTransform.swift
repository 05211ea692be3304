#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A windowed piece of a deconvolved sweep (a pulse), and its transform at
/// any frequency: `X(ω) = Σ_j w[j]·x[c+j]·e^{−iωj}`, j relative to the
/// piece's centre frame `c`, evaluated directly (no FFT bin to round to, so a
/// point lands exactly on the frequency asked for). With it comes
/// `Σ j·w[j]·x[c+j]·e^{−iωj}`, which gives the group delay
/// `τ(ω) = Re(ΣjX / X)` in frames without differentiating a phase.
///
/// Worker / main thread.
struct PulseTransform {
    /// `w[j]·x[c+j]` for j = `firstOffset` … `firstOffset + count − 1`.
    let samples: [Double]
    let firstOffset: Int

    /// - Parameters:
    ///   - x: the deconvolved signal.
    ///   - centre: the frame that becomes j = 0.
    ///   - window: weights for j = `firstOffset`, `firstOffset + 1`, …
    init(_ x: [Double], centre: Int, firstOffset: Int, window: [Double]) {
        self.firstOffset = firstOffset
        samples = window.enumerated().map { index, weight in
            let frame = centre + firstOffset + index
            return frame >= 0 && frame < x.count ? weight * x[frame] : 0
        }
    }

    /// `(X(ω), Σ j·x·e^{−iωj})` at `omega` radians per frame.
    func transform(omega: Double) -> (value: Complex, weighted: Complex) {
        var re = 0.0, im = 0.0, jre = 0.0, jim = 0.0
        samples.withUnsafeBufferPointer { x in
            var index = 0
            // The phasor by recurrence, re-anchored every 256 frames (no drift).
            while index < x.count {
                let end = min(x.count, index + 256)
                let startAngle = -omega * Double(firstOffset + index)
                var c = cos(startAngle), s = sin(startAngle)
                let stepC = cos(omega), stepS = -sin(omega)
                while index < end {
                    let v = x[index], j = Double(firstOffset + index)
                    re += v * c; im += v * s
                    jre += j * v * c; jim += j * v * s
                    let next = c * stepC - s * stepS
                    s = s * stepC + c * stepS
                    c = next
                    index += 1
                }
            }
        }
        return (Complex(re, im), Complex(jre, jim))
    }

    /// A flat window from `firstOffset` to `lastOffset` with raised-cosine fades of `fadeIn` and `fadeOut` frames.
    static func window(firstOffset: Int, lastOffset: Int, fadeIn: Int, fadeOut: Int) -> [Double] {
        let count = lastOffset - firstOffset + 1
        return (0..<count).map { n in
            if n < fadeIn { return 0.5 - 0.5 * cos(Double.pi * Double(n) / Double(fadeIn)) }
            let fromEnd = count - 1 - n
            if fromEnd < fadeOut { return 0.5 - 0.5 * cos(Double.pi * Double(fromEnd) / Double(fadeOut)) }
            return 1
        }
    }
}
