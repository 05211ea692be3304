import CJack
import Foundation
import Synchronization

/// One open JACK client. Owns the `jack_client_t`; main thread only.
public final class JackClient {
    public let handle: OpaquePointer
    /// The name JACK gave the client (it may append `-01` when the name is taken).
    public let name: String
    /// The server name asked for (nil: `$JACK_DEFAULT_SERVER` or the default).
    public let serverName: String?
    private(set) var isClosed = false
    /// The helper process that set this client's pretty names (and removes
    /// them when the client closes); nil: none set (`setPrettyNames`).
    var metadataHelper: MetadataHelperProcess?

    /// Clients of this process being opened or open (not yet closed), the
    /// server probe's among them (`serverIsReachable`).
    static let openCount = Atomic<Int>(0)
    /// Closes handed to a thread of their own that have not returned (`metadataIsStuck`).
    static let pendingCloses = Atomic<Int>(0)

    /// How many clients this process is opening or has open, from any thread
    /// (a signal's orderly stop closes them; with none there is nothing to close).
    public static var openClients: Int { openCount.load(ordering: .acquiring) }

    /// Opens a client without ever starting a server (`JackNoStartServer`).
    public init(name: String, serverName: String?) throws {
        Self.silenceLibraryMessages()
        var status = jack_status_t(rawValue: 0)
        let options = jack_options_t(rawValue: JackNoStartServer.rawValue)
        Self.openCount.add(1, ordering: .releasing)
        guard let handle = tn_client_open(name, options, &status, serverName) else {
            Self.openCount.subtract(1, ordering: .releasing)
            throw JackError.fromOpenStatus(status, name: name, server: serverName)
        }
        self.handle = handle
        self.name = jack_get_client_name(handle).map { String(cString: $0) } ?? name
        self.serverName = serverName
    }

    deinit { close() }

    /// Frames per second of the server.
    public var sampleRateHz: Int { Int(jack_get_sample_rate(handle)) }
    /// Frames per period of the server.
    public var bufferFrames: Int { Int(jack_get_buffer_size(handle)) }
    /// The server's DSP load in percent (how much of each period the whole
    /// graph's processing took, smoothed by JACK). Main thread.
    /// `nil` once the client is closed.
    public var dspLoadPercent: Double? { isClosed ? nil : Double(jack_cpu_load(handle)) }

