import Foundation
import ToneCore
import ToneDSP
import ToneJack

/// Plays a `MeasurementSignal` through a chain once and returns what came back.
///
/// Its own JACK client (ports `in`, `out`, terminal, latency 0 on its own
/// side), its own `MeasureEngine` on the JACK thread. Order as in jack2's
/// simple_client: open → build the stimulus for the server's rate →
/// register → install callbacks → activate → connect → (a few periods later)
/// arm → wait for the recording → close. Main thread only.
public enum ChainRecorder {
    /// Which server and client, and what to connect.
    public struct Settings: Sendable {
        public var clientName = "tonenode"
        public var serverName: String?
        public var connectIn: [String] = []
        public var connectOut: [String] = []
        /// Also connect our own `out` to our own `in` (JACK's own loop; each
        /// channel's to its own with several).
        public var loopback = false
        /// Channels: 1 (ports `in`, `out`, every `connect…` name to the one
        /// port) or up to 8 (ports `in_1…`, `out_1…`; the k-th `connect…` name to the k-th port).
        public var channels = 1
        /// Register a MIDI output `midi_out` (`--what midi`) and connect it to these ports.
        public var midiOutput = false
        public var connectMIDI: [String] = []
        /// Whether `out` must be connected (false when only MIDI is measured: the answer comes from a synth).
        public var requiresAudioOutput = true
        public init() {}
    }

    /// What the run saw besides the audio.
    public struct Run: Sendable {
        public var clientName: String
        public var sampleRateHz: Int
        public var periodFrames: Int
        /// Xruns between arming and the end of the recording: with any, a
        /// period may have been lost and the figures may be wrong.
        public var xruns: Int
        /// The recording frame at which each of those xruns was seen (to
        /// within the 100 ms this thread may wait between looks).
        public var xrunFrames: [Int] = []
        /// MIDI messages the output port could not take (none expected: a few per period at most).
        public var midiDropped: Int
        public var signal: MeasurementSignal
        /// Channel 1's recording (`recordings[0]`).
        public var recording: [Float] { recordings[0] }
        /// One per channel.
        public var recordings: [[Float]]
    }

    public enum Failure: Error, CustomStringConvertible {
        case serverGone
        case timedOut(seconds: Double)
        /// Nothing is connected to our `port` (its full name): nothing could come back.
        case notConnected(port: String, option: String)
        /// `shouldStop` said so (a signal): the client was closed, nothing measured.
        case stopped
        /// The server's period changed during the recording (PipeWire's quantum, `jack_bufsize`): a loop's latency changed with it.
        case periodChanged(fromFrames: Int, toFrames: Int)
        /// The server's sample rate changed during the recording (PipeWire's `clock.force-rate`): the stimulus was made for the old one.
        case sampleRateChanged(fromHz: Int, toHz: Int)

        public var description: String {
            switch self {
            case .stopped: return "stopped before the measurement was complete"
            case .notConnected(let port, let option):
                // --loopback connects our own audio ports, not a MIDI output.
                let loopback = option == "--connect-midi" ? "" : " (or use --loopback)"
                return "nothing is connected to \(port): name the chain with \(option)\(loopback)"
            case .serverGone: return "the JACK server shut the client down during the measurement"
            case .periodChanged(let from, let to): return "the period changed from \(from) to \(to) frames during the measurement"
            case .sampleRateChanged(let from, let to): return "the sample rate changed from \(from) to \(to) Hz during the measurement"
            case .timedOut(let seconds): return "the measurement did not finish within \(Int(seconds)) s (is the server running its cycles?)"
            }
        }
    }

