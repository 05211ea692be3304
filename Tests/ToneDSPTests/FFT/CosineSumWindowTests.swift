import Foundation
import Testing
@testable import ToneDSP

/// The one window type against the windows' closed forms: each sample must be
/// the very number the formula gives (the readings depend on it bit for bit),
/// and the shapes must have the properties their users rely on.
@Suite("CosineSumWindow")
struct CosineSumWindowTests {
    @Test("Periodic Hann is ½ − ½·cos(2πn/N), bit for bit; zero at 0, one at N/2, w[n] = w[N − n], sum N/2",
          arguments: [4, 256, 1000, 4096])
    func periodicHann(size: Int) {
        let values = CosineSumWindow.hann.values(size: size, sampling: .periodic)
        #expect(values.count == size)
        for n in 0..<size {
            #expect(values[n] == 0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(size)), "n = \(n)")
            #expect(values[n] == CosineSumWindow.hann.value(n, size: size, sampling: .periodic))
        }
        #expect(values[0] == 0)
        #expect(values[size / 2] == 1)
        for n in 1..<size { #expect(abs(values[n] - values[size - n]) < 1e-15, "n = \(n)") }
        #expect(abs(values.reduce(0, +) - Double(size) / 2) < 1e-12 * Double(size))
    }

    @Test("Half-sample-shifted Hann is ½ − ½·cos(2π(n + ½)/N), bit for bit; symmetric about the centre, no zero",
          arguments: [128, 2048, 3000])
    func halfSampleShiftedHann(size: Int) {
        let values = CosineSumWindow.hann.values(size: size, sampling: .halfSampleShifted)
        for n in 0..<size {
            #expect(values[n] == 0.5 - 0.5 * cos(2 * Double.pi * (Double(n) + 0.5) / Double(size)), "n = \(n)")
            #expect(abs(values[n] - values[size - 1 - n]) < 1e-15, "n = \(n)")
            #expect(values[n] > 0)
        }
    }

    @Test("Blackman–Harris is a₀ − a₁·cos φ + a₂·cos 2φ − a₃·cos 3φ, bit for bit, in both samplings",
          arguments: [CosineSumWindow.Sampling.periodic, .halfSampleShifted])
    func blackmanHarris(sampling: CosineSumWindow.Sampling) {
        let size = 1024
        let shift = sampling == .periodic ? 0.0 : 0.5
        for n in 0..<size {
            let phase = 2 * Double.pi * (Double(n) + shift) / Double(size)
            let closed = 0.35875 - 0.48829 * cos(phase) + 0.14128 * cos(2 * phase) - 0.01168 * cos(3 * phase)
            #expect(CosineSumWindow.blackmanHarris.value(n, size: size, sampling: sampling) == closed, "n = \(n)")
        }
        // The four coefficients sum to 1: the peak (φ = π) is one.
        #expect(abs(CosineSumWindow.blackmanHarris.value(size / 2, size: size, sampling: .periodic) - 1) < 1e-12)
    }
}
