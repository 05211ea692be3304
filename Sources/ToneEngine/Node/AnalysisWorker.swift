import Foundation
import Synchronization
import ToneCore
import ToneDSP
import ToneJack

/// The worker thread: drains the capture ring into the analyzer and publishes
/// events. It sleeps in `ProcessBridge.wait` until its next hop on its own
/// clock (the process callback does not post: see `Node.init`); `stop` and
/// a server shutdown post, so it notices them at once.
///
/// Worker only, apart from `start` and `stop`.
final class AnalysisWorker: @unchecked Sendable {
    // @unchecked Sendable: `analyzer` and `scratch` are used only by the worker
    // thread once started; `stopRequested` and `finished` are atomics;
    // `bridge` is Sendable and this is its only waiting thread.
    private let engine: Engine
    /// One per input channel, or none when tones are not analysed (`receive`).
    private let analyzers: [any StreamAnalyzer]
    /// One per input channel when messages are decoded, else none.
    private let messageAnalyzers: [ModemStreamAnalyzer]
    private let bridge: ProcessBridge
    private let publish: @Sendable (NodeEvent) -> Void
    private let stopRequested = Atomic<Bool>(false)
    /// The first stream frame after the node's connections took effect
    /// (`Int.max` until then). Main thread stores (after connecting), worker loads.
    private let settledFromFrame = Atomic<Int>(Int.max)
    private let finished = Atomic<Bool>(false)
    private var thread: Thread?
    private let scratchFrames = 8192
    /// Seconds between `.callbackProfile` events when the bridge profiles.
    static let profileIntervalSeconds = 10.0
    /// Nice value of the worker thread (0 is normal; higher yields to others).
    static let niceValue: Int32 = 10
    private let scratch: UnsafeMutablePointer<Float>

    /// Wakes this often (a hop of audio), at most `maximumWaitMilliseconds` apart.
    private let wakeIntervalSeconds: Double
    static let maximumWaitMilliseconds = 100

    init(engine: Engine, analyzers: [any StreamAnalyzer], messageAnalyzers: [ModemStreamAnalyzer] = [],
         wakeIntervalSeconds: Double = 0.1, bridge: ProcessBridge, publish: @escaping @Sendable (NodeEvent) -> Void) {
        precondition(analyzers.isEmpty || analyzers.count == engine.channels, "one analyzer per channel, or none")
        precondition(messageAnalyzers.isEmpty || messageAnalyzers.count == engine.channels,
                     "one message analyzer per channel, or none")
        self.engine = engine
        self.analyzers = analyzers
        self.messageAnalyzers = messageAnalyzers
        self.bridge = bridge
        self.publish = publish
        self.wakeIntervalSeconds = wakeIntervalSeconds
        scratch = .allocate(capacity: scratchFrames)
    }

    deinit { scratch.deallocate() }

    /// Reports whose window starts at or after `frame` are settled.
    func markSettled(fromFrame frame: Int) {
        settledFromFrame.store(frame, ordering: .releasing)
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "tonenode-worker"
        thread.qualityOfService = .userInitiated
        self.thread = thread
        thread.start()
    }

    /// Asks the thread to finish and waits (briefly) until it has.
    func stop() {
        stopRequested.store(true, ordering: .releasing)
        bridge.post()
        var waitedMs = 0
        while !finished.load(ordering: .acquiring) && waitedMs < 2000 {
            usleep(1000)
            waitedMs += 1
        }
    }

    private func run() {
        Denormals.flushToZeroOnThisThread()
        // Analysis can lag (the ring holds seconds); audio cannot. With
        // real-time scheduling JACK's thread preempts us anyway; without it
        // (`jackd --no-realtime`, the dummy backend) nice 10 keeps the worker
        // from taking a core a process callback is waiting for.
        ProcessBridge.reniceCallingThread(Self.niceValue)
        var reportedXruns = 0, reportedOverflows = 0
        defer { finished.store(true, ordering: .releasing) }
        let profiles = bridge.callbackProfile != nil
        var lastProfileNs = DispatchTime.now().uptimeNanoseconds
        let intervalNs = UInt64(max(1e5, min(wakeIntervalSeconds, Double(Self.maximumWaitMilliseconds) / 1000) * 1e9))
        var nextWakeNs = DispatchTime.now().uptimeNanoseconds + intervalNs
        while !stopRequested.load(ordering: .acquiring) {
            // Fixed steps, so the wakes do not drift; after a long stall, start again from now.
            let nowNs = DispatchTime.now().uptimeNanoseconds
            if nextWakeNs > nowNs {
                bridge.wait(timeoutMilliseconds: Int((nextWakeNs - nowNs + 999_999) / 1_000_000))
            }
            let afterNs = DispatchTime.now().uptimeNanoseconds
            nextWakeNs = nextWakeNs + intervalNs > afterNs ? nextWakeNs + intervalNs : afterNs + intervalNs
            drain()
            let xruns = bridge.xruns
            let overflows = totals().overflows
            if xruns != reportedXruns || overflows != reportedOverflows {
                reportedXruns = xruns
                reportedOverflows = overflows
                publish(.trouble(xruns: xruns, overflows: overflows,
                                 droppedFrames: totals().droppedFrames))
            }
            if profiles {
                let nowNs = DispatchTime.now().uptimeNanoseconds
                if Double(nowNs - lastProfileNs) >= Self.profileIntervalSeconds * 1e9, let profile = bridge.callbackProfile {
                    lastProfileNs = nowNs
                    publish(.callbackProfile(profile))
                }
            }
            if bridge.isShutdown {
                publish(.serverGone)
                return
            }
        }
    }

    /// Ring overflows and dropped frames, summed over the channels.
    private func totals() -> (overflows: Int, droppedFrames: Int) {
        (0..<engine.channels).reduce(into: (0, 0)) { sum, channel in
            engine.withCapture(channel) { capture in
                sum.0 += capture.overflowCount.load(ordering: .relaxed)
                sum.1 += capture.droppedFrames.load(ordering: .relaxed)
            }
        }
    }

    private func drain() {
        for channel in 0..<engine.channels {
            let analyzer = analyzers.isEmpty ? nil : analyzers[channel]
            let messages = messageAnalyzers.isEmpty ? nil : messageAnalyzers[channel]
            while true {
                let (count, gap) = engine.withCapture(channel) { $0.read(into: scratch, maxCount: scratchFrames) }
                if let gap {
                    // Both hear of the gap: a window or a modem frame across it is dropped.
                    analyzer?.skip(frames: gap.frames)
                    messages?.skip(frames: gap.frames)
                    continue
                }
                if count == 0 { break }
                let block = UnsafeBufferPointer(start: scratch, count: count)
                analyzer?.process(block) { report in
                    var report = report
                    report.channel = channel
                    // A window that began before the connections were made holds the time before the signal.
                    let windowStart = Int((report.timeSeconds * engine.sampleRateHz).rounded()) - (analyzer?.windowFrames ?? 0)
                    report.settled = windowStart >= settledFromFrame.load(ordering: .acquiring)
                    publish(.report(report))
                }
                if let messages {
                    messages.process(block) { _ in }
                    for event in messages.takeEvents() { publish(.message(event, channel: channel)) }
                }
            }
        }
    }
}
