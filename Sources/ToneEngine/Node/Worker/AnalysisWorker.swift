import Foundation
import Synchronization
import ToneCore
import ToneDSP
import ToneJack

/// The analysis worker thread: it makes the analyzers, then wakes on its own
/// clock, drains the capture rings into them and hands on what they say.
/// This type is the thread and its loop; the loop's parts each have a type
/// of their own:
///
/// - when to wake: `WakeSchedule` (a hop, 2 ms until the first settled
///   report, the sink's batch, a second while the inputs are idle);
/// - feeding the channels: `ChannelFeed` (drain, gaps, the hop grid at the
///   settled mark, runs of silence);
/// - where results go: `ResultRouter` (the `ReportSink`, or the node's
///   events), and `TroubleNotices` (xruns, overflows, the callback profile);
/// - a server that died without libjack saying so: ToneJack's `StalledServerWatch`.
///
/// It sleeps in `ProcessBridge.wait` until its next wake. The process
/// callback does not post (see `Node.init`) but for sound reaching an idle
/// worker: while every input has held only digital silence for a whole
/// window, the worker asks the callback to watch for sound
/// (`ProcessBridge.watchForSound`), and the first non-zero sample wakes it at
/// once (one post, on that transition). `stop` and a server shutdown post,
/// so it notices them at once.
///
/// It makes its analyzers itself, first thing (FFTW planning then overlaps
/// the node's port registration, activation and connections on the thread
/// making the node); `waitUntilReady` hands their errors to the node.
///
/// Worker only, apart from `start`, `waitUntilReady`, `markSettled`,
/// `trouble` and `stop` (the thread making and stopping the node).
final class AnalysisWorker: @unchecked Sendable {
    // @unchecked Sendable: `makeAnalyzers`, `schedule`, `router` and `feed`
    // (but its atomic settled mark) are used only by the worker thread once
    // started; `setupError` is written by it before `ready` is signalled and
    // read only after a wait on `ready`; `stopRequested` and `finished` are
    // atomics; `engine` and `bridge` are Sendable, and this is the bridge's
    // only waiting thread.
    private let engine: Engine
    private let bridge: ProcessBridge
    private let makeAnalyzers: () throws -> ChannelFeed.Analyzers
    private let feed: ChannelFeed
    private let router: ResultRouter
    private let schedule: WakeSchedule
    /// Where the server's socket is, to tell a stall from a server that died
    /// without libjack saying so (`StalledServerWatch`); nil: not watched.
    private let serverWatch: ServerWatch?
    private var setupError: (any Error)?
    private let ready = DispatchSemaphore(value: 0)
    private let stopRequested = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private var thread: Thread?
    /// The worker thread's name for the kernel (`top -H`, /proc/PID/task/TID/comm).
    static let threadName = "tonenode-worker"
    /// Nice value of the worker thread (0 is normal; higher yields to others).
    static let niceValue: Int32 = 10
    /// The worker thread's kernel id once it runs (0 before): tests count its wakes in /proc.
    let threadID = Atomic<Int32>(0)

    /// - Parameters:
    ///   - wakeIntervalSeconds: the analyzers' hop (`WakeSchedule`).
    ///   - sink: takes reports and messages on this thread (`ResultRouter`); nil: `publish` gets them.
    ///   - timeOffsetSeconds: added to report times for the sink (the nodes before this one).
    init(engine: Engine, wakeIntervalSeconds: Double = 0.1, bridge: ProcessBridge, serverWatch: ServerWatch? = nil,
         sink: (any ReportSink)? = nil, timeOffsetSeconds: Double = 0,
         makeAnalyzers: @escaping () throws -> ChannelFeed.Analyzers, publish: @escaping @Sendable ([NodeEvent]) -> Void) {
        self.engine = engine
        self.bridge = bridge
        self.serverWatch = serverWatch
        self.makeAnalyzers = makeAnalyzers
        feed = ChannelFeed(engine: engine, discontinuityCounters: { (bridge.xruns, bridge.periodWatch.changes) })
        router = ResultRouter(sink: sink, timeOffsetSeconds: timeOffsetSeconds, publish: publish)
        schedule = WakeSchedule(hopSeconds: wakeIntervalSeconds)
    }

    /// Reports whose window starts at or after `frame` are settled.
    func markSettled(fromFrame frame: Int) {
        feed.markSettled(fromFrame: frame)
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
        let (overflows, droppedFrames) = (0..<engine.channels).reduce(into: (0, 0)) { sum, channel in
            engine.withCapture(channel) { capture in
                sum.0 += capture.overflowCount.load(ordering: .relaxed)
                sum.1 += capture.droppedFrames.load(ordering: .relaxed)
            }
        }
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
            feed.install(try makeAnalyzers())
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
        var notices = TroubleNotices(profiles: bridge.callbackProfile != nil, nowNs: DispatchTime.now().uptimeNanoseconds)
        // Without tone analyzers there is no first reading to hurry.
        var settledReported = !feed.analysesTones
        var nextWakeNs = DispatchTime.now().uptimeNanoseconds
        var watching = false
        var stalledServer = serverWatch.map { StalledServerWatch(bridge: bridge, server: $0, nowNs: nextWakeNs) }
        while !stopRequested.load(ordering: .acquiring) {
            if let waitMs = WakeSchedule.waitMilliseconds(until: nextWakeNs, nowNs: DispatchTime.now().uptimeNanoseconds) {
                bridge.wait(timeoutMilliseconds: waitMs)
            }
            settledReported = feed.drain(to: router) || settledReported
            var idle = feed.isIdle
            if idle && !watching {
                // Watch, then look once more: sound captured before the watch is read now, after it wakes us.
                bridge.watchForSound(true)
                settledReported = feed.drain(to: router) || settledReported
                idle = feed.isIdle
            }
            if watching != idle { bridge.watchForSound(idle) }
            watching = idle
            let streamSeconds = feed.fedFramesOnEveryChannel.map { Double($0) / engine.sampleRateHz + router.timeOffsetSeconds }
            let restNs = schedule.restNs(WakeSchedule.Regime(idle: idle, settledReported: settledReported),
                                         sink: router.sink, streamSeconds: streamSeconds)
            // No period since the last wake: wake at least every half second;
            // none for a while (a stopped server, or one that died without
            // libjack telling us): look at the server as often.
            let afterNs = DispatchTime.now().uptimeNanoseconds
            nextWakeNs = WakeSchedule.nextWakeNs(after: nextWakeNs, restNs: restNs, nowNs: afterNs,
                                                 atMostNs: stalledServer?.look(nowNs: afterNs))
            if let notice = notices.trouble(trouble()) { router.post(notice) }
            let period = bridge.periodWatch.snapshot
            if let notice = notices.periodChange(changes: period.changes, periodFrames: period.periodFrames) {
                router.post(notice)
            }
            if notices.profiles,
               let notice = notices.profile(nowNs: DispatchTime.now().uptimeNanoseconds, current: { bridge.callbackProfile }) {
                router.post(notice)
            }
            // A new sample rate ends the worker as a lost server does: the owner reopens the node at it.
            let rate = bridge.periodWatch.sampleRate
            if rate.changes > 0 {
                router.post(.sampleRateChanged(rateHz: rate.rateHz))
            } else if bridge.isShutdown {
                router.post(.serverGone)
            }
            router.handOver()
            if bridge.isShutdown || rate.changes > 0 { return }
        }
    }
}
