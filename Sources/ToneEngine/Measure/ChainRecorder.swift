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
        /// Also connect our own `out` to our own `in` (JACK's own loop).
        public var loopback = false
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
        public var signal: MeasurementSignal
        public var recording: [Float]
    }

    public enum Failure: Error, CustomStringConvertible {
        case serverGone
        case timedOut(seconds: Double)
        /// Nothing is connected to our `port` (its full name): nothing could come back.
        case notConnected(port: String, option: String)

        public var description: String {
            switch self {
            case .notConnected(let port, let option):
                return "nothing is connected to \(port): name the chain with \(option) (or use --loopback)"
            case .serverGone: return "the JACK server shut the client down during the measurement"
            case .timedOut(let seconds): return "the measurement did not finish within \(Int(seconds)) s (is the server running its cycles?)"
            }
        }
    }

    /// - Parameters:
    ///   - makeSignal: builds the stimulus once the server's sample rate is
    ///     known; throws (`MeasurementSignal.Plan.Problem`) when the plan does not fit it.
    ///   - opened: called after activation and connection (client name, ports).
    public static func record(_ settings: Settings,
                              makeSignal: (_ sampleRateHz: Double) throws -> MeasurementSignal,
                              opened: (_ client: JackClient, _ input: String, _ output: String) -> Void = { _, _, _ in })
        throws -> Run {
        let client = try JackClient(name: settings.clientName, serverName: settings.serverName)
        defer { client.close() }
        let signal = try makeSignal(Double(client.sampleRateHz))
        let engine = MeasureEngine(stimulus: signal.stimulus, recordingFrames: signal.recordingFrames)
        let inPort = try client.registerAudioPort("in", isInput: true)
        let outPort = try client.registerAudioPort("out", isInput: false)
        let bridge = try ProcessBridge(client: client, channels: [(inPort, outPort)],
                                       renderer: engine, render: MeasureEngine.renderFunction)
        // The bridge (and the engine it holds) outlives the client: the
        // client is closed, and its callbacks stop, before the bridge goes.
        defer {
            client.close()
            withExtendedLifetime(bridge) {}
        }

        try client.activate()
        let input = client.fullName(of: inPort), output = client.fullName(of: outPort)
        for source in settings.connectIn { try client.connect(from: source, to: input) }
        for destination in settings.connectOut { try client.connect(from: output, to: destination) }
        if settings.loopback { try client.connect(from: output, to: input) }
        // An unconnected port can only time out: say so at once.
        if client.connections(ofPort: output).isEmpty { throw Failure.notConnected(port: output, option: "--connect-out") }
        if client.connections(ofPort: input).isEmpty { throw Failure.notConnected(port: input, option: "--connect-in") }
        opened(client, input, output)

        // Let a few periods pass so every connection is part of the graph
        // before the first frame is played.
        let startCycles = bridge.cycles
        let settleDeadline = Date().addingTimeInterval(2)
        while bridge.cycles < startCycles + 4 && Date() < settleDeadline {
            if bridge.isShutdown { throw Failure.serverGone }
            bridge.wait(timeoutMilliseconds: 100)
        }
        let xrunsBefore = bridge.xruns
        engine.arm()
        let limitSeconds = Double(signal.recordingFrames) / Double(client.sampleRateHz) * 2 + 5
        let deadline = Date().addingTimeInterval(limitSeconds)
        while !engine.isFinished {
            if bridge.isShutdown { throw Failure.serverGone }
            if Date() > deadline { throw Failure.timedOut(seconds: limitSeconds) }
            bridge.wait(timeoutMilliseconds: 100)
        }
        let xruns = bridge.xruns - xrunsBefore
        let recording = engine.withRecording { Array($0) }
        return Run(clientName: client.name, sampleRateHz: client.sampleRateHz, periodFrames: client.bufferFrames,
                   xruns: xruns, signal: signal, recording: recording)
    }
}
