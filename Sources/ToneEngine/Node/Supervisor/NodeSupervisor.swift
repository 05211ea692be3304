import Foundation
import Synchronization
import ToneCore
import ToneDSP
import ToneJack

/// Keeps a node running across JACK server restarts.
///
/// The first start is the user's: any error there is thrown as it is. After
/// that, when the server goes away (the shutdown callback only sets a flag;
/// the worker notices it and the node is closed here, on the caller's task),
/// the supervisor tries at once (a client the server dropped while it lives
/// is back within a second), then every `retryIntervalSeconds`, never sooner
/// than that after the last open, until a server of that
/// name answers again — at whatever sample rate and period it now has — then
/// opens a new node with the same settings, and restores every connection the
/// old ports had (whoever made them). Connections whose other end does not
/// exist yet are retried on every report until they do.
///
/// Report times stay monotonic: a new node's clock continues from the frames
/// the old ones rendered, so `time_s` never goes back.
///
/// Threads: `run`, and the handler it calls, run on the concurrency pool,
/// never on the main thread. `run` is a nonisolated async method, so Swift
/// 6 (`NonisolatedNonsendingByDefault` is off) runs it on the global
/// concurrent executor whoever calls it: libdispatch's pool threads
/// (named `com.apple.root.default-qos`), and after each `await` (each
/// batch of `Node.events`, each sleep between reopens) it may go on on
/// another of them. In `tonenode run` and `receive` the main thread
/// meanwhile only waits in the async `main`. After the first settled report
/// each pool thread that takes the events renices itself to nice 10, once
/// (`ProcessBridge.reniceCallingThreadOnce`), and stays there for whatever
/// it runs later. What the compiler checks: a supervisor is not `Sendable`,
/// so no two concurrency domains share one (one task at a time uses it, on
/// any thread of the pool); other threads reach it only through its
/// `@Sendable` closures `stopRequester`, `controller` and `settingsReader`.
public final class NodeSupervisor {
    public let reconnect: Bool
    public let retryIntervalSeconds: Double
    private let stopSwitch = StopSwitch()
    /// The settings as controls have changed them, and the running engine.
    private let live: LiveControls

    /// Time every node's process callback (`--profile-callback`).
    public let profilesCallback: Bool

    /// Takes every node's reports and messages on its worker thread (nil:
    /// they come to `run`'s handler as `.report` and `.message`). Set before `run`.
    public var reportSink: (any ReportSink)?

    public init(settings: NodeSettings, reconnect: Bool, retryIntervalSeconds: Double = 1, profilesCallback: Bool = false) {
        live = LiveControls(settings: settings)
        self.profilesCallback = profilesCallback
        self.reconnect = reconnect
        self.retryIntervalSeconds = retryIntervalSeconds
    }

    /// Ends `run` soon, from any thread (a signal handler's queue, say).
    public var stopRequester: @Sendable () -> Void { stopSwitch.request }

    /// Applies a control command from any thread: to the running engine (a
    /// click-free glide) and to the settings a reopened node will use. A
    /// command that cannot apply throws and changes nothing.
    public var controller: @Sendable (ControlCommand) throws(ControlCommand.Problem) -> Void { live.apply }

    /// The settings as they are now (after any control commands).
    public var settings: NodeSettings { live.settings }
    /// Reads `settings` from any thread (the NSM client's, for a save).
    public var settingsReader: @Sendable () -> NodeSettings { { [live] in live.settings } }

