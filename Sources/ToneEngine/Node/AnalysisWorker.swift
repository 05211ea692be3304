import Foundation
import Synchronization
import ToneCore
import ToneDSP
import ToneJack

/// The worker thread: drains the capture ring into the analyzer and publishes
/// events. It sleeps in `ProcessBridge.wait` until its next hop on its own
/// clock, or, while sound arrives, until its sink's next batch
/// (`ReportSink.batchSeconds`: a regular file's 0.1 s; each wake costs more
/// than a hop's analysis). The process callback does not post (see
/// `Node.init`) but for sound reaching an idle worker (below); `stop` and a
/// server shutdown post, so it notices them at once.
///
/// It makes its analyzers itself, first thing (FFTW planning then overlaps
/// the node's port registration, activation and connections on the main
/// thread); `waitUntilReady` hands their errors to the node.
///
/// While every input has held only digital silence for a whole window (an
/// unconnected port, a muted source), every report is "no tone" and costs
/// nothing to make: the worker then asks the process callback to watch for
/// sound (`ProcessBridge.watchForSound`) and sleeps `idleWakeMilliseconds`,
/// publishing the hops' reports together; the first non-zero sample wakes it
/// at once (one post, on that transition). An idle node costs a wake a second.
///
/// Given a `ReportSink`, it hands reports and messages to it as it makes
/// them and flushes it at each hand-over (every wake, reports or not), on
/// this thread; `publish` then gets only the rare events and a `.progress` a
/// second. An idle worker also wakes when the sink's held lines are due.
///
/// Worker only, apart from `start`, `waitUntilReady`, `markSettled` and `stop`.
final class AnalysisWorker: @unchecked Sendable {
    // @unchecked Sendable: `makeAnalyzers`, the analyzers, `zeroRuns`, `outbox`,
    // `newestReport`, `progressSeconds` and `scratch` are used only by the
    // worker thread once started (`sink` is Sendable); `setupError`
    // is written by it before `ready` is signalled and read only after a wait
    // on `ready`; `stopRequested`, `settledFromFrame` and `finished` are
    // atomics; `bridge` is Sendable and this is its only waiting thread.
    let engine: Engine
    /// What the worker analyses with: one tone analyzer per input channel, or
    /// none when tones are not analysed (`receive`); one message analyzer per
    /// input channel when messages are decoded, else none.
    struct Analyzers {
        var tones: [any StreamAnalyzer] = []
        var messages: [ModemStreamAnalyzer] = []
    }
    private let makeAnalyzers: () throws -> Analyzers
    private var analyzers: [any StreamAnalyzer] = []
    private var messageAnalyzers: [ModemStreamAnalyzer] = []
    private var setupError: (any Error)?
    private let ready = DispatchSemaphore(value: 0)
    private let bridge: ProcessBridge
    let publish: @Sendable ([NodeEvent]) -> Void
    /// Takes reports and messages on this thread when set (else they go to `publish`).
    let sink: (any ReportSink)?
    /// Added to report times for the sink (the nodes before this one).
    let timeOffsetSeconds: Double
    /// With a sink: the newest report's time (offset included) and whether
    /// it was settled, and the time of the last `.progress`. Worker only.
    var newestReport: (timeSeconds: Double, settled: Bool)?
    var progressSeconds = -Double.infinity
    /// Events gathered since the last hand-over (one per drained block and
    /// one at the end of each wake). Worker only.
    var outbox: [NodeEvent] = []
    private let stopRequested = Atomic<Bool>(false)
    /// The first stream frame after the node's connections took effect
    /// (`Int.max` until then). Main thread stores (after connecting), worker loads.
    private let settledFromFrame = Atomic<Int>(Int.max)
    private let finished = Atomic<Bool>(false)
    private var thread: Thread?
    private let scratchFrames = 8192
    private let scratch: UnsafeMutablePointer<Float>
    /// Per input channel: the newest frames drained that were all ±0.
    private var zeroRuns: [Int]
    /// Per input channel: stream frames handed to its analyzers (gaps included).
    var fedFrames: [Int]
    /// Per input channel: whether its tone analyzer's hop grid still waits to
    /// be put at the settled mark (see `feed`).
    private var regridPending: [Bool]
    /// Withholds the windows that may span an xrun or a period change. Worker only.
    private var discontinuities = DiscontinuityGate()
    /// Seconds between `.callbackProfile` events when the bridge profiles.
    static let profileIntervalSeconds = 10.0
    /// The worker thread's name for the kernel (`top -H`, /proc/PID/task/TID/comm).
    static let threadName = "tonenode-worker"
    /// Nice value of the worker thread (0 is normal; higher yields to others).
    static let niceValue: Int32 = 10

