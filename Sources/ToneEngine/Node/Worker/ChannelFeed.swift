import Synchronization
import ToneDSP
import ToneModem

/// Feeds each input channel's capture ring to its analyzers.
///
/// It drains the rings block by block (a worker catching up, the rings
/// holding seconds, publishes as it goes: a hand-over per block), tells both
/// analyzers of a channel about a gap (a window or a modem frame across it
/// is dropped), starts each tone analyzer's hop grid at the settled mark and
/// marks its reports settled from there, and keeps the run of ±0 samples at
/// the end of each channel's stream: a whole window of them on every input
/// makes the worker idle (`isIdle`).
///
/// Worker only, apart from `markSettled`.
final class ChannelFeed {
    /// What the worker analyses with: one tone analyzer per input channel, or
    /// none when tones are not analysed (`receive`); one message analyzer per
    /// input channel when messages are decoded, else none.
    struct Analyzers {
        var tones: [any StreamAnalyzer] = []
        var messages: [ModemStreamAnalyzer] = []
    }

    private let engine: Engine
    private var analyzers: [any StreamAnalyzer] = []
    private var messageAnalyzers: [ModemStreamAnalyzer] = []
    /// The first stream frame after the node's connections took effect
    /// (`Int.max` until then). The thread making the node stores it (after
    /// connecting; release), the worker loads it at each block (acquire).
    private let settledFromFrame = Atomic<Int>(Int.max)
    private let scratchFrames = 8192
    private let scratch: UnsafeMutablePointer<Float>
    /// Per input channel: the newest frames drained that were all ±0.
    private var zeroRuns: [Int]
    /// Per input channel: stream frames handed to its analyzers (gaps included).
    private var fedFrames: [Int]
    /// Per input channel: whether its tone analyzer's hop grid still waits to
    /// be put at the settled mark (see `feed`).
    private var regridPending: [Bool]
    /// The bridge's xrun and period-change counts (nil: never a discontinuity,
    /// an engine rendered by hand).
    private let discontinuityCounters: (() -> (xruns: Int, periodChanges: Int))?
    /// Withholds the windows that may span an xrun or a period change.
    private var discontinuities = DiscontinuityGate()

    init(engine: Engine, discontinuityCounters: (() -> (xruns: Int, periodChanges: Int))? = nil) {
        self.engine = engine
        self.discontinuityCounters = discontinuityCounters
        zeroRuns = Array(repeating: 0, count: engine.channels)
        fedFrames = Array(repeating: 0, count: engine.channels)
        regridPending = Array(repeating: true, count: engine.channels)
        scratch = .allocate(capacity: scratchFrames)
    }

    deinit { scratch.deallocate() }

    /// Takes the analyzers the worker made (once, before the first `drain`).
    func install(_ made: Analyzers) {
        precondition(made.tones.isEmpty || made.tones.count == engine.channels, "one analyzer per channel, or none")
        precondition(made.messages.isEmpty || made.messages.count == engine.channels,
                     "one message analyzer per channel, or none")
        analyzers = made.tones
        messageAnalyzers = made.messages
    }

    /// Reports whose window starts at or after `frame` are settled. Any thread.
    func markSettled(fromFrame frame: Int) {
        settledFromFrame.store(frame, ordering: .releasing)
    }

    /// Whether tones are analysed (without, there is no first reading to hurry).
    var analysesTones: Bool { !analyzers.isEmpty }

    /// Whether every input has held only ±0 for a whole window: its reports
    /// are all "no tone" (never, without tone analyzers).
    var isIdle: Bool {
        let idleAfterFrames = analyzers.first?.windowFrames ?? Int.max
        return zeroRuns.allSatisfy { $0 >= idleAfterFrames }
    }

    /// The stream frame every channel has been analysed to (gaps included).
    var fedFramesOnEveryChannel: Int? { fedFrames.min() }

