import Foundation
import Testing
import ToneDSP
import ToneTestSupport

@Suite("sineOfPhase")
struct SineOfPhaseTests {
    /// The reference: libm's sine of the phase in radians. `Double(phase)`
    /// rounds to 53 bits, which moves the angle by at most 2π·2^-54 ≈ 3.5e-16,
    /// far below the tolerance.
    private static func reference(_ phase: UInt64) -> Double {
        sin(2 * Double.pi * (Double(phase) * 0x1p-64))
    }

    @Test("matches libm sin within 1e-14 over random phases")
    func randomPhases() {
        var random = SeededRandom(seed: 0x5EED_0001)
        var worst = Worst()
        for _ in 0..<1_000_000 {
            let phase = random.next()
            worst.add(sineOfPhase(phase) - Self.reference(phase))
        }
        report("sineOfPhase max |error| over 1e6 random phases: \(formatted(worst.value))")
        #expect(worst.value < 1e-14)
    }

    /// Quadrant edges, the centring point π/4 of each quadrant, and their
    /// neighbours: where a wrong branch or sign would show first.
    @Test("matches libm sin at quadrant edges and centres", arguments: 0..<8)
    func edges(eighth: UInt64) {
        var worst = Worst()
        let base = eighth << 61
        for delta: Int64 in [-2, -1, 0, 1, 2, -(1 << 20), 1 << 20] {
            let phase = base &+ UInt64(bitPattern: delta)
            worst.add(sineOfPhase(phase) - Self.reference(phase))
        }
        #expect(worst.value < 1e-14)
    }

    @Test("exact values at 0, π/2, π, 3π/2")
    func cardinalPoints() {
        #expect(abs(sineOfPhase(0)) < 1e-15)
        #expect(abs(sineOfPhase(1 << 62) - 1) < 1e-15)
        #expect(abs(sineOfPhase(1 << 63)) < 1e-15)
        #expect(abs(sineOfPhase(3 << 62) + 1) < 1e-15)
    }
}

@Suite("renderSineRun")
struct SineRunTests {
    /// Every sample against `sineOfPhase` of its own exact phase: random
    /// phases, steps up to Nyquist, lengths from 1 to past several anchors.
    @Test("each sample within a Float step of the direct sine, any phase, step and length")
    func matchesDirect() {
        var random = SeededRandom(seed: 0x5EED_0017)
        var worst = 0.0
        let output = UnsafeMutablePointer<Float>.allocate(capacity: 4096)
        defer { output.deallocate() }
        for trial in 0..<2000 {
            let count = trial < 40 ? trial + 1 : Int(random.next() % 4096) + 1
            let phase = random.next()
            let step = random.next() >> 1                      // below Nyquist
            let gain = Double(random.next() % 1000 + 1) / 1000
            renderSineRun(into: output, count: count, phase: phase, step: step, gain: gain)
            for k in 0..<count {
                let direct = Float(gain * sineOfPhase(phase &+ step &* UInt64(k)))
                worst = max(worst, Double(abs(output[k] - direct)) / gain)
            }
        }
        report("renderSineRun against sineOfPhase, 2000 runs: max |difference| \(formatted(worst)) of the gain")
        // One rounding of the Float conversion either way (2^-24 ≈ 6e-8).
        #expect(worst <= 0x1p-23)
    }
}