    /// Wakes this often (a hop of audio), at most `maximumWaitMilliseconds`
    /// apart, or once per the sink's batch when that is longer.
    private let wakeIntervalSeconds: Double
    /// The longest rest while sound arrives: caps the hop and the sink's batch.
    static let maximumWaitMilliseconds = 100
    /// Until the first settled report: wakes at least this often, so the
    /// first reading goes out soon after its window is complete.
    static let settlingWakeMilliseconds = 2
    /// While every input is silent: wakes this often (or once a hop, when
    /// longer) to publish the silent hops' reports; sound wakes it sooner.
    static let idleWakeMilliseconds = 1000
    /// The worker thread's kernel id once it runs (0 before): tests count its wakes in /proc.
    let threadID = Atomic<Int32>(0)

    /// Where the server's socket is, to tell a stall from a server that died
    /// without libjack saying so (`StalledServerWatch`); nil: not watched.
    private let serverWatch: ServerWatch?

    init(engine: Engine, wakeIntervalSeconds: Double = 0.1, bridge: ProcessBridge, serverWatch: ServerWatch? = nil,
         sink: (any ReportSink)? = nil, timeOffsetSeconds: Double = 0,
         makeAnalyzers: @escaping () throws -> Analyzers, publish: @escaping @Sendable ([NodeEvent]) -> Void) {
        self.serverWatch = serverWatch
        self.engine = engine
        self.sink = sink
        self.timeOffsetSeconds = timeOffsetSeconds
        self.makeAnalyzers = makeAnalyzers
        self.bridge = bridge
        self.publish = publish
        self.wakeIntervalSeconds = wakeIntervalSeconds
        zeroRuns = Array(repeating: 0, count: engine.channels)
        fedFrames = Array(repeating: 0, count: engine.channels)
        regridPending = Array(repeating: true, count: engine.channels)
        scratch = .allocate(capacity: scratchFrames)
    }

    deinit { scratch.deallocate() }

    /// Reports whose window starts at or after `frame` are settled.
    func markSettled(fromFrame frame: Int) {
        settledFromFrame.store(frame, ordering: .releasing)
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = Self.threadName
        thread.qualityOfService = .userInitiated
        self.thread = thread
        thread.start()
    }

    /// Waits until the thread has made its analyzers; throws what making them threw.
    func waitUntilReady() throws {
        ready.wait()
        ready.signal()   // later waits return at once
        if let setupError { throw setupError }
    }

