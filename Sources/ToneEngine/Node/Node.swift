import Foundation
import Synchronization
import ToneCore
import ToneDSP
import ToneModem
import ToneJack

/// A running ToneNode: one JACK client with ports `in` and `out`, the engine on
/// the JACK thread, the analysis worker, and the event stream.
///
/// Start-up order follows jack2's simple_client: open → check settings against
/// the server → register ports → install callbacks → activate → connect; the
/// worker plans the FFTs meanwhile on its own thread, and the pretty names
/// are set last, so neither delays the first reading.
///
/// Not `Sendable`: one task at a time uses it, the one that made it (in
/// `tonenode`: the supervisor's, or `send`'s and `demo`'s, each on the
/// concurrency pool's threads, not the main thread); other threads only
/// end its events (`stopRequester`).
public final class Node {
    public let client: JackClient
    /// Behind the node's doors: control through `apply`, playback through
    /// `playback`, readings through `events`.
    let engine: Engine
    public let settings: NodeSettings
    /// Reports and notices from the worker; finishes when the node stops.
    public let events: NodeEventStream
    /// Full names of our ports (channel 0's: `in` and `out`, or `in_1` and `out_1`);
    /// empty for a port `settings.ports` leaves out.
    public let inputPortName: String
    public let outputPortName: String
    /// Full names of every channel's ports, in channel order (empty when left out).
    public let inputPortNames: [String]
    public let outputPortNames: [String]
    /// Full name of the MIDI input port (`midi_in`; empty when left out).
    public let midiInputPortName: String

    /// What `apply` goes through: the settings commands have changed, the engine's command queue.
    let controls: LiveControls
    private let bridge: ProcessBridge
    private let worker: AnalysisWorker
    private let continuation: AsyncStream<[NodeEvent]>.Continuation
    private var stopped = false
    /// The loop's second client on PipeWire (`--loopback`), closed with the node.
    private var loopRelay: LoopRelay?

