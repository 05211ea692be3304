import Foundation
import Testing
import ToneDSP

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
    private static func falseAlarms(_ next: () -> Double) throws -> (count: Int, reported: [Double]) {
        let estimator = try TestSignal.estimator()
        var frame = [Float](repeating: 0, count: TestSignal.fftSize)
        var reported: [Double] = []
        for _ in 0..<windows {
            for index in frame.indices { frame[index] = Float(next()) }
            if let frequencyHz = estimator.estimate(frame).frequencyHz { reported.append(frequencyHz) }
        }
        return (reported.count, reported)
    }

    @Test("white noise: no tone in at least 99 % of windows", arguments: [-80.0, -40.0, -6.0])
    func whiteNoise(rmsDBFS: Double) throws {
        var random = SeededRandom(seed: 0x3417E ^ UInt64(-rmsDBFS))
        let sigma = Decibels.amplitude(dbfs: rmsDBFS) / 2.0.squareRoot()     // sine-referenced RMS
        let (count, reported) = try Self.falseAlarms { sigma * random.gaussian() }
        report("white noise at \(Int(rmsDBFS)) dBFS: tone reported in \(count)/\(Self.windows) windows \(reported.prefix(5).map { formatted($0) })")
        #expect(Double(count) <= 0.01 * Double(Self.windows))
    }

    @Test("pink noise: no tone in at least 99 % of windows", arguments: [-80.0, -40.0, -6.0])
    func pinkNoise(rmsDBFS: Double) throws {
        var pink = PinkNoise(seed: 0x919C ^ UInt64(-rmsDBFS))
        let scale = Decibels.amplitude(dbfs: rmsDBFS) / 2.0.squareRoot() / 3.3
        let (count, reported) = try Self.falseAlarms { scale * pink.next() }
        report("pink noise at \(Int(rmsDBFS)) dBFS: tone reported in \(count)/\(Self.windows) windows \(reported.prefix(5).map { formatted($0) })")
        #expect(Double(count) <= 0.01 * Double(Self.windows))
    }
}
