import CJack
import Foundation

/// A JACK client for tests to talk to the node through: opens on a given
/// server, registers the audio and MIDI ports it is given, runs `process`
/// every cycle, activates; closed when released (or by `close`). What it does
/// in the cycle is a behaviour: `FractionalDelay` (delay, filter, echoes),
/// `MIDISender`, `SignalProbe` (a constant/NaN/sine source that watches its
/// input), or any closure. With `reportedLatencyFrames` it also reports a
/// latency of its own to JACK (a latency callback, the way a plugin host
/// does), whatever its behaviour really delays: a host that misreports. Not part of the product: test code may import
/// CJack (the product's only importer is ToneJack).
///
/// The cycle runs on JACK's thread: `process` must stay cheap (raw buffers,
/// no Swift arrays per sample) — an ASan debug build once stalled the graph
/// with a `zip` over arrays in a peer's callback.
public final class JackPeer: @unchecked Sendable {
    // @unchecked Sendable: everything is set before activation and only read
    // afterwards; `process` is Sendable; `close` runs on the test's thread.

    /// One process cycle: the port buffers, fetched on demand (JACK requires
    /// them fetched every cycle). Valid only inside `process`; do not keep
    /// the pointers.
    public struct Cycle {
        public let frames: Int
        public let sampleRateHz: Double
        /// The server's frame time at the start of this period (`jack_last_frame_time`).
        public let frameTime: UInt32
        fileprivate let ports: UnsafeMutablePointer<OpaquePointer?>
        fileprivate let audioInCount, audioOutCount, midiInCount, midiOutCount: Int

        /// Audio input `index` (in the order given to `init`).
        public func audioIn(_ index: Int = 0) -> UnsafePointer<Float>? {
            precondition(index < audioInCount, "no audio input \(index)")
            return UnsafePointer(buffer(index)?.assumingMemoryBound(to: Float.self))
        }

        public func audioOut(_ index: Int = 0) -> UnsafeMutablePointer<Float>? {
            precondition(index < audioOutCount, "no audio output \(index)")
            return buffer(audioInCount + index)?.assumingMemoryBound(to: Float.self)
        }

        /// A MIDI input buffer (read with `jack_midi_get_event_count` / `jack_midi_event_get`).
        public func midiIn(_ index: Int = 0) -> UnsafeMutableRawPointer? {
            precondition(index < midiInCount, "no MIDI input \(index)")
            return buffer(audioInCount + audioOutCount + index)
        }

        /// A MIDI output buffer, already cleared (write with `jack_midi_event_write`).
        public func midiOut(_ index: Int = 0) -> UnsafeMutableRawPointer? {
            precondition(index < midiOutCount, "no MIDI output \(index)")
            return buffer(audioInCount + audioOutCount + midiInCount + index)
        }

