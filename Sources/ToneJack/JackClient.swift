import CJack
import Synchronization

/// One open JACK client. Owns the `jack_client_t`; main thread only.
public final class JackClient {
    public let handle: OpaquePointer
    /// The name JACK gave the client (it may append `-01` when the name is taken).
    public let name: String
    /// The server name asked for (nil: `$JACK_DEFAULT_SERVER` or the default).
    public let serverName: String?
    private var isClosed = false
    /// The pretty names this client set (filled on the metadata thread), so
    /// `close` removes exactly those keys again.
    private let metadata = MetadataRecord()

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
    /// Decoration only, so bounded: the calls run on the metadata thread and
    /// this waits for them at most `deadline` (then one warning line, once per
    /// process, through `metadataWarnings`, and the node goes on without them).
    /// Returns whether they were all stored in time.
    @discardableResult
    public func setPrettyNames(client clientName: String?, ports: [(port: OpaquePointer, name: String)],
                               deadline: Duration = .seconds(1)) -> Bool {
        let handle = UncheckedHandle(handle)
        let portSubjects = ports.map { (subject: jack_port_uuid($0.port), name: $0.name) }
        let record = metadata
        let allStored = Atomic<Bool>(true)
        record.began()
        let outcome = MetadataQueue.shared.run(deadline: deadline) {
            var subject = jack_uuid_t()
            if let clientName, tn_client_uuid(handle.value, &subject) == 0 {
                if !record.set(subject, clientName, on: handle.value) { allStored.store(false, ordering: .relaxed) }
            } else if clientName != nil {
                allStored.store(false, ordering: .relaxed)
            }
            for (subject, name) in portSubjects where !record.set(subject, name, on: handle.value) {
                allStored.store(false, ordering: .relaxed)
            }
            record.ended()
        }
        if outcome == .skipped { record.ended() }
        return outcome == .done && allStored.load(ordering: .relaxed)
    }

    /// Where metadata warnings go (one line, once per process); tonenode sets stderr.
    public static func metadataWarnings(_ sink: @escaping @Sendable (String) -> Void) {
        MetadataQueue.shared.warningSink.withLock { $0 = sink }
    }

    /// Whether a metadata call overran its deadline and is still blocked in
    /// libjack (the process should then end with `_exit`, not run libjack's
    /// exit-time clean-up, which may wait for the same lock).
    public static var metadataIsStuck: Bool { MetadataQueue.shared.isStuck }

    /// Before the process exits: waits at most `deadline` for metadata calls
    /// still queued (a removal or close that had to wait behind a slow call).
    public static func finishMetadata(deadline: Duration = .milliseconds(500)) {
        MetadataQueue.shared.drain(deadline: deadline)
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
            throw JackError.connectionFailed(from: source, to: destination, code: code)
        }
    }

    /// Full names of the ports connected to one of ours, by anyone (us,
    /// `jack_connect`, qjackctl). Main thread; not for the JACK thread.
    public func connections(ofPort fullName: String) -> [String] {
        guard let port = jack_port_by_name(handle, fullName) else { return [] }
        return Self.takeNames(jack_port_get_all_connections(handle, port))
    }

    public func activate() throws {
        guard jack_activate(handle) == 0 else { throw JackError.activationFailed }
    }

    /// Removes our pretty names (key by key, waiting at most 0.5 s),
    /// deactivates and closes; safe to call twice.
    /// - Parameter serverAlive: false after the server went away: its metadata
    ///   went with it, so nothing is removed (and the dead server is not asked).
    ///
    /// When a metadata call of this client is still blocked on the metadata
    /// thread, `jack_client_close` is queued behind it instead (it must not free
    /// the client under that call); if the call never returns, the server
    /// drops the client when the process ends.
    public func close(serverAlive: Bool = true) {
        guard !isClosed else { return }
        isClosed = true
        defer { Self.openCount.subtract(1, ordering: .releasing) }
        let handle = UncheckedHandle(handle)
        let record = metadata
        if serverAlive && record.hasSubjects {
            record.began()
            let outcome = MetadataQueue.shared.run(deadline: .milliseconds(500)) {
                record.removeAll(on: handle.value)
                record.ended()
            }
            if outcome == .skipped { record.ended() }
        }
        jack_deactivate(handle.value)
        guard record.hasPendingCalls else {
            jack_client_close(handle.value)
            return
        }
        MetadataQueue.shared.enqueue {
            if serverAlive { record.removeAll(on: handle.value) }
            jack_client_close(handle.value)
        }
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
