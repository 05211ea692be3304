import Foundation
import Testing
import ToneDSP
import ToneTestSupport

@Suite("ToneAnalyzer")
struct ToneAnalyzerTests {
    static let rate = TestSignal.sampleRateHz
    static let n = TestSignal.fftSize

    /// 500 Hz, then 1500 Hz from frame 9000 on, so a window read in the wrong
    /// order or from the wrong place gives a different reading.
    static func stream(count: Int) -> [Float] {
        (0..<count).map { index in
            let frequencyHz = index < 9000 ? 500.0 : 1500.0
            return Float(0.25 * sin(2 * Double.pi * frequencyHz * Double(index) / rate + 0.4))
        }
    }

    /// Feeds `samples` in random chunks and collects the reports.
    static func feed(_ analyzer: ToneAnalyzer, _ samples: ArraySlice<Float>, random: inout SeededRandom) -> [ToneReport] {
        var reports: [ToneReport] = []
        var start = samples.startIndex
        while start < samples.endIndex {
            let end = min(samples.endIndex, start + Int.random(in: 1...3000, using: &random))
            samples[start..<end].withUnsafeBufferPointer { analyzer.process($0) { reports.append($0) } }
            start = end
        }
        return reports
    }

    @Test("a report every hop after the first full window, at the right time, reading the right window",
          arguments: [1024, 4096, 333])
    func reportsEveryHop(hopFrames: Int) throws {
        let analyzer = try ToneAnalyzer(estimator: try TestSignal.estimator(), hopFrames: hopFrames)
        let samples = Self.stream(count: 20_000)
        var random = SeededRandom(seed: UInt64(hopFrames))
        let reports = Self.feed(analyzer, samples[...], random: &random)

        let ends = Array(stride(from: Self.n, through: samples.count, by: hopFrames))
        #expect(reports.count == ends.count)
        #expect(analyzer.streamFrames == samples.count)
        for (report, end) in zip(reports, ends) {
            #expect(report.timeSeconds == Double(end) / Self.rate)
            // The same estimator on the same window, taken straight from the stream.
            let expected = samples[(end - Self.n)..<end].withUnsafeBufferPointer { analyzer.estimator.estimate($0) }
            #expect(report.reading == expected)
        }
        #expect(abs(try #require(reports.first?.reading.frequencyHz) - 500) < 1e-4)
        #expect(abs(try #require(reports.last?.reading.frequencyHz) - 1500) < 1e-4)
    }

    @Test("skip(frames:) restarts the window after the gap and advances the clock")
    func skipRestartsWindow() throws {
        let hop = 1024
        let analyzer = try ToneAnalyzer(estimator: try TestSignal.estimator(), hopFrames: hop)
        let samples = Self.stream(count: 20_000)
        var random = SeededRandom(seed: 0x5719)
        var reports = Self.feed(analyzer, samples[0..<6000], random: &random)
        #expect(reports.map(\.timeSeconds) == [4096, 5120].map { Double($0) / Self.rate })

        analyzer.skip(frames: 1000)                 // frames 6000..<7000 were lost
        #expect(analyzer.streamFrames == 7000)
        reports = Self.feed(analyzer, samples[7000..<20_000], random: &random)
        // The first window after the gap is full only 4096 frames after it.
        let ends = Array(stride(from: 7000 + Self.n, through: 20_000, by: hop))
        #expect(reports.map(\.timeSeconds) == ends.map { Double($0) / Self.rate })
        for (report, end) in zip(reports, ends) {
            let expected = samples[(end - Self.n)..<end].withUnsafeBufferPointer { analyzer.estimator.estimate($0) }
            #expect(report.reading == expected)
        }
    }

    @Test("a NaN in the stream spoils only the windows that hold it")
    func nanPassesThrough() throws {
        let hop = 1024
        let analyzer = try ToneAnalyzer(estimator: try TestSignal.estimator(), hopFrames: hop)
        var samples = Self.stream(count: 16_384)
        samples[5000] = .nan
        var random = SeededRandom(seed: 0x7A7)
        let reports = Self.feed(analyzer, samples[...], random: &random)
        for report in reports {
            let end = Int((report.timeSeconds * Self.rate).rounded())
            let holdsNaN = (end - Self.n)..<end ~= 5000
            #expect(report.reading.invalidInput == holdsNaN)
            #expect((report.reading.frequencyHz == nil) == holdsNaN)
        }
        #expect(reports.contains { $0.reading.invalidInput })
    }
}
