import Foundation
import Testing
import ToneTestSupport
@testable import ToneDSP

/// `HarmonicRefiner.refine` stops its Newton steps once one moved the
/// fundamental less than `convergedStepBins` over the harmonics, and then
/// reads the first partial from the last evaluation's sums. It must read
/// what taking every step reads, and cost fewer evaluations from a start
/// as close as a tracked window's.
@Suite("HarmonicRefiner stopping converged steps")
struct HarmonicRefinerConvergenceTests {
    static let frameSize = 4096

    /// Seeded windows: additive plucks (exactly harmonic, decaying) at E2, G3
    /// and A4, clean and with white noise 10 dB under their power, and a sine
    /// at 440 Hz at 20 dB SNR; each with its true fundamental in radians per sample.
    static func windows() -> [(name: String, frame: [Float], omega: Double)] {
        var random = SeededRandom(seed: 0xC0_4E)
        var result: [(String, [Float], Double)] = []
        for (note, hz) in [("E2", 82.407), ("G3", 195.998), ("A4", 440.0)] {
            let pluck = Array(Pluck.additive(frequencyHz: hz, seconds: 0.5, random: &random)[4800..<(4800 + frameSize)])
            let power = pluck.reduce(0) { $0 + $1 * $1 } / Double(frameSize)
            let noiseRMS = (power / 10).squareRoot()
            let noisy = pluck.map { $0 + noiseRMS * random.gaussian() }
            result.append(("pluck \(note)", Self.prepared(pluck), 2 * Double.pi * hz / Pluck.sampleRateHz))
            result.append(("pluck \(note), 10 dB SNR", Self.prepared(noisy), 2 * Double.pi * hz / Pluck.sampleRateHz))
        }
        let sine = (0..<frameSize).map { n in 0.4 * sin(2 * Double.pi * 440 * Double(n) / Pluck.sampleRateHz) + 0.028 * random.gaussian() }
        result.append(("sine 440 Hz, 20 dB SNR", Self.prepared(sine), 2 * Double.pi * 440 / Pluck.sampleRateHz))
        return result
    }

    /// Mean removed, in single precision, as `PitchDetector` hands a window to the refiner.
    static func prepared(_ samples: [Double]) -> [Float] {
        let mean = samples.reduce(0, +) / Double(samples.count)
        return samples.map { Float($0 - mean) }
    }

    @Test("from a tracked start (the truth) and an NSDF-like start (0.2 % off): readings within 1e-3 cent of every step taken, fewer evaluations from the tracked start")
    func sameReadingFewerEvaluations() {
        let topOmega = 2 * Double.pi * 5000 / Pluck.sampleRateHz
        var saved = 0, trackedCases = 0
        for window in Self.windows() {
            for (startName, start) in [("tracked", window.omega), ("searched", window.omega * 1.002)] {
                let stopping = HarmonicRefiner(frameSize: Self.frameSize, maxHarmonics: 8)
                let full = HarmonicRefiner(frameSize: Self.frameSize, maxHarmonics: 8)
                let early = window.frame.withUnsafeBufferPointer {
                    stopping.refine($0.baseAddress!, omega: start, harmonicLimit: topOmega, iterations: 3)
                }
                let every = window.frame.withUnsafeBufferPointer {
                    full.refine($0.baseAddress!, omega: start, harmonicLimit: topOmega, iterations: 3, convergedStepBins: 0)
                }
                let cents = abs(1200 * log2(early.omega / every.omega))
                #expect(cents <= 1e-3, "\(window.name), \(startName) start: \(cents) cent from every step's reading")
                // And both read the truth (the plucks are exactly harmonic): a reading that is
                // off would make agreeing with it worth nothing.
                let truthCents = abs(1200 * log2(every.omega / window.omega))
                let truthCentsMax = window.name.hasSuffix("SNR") ? 5 : 0.05
                #expect(truthCents <= truthCentsMax, "\(window.name), \(startName) start: \(truthCents) cent off the truth")
                let powerRatio = early.harmonicPower / every.harmonicPower
                #expect(abs(powerRatio - 1) <= 1e-6, "\(window.name): harmonic power \(powerRatio) of every step's")
                #expect(stopping.evaluations <= full.evaluations, "\(window.name), \(startName) start")
                if startName == "tracked" {
                    trackedCases += 1
                    saved += full.evaluations - stopping.evaluations
                }
            }
        }
        // Every step taken: three evaluations and the first partial's (four); a converged start stops after one or two.
        #expect(saved >= trackedCases, "evaluations saved from tracked starts: \(saved) over \(trackedCases) windows")
    }
}