    /// The xruns, ring overflows and dropped frames so far: what a `.trouble` event says.
    func trouble() -> (xruns: Int, overflows: Int, droppedFrames: Int) {
        let (overflows, droppedFrames) = totals()
        return (bridge.xruns, overflows, droppedFrames)
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
        defer { finished.store(true, ordering: .releasing) }
        do {
            let made = try makeAnalyzers()
            precondition(made.tones.isEmpty || made.tones.count == engine.channels, "one analyzer per channel, or none")
            precondition(made.messages.isEmpty || made.messages.count == engine.channels,
                         "one message analyzer per channel, or none")
            analyzers = made.tones
            messageAnalyzers = made.messages
        } catch {
            setupError = error
        }
        ready.signal()
        if setupError != nil { return }
        threadID.store(ProcessBridge.callingThreadID(), ordering: .relaxed)
        ProcessBridge.nameCallingThread(Self.threadName)
        Denormals.flushToZeroOnThisThread()
        // Analysis can lag (the ring holds seconds); audio cannot. With
        // real-time scheduling JACK's thread preempts us anyway; without it
        // (`jackd --no-realtime`, the dummy backend) nice 10 keeps the worker
        // from taking a core a process callback is waiting for.
        ProcessBridge.reniceCallingThread(Self.niceValue)
        var reportedXruns = 0, reportedOverflows = 0, reportedPeriodChanges = 0
        let profiles = bridge.callbackProfile != nil
        var lastProfileNs = DispatchTime.now().uptimeNanoseconds
        let hopNs = UInt64(max(1e5, min(wakeIntervalSeconds, Double(Self.maximumWaitMilliseconds) / 1000) * 1e9))
        let settlingNs = min(hopNs, UInt64(Self.settlingWakeMilliseconds) * 1_000_000)
        let idleNs = max(hopNs, UInt64(Self.idleWakeMilliseconds) * 1_000_000)
        // A whole window of zeros on every input: its reports are all "no tone".
        let idleAfterFrames = analyzers.first?.windowFrames ?? Int.max
        // Without tone analyzers there is no first reading to hurry.
        var settledReported = analyzers.isEmpty
        var nextWakeNs = DispatchTime.now().uptimeNanoseconds
        var watching = false
        var stalledServer = serverWatch.map { StalledServerWatch(bridge: bridge, server: $0, nowNs: nextWakeNs) }
        while !stopRequested.load(ordering: .acquiring) {
            let nowNs = DispatchTime.now().uptimeNanoseconds
            if nextWakeNs > nowNs {
                bridge.wait(timeoutMilliseconds: Int((nextWakeNs - nowNs + 999_999) / 1_000_000))
            }
            settledReported = drain() || settledReported
            var idle = zeroRuns.allSatisfy { $0 >= idleAfterFrames }
            if idle && !watching {
                // Watch, then look once more: sound captured before the watch is read now, after it wakes us.
                bridge.watchForSound(true)
                settledReported = drain() || settledReported
                idle = zeroRuns.allSatisfy { $0 >= idleAfterFrames }
            }
            if watching != idle { bridge.watchForSound(idle) }
            watching = idle
            let intervalNs = idle ? idleIntervalNs(idleNs, hopNs: hopNs)
                : settledReported ? soundIntervalNs(hopNs: hopNs) : settlingNs
            // Fixed steps, so the wakes do not drift; never more than a step
            // ahead (woken early by sound); after a long stall, from now.
            let afterNs = DispatchTime.now().uptimeNanoseconds
            let stepNs = nextWakeNs + intervalNs
            nextWakeNs = stepNs > afterNs && stepNs <= afterNs + intervalNs ? stepNs : afterNs + intervalNs
            // No period since the last wake: wake at least every half second;
            // none for a while (a stopped server, or one that died without
            // libjack telling us): look at the server as often.
            if let maximumNs = stalledServer?.look(nowNs: afterNs) { nextWakeNs = min(nextWakeNs, afterNs + maximumNs) }
            let (xruns, overflows, droppedFrames) = trouble()
            if xruns != reportedXruns || overflows != reportedOverflows {
                reportedXruns = xruns
                reportedOverflows = overflows
                outbox.append(.trouble(xruns: xruns, overflows: overflows, droppedFrames: droppedFrames))
            }
            let period = bridge.periodWatch.snapshot
            if period.changes != reportedPeriodChanges {
                reportedPeriodChanges = period.changes
                outbox.append(.periodChanged(periodFrames: period.periodFrames))
            }
            if profiles {
                let nowNs = DispatchTime.now().uptimeNanoseconds
                if Double(nowNs - lastProfileNs) >= Self.profileIntervalSeconds * 1e9, let profile = bridge.callbackProfile {
                    lastProfileNs = nowNs
                    outbox.append(.callbackProfile(profile))
                }
            }
            if bridge.isShutdown { outbox.append(.serverGone) }
            handOver()
            if bridge.isShutdown { return }
        }
    }

    /// Analyses what the rings hold. Returns whether a settled report went out.
    private func drain() -> Bool {
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
                if let analyzer, feed(block, to: analyzer, channel: channel) { settledReported = true }
                fedFrames[channel] += count
                if let messages {
                    messages.process(block) { _ in }
                    for event in messages.takeEvents() {
                        if let sink { sink.take(event, channel: channel, timeOffsetSeconds: timeOffsetSeconds) }
                        else { outbox.append(.message(event, channel: channel)) }
                    }
                }
                // Block by block: a worker catching up (the ring holds seconds) publishes as it goes.
                handOver()
            }
        }
        return settledReported
    }

    /// Hands `block` to the channel's tone analyzer, its reports to the
    /// outbox. Returns whether a settled report went out.
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
    private func feed(_ block: UnsafeBufferPointer<Float>, to analyzer: any StreamAnalyzer, channel: Int) -> Bool {
        var settledReported = false
        let settledFrom = settledFromFrame.load(ordering: .acquiring)
        func analyse(_ part: UnsafeBufferPointer<Float>) {
            analyzer.process(part) { report in
                var report = report
                report.channel = channel
                // A window that began before the connections were made holds the time before the signal.
                let windowStart = Int((report.timeSeconds * engine.sampleRateHz).rounded()) - analyzer.windowFrames
                // A window across an xrun or a period change is no reading: withheld.
                guard discontinuities.admits(windowStart..<windowStart + analyzer.windowFrames, bridge: bridge,
                                             capturedFrames: { capturedFrames(channel) }) else { return }
                report.settled = windowStart >= settledFrom
                if report.settled { settledReported = true }
                if let sink {
                    report.timeSeconds += timeOffsetSeconds
                    newestReport = (report.timeSeconds, report.settled)
                    sink.take(report)
                } else {
                    outbox.append(.report(report))
                }
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
