import Testing
import ToneDSP
import ToneTestSupport

/// Audio a studio feeds a test node by mistake: DC, full-scale squares, clipping,
/// denormals. The detector answers with the fundamental or "no tone", never NaN.
@Suite("ToneEstimator on harsh input")
struct ToneEstimatorHarshInputTests {
    static func expectFinite(_ reading: ToneReading, _ comment: Comment) {
        for value in [reading.frequencyHz, reading.levelDBFS, reading.snrDB, reading.rmsDBFS].compactMap({ $0 }) {
            #expect(value.isFinite, comment)
        }
        #expect(!reading.invalidInput, comment)
    }

    @Test("pure DC, at any level up to full scale: no tone", arguments: [Float(1e-6), 0.5, 1, -1])
    func directCurrent(level: Float) throws {
        let reading = try TestSignal.estimator().estimate([Float](repeating: level, count: TestSignal.fftSize))
        Self.expectFinite(reading, "DC \(level)")
        #expect(reading.frequencyHz == nil)
    }

    @Test("denormal-only input: no tone, nothing non-finite",
          arguments: [Float.leastNonzeroMagnitude, Float(bitPattern: 0x0001_1C4F), -Float(bitPattern: 0x000A_E398)])
    func denormals(level: Float) throws {
        let frame = (0..<TestSignal.fftSize).map { $0 % 2 == 0 ? level : -level }
        let reading = try TestSignal.estimator().estimate(frame)
        Self.expectFinite(reading, "denormal \(level)")
        #expect(reading.frequencyHz == nil)
    }

    /// Its harmonics count as noise, so "no tone" (SNR below the floor) would
    /// be an honest answer too; but the fundamental stands 9.5 dB above the
    /// strongest of them (4/π against 4/3π), and is what the estimator reads.
    @Test("a full-scale square wave: its fundamental", arguments: [250.0, 1000.0, 3000.0])
    func square(frequencyHz: Double) throws {
        var random = SeededRandom(seed: 0x5C0A)
        let sine = TestSignal.sine(frequencyHz: frequencyHz, amplitude: 1, phase: random.phase(), random: &random)
        let frame = sine.map { $0 >= 0 ? Float(1) : -1 }
        let reading = try TestSignal.estimator().estimate(frame)
        Self.expectFinite(reading, "square \(frequencyHz) Hz")
        let readHz = try #require(reading.frequencyHz, "square \(frequencyHz) Hz: no tone")
        #expect(abs(readHz - frequencyHz) < 0.05 * TestSignal.sampleRateHz / Double(TestSignal.fftSize),
                "square \(frequencyHz) Hz read as \(readHz) Hz")
    }

    @Test("a sine clipped at 6 dB over full scale, with DC: its fundamental", arguments: [440.0, 5000.0, 15_000.0])
    func clipped(frequencyHz: Double) throws {
        var random = SeededRandom(seed: 0xC11F)
        let sine = TestSignal.sine(frequencyHz: frequencyHz, amplitude: 2, phase: random.phase(), offset: 0.1,
                                   random: &random)
        let frame = sine.map { min(1, max(-1, $0)) }
        let reading = try TestSignal.estimator().estimate(frame)
        Self.expectFinite(reading, "clipped \(frequencyHz) Hz")
        // Its 3rd harmonic stands higher above its own (quieter) local floor
        // than the fundamental does; the strongest fitted tone is the fundamental.
        let readHz = try #require(reading.frequencyHz, "clipped \(frequencyHz) Hz: no tone")
        #expect(abs(readHz - frequencyHz) < 0.05 * TestSignal.sampleRateHz / Double(TestSignal.fftSize),
                "clipped \(frequencyHz) Hz read as \(readHz) Hz")
    }
}