        private func buffer(_ slot: Int) -> UnsafeMutableRawPointer? {
            guard let port = ports[slot] else { return nil }
            return jack_port_get_buffer(port, jack_nframes_t(frames))
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let client: OpaquePointer
    /// The name the server gave the client (it may add a suffix).
    public let name: String
    private let ports: UnsafeMutablePointer<OpaquePointer?>
    private let counts: (audioIn: Int, audioOut: Int, midiIn: Int, midiOut: Int)
    private let process: @Sendable (Cycle) -> Void
    /// What the latency callback adds between inputs and outputs; nil: no callback (JACK's default).
    private let reportedLatencyFrames: Int?
    private var closed = false

    /// Opens `name` on `server` (never starting one), registers the ports
    /// (in this order: audio in, audio out, MIDI in, MIDI out), installs
    /// `process` (and with `reportedLatencyFrames`, a latency callback) and activates.
    public init(name: String, server: String, audioIn: [String] = [], audioOut: [String] = [],
                midiIn: [String] = [], midiOut: [String] = [], reportedLatencyFrames: Int? = nil,
                process: @escaping @Sendable (Cycle) -> Void) throws {
        var status = jack_status_t(rawValue: 0)
        guard let client = tn_client_open(name, JackNoStartServer, &status, server) else {
            throw Failure(description: "test peer \(name): cannot open a client on \(server) (status \(status.rawValue))")
        }
        self.client = client
        self.name = jack_get_client_name(client).map { String(cString: $0) } ?? name
        self.process = process
        self.reportedLatencyFrames = reportedLatencyFrames
        counts = (audioIn.count, audioOut.count, midiIn.count, midiOut.count)
        let specs = audioIn.map { ($0, JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput) }
            + audioOut.map { ($0, JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput) }
            + midiIn.map { ($0, JACK_DEFAULT_MIDI_TYPE, JackPortIsInput) }
            + midiOut.map { ($0, JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput) }
        ports = .allocate(capacity: max(1, specs.count))
        ports.initialize(repeating: nil, count: max(1, specs.count))
        for (slot, (portName, type, flags)) in specs.enumerated() {
            ports[slot] = jack_port_register(client, portName, type, UInt(flags.rawValue), 0)
            guard ports[slot] != nil else {
                throw Failure(description: "test peer \(self.name): cannot register port \(portName)")
            }
        }
        jack_set_process_callback(client, { frames, context in
            guard let context else { return 0 }
            Unmanaged<JackPeer>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.runCycle(frames) }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        if reportedLatencyFrames != nil {
            jack_set_latency_callback(client, { mode, context in
                guard let context else { return }
                Unmanaged<JackPeer>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.reportLatency(mode) }
            }, Unmanaged.passUnretained(self).toOpaque())
        }
        guard jack_activate(client) == 0 else {
            throw Failure(description: "test peer \(self.name): cannot activate")
        }
    }

    deinit {
        close()
        ports.deallocate()
    }

    /// Deactivates and closes the client (its ports vanish). Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        jack_deactivate(client)
        jack_client_close(client)
    }

    /// Connects two ports on the peer's server (after activation, as JACK requires).
    public func connect(_ source: String, to destination: String) throws {
        let code = jack_connect(client, source, destination)
        // EEXIST: already connected, as wanted.
        guard code == 0 || code == EEXIST else {
            throw Failure(description: "test peer \(name): cannot connect \(source) → \(destination) (\(code))")
        }
    }

    /// The latency callback as JACK's header asks (`JackLatencyCallbackMode`):
    /// capture, the inputs' range plus ours on every output; playback, the
    /// outputs' range plus ours on every input. JACK's non-real-time thread.
    private func reportLatency(_ mode: jack_latency_callback_mode_t) {
        let audioInputs = (0..<counts.audioIn).compactMap { ports[$0] }
        let audioOutputs = (0..<counts.audioOut).compactMap { ports[counts.audioIn + $0] }
        let (from, to) = mode == JackCaptureLatency ? (audioInputs, audioOutputs) : (audioOutputs, audioInputs)
        var range = jack_latency_range_t(min: UInt32.max, max: 0)
        for port in from {
            var portRange = jack_latency_range_t()
            jack_port_get_latency_range(port, mode, &portRange)
            range.min = min(range.min, portRange.min)
            range.max = max(range.max, portRange.max)
        }
        if from.isEmpty { range = jack_latency_range_t(min: 0, max: 0) }
        let own = UInt32(max(0, reportedLatencyFrames ?? 0))
        range.min += own
        range.max += own
        for port in to { jack_port_set_latency_range(port, mode, &range) }
    }

    /// JACK thread only.
    private func runCycle(_ frames: jack_nframes_t) {
        let cycle = Cycle(frames: Int(frames), sampleRateHz: Double(jack_get_sample_rate(client)),
                          frameTime: jack_last_frame_time(client), ports: ports,
                          audioInCount: counts.audioIn, audioOutCount: counts.audioOut,
                          midiInCount: counts.midiIn, midiOutCount: counts.midiOut)
        for index in 0..<counts.midiOut {
            if let buffer = cycle.midiOut(index) { jack_midi_clear_buffer(buffer) }
        }
        process(cycle)
    }
}