    /// - Parameters:
    ///   - profilesCallback: time the process callback
    ///     (`--profile-callback`): `callbackProfile`, and `.callbackProfile` events.
    ///   - reportSink: takes the reports and messages on the worker thread
    ///     (then `events` carries only notices and `.progress`); nil: `events` carries them.
    ///   - timeOffsetSeconds: added to the times of what `reportSink` takes
    ///     (the audio of the nodes before this one, after a server restart).
    public init(settings: NodeSettings, profilesCallback: Bool = false,
                reportSink: (any ReportSink)? = nil, timeOffsetSeconds: Double = 0) throws {
        let client = try JackClient(name: settings.clientName, serverName: settings.serverName)
        let sampleRateHz = Double(client.sampleRateHz)
        // The settings' one check (a `SettingsProblem`, not a JACK error); what
        // needs no rate was checked before (command line, session file) too.
        if let problem = settings.problems(sampleRateHz: sampleRateHz).first { throw problem }
        let engine = Engine(sampleRateHz: sampleRateHz, frequencyHz: settings.frequencyHz,
                            amplitude: settings.levelAmplitude, muted: settings.muted,
                            a4Hz: settings.a4Hz, bendRangeSemitones: settings.bendRangeSemitones,
                            rampSeconds: settings.glideSeconds, channels: settings.channels)
        let shortNames = Self.audioPortNames(channels: settings.channels)
        // Only the ports this command uses (`send`: no `in`, no `midi_in`; `receive`: no `out`).
        let ports = settings.ports
        let inPorts: [OpaquePointer?] = try shortNames.map {
            ports.contains(.audioIn) ? try client.registerAudioPort($0.input, isInput: true) : nil
        }
        let outPorts: [OpaquePointer?] = try shortNames.map {
            ports.contains(.audioOut) ? try client.registerAudioPort($0.output, isInput: false) : nil
        }
        let midiPort = ports.contains(.midiIn) ? try client.registerMidiInputPort("midi_in") : nil
        // The worker keeps its own clock (once per hop, or per its sink's
        // batch, `ReportSink.batchSeconds`): a post from the
        // process callback is a syscall there and, without real-time
        // scheduling, lets the woken worker preempt the JACK thread before
        // the callback returns (measured: p99 of the callback 220 µs with
        // the post, 18 µs without; scripts/bench/live-bench, docs/engineering/measured/realtime-wakes.md).
        // Only an idle worker is posted, once, when sound arrives.
        // Xruns are the jumps in the node's own frame time, not jack2's xrun
        // notifications (one per late client per xrun, to every client that
        // asks: 32 nodes in an overloaded chain spent more on those wakes
        // than on audio; docs/engineering/reliability.md).
        let bridge = try ProcessBridge(
            client: client, channels: Array(zip(inPorts, outPorts)), midiInput: midiPort,
            wakeEveryFrames: nil, profilesCallback: profilesCallback, xrunsFromFrameTime: true,
            renderer: engine, render: Engine.renderFunction)

        // Bounded: a reader that stops (stdout nobody drains) costs the oldest
        // reports, counted, never memory or the worker's time.
        let (events, continuation) = AsyncStream<[NodeEvent]>.makeStream(bufferingPolicy: .bufferingNewest(Self.queuedBatchLimit))
        self.client = client
        self.engine = engine
        self.settings = settings
        controls = LiveControls(settings: settings)
        controls.attach(engine)
        self.bridge = bridge
        self.events = NodeEventStream(batches: events)
        self.continuation = continuation
        inputPortNames = inPorts.compactMap { $0.map(client.fullName(of:)) }
        outputPortNames = outPorts.compactMap { $0.map(client.fullName(of:)) }
        inputPortName = inputPortNames.first ?? ""
        outputPortName = outputPortNames.first ?? ""
        midiInputPortName = midiPort.map(client.fullName(of:)) ?? ""
        // The worker makes the analyzers (one per input channel, each with its
        // own FFT plans and window) on its own thread, while this one
        // registers, activates and connects: FFTW planning, even from wisdom,
        // is a good part of the start-up (docs/engineering/measured/realtime-wakes.md).
        let channelCount = max(1, settings.channels)
        worker = AnalysisWorker(engine: engine, wakeIntervalSeconds: Double(settings.hopFrames) / sampleRateHz,
                                bridge: bridge, serverWatch: ServerWatch(serverName: client.serverName),
                                sink: reportSink, timeOffsetSeconds: timeOffsetSeconds, makeAnalyzers: {
            ChannelFeed.Analyzers(
                tones: !settings.analyzesTones ? [] : try (0..<channelCount).map { _ in
                    try settings.makeAnalyzer(sampleRateHz: sampleRateHz, planning: settings.planning)
                },
                messages: !settings.receivesMessages ? [] : try (0..<channelCount).map { _ in
                    try ModemStreamAnalyzer(sampleRateHz: sampleRateHz, profiles: settings.messageProfiles,
                                            cable: settings.receivesCable)
                })
        }) { batch in
            if case .dropped(let lost) = continuation.yield(batch) { Self.droppedEventCount.add(lost.count, ordering: .relaxed) }
        }
        worker.start()

        do {
            try client.activate()
            // With several channels the k-th --connect-in/--connect-out goes to channel k (wrapping).
            for (index, source) in settings.connectIn.enumerated() {
                try client.connect(from: source, to: inputPortNames[index % inputPortNames.count])
            }
            for (index, destination) in settings.connectOut.enumerated() {
                try client.connect(from: outputPortNames[index % outputPortNames.count], to: destination)
            }
            for source in settings.connectMidi { try client.connect(from: source, to: midiInputPortName) }
            if settings.loopback {
                loopRelay = try LoopRelay.connect(client, outputs: outputPortNames, inputs: inputPortNames)
            }
            // A connection takes effect from the next period the server
            // starts after jack_connect returned (jack2 switches its graph at
            // a period's start): the period after the `cycles` our callback
            // has finished, at the latest. Windows from before then are not
            // readings of the signal.
            // Stored at once: the worker starts its hop grid there (`ChannelFeed.feed`).
            worker.markSettled(fromFrame: (Int(bridge.cycles) + 1) * client.bufferFrames)
            try worker.waitUntilReady()
        } catch {
            stop()
            throw error
        }
        // After the connections, so the first readings do not wait for it.
        if settings.usesMetadata {
            // Bounded (1 s): a wedged metadata store costs a warning, not the node.
            let named: [(port: OpaquePointer, name: String)] = zip(shortNames, zip(inPorts, outPorts)).flatMap { names, pair in
                [pair.0.map { ($0, "ToneNode analyser " + names.prettyInput) },
                 pair.1.map { ($0, "ToneNode tone " + names.prettyOutput) }].compactMap { $0 }
            } + (midiPort.map { [($0, "ToneNode MIDI input")] } ?? [])
            client.setPrettyNames(client: "ToneNode", ports: named)
        }
    }

