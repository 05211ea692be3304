import CJack

/// One open JACK client. Owns the `jack_client_t`; main thread only.
public final class JackClient {
    let handle: OpaquePointer
    /// The name JACK gave the client (it may append `-01` when the name is taken).
    public let name: String
    /// The server name asked for (nil: `$JACK_DEFAULT_SERVER` or the default).
    public let serverName: String?
    private var isClosed = false

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

    /// Registers a terminal audio port (ToneNode makes or consumes the audio; it passes nothing through).
    func registerAudioPort(_ shortName: String, isInput: Bool) throws -> OpaquePointer {
        let flags = (isInput ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue) | JackPortIsTerminal.rawValue
        guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_AUDIO_TYPE, UInt(flags), 0) else {
            throw JackError.portRegistrationFailed(shortName)
        }
        return port
    }

    /// Registers a terminal MIDI input port.
    func registerMidiInputPort(_ shortName: String) throws -> OpaquePointer {
        let flags = JackPortIsInput.rawValue | JackPortIsTerminal.rawValue
        guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_MIDI_TYPE, UInt(flags), 0) else {
            throw JackError.portRegistrationFailed(shortName)
        }
        return port
    }

    /// Full name (`client:port`) of one of this client's ports.
    func fullName(of port: OpaquePointer) -> String {
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
        guard let port = jack_port_by_name(handle, fullName),
              let list = jack_port_get_all_connections(handle, port) else { return [] }
        defer { jack_free(UnsafeMutableRawPointer(mutating: list)) }
        var names: [String] = []
        var index = 0
        while let name = list[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }

    func activate() throws {
        guard jack_activate(handle) == 0 else { throw JackError.activationFailed }
    }

    /// Deactivates and closes; safe to call twice.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
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
