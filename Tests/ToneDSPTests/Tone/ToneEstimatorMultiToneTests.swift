import Foundation
import Testing
import ToneDSP
import ToneTestSupport

/// `maxTones` K > 1 (`--tones K`): the K strongest tones, each with its own
/// frequency, level and SNR, fitted jointly.
@Suite("ToneEstimator with several tones")
struct ToneEstimatorMultiToneTests {
    static let binHz = TestSignal.binHz

    /// Two sines (random phases) plus white noise.
    static func twoTones(_ first: (hz: Double, dbfs: Double), _ second: (hz: Double, dbfs: Double),
                         noiseRMS: Double, random: inout SeededRandom) -> [Float] {
        let a = TestSignal.sine(frequencyHz: first.hz, amplitude: Decibels.amplitude(dbfs: first.dbfs),
                                phase: random.phase(), noiseRMS: noiseRMS, random: &random)
        let b = TestSignal.sine(frequencyHz: second.hz, amplitude: Decibels.amplitude(dbfs: second.dbfs),
                                phase: random.phase(), random: &random)
        return zip(a, b).map { $0 + $1 }
    }

    /// The weak tone sits 3 bins above (or below) the strong one, where the
    /// strong one's Hann sidelobes are about as loud as the weak tone itself,
    /// at 30 dB per-sample SNR of its own. Both must be reported, each within
    /// its Cramér–Rao bound (RMS over the trials, with room for their scatter),
    /// the strong one first, levels within 0.05 dB (strong) and the weak one's
    /// own bound.
    @Test("two tones 3 bins and 40 dB apart: both reported, each near its own Cramér–Rao bound",
          arguments: [3.0, -3.0])
    func closeAndQuiet(separationBins: Double) throws {
        let estimator = try TestSignal.estimator(maxTones: 2)
        var random = SeededRandom(seed: 0x3B1A ^ UInt64(separationBins + 10))
        let weakDBFS = -50.0, weakSNRDB = 30.0
        let noiseRMS = Decibels.amplitude(dbfs: weakDBFS) / (2 * pow(10, weakSNRDB / 10)).squareRoot()
        let trials = 40
        var strongSquares = 0.0, weakSquares = 0.0, weakLevelSquares = 0.0
        var worstStrongLevel = Worst()
        for _ in 0..<trials {
            let strongHz = (85 + random.uniform()) * Self.binHz
            let weakHz = strongHz + separationBins * Self.binHz
            let frame = Self.twoTones((strongHz, -10), (weakHz, weakDBFS), noiseRMS: noiseRMS, random: &random)
            let reading = estimator.estimate(frame)
            try #require(reading.tones.count == 2, "\(reading.tones)")
            let strong = reading.tones[0], weak = reading.tones[1]
            #expect(reading.frequencyHz == strong.frequencyHz)
            strongSquares += (strong.frequencyHz - strongHz) * (strong.frequencyHz - strongHz)
            weakSquares += (weak.frequencyHz - weakHz) * (weak.frequencyHz - weakHz)
            worstStrongLevel.add(strong.levelDBFS + 10)
            weakLevelSquares += (weak.levelDBFS - weakDBFS) * (weak.levelDBFS - weakDBFS)
        }
        let weakBound = TestSignal.cramerRaoHz(snrDB: weakSNRDB)
        let strongBound = TestSignal.cramerRaoHz(snrDB: weakSNRDB + 40)
        let weakRatio = (weakSquares / Double(trials)).squareRoot() / weakBound
        let strongRatio = (strongSquares / Double(trials)).squareRoot() / strongBound
        // The weak level's bound: 20/ln 10 / √(ηN) dB.
        let weakLevelBound = 20 / log(10) / (pow(10, weakSNRDB / 10) * Double(TestSignal.fftSize)).squareRoot()
        let weakLevelRatio = (weakLevelSquares / Double(trials)).squareRoot() / weakLevelBound
        report("two tones \(Int(separationBins)) bins, 40 dB apart: strong RMS error \(formatted(strongRatio))× its CRLB, weak \(formatted(weakRatio))× its CRLB (\(formatted(weakBound)) Hz), strong level max |ΔL| \(formatted(worstStrongLevel.value)) dB, weak level RMS error \(formatted(weakLevelRatio))× its bound")
        // 40 trials: an RMS estimate scatters by about ±11 % (1σ).
        let allowed = 1.1 * (1 + 3 / (2 * Double(trials)).squareRoot())
        #expect(weakRatio < allowed)
        #expect(strongRatio < allowed)
        #expect(weakLevelRatio < allowed)
        #expect(worstStrongLevel.value < 0.05)
    }