    /// - Parameters:
    ///   - makeSignal: builds the stimulus once the server's sample rate is
    ///     known; throws (`MeasurementSignal.Plan.Problem`) when the plan does not fit it.
    ///   - opened: called after activation and connection (client name, audio input and output ports;
    ///     the MIDI output follows the audio output after a comma).
    ///   - shouldStop: polled every 100 ms while waiting; true ends the
    ///     recording (`Failure.stopped`) and closes the client.
    public static func record(_ settings: Settings,
                              makeSignal: (_ sampleRateHz: Double) throws -> MeasurementSignal,
                              opened: (_ client: JackClient, _ input: String, _ output: String) -> Void = { _, _, _ in },
                              shouldStop: () -> Bool = { false })
        throws -> Run {
        let client = try JackClient(name: settings.clientName, serverName: settings.serverName)
        defer { client.close() }
        // Made at the open, while the server listens (see StalledServerWatch).
        let serverWatch = ServerWatch(serverName: client.serverName)
        let openedRateHz = client.sampleRateHz
        let signal = try makeSignal(Double(openedRateHz))
        let channels = max(1, settings.channels)
        let engine = MeasureEngine(stimuli: (0..<channels).map { signal.stimulus(channel: $0) },
                                   recordingFrames: signal.recordingFrames,
                                   midiMessages: settings.midiOutput ? signal.midiMessages : [])
        var ports: [(input: OpaquePointer, output: OpaquePointer)] = []
        for channel in 0..<channels {
            let suffix = channels == 1 ? "" : "_\(channel + 1)"
            ports.append((try client.registerAudioPort("in" + suffix, isInput: true),
                          try client.registerAudioPort("out" + suffix, isInput: false)))
        }
        let midiPort = settings.midiOutput ? try client.registerMidiOutputPort("midi_out") : nil
        let bridge = try ProcessBridge(client: client, channels: ports, midiOutput: midiPort,
                                       renderer: engine, render: MeasureEngine.renderFunction)
        // The bridge (and the engine it holds) outlives the client: the
        // client is closed, and its callbacks stop, before the bridge goes;
        // after a server loss, at most 2 s later (a stopped server never answers).
        defer { client.close(keeping: bridge) }

        try client.activate()
        let inputs = ports.map { client.fullName(of: $0.input) }, outputs = ports.map { client.fullName(of: $0.output) }
        for (index, source) in settings.connectIn.enumerated() {
            try client.connect(from: source, to: inputs[channels == 1 ? 0 : index % channels])
        }
        for (index, destination) in settings.connectOut.enumerated() {
            try client.connect(from: outputs[channels == 1 ? 0 : index % channels], to: destination)
        }
        // On PipeWire through a second client (closed at return); on jackd2 directly.
        let loopRelay = settings.loopback ? try LoopRelay.connect(client, outputs: outputs, inputs: inputs) : nil
        defer { loopRelay?.close() }
        let midiName = midiPort.map(client.fullName(of:))
        if let midiName {
            for destination in settings.connectMIDI { try client.connect(from: midiName, to: destination) }
        }
        // An unconnected port can only time out: say so at once (each gets
        // the few periods jack2 takes to show a new connection).
        func isConnected(_ port: String) -> Bool { client.hasConnections(ofPort: port, abandon: { bridge.isShutdown }) }
        if let midiName, !isConnected(midiName) { throw Failure.notConnected(port: midiName, option: "--connect-midi") }
        for output in outputs where settings.requiresAudioOutput && !isConnected(output) {
            throw Failure.notConnected(port: output, option: "--connect-out")
        }
        for input in inputs where !isConnected(input) {
            throw Failure.notConnected(port: input, option: "--connect-in")
        }
        opened(client, inputs.joined(separator: ", "), (outputs + (midiName.map { [$0] } ?? [])).joined(separator: ", "))

        // Let a few periods pass so every connection is part of the graph
        // before the first frame is played.
        let startCycles = bridge.cycles
        let settleDeadline = Date().addingTimeInterval(2)
        while bridge.cycles < startCycles + 4 && Date() < settleDeadline {
            if bridge.isShutdown { throw Failure.serverGone }
            if shouldStop() { throw Failure.stopped }
            bridge.wait(timeoutMilliseconds: 100)
        }
        let xrunsBefore = bridge.xruns, periodBefore = bridge.periodWatch.snapshot, rateBefore = bridge.periodWatch.sampleRate
        engine.arm()
        // A server that died without libjack saying so ends the measurement as one that did.
        var stalledServer = serverWatch.map {
            StalledServerWatch(bridge: bridge, server: $0, nowNs: DispatchTime.now().uptimeNanoseconds)
        }
        let limitSeconds = Double(signal.recordingFrames) / Double(client.sampleRateHz) * 2 + 5
        let deadline = Date().addingTimeInterval(limitSeconds)
        var xrunFrames: [Int] = []
        while !engine.isFinished {
            if bridge.isShutdown { throw Failure.serverGone }
            if shouldStop() { throw Failure.stopped }
            if Date() > deadline { throw Failure.timedOut(seconds: limitSeconds) }
            bridge.wait(timeoutMilliseconds: 100)
            stalledServer?.look(nowNs: DispatchTime.now().uptimeNanoseconds)
            let seen = bridge.xruns - xrunsBefore - xrunFrames.count
            if seen > 0 { xrunFrames += Array(repeating: engine.framesRecorded, count: seen) }
        }
        let xruns = bridge.xruns - xrunsBefore
        let periodAfter = bridge.periodWatch.snapshot, rateAfter = bridge.periodWatch.sampleRate
        // The rate first: a rate change moves the period too, and the signal was made for the old rate.
        if rateAfter.changes != rateBefore.changes {
            throw Failure.sampleRateChanged(fromHz: openedRateHz, toHz: rateAfter.rateHz)
        }
        if periodAfter.changes != periodBefore.changes {
            throw Failure.periodChanged(fromFrames: periodBefore.periodFrames, toFrames: periodAfter.periodFrames)
        }
        let midiDropped = bridge.midiOutDropped
        let recordings = (0..<channels).map { channel in engine.withRecording(channel: channel) { Array($0) } }
        if xruns > xrunFrames.count { xrunFrames += Array(repeating: signal.recordingFrames, count: xruns - xrunFrames.count) }
        return Run(clientName: client.name, sampleRateHz: client.sampleRateHz, periodFrames: client.bufferFrames,
                   xruns: xruns, xrunFrames: xrunFrames, midiDropped: midiDropped, signal: signal, recordings: recordings)
    }
}
