import Foundation
import Testing
@testable import ToneDSP

/// The refiner takes a partial's negative-frequency image out of its power
/// with the window's transform W(θ) in closed form; it must be the window's
/// own sum Σₜ w(t)·cos(θt).
@Suite("HarmonicRefiner window transform")
struct HarmonicRefinerTransformTests {
    @Test("W(θ) in closed form equals the sum over the window's samples, Hann and Blackman–Harris, 4 bins to near π",
          arguments: [CosineSumWindow.hann, CosineSumWindow.blackmanHarris])
    func closedForm(window: CosineSumWindow) {
        let terms = window.coefficients
        let w = 4096
        let bin = 2 * Double.pi / Double(w)
        var worst = 0.0
        for theta in [4.3 * bin, 8.6 * bin, 14.06 * bin, 100.25 * bin, 0.5 * Double.pi + 0.37 * bin, 1.9 * Double.pi] {
            var direct = 0.0, sum = 0.0
            for n in 0..<w {
                let t = Double(n) + 0.5 - Double(w) / 2
                let value = terms.enumerated().reduce(0.0) { $0 + $1.element * cos(2 * Double.pi * Double($1.offset) * t / Double(w)) }
                direct += value * cos(theta * t)
                sum += value
            }
            let closed = WindowTransform(window, frameSize: w).at(theta)
            worst = max(worst, abs(closed - direct) / sum)
        }
        // Relative to W(0) = Σw: the image's size is what matters, 1e-3 of it and below.
        #expect(worst < 1e-10, "worst \(worst)")
    }
}
