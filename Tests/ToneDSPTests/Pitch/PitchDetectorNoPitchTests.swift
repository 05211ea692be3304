import Foundation
import Testing
import ToneDSP
import ToneTestSupport

/// `--mode pitch` says "no pitch" on silence and noise, and never reports a
/// non-finite frequency.
@Suite("PitchDetector no pitch")
struct PitchDetectorNoPitchTests {
    static let frameSize = 4096

    static func detector() throws -> PitchDetector {
        try PitchDetector(PitchDetectorConfiguration(sampleRateHz: Pluck.sampleRateHz, frameSize: frameSize),
                          planning: .estimate)
    }

    static func estimate(_ detector: PitchDetector, _ frame: [Float]) -> ToneReading {
        frame.withUnsafeBufferPointer { detector.estimate($0) }
    }

    @Test("Digital silence and a constant offset: no pitch")
    func silence() throws {
        let detector = try Self.detector()
        for value: Float in [0, 0.25, -1] {
            let reading = Self.estimate(detector, [Float](repeating: value, count: Self.frameSize))
            #expect(reading.frequencyHz == nil)
            #expect(!reading.invalidInput)
        }
    }

    @Test("White and pink noise at any level: no pitch in at least 99% of windows", arguments: ["white", "pink"])
    func noise(kind: String) throws {
        let detector = try Self.detector()
        var random = SeededRandom(seed: kind == "white" ? 501 : 502)
        var pink = PinkNoise(seed: 503)
        let trials = 400
        var pitched = 0
        for trial in 0..<trials {
            let rms = [1e-4, 0.01, 0.3][trial % 3]
            let frame = (0..<Self.frameSize).map { _ in
                Float(rms * (kind == "white" ? random.gaussian() : pink.next() / 3.3))
            }
            let reading = Self.estimate(detector, frame)
            if reading.frequencyHz != nil { pitched += 1 }
        }
        let noPitchRate = 1 - Double(pitched) / Double(trials)
        report("\(kind) noise: no pitch in \(formatted(100 * noPitchRate))% of \(trials) windows")
        #expect(noPitchRate >= 0.99)
    }

    @Test("NaN or Inf anywhere in the window: invalid, no frequency")
    func nonFinite() throws {
        let detector = try Self.detector()
        var random = SeededRandom(seed: 77)
        for bad in [Float.nan, .infinity, -.infinity] {
            var frame = (0..<Self.frameSize).map { _ in Float(0.1 * random.gaussian()) }
            frame[Int.random(in: 0..<Self.frameSize, using: &random)] = bad
            let reading = Self.estimate(detector, frame)
            #expect(reading.invalidInput)
            #expect(reading.frequencyHz == nil)
        }
    }

    @Test("Harsh inputs (clipping, impulses, huge and tiny values) never give a non-finite frequency")
    func neverNonFinite() throws {
        let detector = try Self.detector()
        var random = SeededRandom(seed: 91)
        for trial in 0..<200 {
            let scale = [Float.leastNormalMagnitude, 1e-30, 1, 1e30, Float.greatestFiniteMagnitude / 8192][trial % 5]
            let frame: [Float] = (0..<Self.frameSize).map { n in
                switch trial % 4 {
                case 0: return scale * (n % 97 < 48 ? 1 : -1)                         // square wave
                case 1: return n % 613 == 0 ? scale : 0                                 // impulse train
                case 2: return scale * Float(random.uniform() < 0.5 ? 1 : -1)           // random signs
                default: return min(max(Float(random.gaussian()) * scale, -scale / 2), scale / 2)
                }
            }
            let reading = Self.estimate(detector, frame)
            if let frequency = reading.frequencyHz { #expect(frequency.isFinite && frequency > 0) }
            for value in [reading.levelDBFS, reading.snrDB, reading.rmsDBFS] {
                if let value { #expect(value.isFinite) }
            }
        }
    }

    @Test("PitchReading names notes relative to A4")
    func naming() {
        let reading = PitchReading(frequencyHz: 82.41, temperament: EqualTemperament())
        #expect(reading.noteName == "E2")
        #expect(abs((reading.cents ?? 99) - 1200 * log2(82.41 / (440 * pow(2, -29.0 / 12)))) < 1e-9)
        let baroque = PitchReading(frequencyHz: 415, temperament: EqualTemperament(a4Hz: 415))
        #expect(baroque.noteName == "A4" && abs(baroque.cents ?? 99) < 1e-9)
        #expect(PitchReading(frequencyHz: nil, temperament: EqualTemperament()) == PitchReading())
    }
}
