import Testing
import ToneDSP
@testable import ToneEngine

/// `ChannelFeed`: the capture rings drained into the analyzers, the hop grid
/// restarted at the settled mark, gaps, runs of silence; driven by an engine
/// rendered by hand and an analyzer that records what it is given.
@Suite("ChannelFeed")
struct ChannelFeedTests {
    /// Records its calls; one report at the end of each non-empty part, its
    /// window ending there (`windowFrames` long).
    final class RecordingAnalyzer: StreamAnalyzer {
        enum Call: Equatable { case process(Int), skip(Int) }
        private(set) var calls: [Call] = []
        private var streamFrames = 0
        let windowFrames = 1024

        func process(_ input: UnsafeBufferPointer<Float>, report: (ToneReport) -> Void) {
            calls.append(.process(input.count))
            streamFrames += input.count
            if input.count > 0 { report(ToneReport(timeSeconds: Double(streamFrames) / rate, reading: ToneReading())) }
        }

        func skip(frames: Int) {
            calls.append(.skip(frames))
            streamFrames += frames
        }
    }

    static let rate = 48000.0

    /// `frames` frames of `value` into every input, in periods of 256 (the last one shorter).
    private static func render(_ engine: Engine, frames: Int, value: Float = 0.5, lastSample: Float? = nil) {
        var input = [Float](repeating: value, count: frames)
        if let lastSample { input[frames - 1] = lastSample }
        var output = [Float](repeating: 0, count: 256)
        var start = 0
        while start < frames {
            let count = min(256, frames - start)
            input.withUnsafeBufferPointer { all in
                output.withUnsafeMutableBufferPointer { out in
                    let base = all.baseAddress! + start
                    if engine.channels == 1 {
                        engine.render(input: base, output: out.baseAddress!, frames: count)
                    } else {
                        let inputs = [UnsafePointer<Float>?](repeating: base, count: engine.channels)
                        let outputs = [UnsafeMutablePointer<Float>?](repeating: out.baseAddress!, count: engine.channels)
                        engine.render(inputs: inputs, outputs: outputs, channels: engine.channels, frames: count,
                                      midi: nil, midiCount: 0)
                    }
                }
            }
            start += count
        }
    }

    private static func engine(channels: Int = 1, captureSeconds: Double = 4) -> Engine {
        Engine(sampleRateHz: rate, frequencyHz: 1000, amplitude: 0, muted: true, captureSeconds: captureSeconds,
               channels: channels)
    }

    /// A feed with one recording analyzer per channel, and what its router publishes.
    private static func feed(_ engine: Engine) -> (ChannelFeed, [RecordingAnalyzer], ResultRouter, PublishedBatches) {
        let feed = ChannelFeed(engine: engine)
        let analyzers = (0..<engine.channels).map { _ in RecordingAnalyzer() }
        feed.install(ChannelFeed.Analyzers(tones: analyzers))
        let published = PublishedBatches()
        return (feed, analyzers, ResultRouter(sink: nil, timeOffsetSeconds: 0, publish: published.publish), published)
    }

    @Test("the hop grid restarts at the settled mark; windows starting from it are settled")
    func regridAtTheMark() {
        let engine = Self.engine()
        let (feed, analyzers, router, published) = Self.feed(engine)
        feed.markSettled(fromFrame: 1000)
        Self.render(engine, frames: 4096)
        #expect(feed.drain(to: router))
        #expect(analyzers[0].calls == [.process(1000), .skip(0), .process(3096)])
        // Ending at frame 1000 its window began before the mark; ending at 4096, at 3072.
        #expect(published.all.flatMap { $0 } == ["report \(1000 / Self.rate) settled=false ch0",
                                                  "report \(4096 / Self.rate) settled=true ch0"])
        Self.render(engine, frames: 512)
        #expect(feed.drain(to: router))
        #expect(analyzers[0].calls.suffix(1) == [.process(512)], "the grid moves once")
        #expect(feed.fedFramesOnEveryChannel == 4608)
    }

    @Test("before the mark is stored nothing is settled and the grid stays")
    func noMark() {
        let engine = Self.engine()
        let (feed, analyzers, router, published) = Self.feed(engine)
        Self.render(engine, frames: 2048)
        #expect(!feed.drain(to: router))
        #expect(analyzers[0].calls == [.process(2048)])
        #expect(published.all == [["report \(2048 / Self.rate) settled=false ch0"]])
    }

    @Test("a mark the worker has already fed past starts the fresh window where the worker is")
    func markBehind() {
        let engine = Self.engine()
        let (feed, analyzers, router, _) = Self.feed(engine)
        Self.render(engine, frames: 2048)
        #expect(!feed.drain(to: router))
        feed.markSettled(fromFrame: 1000)
        Self.render(engine, frames: 1024)
        #expect(feed.drain(to: router))
        #expect(analyzers[0].calls == [.process(2048), .process(0), .skip(0), .process(1024)])
    }

    @Test("a gap in the ring is skipped by the analyzer and counted in the fed frames")
    func gap() {
        let engine = Self.engine(captureSeconds: 512 / Self.rate)
        let (feed, analyzers, router, _) = Self.feed(engine)
        Self.render(engine, frames: 768)        // the third period finds the ring full: dropped
        _ = feed.drain(to: router)
        Self.render(engine, frames: 256)        // goes in behind the gap
        _ = feed.drain(to: router)
        #expect(analyzers[0].calls == [.process(512), .skip(256), .process(256)])
        #expect(feed.fedFramesOnEveryChannel == 1024)
    }

    @Test("idle once every input has held ±0 for a whole window; a non-zero sample ends it")
    func idle() {
        let engine = Self.engine(channels: 2)
        let (feed, analyzers, router, published) = Self.feed(engine)
        Self.render(engine, frames: 1000, value: 0)
        _ = feed.drain(to: router)
        #expect(!feed.isIdle)
        Self.render(engine, frames: 24, value: -0.0)
        _ = feed.drain(to: router)
        #expect(feed.isIdle)
        Self.render(engine, frames: 256, value: 0, lastSample: 1e-30)
        _ = feed.drain(to: router)
        #expect(!feed.isIdle)
        // Each channel's analyzer gets its own ring; reports carry their channel; a hand-over per block.
        #expect(analyzers.map { $0.calls } == Array(repeating: [.process(1000), .process(24), .process(256)], count: 2))
        #expect(published.all.count == 6)
        #expect(published.all.flatMap { $0 }.filter { $0.hasSuffix("ch1") }.count == 3)
    }

    @Test("without tone analyzers the inputs are never idle and nothing is reported")
    func noToneAnalyzers() {
        let engine = Self.engine()
        let feed = ChannelFeed(engine: engine)
        feed.install(ChannelFeed.Analyzers())
        let published = PublishedBatches()
        Self.render(engine, frames: 4096, value: 0)
        #expect(!feed.drain(to: ResultRouter(sink: nil, timeOffsetSeconds: 0, publish: published.publish)))
        #expect(!feed.analysesTones)
        #expect(!feed.isIdle)
        #expect(published.all.isEmpty)
        #expect(feed.fedFramesOnEveryChannel == 4096)
    }

    @Test("the run of ±0 at the end of the stream", arguments: [
        ([Float](), 5), ([0, 0, 0], 8), ([0, 1, 0, 0], 2), ([1], 0), ([-0.0, 0], 7), ([.nan, 0], 1),
    ])
    func zeroRun(block: [Float], run: Int) {
        #expect(block.withUnsafeBufferPointer { ChannelFeed.zeroRun(after: 5, of: $0) } == run)
    }
}
