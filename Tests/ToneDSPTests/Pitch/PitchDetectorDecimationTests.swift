import Foundation
import Testing
import ToneDSP
import ToneTestSupport

/// The NSDF runs on the window averaged over 4 or 2 samples when the rate
/// allows (`nsdfDecimation`); the period's top is then measured at the full
/// rate. Each factor must read sines and harmonic-rich tones as the full
/// rate does.
@Suite("PitchDetector NSDF decimation")
struct PitchDetectorDecimationTests {
    static let frameSize = 4096

    /// A highest pitch for each factor at 48 kHz.
    static let highHzByFactor: [Int: Double] = [4: 2000, 2: 3000, 1: 6000]

    @Test("The factor keeps the NSDF's rate at five times the highest pitch")
    func factors() {
        for (factor, highHz) in Self.highHzByFactor {
            let configuration = PitchDetectorConfiguration(sampleRateHz: 48_000, frameSize: Self.frameSize, highHz: highHz)
            #expect(configuration.nsdfDecimation == factor, "\(highHz) Hz")
        }
        #expect(PitchDetectorConfiguration(sampleRateHz: 44_100, frameSize: 4096).nsdfDecimation == 4)
        #expect(PitchDetectorConfiguration(sampleRateHz: 96_000, frameSize: 8192, highHz: 5000).nsdfDecimation == 2)
        // A 256-sample window stays at 128 decimated samples or more.
        #expect(PitchDetectorConfiguration(sampleRateHz: 48_000, frameSize: 256, lowHz: 400).nsdfDecimation == 2)
    }

    static func frame(frequencyHz: Double, harmonics: Int, random: inout SeededRandom) -> [Float] {
        let phases = (0..<harmonics).map { _ in Double.random(in: 0..<(2 * .pi), using: &random) }
        return (0..<frameSize).map { n in
            var value = 0.0
            for h in 1...harmonics where Double(h) * frequencyHz < 20_000 {
                value += 0.5 / Double(h) * sin(2 * .pi * Double(h) * frequencyHz * Double(n) / 48_000 + phases[h - 1])
            }
            return Float(value + 0.01)
        }
    }

    @Test("Sines across the range read within 0.01 cent at each factor", arguments: [4, 2, 1])
    func sines(factor: Int) throws {
        let highHz = try #require(Self.highHzByFactor[factor])
        let configuration = PitchDetectorConfiguration(sampleRateHz: 48_000, frameSize: Self.frameSize, highHz: highHz)
        try #require(configuration.nsdfDecimation == factor)
        let detector = try PitchDetector(configuration, planning: .estimate)
        var random = SeededRandom(seed: 700 + UInt64(factor))
        let lowHz = configuration.lowestDetectableHz * 1.05, topHz = highHz * 0.95
        var worst = 0.0
        for step in 0..<24 {
            let truthHz = lowHz * pow(topHz / lowHz, (Double(step) + Double.random(in: 0..<1, using: &random)) / 24)
            let frame = Self.frame(frequencyHz: truthHz, harmonics: 1, random: &random)
            let reading = frame.withUnsafeBufferPointer { detector.estimate($0) }
            let error = abs(Pluck.centsError(reading.frequencyHz, truthHz: truthHz))
            #expect(error <= 0.01, "\(truthHz) Hz read \(String(describing: reading.frequencyHz))")
            worst = max(worst, error)
        }
        print("NSDF decimation \(factor): worst sine error \(worst) cent")
    }

    @Test("Harmonic-rich tones (1/h, up to 20 kHz): no gross errors at each factor", arguments: [4, 2, 1])
    func harmonicRich(factor: Int) throws {
        let highHz = try #require(Self.highHzByFactor[factor])
        let configuration = PitchDetectorConfiguration(sampleRateHz: 48_000, frameSize: Self.frameSize, highHz: highHz)
        let detector = try PitchDetector(configuration, planning: .estimate)
        var random = SeededRandom(seed: 710 + UInt64(factor))
        let lowHz = configuration.lowestDetectableHz * 1.05, topHz = highHz * 0.95
        for step in 0..<16 {
            let truthHz = lowHz * pow(topHz / lowHz, (Double(step) + Double.random(in: 0..<1, using: &random)) / 16)
            let frame = Self.frame(frequencyHz: truthHz, harmonics: 200, random: &random)
            let reading = frame.withUnsafeBufferPointer { detector.estimate($0) }
            #expect(abs(Pluck.centsError(reading.frequencyHz, truthHz: truthHz)) <= 1,
                    "\(truthHz) Hz read \(String(describing: reading.frequencyHz))")
        }
    }
}