    @Test("noise-free: two tones 3 bins and 40 dB apart are both exact")
    func closeAndQuietNoiseFree() throws {
        let estimator = try TestSignal.estimator(maxTones: 2)
        var random = SeededRandom(seed: 0x3B1B)
        for trial in 0..<10 {
            let strongHz = (40 + 17 * Double(trial) + random.uniform()) * Self.binHz
            let weakHz = strongHz + 3 * Self.binHz
            let frame = Self.twoTones((strongHz, -6), (weakHz, -46), noiseRMS: 0, random: &random)
            let tones = estimator.estimate(frame).tones
            try #require(tones.count == 2, "\(tones)")
            #expect(abs(tones[0].frequencyHz - strongHz) < 1e-5)
            #expect(abs(tones[1].frequencyHz - weakHz) < 1e-4)
            #expect(abs(tones[0].levelDBFS + 6) < 0.001)
            #expect(abs(tones[1].levelDBFS + 46) < 0.01)
        }
    }

    @Test("two equal tones: both reported, the louder by a hair first")
    func equalTones() throws {
        let estimator = try TestSignal.estimator(maxTones: 2)
        var random = SeededRandom(seed: 0xE0)
        for trial in 0..<10 {
            let (a, b) = (700.0 + 10 * Double(trial), 3000.0 - 7 * Double(trial))
            let frame = Self.twoTones((a, -20), (b, -20.01), noiseRMS: 1e-4, random: &random)
            let reading = estimator.estimate(frame)
            try #require(reading.tones.count == 2, "\(reading.tones)")
            #expect(abs(reading.tones[0].frequencyHz - a) < 0.01)
            #expect(abs(reading.tones[1].frequencyHz - b) < 0.01)
            for tone in reading.tones { #expect(abs(tone.levelDBFS + 20) < 0.02) }
        }
    }

    /// K larger than the number of tones present: only the real ones. A
    /// further tone has to pass the same gates as the first, on what is left.
    @Test("asked for 4 tones with 2 (or 1) present: only the real ones, in at least 99 % of windows",
          arguments: [1, 2])
    func fewerThanAsked(present: Int) throws {
        let estimator = try TestSignal.estimator(maxTones: 4)
        var random = SeededRandom(seed: 0xF4 ^ UInt64(present))
        let windows = 100
        var wrong = 0
        for _ in 0..<windows {
            let frame = present == 2
                ? Self.twoTones((1234.5, -20), (5000, -30), noiseRMS: 0.003, random: &random)
                : TestSignal.sine(frequencyHz: 1234.5, amplitude: 0.1, phase: random.phase(), noiseRMS: 0.003,
                                  random: &random)
            let tones = estimator.estimate(frame).tones
            let expected = present == 2 ? [1234.5, 5000] : [1234.5]
            if tones.count != present || zip(tones, expected).contains(where: { abs($0.frequencyHz - $1) > 0.1 }) {
                wrong += 1
            }
        }
        report("4 tones asked, \(present) present: wrong count or frequency in \(wrong)/\(windows) windows")
        #expect(Double(wrong) <= 0.01 * Double(windows))
    }

    @Test("K = 1 keeps tones empty; the top-level fields are the strongest tone's")
    func singleToneUnchanged() throws {
        var random = SeededRandom(seed: 0x51)
        let frame = Self.twoTones((3000, -10), (700, -20), noiseRMS: 1e-3, random: &random)
        let one = try TestSignal.estimator().estimate(frame)
        let two = try TestSignal.estimator(maxTones: 2).estimate(frame)
        #expect(one.tones.isEmpty)
        #expect(abs(try #require(one.frequencyHz) - 3000) < 0.01)
        #expect(abs(try #require(two.frequencyHz) - 3000) < 0.01)
        #expect(two.tones.count == 2)
    }
}
