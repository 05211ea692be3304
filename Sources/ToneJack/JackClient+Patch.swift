import CJack

extension JackClient {
    /// Full names of the server's audio ports, outputs or inputs.
    public func audioPortNames(outputs: Bool) -> [String] {
        let flags = outputs ? JackPortIsOutput.rawValue : JackPortIsInput.rawValue
        guard let list = jack_get_ports(handle, nil, JACK_DEFAULT_AUDIO_TYPE, UInt(flags)) else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var index = 0
        while let entry = list[index] {
            names.append(String(cString: entry))
            index += 1
        }
        return names
    }

    /// Applies a patchbay: makes every connection it asks for among the ports
    /// present now. Returns the connections made (existing ones included).
    public func apply(_ patchbay: Patchbay) throws -> [(String, String)] {
        let wanted = try patchbay.connections(outputPorts: audioPortNames(outputs: true),
                                              inputPorts: audioPortNames(outputs: false))
        for (source, destination) in wanted {
            try connect(from: source, to: destination)
        }
        return wanted
    }
}
