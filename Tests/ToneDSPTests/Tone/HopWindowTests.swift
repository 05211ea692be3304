import Testing
import ToneDSP
import ToneTestSupport

@Suite("HopWindow")
struct HopWindowTests {
    /// Pushes `samples` in seeded random chunks; returns (window or nil, end position) per hop.
    static func windows(_ samples: [Float], size: Int, hop: Int, seed: UInt64) throws -> [([Float]?, Int)] {
        let window = try HopWindow(size: size, hopFrames: hop)
        var random = SeededRandom(seed: seed)
        var out: [([Float]?, Int)] = []
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + Int.random(in: 1...(3 * size), using: &random))
            samples[start..<end].withUnsafeBufferPointer { block in
                window.push(block) { frame, position in out.append((frame.map(Array.init), position)) }
            }
            start = end
        }
        return out
    }

    @Test("every hop hands over the newest window, oldest first, whatever the chunks")
    func windowsMatchTheStream() throws {
        var random = SeededRandom(seed: 0x5EED)
        let samples = (0..<20_000).map { _ in Float(random.gaussian()) }
        for (size, hop) in [(1024, 256), (256, 256), (64, 1), (2048, 700)] {
            let got = try Self.windows(samples, size: size, hop: hop, seed: UInt64(size * hop))
            let expected = Array(stride(from: size, through: samples.count, by: hop))
            #expect(got.map(\.1) == expected)
            for (frame, position) in got {
                #expect(frame == Array(samples[(position - size)..<position]))
            }
        }
    }

    @Test("a window of digital silence is nil; one non-zero sample in it is not")
    func silenceIsNil() throws {
        var samples = [Float](repeating: 0, count: 8192)
        samples[3000] = 1e-30
        samples[100] = -0.0
        let got = try Self.windows(samples, size: 1024, hop: 256, seed: 7)
        for (frame, position) in got {
            let holdsTheSample = position - 1024 <= 3000 && 3000 < position
            #expect((frame != nil) == holdsTheSample, "window ending at \(position)")
            if let frame { #expect(frame == Array(samples[(position - 1024)..<position])) }
        }
    }

    @Test("silence reads as the estimator reads a window of zeros")
    func silentReportMatchesTheEstimator() throws {
        let estimator = try ToneEstimator(ToneEstimatorConfiguration(sampleRateHz: 48000, fftSize: 1024))
        let analyzer = try ToneAnalyzer(estimator: estimator, hopFrames: 512)
        let zeros = [Float](repeating: 0, count: 4096)
        var reports: [ToneReport] = []
        zeros.withUnsafeBufferPointer { analyzer.process($0) { reports.append($0) } }
        let direct = zeros.prefix(1024).withUnsafeBufferPointer { estimator.estimate($0) }
        #expect(reports.count == 7)
        #expect(reports.allSatisfy { $0.reading == direct })
    }
}