    /// Runs until stopped, or until the server goes away without `reconnect`.
    /// Throws what the first start throws, and what a reopened node throws
    /// for a reason other than an unreachable server (say, `--freq` above the
    /// new server's Nyquist frequency).
    public func run(_ handle: (Event) -> Void) async throws -> Outcome {
        var node = try Node(settings: live.settings, profilesCallback: profilesCallback, reportSink: reportSink)
        var openedAt = Date()
        var timeOffsetSeconds = 0.0
        var reconnected = false
        var pending: [NodeConnection] = []
        while true {
            stopSwitch.attach(node.stopRequester)
            live.attach(node.engine)
            handle(.opened(node, reconnected: reconnected))
            if !pending.isEmpty { handle(.connectionsPending(pending)) }
            var connections = node.connections()
            var unconnected = node.unconnectedInputs(in: connections, countingOwn: true)
            reportSink?.inputsUnconnected(unconnected)
            // The first report or message takes a new snapshot at once: one
            // right after the node's own connects can miss them (jack2 shows
            // a connection from the next period's graph on), and a server
            // lost before the next second would reopen without them.
            var lastSnapshotSeconds = -Double.infinity
            var serverGone = false
            var newRateHz: Int?
            var yieldsToAudio = false
            // The xruns and overflows last said; what came after (a stall just
            // before the stop, an idle worker between its rests) is said at the end.
            var saidTrouble = (xruns: 0, overflows: 0)
            // Follow the graph as people rewire it (about once a second of
            // audio, on reports or messages), so a restart restores what was
            // there just before.
            func followGraph(atSeconds seconds: Double) {
                guard seconds - lastSnapshotSeconds >= 1 else { return }
                lastSnapshotSeconds = seconds
                if !pending.isEmpty {
                    let still = node.restore(pending)
                    let made = pending.filter { !still.contains($0) }
                    if !made.isEmpty { handle(.connectionsRestored(made)) }
                    pending = still
                }
                connections = node.connections()
                unconnected = node.unconnectedInputs(in: connections)
                reportSink?.inputsUnconnected(unconnected)
            }
            events: for await event in node.events {
                // After the first settled report, the threads that format and
                // write the reports (a pool's, whichever picks the task up)
                // yield to JACK's process threads as the worker does: without
                // real-time scheduling they compete with them for a core. Not
                // before it: at nice 10 the first reading waited for the
                // core under load (docs/engineering/measured/realtime-wakes.md, issue 17).
                if yieldsToAudio { ProcessBridge.reniceCallingThreadOnce(AnalysisWorker.niceValue) }
                switch event {
                case .report(var report):
                    if report.settled { yieldsToAudio = true }
                    report.markUnconnected(unconnected)
                    report.timeSeconds += timeOffsetSeconds
                    handle(.report(report))
                    followGraph(atSeconds: report.timeSeconds)
                case .message(let message, let channel):
                    handle(.message(message, channel: channel, timeOffsetSeconds: timeOffsetSeconds))
                    followGraph(atSeconds: message.timeSeconds + timeOffsetSeconds)
                case .trouble(let xruns, let overflows, let dropped):
                    saidTrouble = (xruns, overflows)
                    handle(.trouble(xruns: xruns, overflows: overflows, droppedFrames: dropped))
                case .periodChanged(let frames):
                    handle(.periodChanged(periodFrames: frames))
                case .callbackProfile(let profile):
                    handle(.callbackProfile(profile))
                case .progress(let seconds, let settled):
                    // Times from the sink's reports already carry the offset.
                    if settled { yieldsToAudio = true }
                    followGraph(atSeconds: seconds)
                case .serverGone:
                    serverGone = true
                    break events
                case .sampleRateChanged(let rateHz):
                    newRateHz = rateHz
                    break events
                }
            }
            timeOffsetSeconds += Double(node.engine.renderedFrames.load(ordering: .relaxed)) / node.engine.sampleRateHz
            live.attach(nil)
            // The whole run, before the close: a close that hangs on a
            // wedged server must not take the figures with it.
            if let profile = node.callbackProfile { handle(.callbackProfile(profile)) }
            node.stop()
            let trouble = node.trouble
            if trouble.xruns != saidTrouble.xruns || trouble.overflows != saidTrouble.overflows {
                handle(.trouble(xruns: trouble.xruns, overflows: trouble.overflows, droppedFrames: trouble.droppedFrames))
            }
            stopSwitch.attach(nil)
            guard serverGone || newRateHz != nil, !stopSwitch.isRequested else { return .stopped }
            // A new rate: the server is there, the node reopens at once (with or without --no-reconnect).
            if let newRateHz {
                handle(.sampleRateChanged(fromHz: Int(node.engine.sampleRateHz), toHz: newRateHz))
            } else {
                handle(.serverGone(retrying: reconnect))
                guard reconnect else { return .serverGone }
            }
            guard let reopened = try await reopen(notBefore: newRateHz != nil ? Date() : openedAt.addingTimeInterval(retryIntervalSeconds),
                                                  timeOffsetSeconds: timeOffsetSeconds)
            else { return .stopped }
            node = reopened
            openedAt = Date()
            reconnected = true
            pending = node.restore(Set(connections + pending).sorted())
        }
    }

    /// A new node with the same settings once a server answers; nil when a
    /// stop was requested first. Connections are restored by the caller, so
    /// the settings' own connections are left to it. The first try is at
    /// `notBefore` (at once when that has passed: a node dropped again and
    /// again is re-opened at most once per interval), then one per interval.
    private func reopen(notBefore: Date, timeOffsetSeconds: Double) async throws -> Node? {
        var settings = live.settings
        settings.connectIn = []
        settings.connectOut = []
        settings.loopback = false
        settings.connectMidi = []
        var deadline = notBefore
        while !stopSwitch.isRequested {
            while Date() < deadline {
                if stopSwitch.isRequested { return nil }
                try? await Task.sleep(for: .milliseconds(50))
            }
            deadline = Date().addingTimeInterval(retryIntervalSeconds)
            guard JackClient.serverIsReachable(serverName: settings.serverName) else { continue }
            do {
                return try Node(settings: settings, profilesCallback: profilesCallback, reportSink: reportSink,
                                timeOffsetSeconds: timeOffsetSeconds)
            } catch let error as JackError {
                // The server may have gone again between the probe and the open.
                if case .serverUnreachable = error { continue }
                throw error
            }
        }
        return nil
    }
}