    /// Analyses what the rings hold, handing the results to `router` block
    /// by block. Returns whether a settled report went out.
    func drain(to router: ResultRouter) -> Bool {
        var settledReported = false
        for channel in 0..<engine.channels {
            let analyzer = analyzers.isEmpty ? nil : analyzers[channel]
            let messages = messageAnalyzers.isEmpty ? nil : messageAnalyzers[channel]
            while true {
                let (count, gap) = engine.withCapture(channel) { $0.read(into: scratch, maxCount: scratchFrames) }
                if let gap {
                    // Both hear of the gap: a window or a modem frame across it is dropped.
                    analyzer?.skip(frames: gap.frames)
                    messages?.skip(frames: gap.frames)
                    zeroRuns[channel] = 0
                    fedFrames[channel] += gap.frames
                    continue
                }
                if count == 0 { break }
                let block = UnsafeBufferPointer(start: scratch, count: count)
                zeroRuns[channel] = Self.zeroRun(after: zeroRuns[channel], of: block)
                if let analyzer, feed(block, to: analyzer, channel: channel, router: router) { settledReported = true }
                fedFrames[channel] += count
                if let messages {
                    messages.process(block) { _ in }
                    for event in messages.takeEvents() { router.take(event, channel: channel) }
                }
                // Block by block: a worker catching up (the ring holds seconds) publishes as it goes.
                router.handOver()
            }
        }
        return settledReported
    }

    /// The run of ±0 samples at the end of the stream after `block`, given the run before it.
    static func zeroRun(after run: Int, of block: UnsafeBufferPointer<Float>) -> Int {
        // From the end: audio ends the search at once; silence costs one pass.
        guard let newestNonZero = block.lastIndex(where: { $0 != 0 }) else { return run + block.count }
        return block.count - 1 - newestNonZero
    }

    /// Hands `block` to the channel's tone analyzer, its reports to
    /// `router`. Returns whether a settled report went out.
    ///
    /// The hop grid starts at the settled mark: at that stream frame the
    /// analyzer starts a fresh window (`skip(frames: 0)`), so the first
    /// settled report ends as soon as a whole window has arrived after the
    /// connections took effect, not at the next point of a grid from frame 0
    /// (up to a hop later), and the reports go on a hop apart from it.
    /// Windows ending before the mark are reported (unsettled); those that
    /// would end within a window after it are not made. If the mark comes
    /// after the worker has fed past it (it is stored just after the
    /// connections, when the rings hold at most the period before it), the
    /// fresh window starts where the worker is.
    private func feed(_ block: UnsafeBufferPointer<Float>, to analyzer: any StreamAnalyzer, channel: Int,
                      router: ResultRouter) -> Bool {
        var settledReported = false
        let settledFrom = settledFromFrame.load(ordering: .acquiring)
        func analyse(_ part: UnsafeBufferPointer<Float>) {
            analyzer.process(part) { report in
                var report = report
                report.channel = channel
                // A window that began before the connections were made holds the time before the signal.
                let windowStart = Int((report.timeSeconds * engine.sampleRateHz).rounded()) - analyzer.windowFrames
                // A tone read in a window across an xrun or a period change is
                // no reading: withheld. "No tone" stays (a silent or unconnected
                // input reads the same across it; an idle worker looks once a
                // second, so the span it blames is that long).
                if let counters = discontinuityCounters,
                   !discontinuities.admits(windowStart..<windowStart + analyzer.windowFrames, counters: counters,
                                           capturedFrames: { capturedFrames(channel) }),
                   report.reading.frequencyHz != nil || !report.reading.tones.isEmpty {
                    Node.withheldReadingCount.add(1, ordering: .relaxed)
                    return
                }
                report.settled = windowStart >= settledFrom
                if report.settled { settledReported = true }
                router.take(report)
            }
        }
        guard regridPending[channel], settledFrom != Int.max else {
            analyse(block)
            return settledReported
        }
        let before = max(0, min(block.count, settledFrom - fedFrames[channel]))
        if before == block.count {
            analyse(block)       // the mark is further on
            return settledReported
        }
        analyse(UnsafeBufferPointer(rebasing: block[..<before]))
        analyzer.skip(frames: 0)
        regridPending[channel] = false
        analyse(UnsafeBufferPointer(rebasing: block[before...]))
        return settledReported
    }
}

extension ChannelFeed {
    /// Stream frames the process callback has captured on `channel` so far
    /// (those in its ring, or lost to an overflow, included).
    /// The fence after the load pairs with the ring's releasing store of its
    /// write index: a counter the callback bumped before capturing these
    /// frames (an xrun, a period change) is seen by a later load.
    func capturedFrames(_ channel: Int) -> Int {
        let frames = engine.withCapture(channel) { $0.frames.producedCount + $0.droppedFrames.load(ordering: .relaxed) }
        atomicMemoryFence(ordering: .acquiring)
        return frames
    }
}
