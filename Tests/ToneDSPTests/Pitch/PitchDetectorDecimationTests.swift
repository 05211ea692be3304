import Foundation
import Testing
@testable import ToneDSP
import ToneTestSupport

/// The NSDF runs on the window averaged over 4 or 2 samples when the rate
/// allows (`nsdfDecimation`); the lobes that could be chosen are then
/// measured at the full rate. Each factor must read what the undecimated
/// NSDF reads, window by window.
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

    @Test("The NSDF takes only frames its averaging covers whole (blocks of 4 decimated samples)")
    func frameSizeMultiple() {
        // `load` averages 16 samples into 4 (8 into 4 at 2:1): a 20-sample frame would leave a sample unwritten.
        #expect(NormalizedSquareDifference(frameSize: 20, maxLag: 4, decimation: 4, planning: .estimate) == nil)
        #expect(NormalizedSquareDifference(frameSize: 12, maxLag: 4, decimation: 2, planning: .estimate) == nil)
        #expect(NormalizedSquareDifference(frameSize: 32, maxLag: 4, decimation: 4, planning: .estimate) != nil)
        #expect(NormalizedSquareDifference(frameSize: 12, maxLag: 4, decimation: 1, planning: .estimate) != nil)
    }

    /// Harmonics 1…`harmonics` (below 20 kHz) at 1/h, random phases, a small offset.
    static func frame(frequencyHz: Double, harmonics: Int, random: inout SeededRandom) -> [Float] {
        let phases = (0..<harmonics).map { _ in Double.random(in: 0..<(2 * .pi), using: &random) }
        let orders = (1...harmonics).filter { Double($0) * frequencyHz < 20_000 }
        return TestSignal.harmonics(fundamentalHz: frequencyHz, orders: orders, amplitude: 0.5,
                                    phases: orders.map { phases[$0 - 1] }, count: frameSize).map { Float($0 + 0.01) }
    }

    @Test("Sines and harmonic-rich tones across the range: each factor reads the undecimated NSDF's pitch within 0.01 cent",
          arguments: [4, 2])
    func sameAsUndecimated(factor: Int) throws {
        let highHz = try #require(Self.highHzByFactor[factor])
        let configuration = PitchDetectorConfiguration(sampleRateHz: 48_000, frameSize: Self.frameSize, highHz: highHz)
        try #require(configuration.nsdfDecimation == factor)
        let decimated = try PitchDetector(configuration, planning: .estimate)
        let full = try PitchDetector(configuration, planning: .estimate, nsdfDecimation: 1)
        var random = SeededRandom(seed: 700 + UInt64(factor))
        let lowHz = configuration.lowestDetectableHz * 1.05, topHz = highHz * 0.95
        var worst = 0.0
        for harmonics in [1, 200] {
            for step in 0..<24 {
                let truthHz = lowHz * pow(topHz / lowHz, (Double(step) + Double.random(in: 0..<1, using: &random)) / 24)
                let frame = Self.frame(frequencyHz: truthHz, harmonics: harmonics, random: &random)
                let reference = frame.withUnsafeBufferPointer { full.estimate($0) }
                let reading = frame.withUnsafeBufferPointer { decimated.estimate($0) }
                let referenceHz = try #require(reference.frequencyHz)
                let difference = abs(Pluck.centsError(reading.frequencyHz, truthHz: referenceHz))
                #expect(difference <= 0.01, "\(truthHz) Hz, \(harmonics) harmonics: \(String(describing: reading.frequencyHz)), undecimated \(referenceHz)")
                worst = max(worst, difference)
            }
        }
        print("NSDF decimation \(factor): largest difference from the undecimated NSDF \(worst) cent")
    }

    /// A pitch just above the range's low end (a range set just below a
    /// string's note): its period is in the last lags searched, which the
    /// averaged NSDF sees as the last decimated lag or two.
    @Test("A pitch at the low end of the range: each factor reads it as the undecimated NSDF does", arguments: [4, 2])
    func lowEndOfRange(factor: Int) throws {
        let highHz = try #require(Self.highHzByFactor[factor])
        var random = SeededRandom(seed: 900 + UInt64(factor))
        for _ in 0..<12 {
            let lowHz = Double.random(in: 40..<400, using: &random)
            let configuration = PitchDetectorConfiguration(sampleRateHz: 48_000, frameSize: Self.frameSize,
                                                           lowHz: lowHz, highHz: highHz)
            try #require(configuration.nsdfDecimation == factor)
            let decimated = try PitchDetector(configuration, planning: .estimate)
            let full = try PitchDetector(configuration, planning: .estimate, nsdfDecimation: 1)
            // A period 1.2 samples shorter than the low end's: the undecimated NSDF's lobe top is inside the range.
            let truthHz = 48_000 / (48_000 / lowHz - 1.2)
            let frame = Self.frame(frequencyHz: truthHz, harmonics: 1, random: &random)
            let referenceHz = try #require(frame.withUnsafeBufferPointer { full.estimate($0) }.frequencyHz,
                                           "\(truthHz) Hz, range from \(lowHz) Hz")
            let reading = frame.withUnsafeBufferPointer { decimated.estimate($0) }
            #expect(abs(Pluck.centsError(reading.frequencyHz, truthHz: referenceHz)) <= 0.01,
                    "\(truthHz) Hz, range from \(lowHz) Hz: \(String(describing: reading.frequencyHz)), undecimated \(referenceHz)")
        }
    }
}
