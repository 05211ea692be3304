import Foundation
import Testing
import ToneDSP

@Suite("SinusoidFit and RealFFT")
struct SinusoidFitTests {
    @Test("a noise-free double-precision sine is recovered to rounding",
          arguments: [0.01, 0.3, 1.0, 2.5, 3.1])
    func exactRecovery(omega: Double) throws {
        let n = 2048
        let t0 = -Double(n - 1) / 2
        let (a, b, c) = (0.3, -0.2, 0.05)
        let samples = (0..<n).map { index in
            let t = t0 + Double(index)
            return a * cos(omega * t) + b * sin(omega * t) + c
        }
        let binRadians = 2 * Double.pi / Double(n)
        let fit = try #require(samples.withUnsafeBufferPointer {
            SinusoidFit.refine($0, omegaStart: omega + 0.3 * binRadians, maxStepRadians: 1.5 * binRadians)
        })
        #expect(abs(fit.omega - omega) < 1e-12)
        #expect(abs(fit.cosineAmplitude - a) < 1e-10)
        #expect(abs(fit.sineAmplitude - b) < 1e-10)
        #expect(abs(fit.offset - c) < 1e-10)
        #expect(fit.residualPower < 1e-24)
    }

    @Test("RealFFT: a bin-centred cosine puts (A·N/2)² in its bin and nothing elsewhere")
    func powerSpectrum() throws {
        let n = 1024, bin = 37
        let fft = try #require(RealFFT(size: n, planning: .estimate))
        for index in 0..<n { fft.input[index] = Float(0.5 * cos(2 * Double.pi * Double(bin * index) / Double(n))) }
        var power = [Double](repeating: -1, count: n / 2 + 1)
        power.withUnsafeMutableBufferPointer { fft.powerSpectrum(into: $0.baseAddress!) }
        let expected = (0.5 * Double(n) / 2) * (0.5 * Double(n) / 2)
        #expect(abs(power[bin] / expected - 1) < 1e-5)
        let leakage = power.enumerated().filter { $0.offset != bin }.map(\.element).max() ?? 0
        #expect(leakage < expected * 1e-10)
    }
}
