#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cosine-sum window of N samples, w(x) = a₀ − a₁·cos(2πx/N) + a₂·cos(4πx/N) − …:
/// Hann (a₀ = a₁ = ½) and Blackman–Harris. The one place ToneDSP computes a
/// window's values; each user names the sampling it needs.
///
/// A value is computed in double precision, term by term from a₀ (a user
/// that keeps single precision rounds each value once): a Hann sample is
/// exactly `0.5 − 0.5·cos(2π·x/N)`.
struct CosineSumWindow: Sendable {
    /// a₀, a₁, …: the terms' magnitudes (their signs alternate, a₁'s negative).
    let coefficients: [Double]

    /// Hann: ½ − ½·cos(2πx/N).
    static let hann = CosineSumWindow(coefficients: [0.5, 0.5])
    /// The four-term Blackman–Harris window (sidelobes at −92 dB).
    static let blackmanHarris = CosineSumWindow(coefficients: [0.35875, 0.48829, 0.14128, 0.01168])

    /// Where sample `n` of a window of N samples lies on the window's period.
    enum Sampling: Sendable {
        /// x = n: the periodic (DFT-even) window of spectra. Hann's first
        /// sample is 0 and its N-point DFT has three non-zero bins.
        case periodic
        /// x = n + ½: symmetric about the frame's centre, w[n] = w[N − 1 − n],
        /// no zero sample: for sums folded over pairs of samples at ±t about
        /// the centre (t = ½, 3/2, …).
        case halfSampleShifted
    }

    /// Sample `n` (0 ..< `size`) of the window of `size` samples.
    func value(_ n: Int, size: Int, sampling: Sampling) -> Double {
        let position = sampling == .periodic ? Double(n) : Double(n) + 0.5
        let phase = 2 * Double.pi * position / Double(size)
        var value = coefficients[0]
        for k in 1..<coefficients.count {
            let term = coefficients[k] * cos(Double(k) * phase)
            value = k.isMultiple(of: 2) ? value + term : value - term
        }
        return value
    }

    /// All `size` samples of the window.
    func values(size: Int, sampling: Sampling) -> [Double] {
        (0..<size).map { value($0, size: size, sampling: sampling) }
    }
}
