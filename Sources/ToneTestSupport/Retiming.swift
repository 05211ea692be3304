#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A path that re-times a stream (zita-njbridge's resampler) for tests:
/// built optimized (as this module is) it costs a test seconds, not a minute.
public enum Retiming {
    /// `signal` as a path re-timing it plays it: output sample `t` is the
    /// band-limited signal at `position(t)` (a Kaiser-windowed sinc, ±40 taps,
    /// far finer than the receiver's own), for as long as positions stay inside.
    public static func retimed(_ signal: [Float], count: Int, position: (Double) -> Double) -> [Float] {
        let half = 40
        let beta = 10.0
        func besselI0(_ x: Double) -> Double {
            var (sum, term) = (1.0, 1.0)
            for k in 1..<40 {
                term *= (x / 2) * (x / 2) / Double(k * k)
                sum += term
            }
            return sum
        }
        // The Kaiser window against edge², tabulated finely (linear between entries).
        let steps = 1 << 14
        let window = (0...steps).map { besselI0(beta * (1 - Double($0) / Double(steps)).squareRoot()) / besselI0(beta) }
        return (0..<count).map { t in
            let u = position(Double(t))
            let whole = Int(u.rounded(.down))
            let sinePhase = sin(Double.pi * (u - Double(whole)))
            var sum = 0.0
            for j in max(0, whole - half + 1)...min(signal.count - 1, max(0, whole + half)) {
                let x = u - Double(j)
                // sin(π x) = ± sin(π · fraction): one sine per output sample.
                let sinc = abs(x) < 1e-12 ? 1 : ((whole - j) % 2 == 0 ? sinePhase : -sinePhase) / (Double.pi * x)
                let edge = x / Double(half)
                guard abs(edge) < 1 else { continue }
                let place = edge * edge * Double(steps)
                let index = Int(place)
                let weight = window[index] + (window[min(steps, index + 1)] - window[index]) * (place - Double(index))
                sum += Double(signal[j]) * sinc * weight
            }
            return Float(sum)
        }
    }

}