    deinit { stop() }

    /// Batches of events (reports, notices; one batch per wake of the worker)
    /// queued for the owner at most: about 10 s of reports at the default hop.
    public static let queuedBatchLimit = 1024
    private static let droppedEventCount = Atomic<Int>(0)
    /// Events dropped, by every node of this process, because the owner did
    /// not take them in time (its output blocked).
    public static var droppedEvents: Int { droppedEventCount.load(ordering: .relaxed) }
    private static let droppedMidiCount = Atomic<Int>(0)
    /// MIDI messages dropped, by every node of this process that has stopped,
    /// because a period brought more than a node takes (512).
    public static var droppedMidiMessages: Int { droppedMidiCount.load(ordering: .relaxed) }
    static let withheldReadingCount = Atomic<Int>(0)
    /// Tone readings withheld, by every node of this process, because their
    /// window spanned an xrun or a period change (`DiscontinuityGate`).
    public static var withheldReadings: Int { withheldReadingCount.load(ordering: .relaxed) }
    /// MIDI messages a node takes from one period at most.
    public static let midiMessagesPerPeriod = ProcessBridge.maximumMIDIEvents

    /// Short port names per channel: `in`/`out` for one, `in_1`/`out_1`… for more.
    static func audioPortNames(channels: Int) -> [(input: String, output: String, prettyInput: String, prettyOutput: String)] {
        channels <= 1 ? [("in", "out", "input", "output")]
            : (1...channels).map { ("in_\($0)", "out_\($0)", "input \($0)", "output \($0)") }
    }

    /// A closure that ends `events` from any thread (a signal handler's
    /// queue, say); the owner then calls `stop()` on its own task.
    public var stopRequester: @Sendable () -> Void {
        let continuation = continuation
        return { continuation.finish() }
    }

    /// Whether the server has shut the client down (libjack said so, or the
    /// worker found its socket gone: `StalledServerWatch`), from any thread.
    public var serverGoneReader: @Sendable () -> Bool {
        let bridge = bridge
        return { bridge.isShutdown }
    }

    /// The process callback's durations so far; nil unless made with `profilesCallback`.
    public var callbackProfile: CallbackProfile? { bridge.callbackProfile }

    /// The xruns, input ring overflows and frames not analysed so far, as the
    /// worker's `.trouble` events say them; after `stop()`, the whole run's
    /// (the worker's last look happens after `events` has ended).
    public var trouble: (xruns: Int, overflows: Int, droppedFrames: Int) { worker.trouble() }

    /// The analysis worker thread's kernel id (/proc/self/task/ID), 0 until it runs.
    public var workerThreadID: Int32 { worker.threadID.load(ordering: .relaxed) }

    /// Closes the client (the engine is no longer called after this), stops the
    /// worker and finishes `events`. Safe to call twice. The bridge goes with
    /// the node, after the client is closed.
    public func stop() {
        guard !stopped else { return }
        // Counted once, here: the callbacks have stopped by the time it is
        // read at exit; a node replaced after a server loss adds its own.
        defer { Self.droppedMidiCount.add(bridge.midiDropped, ordering: .relaxed) }
        stopped = true
        // Bounded at 2 s after a server loss (see there).
        client.close(keeping: bridge)
        loopRelay?.close()
        worker.stop()
        continuation.finish()
    }
}
