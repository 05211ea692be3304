import CJack

/// One open JACK client. Owns the `jack_client_t`; main thread only.
public final class JackClient {
    public let handle: OpaquePointer
    /// The name JACK gave the client (it may append `-01` when the name is taken).
    public let name: String
    /// The server name asked for (nil: `$JACK_DEFAULT_SERVER` or the default).
    public let serverName: String?
    private var isClosed = false
    /// Ports that carry a pretty name, so `close` can remove it again.
    private var namedPorts: [OpaquePointer?] = []
    private var hasClientPrettyName = false

    /// Opens a client without ever starting a server (`JackNoStartServer`).
    public init(name: String, serverName: String?) throws {
        Self.silenceLibraryMessages()
        var status = jack_status_t(rawValue: 0)
        let options = jack_options_t(rawValue: JackNoStartServer.rawValue)
        guard let handle = tn_client_open(name, options, &status, serverName) else {
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
    /// - Parameter prettyName: shown by metadata-aware patchbays instead of the
    ///   stable ASCII `shortName`; removed again by `close`.
    public func registerAudioPort(_ shortName: String, isInput: Bool, prettyName: String? = nil) throws -> OpaquePointer {
        let flags = (isInput ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue) | JackPortIsTerminal.rawValue
        guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_AUDIO_TYPE, UInt(flags), 0) else {
            throw JackError.portRegistrationFailed(shortName)
        }
        // Metadata is decoration: a server without a metadata store still runs the node.
        if let prettyName, tn_set_port_pretty_name(handle, port, prettyName) == 0 {
            namedPorts.append(port)
        }
        return port
    }

    /// Sets the client's JACK metadata pretty name (removed again by `close`).
    /// Returns whether the server stored it.
    @discardableResult
    public func setPrettyName(_ prettyName: String) -> Bool {
        hasClientPrettyName = tn_set_client_pretty_name(handle, prettyName) == 0
        return hasClientPrettyName
    }

    /// Registers a terminal MIDI input port.
    public func registerMidiInputPort(_ shortName: String, prettyName: String? = nil) throws -> OpaquePointer {
        let flags = JackPortIsInput.rawValue | JackPortIsTerminal.rawValue
        guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_MIDI_TYPE, UInt(flags), 0) else {
            throw JackError.portRegistrationFailed(shortName)
        }
        if let prettyName, tn_set_port_pretty_name(handle, port, prettyName) == 0 {
            namedPorts.append(port)
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

    /// Removes our metadata, deactivates and closes; safe to call twice.
    /// - Parameter serverAlive: false after the server went away: its metadata
    ///   went with it, so nothing is removed (and the dead server is not asked).
    public func close(serverAlive: Bool = true) {
        guard !isClosed else { return }
        isClosed = true
        if serverAlive && (hasClientPrettyName || !namedPorts.isEmpty) {
            namedPorts.withUnsafeBufferPointer { ports in
                tn_remove_metadata(handle, ports.baseAddress, UInt32(ports.count))
            }
        }
        jack_deactivate(handle)
        jack_client_close(handle)
    }

    /// Whether some server answers (used by `demo` before starting its own).
    public static func serverIsReachable(serverName: String?) -> Bool {
        silenceLibraryMessages()
        var status = jack_status_t(rawValue: 0)
        let options = jack_options_t(rawValue: JackNoStartServer.rawValue)
        guard let probe = tn_client_open("tonenode-probe", options, &status, serverName) else { return false }
        jack_client_close(probe)
        return true
    }

    /// libjack prints its own errors to stderr; ToneNode reports them itself
    /// in one line, so the library's messages are dropped.
    static func silenceLibraryMessages() {
        tn_quiet_jack({ _ in }, { _ in })
    }
}
