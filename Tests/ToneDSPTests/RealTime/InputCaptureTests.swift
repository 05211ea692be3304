import Foundation
import Synchronization
import Testing
import ToneDSP
import ToneTestSupport

/// Shares one capture between the test's threads.
private final class SharedCapture: Sendable {
    let capture: InputCapture
    /// Producer → consumer: the main run is over (release/acquire pair with `drained`).
    let producerDone = Atomic<Bool>(false)
    /// Consumer → producer: everything published so far has been read.
    let drained = Atomic<Bool>(false)
    /// Producer → consumer: the final period is in; nothing more will come.
    let finished = Atomic<Bool>(false)
    /// Consumer → paced producer: stop pacing, overflow until told otherwise.
    let stalled = Atomic<Bool>(false)
    init(capacityFrames: Int) { capture = InputCapture(capacityFrames: capacityFrames) }
    /// Frames in the ring, as the producer sees it (both counts are atomics).
    var backlog: Int { capture.frames.producedCount - capture.frames.consumedCount }
}

/// What the consumer saw.
private struct CaptureTally: Sendable {
    var consumed = 0
    var gapFrames = 0
    var gapCount = 0
    /// Frames whose value was not the stream position it should carry.
    var discontinuities = 0
    /// Gaps whose `position` was not the number of frames consumed before them.
    var misplacedGaps = 0
    /// Gaps that followed another gap with no frame between them.
    var backToBackGaps = 0
}

@Suite("InputCapture")
struct InputCaptureTests {
    /// The producer captures a counter sequence (exact in `Float` below 2^24)
    /// in random periods; the consumer checks that every frame it reads is
    /// the frame it expects, moving its expectation forward by each gap.
    ///
    /// - Parameters:
    ///   - paced: the producer waits while the ring is more than half full
    ///     (standing in for the audio clock, which gives a consumer that keeps
    ///     up time to read), except during a stall; otherwise it runs flat out
    ///     and overflows whenever the consumer falls behind.
    ///   - stalls: frame counts at which the consumer stops reading until the
    ///     producer has dropped `stallPeriods` more periods.
    private static func run(total: Int, capacityFrames: Int, maxPeriod: Int, paced: Bool,
                            stalls: [Int], stallPeriods: Int, seed: UInt64) -> (tally: CaptureTally, produced: Int, shared: SharedCapture) {
        let shared = SharedCapture(capacityFrames: capacityFrames)
        let tally = Mutex(CaptureTally())
        let produced = Atomic<Int>(0)
        runOnThreads([
            { // producer: the JACK thread's role; never waits during the run
                var random = SeededRandom(seed: seed)
                var period = [Float](repeating: 0, count: maxPeriod)
                var sent = 0
                func send(_ count: Int) {
                    while paced && !shared.stalled.load(ordering: .acquiring)
                        && shared.backlog > shared.capture.frames.capacity / 2 { yieldToOtherThread() }
                    for index in 0..<count { period[index] = Float(sent + index) }
                    period.withUnsafeBufferPointer { shared.capture.capture($0.baseAddress!, count: count) }
                    sent += count
                }
                while sent < total { send(min(total - sent, Int.random(in: 1...maxPeriod, using: &random))) }
                // One last period once the consumer has caught up, so a drop
                // still pending at the end is published as a gap.
                shared.producerDone.store(true, ordering: .releasing)
                while !shared.drained.load(ordering: .acquiring) { yieldToOtherThread() }
                send(1)
                shared.finished.store(true, ordering: .releasing)
                produced.store(sent, ordering: .relaxed)
            },
            { // consumer: the worker's role
                var random = SeededRandom(seed: seed ^ 0xFFFF)
                var buffer = [Float](repeating: 0, count: maxPeriod * 2)
                var local = CaptureTally()
                var stallsLeft = stalls[...]
                var lastGapPosition = -1
                while true {
                    if let stall = stallsLeft.first, local.consumed >= stall {
                        stallsLeft = stallsLeft.dropFirst()
                        let target = shared.capture.overflowCount.load(ordering: .relaxed) + stallPeriods
                        shared.stalled.store(true, ordering: .releasing)
                        while shared.capture.overflowCount.load(ordering: .relaxed) < target
                            && !shared.producerDone.load(ordering: .acquiring) { yieldToOtherThread() }
                        shared.stalled.store(false, ordering: .releasing)
                    }
                    let done = shared.producerDone.load(ordering: .acquiring)
                    let isFinished = shared.finished.load(ordering: .acquiring)
                    let wanted = Int.random(in: 1...buffer.count, using: &random)
                    let (count, gap) = buffer.withUnsafeMutableBufferPointer {
                        shared.capture.read(into: $0.baseAddress!, maxCount: wanted)
                    }
                    if let gap {
                        if gap.position != local.consumed { local.misplacedGaps += 1 }
                        if gap.position == lastGapPosition { local.backToBackGaps += 1 }
                        lastGapPosition = gap.position
                        local.gapCount += 1
                        local.gapFrames += gap.frames
                    }
                    let expectedStart = local.consumed + local.gapFrames
                    for index in 0..<count where buffer[index] != Float(expectedStart + index) {
                        local.discontinuities += 1
                    }
                    local.consumed += count
                    if count == 0 && gap == nil {
                        if isFinished { break }
                        if done { shared.drained.store(true, ordering: .releasing) }
                        yieldToOtherThread()
                    }
                }
                tally.withLock { $0 = local }
            },
        ])
        return (tally.withLock { $0 }, produced.load(ordering: .relaxed), shared)
    }

