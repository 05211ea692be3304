import Foundation
import Testing
import ToneDSP
import ToneTestSupport

@Suite("ToneEstimator input and settings")
struct ToneEstimatorInputTests {
    @Test("NaN or ±Inf anywhere in the window: invalidInput, no tone",
          arguments: [Float.nan, .infinity, -.infinity, .signalingNaN], [0, 2047, 4095])
    func nonFinite(bad: Float, index: Int) throws {
        var random = SeededRandom(seed: 0xBAD)
        var frame = TestSignal.sine(frequencyHz: 1000, amplitude: 0.5, phase: 0, random: &random)
        frame[index] = bad
        let reading = try TestSignal.estimator().estimate(frame)
        #expect(reading.invalidInput)
        #expect(reading.frequencyHz == nil)
        #expect(reading.levelDBFS == nil)
    }

    @Test("an absurdly loud but finite window does not crash and reports no tone")
    func floatOverflow() throws {
        let frame = [Float](repeating: 0, count: TestSignal.fftSize).enumerated().map { index, _ in
            index % 2 == 0 ? Float.greatestFiniteMagnitude : -Float.greatestFiniteMagnitude
        }
        let reading = try TestSignal.estimator().estimate(frame)
        #expect(!reading.invalidInput)
        #expect(reading.frequencyHz == nil)
    }

    static let rate = TestSignal.sampleRateHz

    @Test("the default settings are valid")
    func defaults() {
        #expect(ToneEstimatorConfiguration(sampleRateHz: 48_000).problem == nil)
        #expect(ToneEstimatorConfiguration(sampleRateHz: 44_100, fftSize: 256, lowHz: 0).problem == nil)
    }

    @Test("bad settings are caught, each with a sentence naming the problem", arguments: [
        (ToneEstimatorConfiguration(sampleRateHz: rate, fftSize: 1000), "1000"),
        (ToneEstimatorConfiguration(sampleRateHz: rate, fftSize: 128), "power of two"),
        (ToneEstimatorConfiguration(sampleRateHz: rate, fftSize: 1 << 21), "power of two"),
        (ToneEstimatorConfiguration(sampleRateHz: rate, highHz: 30_000), "Nyquist"),
        (ToneEstimatorConfiguration(sampleRateHz: rate, lowHz: 5000, highHz: 2000), "LO < HI"),
        (ToneEstimatorConfiguration(sampleRateHz: rate, lowHz: .nan), "LO < HI"),
        (ToneEstimatorConfiguration(sampleRateHz: rate, lowHz: 1000, highHz: 1020), "narrower"),
        (ToneEstimatorConfiguration(sampleRateHz: rate, snrMinDB: .nan), "snr"),
        (ToneEstimatorConfiguration(sampleRateHz: rate, snrMinDB: .infinity), "snr"),
        (ToneEstimatorConfiguration(sampleRateHz: rate, prominenceMinDB: .nan), "prominence"),
        (ToneEstimatorConfiguration(sampleRateHz: .nan), "sample rate"),
        (ToneEstimatorConfiguration(sampleRateHz: 0), "sample rate"),
    ])
    func problems(configuration: ToneEstimatorConfiguration, mentions: String) {
        let problem = configuration.problem
        #expect(problem?.contains(mentions) == true, "\(String(describing: problem))")
        #expect(throws: ToneEstimator.SetupError.self) { try ToneEstimator(configuration, planning: .estimate) }
    }
}
