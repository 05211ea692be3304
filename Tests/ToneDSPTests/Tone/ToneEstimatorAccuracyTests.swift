import Foundation
import Testing
import ToneDSP
import ToneTestSupport

@Suite("ToneEstimator accuracy on clean tones")
struct ToneEstimatorAccuracyTests {
    static let binHz = TestSignal.binHz

    /// Low, bin-centred, half-bin, odd, high, near-ultrasonic, 0.45·fs.
    static let frequencies: [Double] = [40, 100 * binHz, 100.5 * binHz, 997, 10_000, 19_000, 0.45 * TestSignal.sampleRateHz]

    @Test("frequency within 1e-4 Hz and level within 0.01 dB, random phases, DC offset",
          arguments: frequencies, [-18.0, -60.0])
    func cleanTone(frequencyHz: Double, levelDBFS: Double) throws {
        let estimator = try TestSignal.estimator()
        var random = SeededRandom(seed: UInt64(frequencyHz * 1000) ^ UInt64(-levelDBFS))
        var frequencyError = Worst(), levelError = Worst()
        for trial in 0..<8 {
            // A DC offset larger than the tone itself at -60 dBFS, either sign.
            let offset = (trial % 2 == 0 ? 1 : -1) * 0.05 * random.uniform()
            let frame = TestSignal.sine(frequencyHz: frequencyHz, amplitude: Decibels.amplitude(dbfs: levelDBFS),
                                        phase: random.phase(), offset: offset, random: &random)
            let reading = estimator.estimate(frame)
            frequencyError.add(try #require(reading.frequencyHz) - frequencyHz)
            levelError.add(try #require(reading.levelDBFS) - levelDBFS)
        }
        report("clean \(formatted(frequencyHz)) Hz at \(Int(levelDBFS)) dBFS: max |Δf| \(formatted(frequencyError.value)) Hz, max |ΔL| \(formatted(levelError.value)) dB")
        #expect(frequencyError.value < 1e-4)
        #expect(levelError.value < 0.01)
    }

    /// 25 frequencies spaced evenly in log from 2.5 bins above DC to 20 kHz,
    /// levels from full scale to -80 dBFS.
    @Test("noise-free: frequency bias below 0.01 cent and level within 0.05 dB, 2.5 bins from DC to 20 kHz",
          arguments: [0.0, -20.0, -80.0])
    func noiseFreeBias(levelDBFS: Double) throws {
        let estimator = try TestSignal.estimator()
        var random = SeededRandom(seed: 0xB1A5 ^ UInt64(-levelDBFS))
        let lowestHz = 2.5 * Self.binHz, highestHz = 20_000.0
        var worstCents = Worst(), worstLevel = Worst()
        for step in 0...24 {
            let frequencyHz = lowestHz * pow(highestHz / lowestHz, Double(step) / 24)
            let amplitude = Decibels.amplitude(dbfs: levelDBFS)
            let frame = TestSignal.sine(frequencyHz: frequencyHz, amplitude: amplitude, phase: random.phase(),
                                        random: &random)
            let reading = estimator.estimate(frame)
            let measured = try #require(reading.frequencyHz, "\(frequencyHz) Hz")
            worstCents.add(1200 * log2(measured / frequencyHz))
            worstLevel.add(try #require(reading.levelDBFS) - levelDBFS)
        }
        report("noise-free at \(Int(levelDBFS)) dBFS, 29 Hz…20 kHz: max |bias| \(formatted(worstCents.value)) cent, max |ΔL| \(formatted(worstLevel.value)) dB")
        #expect(worstCents.value < 0.01)
        #expect(worstLevel.value < 0.05)
    }

    @Test("rmsDBFS is the sine-referenced level of the window, snrDB is high for a clean tone")
    func rmsAndSnr() throws {
        var random = SeededRandom(seed: 0xA11)
        let frame = TestSignal.sine(frequencyHz: 1000, amplitude: Decibels.amplitude(dbfs: -12), phase: 0.3,
                                    random: &random)
        let reading = try TestSignal.estimator().estimate(frame)
        #expect(abs(try #require(reading.rmsDBFS) + 12) < 0.01)
        #expect(try #require(reading.snrDB) > 100)
        #expect(!reading.invalidInput)
    }

    @Test("other FFT sizes: a low and a high tone are read exactly, white noise is not a tone",
          arguments: [256, 1024, 16_384])
    func otherSizes(fftSize: Int) throws {
        let estimator = try TestSignal.estimator(fftSize: fftSize)
        var random = SeededRandom(seed: UInt64(fftSize))
        let binHz = TestSignal.sampleRateHz / Double(fftSize)
        // The lowest: 1.4 bins above the first bin of the band (20 Hz up).
        let lowestHz = ((20 / binHz).rounded(.up) + 1.4) * binHz
        for frequencyHz in [lowestHz, 0.41 * TestSignal.sampleRateHz] {
            let frame = TestSignal.sine(frequencyHz: frequencyHz, amplitude: 0.3, phase: random.phase(), offset: 0.01,
                                        count: fftSize, random: &random)
            let reading = estimator.estimate(frame)
            #expect(abs(try #require(reading.frequencyHz) - frequencyHz) < 1e-4)
            #expect(abs(try #require(reading.levelDBFS) - Decibels.dbfs(amplitude: 0.3)) < 0.01)
        }
        var falseAlarms = 0
        for _ in 0..<100 {
            let noise = (0..<fftSize).map { _ in Float(0.1 * random.gaussian()) }
            if estimator.estimate(noise).frequencyHz != nil { falseAlarms += 1 }
        }
        #expect(falseAlarms <= 1)
    }

    @Test("a tone outside the band is not reported")
    func outOfBand() throws {
        let estimator = try ToneEstimator(
            ToneEstimatorConfiguration(sampleRateHz: TestSignal.sampleRateHz, lowHz: 2000, highHz: 5000),
            planning: .estimate)
        var random = SeededRandom(seed: 0xB0)
        let below = TestSignal.sine(frequencyHz: 1000, amplitude: 0.5, phase: 1, random: &random)
        let inside = TestSignal.sine(frequencyHz: 3000, amplitude: 0.5, phase: 1, random: &random)
        #expect(estimator.estimate(below).frequencyHz == nil)
        #expect(abs(try #require(estimator.estimate(inside).frequencyHz) - 3000) < 1e-4)
    }
}
