#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// W(θ) = Σₜ w(t)·cos(θt) of a cosine-sum window of `frameSize` samples,
/// sampled half a sample shifted (`CosineSumWindow.Sampling.halfSampleShifted`),
/// over t = ±½, ±3/2, … about the frame's centre. That shift (t = n + ½ − W/2)
/// turns the window's alternating signs into w(t) = Σₖ aₖ·cos(2πkt/W), its
/// `coefficients` aₖ all added: each term a pair of Dirichlet
/// kernels D(θ ∓ 2πk/W), D(x) = sin(Wx/2) / sin(x/2). The shifts turn each
/// numerator into (−1)ᵏ·sin(Wθ/2) and each denominator into
/// sin(θ/2)·cos(πk/W) ∓ cos(θ/2)·sin(πk/W): three libm calls for all of
/// them, the shifts' sines and cosines made once. θ stays clear of every
/// 2πk/W (two periods and more in a frame: θ = 2hω is four bins and more)
/// and of 2π (harmonics below 0.95π).
struct WindowTransform {
    /// The window's coefficients aₖ.
    let terms: [Double]
    let frameSize: Int
    /// cos(πk/W) and sin(πk/W) of each term k ≥ 1 (at k − 1).
    private let shiftCosines: [Double], shiftSines: [Double]

    init(_ window: CosineSumWindow, frameSize: Int) {
        terms = window.coefficients
        self.frameSize = frameSize
        let shifts = (1..<terms.count).map { Double.pi * Double($0) / Double(frameSize) }
        shiftCosines = shifts.map { cos($0) }
        shiftSines = shifts.map { sin($0) }
    }

    func at(_ theta: Double) -> Double {
        let numerator = sin(Double(frameSize) * theta / 2)
        let halfSine = sin(theta / 2), halfCosine = cos(theta / 2)
        var total = terms[0] / halfSine
        var sign = 1.0
        for k in 1..<terms.count {
            sign = -sign
            let along = halfSine * shiftCosines[k - 1], across = halfCosine * shiftSines[k - 1]
            total += sign * terms[k] / 2 * (1 / (along - across) + 1 / (along + across))
        }
        return numerator * total
    }
}