    /// Registers a terminal audio port (ToneNode makes or consumes the audio; it passes nothing through).
    public func registerAudioPort(_ shortName: String, isInput: Bool) throws -> OpaquePointer {
        let flags = (isInput ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue) | JackPortIsTerminal.rawValue
        guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_AUDIO_TYPE, UInt(flags), 0) else {
            throw JackError.portRegistrationFailed(shortName)
        }
        return port
    }

    /// Registers a terminal MIDI input port.
    public func registerMidiInputPort(_ shortName: String) throws -> OpaquePointer {
        let flags = JackPortIsInput.rawValue | JackPortIsTerminal.rawValue
        guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_MIDI_TYPE, UInt(flags), 0) else {
            throw JackError.portRegistrationFailed(shortName)
        }
        return port
    }

    /// Registers a terminal MIDI output port.
    public func registerMidiOutputPort(_ shortName: String) throws -> OpaquePointer {
        let flags = JackPortIsOutput.rawValue | JackPortIsTerminal.rawValue
        guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_MIDI_TYPE, UInt(flags), 0) else {
            throw JackError.portRegistrationFailed(shortName)
        }
        return port
    }

    /// Full name (`client:port`) of one of this client's ports.
    public func fullName(of port: OpaquePointer) -> String {
        jack_port_name(port).map { String(cString: $0) } ?? ""
    }

    /// Whether a port of that full name exists on the server.
    public func portExists(_ fullName: String) -> Bool {
        jack_port_by_name(handle, fullName) != nil
    }

    /// Connects two ports by full name; an existing connection is fine.
    public func connect(from source: String, to destination: String) throws {
        guard portExists(source) else { throw JackError.noSuchPort(source) }
        guard portExists(destination) else { throw JackError.noSuchPort(destination) }
        let code = jack_connect(handle, source, destination)
        if code != 0 && code != EEXIST {
            throw wrongDirection(from: source, to: destination)
                ?? JackError.connectionFailed(from: source, to: destination, code: code)
        }
    }

    /// Full names of the ports connected to one of ours, by anyone (us,
    /// `jack_connect`, qjackctl). Main thread; not for the JACK thread.
    public func connections(ofPort fullName: String) -> [String] {
        guard let port = jack_port_by_name(handle, fullName) else { return [] }
        return Self.takeNames(jack_port_get_all_connections(handle, port))
    }

    /// Whether anything is connected to one of our ports, once the
    /// connections just made can show: jack2 switches to a graph with a new
    /// connection at a cycle's start, and a query sleeps at most 1.1 periods
    /// for that (JackAPI.cpp, `WaitGraphChange`), so one query right after
    /// `jack_connect` can still read the graph before it (a late cycle, an
    /// xrun). Asks every 20 ms for up to `seconds`, and stops asking when
    /// `abandon` says so (the server gone). Main thread.
    public func hasConnections(ofPort fullName: String, within seconds: Double = 1,
                               abandon: () -> Bool = { false }) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while connections(ofPort: fullName).isEmpty {
            if Date() > deadline || abandon() { return false }
            usleep(20_000)
        }
        return true
    }

    public func activate() throws {
        guard jack_activate(handle) == 0 else { throw JackError.activationFailed }
    }

    /// Removes our pretty names (their helper process does, key by key,
    /// exactly the keys it set; this waits for it at most 0.5 s, not at all
    /// when it is stuck in the store), deactivates and closes; safe to call
    /// twice, and after the server went away (the helper's removal does not
    /// need the server).
    ///
    /// When our helper is stuck in the metadata store (late, or not out
    /// within its 0.5 s), so is jackd's own clean-up at `jack_client_close`
    /// (it walks the store for our keys), and the close would wait for the
    /// server until the store is released: then the close runs on a thread of
    /// its own and this waits for it at most 0.5 s (`metadataIsStuck` stays
    /// true until it returns).
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        closeClient()
    }

    /// Closes the client whose callbacks `bridge` serves, keeping the bridge
    /// (and through it what it renders) until the close has returned. After
    /// the server has gone (`bridge.isShutdown`) the close talks to a dead or
    /// stopped server, and libjack can block there (a stopped server never
    /// answers; seen too, rarely, under load with a dead one): then it runs on
    /// a thread of its own, which holds the bridge, and this waits for it at
    /// most `waitSeconds`; a late close never touches freed memory, and if it
    /// never returns they stay behind (a few KiB, once per server loss).
    /// Safe to call twice, and after `close`.
    public func close(keeping bridge: ProcessBridge, waitSeconds: Double = 2) {
        guard bridge.isShutdown else {
            close()
            withExtendedLifetime(bridge) {}
            return
        }
        guard !isClosed else { return }
        isClosed = true
        let closing = UncheckedReference(self, bridge)
        let closed = DispatchSemaphore(value: 0)
        // Counted while it runs: an exit meanwhile must not run libjack's clean-up (`metadataIsStuck`).
        Self.pendingCloses.add(1, ordering: .releasing)
        Thread.detachNewThread {
            closing.client.closeClient()
            Self.pendingCloses.subtract(1, ordering: .releasing)
            withExtendedLifetime(closing.kept) {}
            closed.signal()
        }
        _ = closed.wait(timeout: .now() + waitSeconds)
    }

    /// `close`'s work, once.
    private func closeClient() {
        defer { Self.openCount.subtract(1, ordering: .releasing) }
        var helperOut = true
        if let helper = metadataHelper {
            helper.finish()
            // Its removals before our close (see MetadataHelper), unless it is stuck.
            helperOut = !helper.isStuck && helper.awaitExit(until: .now + .milliseconds(500))
        }
        jack_deactivate(handle)
        guard !helperOut else {
            jack_client_close(handle)
            return
        }
        let handle = UncheckedHandle(handle)
        let closed = DispatchSemaphore(value: 0)
        Self.pendingCloses.add(1, ordering: .releasing)
        Thread.detachNewThread {
            jack_client_close(handle.value)
            Self.pendingCloses.subtract(1, ordering: .releasing)
            closed.signal()
        }
        _ = closed.wait(timeout: .now() + .milliseconds(500))
    }

    /// libjack prints its own errors to stderr; ToneNode reports them itself
    /// in one line, so the library's messages are dropped.
    static func silenceLibraryMessages() {
        jack_set_error_function { _ in }
        jack_set_info_function { _ in }
    }
}


/// A `jack_client_t` handed to the thread that closes it, its only user from then on.
struct UncheckedHandle: @unchecked Sendable {
    let value: OpaquePointer
    init(_ value: OpaquePointer) { self.value = value }
}

/// A client, and what must outlive its close, handed to the thread that closes it, their only user from then on.
private struct UncheckedReference: @unchecked Sendable {
    let client: JackClient
    let kept: AnyObject
    init(_ client: JackClient, _ kept: AnyObject) {
        self.client = client
        self.kept = kept
    }
}
