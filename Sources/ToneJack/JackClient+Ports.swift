import CJack

extension JackClient {
    /// Full names of the server's audio ports, outputs or inputs.
    public func audioPortNames(outputs: Bool) -> [String] {
        portNames(type: JACK_DEFAULT_AUDIO_TYPE, outputs: outputs)
    }

    /// Full names of the server's ports of one JACK port type, outputs or inputs.
    public func portNames(type: String, outputs: Bool) -> [String] {
        let flags = outputs ? JackPortIsOutput.rawValue : JackPortIsInput.rawValue
        return Self.takeNames(jack_get_ports(handle, nil, type, UInt(flags)))
    }

    /// The strings of a NULL-terminated list libjack allocated, which is freed here.
    static func takeNames(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [String] {
        guard let list else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var index = 0
        while let entry = list[index] {
            names.append(String(cString: entry))
            index += 1
        }
        return names
    }

    /// Removes one connection by full port names; a connection already gone is fine.
    public func disconnect(from source: String, to destination: String) throws {
        let code = jack_disconnect(handle, source, destination)
        if code != 0 && connections(ofPort: source).contains(destination) {
            throw JackError.connectionFailed(from: source, to: destination, code: code)
        }
    }
}
