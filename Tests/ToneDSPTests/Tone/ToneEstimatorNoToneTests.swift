import Foundation
import Testing
import ToneDSP
import ToneTestSupport

@Suite("ToneEstimator says no tone")
struct ToneEstimatorNoToneTests {
    static let windows = 400

    @Test("digital silence: no tone, no level")
    func silence() throws {
        let reading = try TestSignal.estimator().estimate([Float](repeating: 0, count: TestSignal.fftSize))
        #expect(reading.frequencyHz == nil)
        #expect(reading.levelDBFS == nil)
        #expect(reading.rmsDBFS == nil)
        #expect(!reading.invalidInput)
    }

    @Test("a constant (DC only): no tone")
    func constant() throws {
        let reading = try TestSignal.estimator().estimate([Float](repeating: 0.25, count: TestSignal.fftSize))
        #expect(reading.frequencyHz == nil)
    }

    /// Counts windows in which a tone is reported, over consecutive windows of
    /// one long noise stream.
    /// With `maxTones` 4 a window counts when it reports any tone at all.
    private static func falseAlarms(maxTones: Int = 1, _ next: () -> Double) throws -> (count: Int, reported: [Double]) {
        let estimator = try TestSignal.estimator(maxTones: maxTones)
        var frame = [Float](repeating: 0, count: TestSignal.fftSize)
        var reported: [Double] = []
        for _ in 0..<windows {
            for index in frame.indices { frame[index] = Float(next()) }
            let reading = estimator.estimate(frame)
            if let frequencyHz = reading.frequencyHz { reported.append(frequencyHz) }
            else if !reading.tones.isEmpty { reported.append(-1) }
        }
        return (reported.count, reported)
    }

    @Test("white noise: no tone in at least 99 % of windows, looking for 1 or 4 tones",
          arguments: [-80.0, -40.0, -6.0], [1, 4])
    func whiteNoise(rmsDBFS: Double, maxTones: Int) throws {
        var random = SeededRandom(seed: 0x3417E ^ UInt64(-rmsDBFS))
        let sigma = Decibels.amplitude(dbfs: rmsDBFS) / 2.0.squareRoot()     // sine-referenced RMS
        let (count, reported) = try Self.falseAlarms(maxTones: maxTones) { sigma * random.gaussian() }
        report("white noise at \(Int(rmsDBFS)) dBFS, \(maxTones) tones asked: tone reported in \(count)/\(Self.windows) windows \(reported.prefix(5).map { formatted($0) })")
        #expect(Double(count) <= 0.01 * Double(Self.windows))
    }

    @Test("pink noise: no tone in at least 99 % of windows, looking for 1 or 4 tones",
          arguments: [-80.0, -40.0, -6.0], [1, 4])
    func pinkNoise(rmsDBFS: Double, maxTones: Int) throws {
        var pink = PinkNoise(seed: 0x919C ^ UInt64(-rmsDBFS))
        let scale = Decibels.amplitude(dbfs: rmsDBFS) / 2.0.squareRoot() / 3.3
        let (count, reported) = try Self.falseAlarms(maxTones: maxTones) { scale * pink.next() }
        report("pink noise at \(Int(rmsDBFS)) dBFS, \(maxTones) tones asked: tone reported in \(count)/\(Self.windows) windows \(reported.prefix(5).map { formatted($0) })")
        #expect(Double(count) <= 0.01 * Double(Self.windows))
    }
}
