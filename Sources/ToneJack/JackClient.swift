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
    private var isClosed = false
    /// The helper process that set this client's pretty names (and removes
    /// them when the client closes); nil: none set.
    private var metadataHelper: MetadataHelperProcess?

    /// Clients of this process being opened or open (not yet closed).
    private static let openCount = Atomic<Int>(0)

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

    /// Sets JACK metadata pretty names, shown by metadata-aware patchbays
    /// instead of the stable ASCII names: `client` on the client itself and
    /// each of `ports` on its port. `close` removes them again.
    ///
    /// Decoration only, so never waited for, and never in this process: a
    /// `MetadataHelper` process makes the calls (a process that ends while it
    /// waits for the store's lock wedges the store for the user; the helper
    /// never does). This only starts it: a thread of its own waits for its
    /// answer at most `deadline` (then one warning line, once per process,
    /// through `metadataWarnings`; the helper waits on by itself), so the
    /// helper is never in a start-up's or a reconnect's way. Without a helper
    /// executable (`useMetadataHelper`) nothing is set. Once per client.
    /// Returns whether a helper was started.
    @discardableResult
    public func setPrettyNames(client clientName: String?, ports: [(port: OpaquePointer, name: String)],
                               deadline: Duration = .seconds(1)) -> Bool {
        guard metadataHelper == nil, !isClosed else { return false }
        MetadataHelperProcess.reapExited()
        // A helper still stuck in the store: a new one would only queue behind it.
        guard !MetadataHelperProcess.anyStuck else { return false }
        var names = ports.map { (subject: jack_port_uuid($0.port), name: $0.name) }
        var subject = jack_uuid_t()
        if let clientName {
            guard tn_client_uuid(handle, &subject) == 0 else { return false }
            names.insert((subject, clientName), at: 0)
        }
        guard let helper = MetadataHelperProcess.start(server: serverName, clientName: Self.helperClientName(for: name),
                                                       names: names) else { return false }
        metadataHelper = helper
        Thread.detachNewThread {
            guard helper.awaitAnswer(deadline: deadline) == .late else { return }
            Self.warnOnce("warning: JACK metadata is not answering (pretty names skipped); "
                + "another client may hold its lock in /dev/shm/jack_db-\(getuid())")
        }
        return true
    }

    /// The helper's own client: named after ours, within JACK's name limit
    /// (JACK appends `-01`… when taken).
    static func helperClientName(for clientName: String) -> String {
        let limit = Int(jack_client_name_size()) - 1 - 3 - "-meta".count
        return String(clientName.utf8.prefix(limit)).map { $0 + "-meta" } ?? "tonenode-meta"
    }

    private static let warned = Atomic<Bool>(false)
    private static let warningSink = Mutex<(@Sendable (String) -> Void)?>(nil)

    private static func warnOnce(_ line: String) {
        guard !warned.exchange(true, ordering: .acquiringAndReleasing) else { return }
        warningSink.withLock { $0 }?(line)
    }

    /// Where metadata warnings go (one line, once per process); tonenode sets stderr.
    public static func metadataWarnings(_ sink: @escaping @Sendable (String) -> Void) {
        warningSink.withLock { $0 = sink }
    }

    /// Makes `executable` (run with `MetadataHelper.subcommand`) the process
    /// that sets and removes pretty names; tonenode gives `/proc/self/exe`.
    public static func useMetadataHelper(executable: String) {
        MetadataHelperProcess.executable.withLock { $0 = executable }
    }

    /// Whether a metadata helper is still waiting on the store, or a client's
    /// close was left waiting on the server's own metadata clean-up: the
    /// process should then end with `_exit`, not run libjack's exit-time
    /// clean-up, which may wait too.
    public static var metadataIsStuck: Bool {
        pendingCloses.load(ordering: .acquiring) > 0 || MetadataHelperProcess.anyStuck
    }

    /// Before the process exits: tells every metadata helper to remove its
    /// names and waits at most `deadline` for those not stuck to finish.
    public static func finishMetadata(deadline: Duration = .milliseconds(500)) {
        MetadataHelperProcess.finishAll(deadline: deadline)
    }

    /// Closes handed to a thread of their own that have not returned.
    private static let pendingCloses = Atomic<Int>(0)

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
            throw JackError.connectionFailed(from: source, to: destination, code: code)
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

    /// Whether some server answers: opens and closes a probe client (`demo`
    /// before starting its own, `link` and the node's reconnect loop,
    /// `PrivateJackServer` once its socket listens).
    ///
    /// The probe is named for this process (`tonenode-probe-PID`), never a
    /// name shared with other processes. jack2 (1.9.21, and its source to
    /// date) puts a client's notification socket at
    /// `/dev/shm/jack_<client>_<uid>_0`, whatever the server: two processes of
    /// one user opening clients of the same name at once (a test's
    /// `PrivateJackServer` and the `link` it runs, both waiting for a server;
    /// two test runs) unlink and take each other's socket, and one server's
    /// notifications reach the other's client. `jack_client_close` then kills
    /// that client's notification thread with an asynchronous `pthread_cancel`
    /// while it holds libjack's process-wide synchro mutex (jack2 issue 395):
    /// from then on every `jack_client_close` of the process blocks for good
    /// and every open fails. A deadline on a
    /// side thread would not help: the stuck close also holds libjack's open
    /// mutex. So the hazard is avoided, not bounded (docs/reliability.md).
    public static func serverIsReachable(serverName: String?) -> Bool {
        silenceLibraryMessages()
        var status = jack_status_t(rawValue: 0)
        let options = jack_options_t(rawValue: JackNoStartServer.rawValue)
        openCount.add(1, ordering: .releasing)
        defer { openCount.subtract(1, ordering: .releasing) }
        guard let probe = tn_client_open(probeName, options, &status, serverName) else { return false }
        jack_client_close(probe)
        return true
    }

    /// The probe client's name, unique to this process (see `serverIsReachable`).
    static let probeName = "tonenode-probe-\(getpid())"

    /// libjack prints its own errors to stderr; ToneNode reports them itself
    /// in one line, so the library's messages are dropped.
    static func silenceLibraryMessages() {
        tn_quiet_jack({ _ in }, { _ in })
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
