import Foundation
import Testing
import ToneDSP
import ToneTestSupport

/// What `--mode pitch` reads besides the pitch: the harmonic part's level and
/// its SNR against the rest of the window. A window rarely holds a whole
/// number of cycles; neither figure may depend on how many it holds.
@Suite("PitchDetector level and SNR")
struct PitchDetectorPowerTests {
    /// A sine of amplitude 0.5 (−6.02 dBFS), 1.6 s at 48 kHz, with white noise of `noiseRMS`.
    static func sine(frequencyHz: Double, noiseRMS: Double = 0, seed: UInt64 = 0) -> [Double] {
        var random = SeededRandom(seed: seed)
        return TestSignal.sineDoubles(frequencyHz: frequencyHz, amplitude: 0.5, phase: 0.3, count: 76_800,
                                      noiseRMS: noiseRMS, random: &random)
    }

    /// Frequencies whose windows hold a fraction of a cycle more or less
    /// (20.48 cycles of 240 Hz in 4096 samples), read through the
    /// Blackman–Harris window (6 bins of spacing and more) and, at 50 Hz
    /// (4.3 bins), Hann's. Each window's sidelobes let a sine's negative-
    /// frequency image into its harmonic sum, a cross term that moves with
    /// the sine's phase: without taking it out, clean sines read 57.9 dB
    /// (82.41 Hz) and 34 dB (50 Hz) in their worst windows.
    @Test("a clean sine: level within 0.001 dB of its own, SNR within 0.1 dB of the 60 dB ceiling in every window",
          arguments: [50.0, 82.41, 240.0, 1000.0, 3520.0])
    func cleanSine(frequencyHz: Double) throws {
        let reports = PitchDetectorAccuracyTests.sounding(try Pluck.analyze(Self.sine(frequencyHz: frequencyHz), hopFrames: 512))
        #expect(reports.count > 100)
        let levels = reports.compactMap(\.reading.levelDBFS), snrs = reports.compactMap(\.reading.snrDB)
        #expect(levels.count == reports.count && snrs.count == reports.count)
        let expectedDBFS = 20 * log10(0.5)
        let worstLevel = levels.map { abs($0 - expectedDBFS) }.max() ?? .infinity
        report("clean sine \(frequencyHz) Hz: \(reports.count) windows, level off by ≤ \(formatted(worstLevel)) dB, SNR \(formatted(snrs.min() ?? .nan))…\(formatted(snrs.max() ?? .nan)) dB")
        #expect(worstLevel < 0.001)
        #expect((snrs.min() ?? 0) > 59.9)
    }

    @Test("a sine in white noise at 20 dB: median SNR within 0.5 dB of it, no window 4 dB off",
          arguments: [82.41, 240.0, 1000.0])
    func noisySine(frequencyHz: Double) throws {
        // Signal power 0.125 (A²/2), noise 20 dB below it.
        let signal = Self.sine(frequencyHz: frequencyHz, noiseRMS: (0.125 / 100).squareRoot(),
                               seed: 20 &+ UInt64(frequencyHz))
        let reports = PitchDetectorAccuracyTests.sounding(try Pluck.analyze(signal, hopFrames: 512))
        let snrs = reports.compactMap(\.reading.snrDB)
        #expect(snrs.count == reports.count && snrs.count > 100)
        let medianDB = median(snrs) ?? .nan
        let worst = snrs.map { abs($0 - 20) }.max() ?? .infinity
        report("sine \(frequencyHz) Hz at 20 dB SNR: median \(formatted(medianDB)) dB, worst window \(formatted(worst)) dB off")
        #expect(abs(medianDB - 20) < 0.5)
        // One window's figure moves with the noise that falls where the sine
        // is (its cross term with the sine): 1.6–3.4 dB at worst in 131.
        #expect(worst < 4)
    }
}