    @Test("concurrent capture with a consumer that keeps up: every frame arrives, in order, no gaps")
    func concurrentLossless() {
        let (tally, produced, shared) = Self.run(total: 2_000_000, capacityFrames: 4096, maxPeriod: 1024, paced: true,
                                                 stalls: [], stallPeriods: 0, seed: 0xCA97_0001)
        #expect(tally.discontinuities == 0)
        #expect(tally.gapCount == 0)
        #expect(tally.consumed == produced)
        #expect(shared.capture.overflowCount.load(ordering: .relaxed) == 0)
        report("InputCapture paced: \(produced) frames, \(tally.consumed) consumed in order, \(tally.discontinuities) discontinuities")
    }

    @Test("concurrent capture flat out: every frame arrives in order or is accounted for by a gap")
    func concurrentOverflowing() {
        let (tally, produced, shared) = Self.run(total: 2_000_000, capacityFrames: 1024, maxPeriod: 512, paced: false,
                                                 stalls: [], stallPeriods: 0, seed: 0xCA97_0002)
        #expect(tally.discontinuities == 0)
        #expect(tally.misplacedGaps == 0)
        #expect(tally.backToBackGaps == 0)
        #expect(tally.consumed + tally.gapFrames == produced)
        #expect(tally.gapFrames == shared.capture.droppedFrames.load(ordering: .relaxed))
        #expect(tally.consumed > 0)
        report("InputCapture flat out: \(produced) frames produced, \(tally.consumed) consumed, \(tally.gapFrames) dropped in \(tally.gapCount) gaps, \(tally.discontinuities) discontinuities")
    }

    @Test("a stalled consumer: gaps account exactly for the dropped frames, continuity resumes after each")
    func stalledConsumer() {
        let stalls = [10_000, 300_000, 700_000]
        let (tally, produced, shared) = Self.run(total: 1_000_000, capacityFrames: 1024, maxPeriod: 256, paced: true,
                                                 stalls: stalls, stallPeriods: 200, seed: 0xCA97_0003)
        let overflows = shared.capture.overflowCount.load(ordering: .relaxed)
        #expect(tally.discontinuities == 0)
        #expect(tally.misplacedGaps == 0)
        #expect(tally.consumed + tally.gapFrames == produced)
        #expect(tally.gapFrames == shared.capture.droppedFrames.load(ordering: .relaxed))
        #expect(overflows >= stalls.count * 200)
        #expect(tally.gapCount >= stalls.count)
        // A gap goes out with the frames after it: a stall of hundreds of
        // periods is a few gaps (a short period may still fit now and then),
        // never a run of gaps at one position.
        #expect(tally.backToBackGaps == 0)
        #expect(tally.gapCount < stalls.count * 20)
        report("InputCapture stalled: \(produced) frames produced, \(tally.consumed) consumed, \(tally.gapFrames) dropped in \(tally.gapCount) gaps over \(overflows) dropped periods, \(tally.discontinuities) discontinuities")
    }

    /// A long overflow is one gap: the gap is published together with the
    /// first period that fits again, not once per dropped period (which
    /// would fill the small gap ring with gaps at the same position).
    @Test("a long overflow is reported as one gap at the right position")
    func longOverflowIsOneGap() {
        let capture = InputCapture(capacityFrames: 64)
        var period = [Float](repeating: 0, count: 16)
        var sent = 0
        func send() {
            for index in 0..<16 { period[index] = Float(sent + index) }
            period.withUnsafeBufferPointer { capture.capture($0.baseAddress!, count: 16) }
            sent += 16
        }
        for _ in 0..<4 { send() }                      // fills the ring
        for _ in 0..<200 { send() }                    // all dropped
        #expect(capture.overflowCount.load(ordering: .relaxed) == 200)
        #expect(capture.droppedFrames.load(ordering: .relaxed) == 3200)
        var buffer = [Float](repeating: 0, count: 256)
        var read = buffer.withUnsafeMutableBufferPointer { capture.read(into: $0.baseAddress!, maxCount: 256) }
        #expect(read.count == 64 && read.gap == nil)
        #expect(buffer[63] == 63)
        read = buffer.withUnsafeMutableBufferPointer { capture.read(into: $0.baseAddress!, maxCount: 256) }
        #expect(read.count == 0 && read.gap == nil)    // the drop is not published until frames follow it
        send()                                         // fits again
        read = buffer.withUnsafeMutableBufferPointer { capture.read(into: $0.baseAddress!, maxCount: 256) }
        #expect(read.count == 0 && read.gap == CaptureGap(position: 64, frames: 3200))
        read = buffer.withUnsafeMutableBufferPointer { capture.read(into: $0.baseAddress!, maxCount: 256) }
        #expect(read.count == 16 && read.gap == nil)
        #expect(buffer[0] == Float(64 + 3200))
        read = buffer.withUnsafeMutableBufferPointer { capture.read(into: $0.baseAddress!, maxCount: 256) }
        #expect(read.count == 0 && read.gap == nil)
    }
}
