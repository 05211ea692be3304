import Foundation
import Testing
@testable import ToneDSP

/// The pieces the fit's one pass per step rests on: the model's sums in
/// closed form, the pass's sums, and the bound on what a step leaves.
@Suite("SinusoidFit sums and steps")
struct SinusoidFitSumsTests {
    /// Bins from DC: next to it, low, mid-band, next to Nyquist (N = 1024).
    static let binsFromDC: [Double] = [1.2, 2.5, 37.3, 510.8]

    @Test("the model's sums in closed form match sums over the samples", arguments: binsFromDC)
    func modelSums(bins: Double) {
        let n = 1024
        let omega = bins * 2 * Double.pi / Double(n)
        let t0 = -Double(n - 1) / 2
        var cc = 0.0, ss = 0.0, c1 = 0.0, tcs = 0.0, ts = 0.0, ttcc = 0.0, ttss = 0.0
        for index in 0..<n {
            let t: Double = t0 + Double(index)
            let c: Double = cos(omega * t), s: Double = sin(omega * t)
            cc += c * c
            ss += s * s
            c1 += c
            tcs += t * c * s
            ts += t * s
            ttcc += t * t * c * c
            ttss += t * t * s * s
        }
        let sums = SinusoidFit.ModelSums(count: n, omega: omega)
        // Relative to the size of each kind of sum: N, N²/4 and N³/12.
        #expect(abs(sums.cc - cc) < 1e-9 * Double(n))
        #expect(abs(sums.ss - ss) < 1e-9 * Double(n))
        #expect(abs(sums.c1 - c1) < 1e-9 * Double(n))
        #expect(abs(sums.tcs - tcs) < 1e-9 * Double(n * n))
        #expect(abs(sums.ts - ts) < 1e-9 * Double(n * n))
        #expect(abs(sums.ttcc - ttcc) < 1e-9 * Double(n * n * n))
        #expect(abs(sums.ttss - ttss) < 1e-9 * Double(n * n * n))
    }

    @Test("one pass's sums match sums of the residual, odd counts included", arguments: [1023, 1024])
    func residualSums(count: Int) {
        let omega = 0.31, a = 0.2, b = -0.4, c = 0.03
        let t0 = -Double(count - 1) / 2
        let samples: [Double] = (0..<count).map { index in
            let n = Double(index)
            return 0.5 * cos(0.3 * n + 1) + 0.01 * sin(7.1 * n)
        }
        var expected = SinusoidFit.ResidualSums()
        for index in 0..<count {
            let t: Double = t0 + Double(index)
            let cosine: Double = cos(omega * t), sine: Double = sin(omega * t)
            let model: Double = a * cosine + b * sine + c
            let r: Double = samples[index] - model
            expected.cr += cosine * r
            expected.sr += sine * r
            expected.r1 += r
            expected.tcr += t * cosine * r
            expected.tsr += t * sine * r
            expected.rr += r * r
        }
        let sums = samples.withUnsafeBufferPointer { SinusoidFit.residualSums($0, omega: omega, a: a, b: b, c: c) }
        let squares = samples.withUnsafeBufferPointer { SinusoidFit.residualSquares($0, omega: omega, a: a, b: b, c: c) }
        let scale = Double(count)
        #expect(abs(sums.cr - expected.cr) < 1e-10 * scale)
        #expect(abs(sums.sr - expected.sr) < 1e-10 * scale)
        #expect(abs(sums.r1 - expected.r1) < 1e-10 * scale)
        #expect(abs(sums.tcr - expected.tcr) < 1e-10 * scale * scale)
        #expect(abs(sums.tsr - expected.tsr) < 1e-10 * scale * scale)
        #expect(abs(sums.rr - expected.rr) < 1e-10 * scale)
        #expect(abs(squares - expected.rr) < 1e-10 * scale)
    }

    @Test("one step leaves no more of ω's error than leftAfterStep says, next to DC and Nyquist too",
          arguments: binsFromDC)
    func oneStep(bins: Double) throws {
        let n = 1024
        let binRadians = 2 * Double.pi / Double(n)
        let omega = bins * binRadians
        let t0 = -Double(n - 1) / 2
        for phase in stride(from: 0.0, to: 3.0, by: 0.5) {
            for offsetBins in [1e-5, -3e-4, 1e-2] {
                let samples = (0..<n).map { 0.3 * cos(omega * (t0 + Double($0)) + phase) + 0.02 }
                let start = omega + offsetBins * binRadians
                let fit = try #require(samples.withUnsafeBufferPointer {
                    SinusoidFit.refine($0, omegaStart: start, maxStepRadians: 1.5 * binRadians, iterations: 1)
                })
                let left = SinusoidFit.leftAfterStep(fit.omega - start, omega: fit.omega, count: n)
                #expect(abs(fit.omega - omega) <= left + 1e-15, "\(bins) bins, phase \(phase), start \(offsetBins) bin off")
            }
        }
    }
}
