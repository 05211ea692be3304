#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exponential (logarithmic) sine sweep and its Farina inverse filter.
///
/// `x(t) = sin(2π f₁ T/R · (e^{tR/T} − 1))`, `R = ln(f₂/f₁)`: every octave
/// takes the same time, so the sweep's energy density falls as 1/f. The
/// inverse filter is the sweep reversed in time with an envelope falling
/// 6 dB/octave (`e^{−tR/T}`), so `x ⊛ inverse` is a band-limited pulse
/// (Farina, AES 108th Convention, 2000). Convolving a chain's output with the
/// inverse filter gives the chain's linear impulse response, and each
/// harmonic's response lands `T·ln(k)/R` earlier, away from the linear one.
public struct ExponentialSweep: Sendable {
    public let startHz: Double
    public let endHz: Double
    public let frames: Int
    public let sampleRateHz: Double

    public init(startHz: Double, endHz: Double, frames: Int, sampleRateHz: Double) {
        self.startHz = startHz
        self.endHz = endHz
        self.frames = frames
        self.sampleRateHz = sampleRateHz
    }

    /// `ln(f₂/f₁)`.
    var rate: Double { log(endHz / startHz) }

    /// Frames from the linear response back to the response of harmonic `k` (k ≥ 2).
    public func harmonicOffsetFrames(_ k: Int) -> Double { Double(frames) * log(Double(k)) / rate }

    /// The sweep with peak `amplitude`, faded in over one period of the start
    /// frequency and out over 5 ms (no clicks at either end).
    public func samples(amplitude: Double) -> [Double] {
        let t = Double(frames) / sampleRateHz
        let k = 2 * Double.pi * startHz * t / rate
        let fadeIn = max(1, min(frames / 10, Int(sampleRateHz / startHz)))
        let fadeOut = max(1, min(frames / 20, Int(0.005 * sampleRateHz)))
        return (0..<frames).map { n in
            let time = Double(n) / sampleRateHz
            var value = amplitude * sin(k * (exp(time * rate / t) - 1))
            if n < fadeIn { value *= 0.5 - 0.5 * cos(Double.pi * Double(n) / Double(fadeIn)) }
            let fromEnd = frames - 1 - n
            if fromEnd < fadeOut { value *= 0.5 - 0.5 * cos(Double.pi * Double(fromEnd) / Double(fadeOut)) }
            return value
        }
    }

    /// The Farina inverse filter of `sweep` (the samples actually played):
    /// reversed, with a 6 dB/octave falling envelope. Its scale is arbitrary;
    /// the analysis divides by the sweep's own deconvolution.
    public func inverseFilter(of sweep: [Double]) -> [Double] {
        let n = sweep.count
        guard n > 1 else { return sweep }
        return (0..<n).map { index in
            sweep[n - 1 - index] * exp(-Double(index) / Double(n - 1) * rate)
        }
    }
}
