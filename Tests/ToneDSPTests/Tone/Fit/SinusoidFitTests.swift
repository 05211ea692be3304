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

    @Test("SinusoidMixtureFit: three noise-free double-precision sines, two of them 2 bins apart and 60 dB apart, recovered to rounding")
    func mixtureRecovery() throws {
        let n = 4096
        let binRadians = 2 * Double.pi / Double(n)
        let t0 = -Double(n - 1) / 2
        // (ω, a, b): a loud tone, a -60 dB one 2 bins above it, one near DC.
        let truth: [(Double, Double, Double)] = [(100.3 * binRadians, 0.5, -0.2), (102.3 * binRadians, 4e-4, 3e-4),
                                                 (2.7 * binRadians, -0.1, 0.05)]
        let offset = 0.02
        let samples = (0..<n).map { index in
            let t = t0 + Double(index)
            return truth.reduce(offset) { $0 + $1.1 * cos($1.0 * t) + $1.2 * sin($1.0 * t) }
        }
        let starts = truth.enumerated().map { $1.0 + (0.2 - 0.15 * Double($0)) * binRadians }
        let fit = try #require(samples.withUnsafeBufferPointer {
            SinusoidMixtureFit.refine($0, omegaStarts: starts, maxStepRadians: 1.5 * binRadians)
        })
        for (tone, expected) in zip(fit.tones, truth) {
            #expect(abs(tone.omega - expected.0) < 1e-11)
            #expect(abs(tone.cosineAmplitude - expected.1) < 1e-10)
            #expect(abs(tone.sineAmplitude - expected.2) < 1e-10)
        }
        #expect(abs(fit.offset - offset) < 1e-10)
        #expect(fit.residualPower < 1e-20)
    }

    @Test("SinusoidMixtureFit: two starts on one tone do not make two tones (the fit is refused)")
    func mixtureMerging() throws {
        let n = 2048
        let binRadians = 2 * Double.pi / Double(n)
        let samples = (0..<n).map { 0.3 * cos(50.4 * binRadians * Double($0)) }
        let fit = samples.withUnsafeBufferPointer {
            SinusoidMixtureFit.refine($0, omegaStarts: [50.3 * binRadians, 50.6 * binRadians],
                                      maxStepRadians: 1.5 * binRadians)
        }
        // Refused: two columns for one tone make the normal equations (nearly)
        // singular, or the two frequencies run apart; either way no fit comes
        // back (what the caller then does: one start per tone). A fit that
        // came back would have to carry (almost) nothing in one of the two.
        if let fit {
            Issue.record("""
                two starts on one tone were not refused: amplitudes \(fit.tones.map(\.amplitude)), \
                frequencies \(fit.tones.map { $0.omega / binRadians }) bins
                """)
        }
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
