import Synchronization
import ToneDSP

// The worker's bookkeeping between hops: overflow totals, runs of silence,
// handing a batch of events over, the wake intervals (idle, and while sound arrives).

extension AnalysisWorker {
    /// Ring overflows and dropped frames, summed over the channels.
    func totals() -> (overflows: Int, droppedFrames: Int) {
        (0..<engine.channels).reduce(into: (0, 0)) { sum, channel in
            engine.withCapture(channel) { capture in
                sum.0 += capture.overflowCount.load(ordering: .relaxed)
                sum.1 += capture.droppedFrames.load(ordering: .relaxed)
            }
        }
    }

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

    /// The run of ±0 samples at the end of the stream after `block`, given the run before it.
    static func zeroRun(after run: Int, of block: UnsafeBufferPointer<Float>) -> Int {
        // From the end: audio ends the search at once; silence costs one pass.
        guard let newestNonZero = block.lastIndex(where: { $0 != 0 }) else { return run + block.count }
        return block.count - 1 - newestNonZero
    }

    /// Publishes the events gathered so far, as one batch; with a sink,
    /// flushes it and, about once a second of audio, adds a `.progress`.
    func handOver() {
        if let sink {
            sink.flush()
            if let newest = newestReport, newest.timeSeconds - progressSeconds >= 1 {
                progressSeconds = newest.timeSeconds
                outbox.append(.progress(timeSeconds: newest.timeSeconds, settled: newest.settled))
            }
        }
        guard !outbox.isEmpty else { return }
        publish(outbox)
        outbox = []
    }

    /// An idle worker's rest: `idleNs`, but it wakes by the time the sink's
    /// held lines are due (a regular file written in blocks: they wait a
    /// tenth of a second, not a rest) and by the time the stream reaches the
    /// sink's stop time (`--duration` on a silent input ends on time, not up
    /// to a rest late), and never rests less than a hop.
    func idleIntervalNs(_ idleNs: UInt64, hopNs: UInt64) -> UInt64 {
        var restNs = idleNs
        if let dueSeconds = sink?.secondsUntilFlushDue {
            restNs = max(hopNs, min(restNs, UInt64(max(0, dueSeconds) * 1e9)))
        }
        return endingOnTime(restNs, hopNs: hopNs)
    }

    /// The rest of a settled worker while sound arrives: a hop, or the
    /// sink's batch (`ReportSink.batchSeconds`, at most
    /// `maximumWaitMilliseconds`) when its reader waits that long anyway;
    /// never past the sink's stop time.
    func soundIntervalNs(hopNs: UInt64) -> UInt64 {
        guard let batchSeconds = sink?.batchSeconds, batchSeconds > 0 else { return hopNs }
        let batchNs = UInt64(min(batchSeconds, Double(Self.maximumWaitMilliseconds) / 1000) * 1e9)
        return endingOnTime(max(hopNs, batchNs), hopNs: hopNs)
    }

    /// `restNs`, but no further than a hop past the sink's stop time
    /// (`--duration` ends on time, not up to a rest late), and never less than a hop.
    private func endingOnTime(_ restNs: UInt64, hopNs: UInt64) -> UInt64 {
        guard let stopAfter = sink?.stopAfterSeconds, let fed = fedFrames.min() else { return restNs }
        let remainingSeconds = stopAfter - (Double(fed) / engine.sampleRateHz + timeOffsetSeconds)
        guard remainingSeconds > 0 else { return hopNs }
        // Clamped before the conversion: a duration of centuries must not trap.
        let remainingNs = UInt64(min(remainingSeconds * 1e9, Double(restNs)))
        return max(hopNs, min(restNs, remainingNs + hopNs))
    }
}
