import CJack
import Foundation
import ToneDSP

/// A running ToneNode: one JACK client with ports `in` and `out`, the engine on
/// the JACK thread, the analysis worker, and the event stream.
///
/// Start-up order follows jack2's simple_client: open → check settings against
/// the server → plan the FFT → register ports → install callbacks → activate →
/// connect. Main thread only.
public final class Node {
    public let client: JackClient
    public let engine: Engine
    public let settings: NodeSettings
    /// Reports and notices from the worker; finishes when the node stops.
    public let events: AsyncStream<NodeEvent>
    /// Full names of our ports.
    public let inputPortName: String
    public let outputPortName: String

    private let bridge: UnsafeMutablePointer<tn_bridge>
    private let worker: AnalysisWorker
    private let continuation: AsyncStream<NodeEvent>.Continuation
    private var stopped = false

    public init(settings: NodeSettings) throws {
        let client = try JackClient(name: settings.clientName, serverName: settings.serverName)
        let sampleRateHz = Double(client.sampleRateHz)
        if let problem = settings.problem(sampleRateHz: sampleRateHz) {
            throw JackError.invalidSetting(problem)
        }
        let analyzer = try settings.makeAnalyzer(sampleRateHz: sampleRateHz, planning: settings.planning)
        let engine = Engine(sampleRateHz: sampleRateHz, frequencyHz: settings.frequencyHz,
                            amplitude: settings.amplitude)
        let inPort = try client.registerAudioPort("in", isInput: true)
        let outPort = try client.registerAudioPort("out", isInput: false)

        guard let bridge = tn_bridge_create() else { throw JackError.callbackSetupFailed(0) }
        tn_bridge_set_channel(bridge, 0, inPort, outPort)
        tn_bridge_set_render(bridge, toneNodeRenderFunction, Unmanaged.passUnretained(engine).toOpaque())
        bridge.pointee.sample_rate = UInt32(client.sampleRateHz)
        bridge.pointee.buffer_size = UInt32(client.bufferFrames)
        let installed = tn_bridge_install(client.handle, bridge)
        guard installed == 0 else {
            tn_bridge_destroy(bridge)
            throw JackError.callbackSetupFailed(installed)
        }

        let (events, continuation) = AsyncStream<NodeEvent>.makeStream(bufferingPolicy: .bufferingNewest(65536))
        self.client = client
        self.engine = engine
        self.settings = settings
        self.bridge = bridge
        self.events = events
        self.continuation = continuation
        inputPortName = client.fullName(of: inPort)
        outputPortName = client.fullName(of: outPort)
        worker = AnalysisWorker(engine: engine, analyzer: analyzer, bridge: bridge) { continuation.yield($0) }
        worker.start()

        do {
            try client.activate()
            for source in settings.connectIn { try client.connect(from: source, to: inputPortName) }
            for destination in settings.connectOut { try client.connect(from: outputPortName, to: destination) }
            if settings.loopback { try client.connect(from: outputPortName, to: inputPortName) }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// After the server has gone, closing the client talks to a dead server,
    /// and libjack has been seen (rarely, under load) to block there. Close it
    /// on a thread of its own and wait at most 2 s: on time, everything is
    /// freed as usual; late, the client and the bridge it may still touch are
    /// left behind (a few KiB, once per server loss) and the node is stopped.
    private func stopAfterServerLoss() {
        stopped = true
        let closed = DispatchSemaphore(value: 0)
        let client = UncheckedSendable(client)
        Thread.detachNewThread {
            client.value.close()
            closed.signal()
        }
        let onTime = closed.wait(timeout: .now() + 2) == .success
        worker.stop()
        continuation.finish()
        if onTime { tn_bridge_destroy(bridge) }
    }

    /// A closure that ends `events` from any thread (a signal handler's
    /// queue, say); the owner then calls `stop()` on the main thread.
    public var stopRequester: @Sendable () -> Void {
        let continuation = continuation
        return { continuation.finish() }
    }

    /// Total xruns the server reported to this client.
    public var xrunCount: Int { Int(tn_bridge_xruns(bridge)) }

    /// Closes the client (the engine is no longer called after this), stops the
    /// worker and finishes `events`. Safe to call twice.
    public func stop() {
        guard !stopped else { return }
        if tn_bridge_is_shutdown(bridge) != 0 {
            stopAfterServerLoss()
            return
        }
        stopped = true
        client.close()
        worker.stop()
        continuation.finish()
        tn_bridge_destroy(bridge)
    }
}

/// Hands a main-thread object to one other thread that is its only user from then on.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
