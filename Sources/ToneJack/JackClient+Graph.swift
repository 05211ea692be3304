import CJack

extension JackClient {
    /// The audio outputs of the client that owns the port `fullName` (any
    /// client's, found by the port's own short name, so a client name with a
    /// colon is fine). Main thread.
    /// - Returns: empty when there is no such port.
    public func audioOutputs(ofClientOwning fullName: String) -> [String] {
        guard let port = jack_port_by_name(handle, fullName), let short = jack_port_short_name(port) else { return [] }
        let clientPrefix = String(fullName.dropLast(String(cString: short).count))
        return audioPortNames(outputs: true).filter { $0.hasPrefix(clientPrefix) }
    }
}

extension JackClient {
    /// Whether the port is a hardware port (`JackPortIsPhysical`): the
    /// backend's capture and playback, which a signal crosses only through a
    /// cable outside JACK.
    public func isPhysicalPort(_ fullName: String) -> Bool {
        portFlags(fullName) & Int32(JackPortIsPhysical.rawValue) != 0
    }

    /// Whether the port is an input (`JackPortIsInput`); false for an output or no such port.
    public func isInputPort(_ fullName: String) -> Bool {
        portFlags(fullName) & Int32(JackPortIsInput.rawValue) != 0
    }

    private func portFlags(_ fullName: String) -> Int32 {
        jack_port_by_name(handle, fullName).map { jack_port_flags($0) } ?? 0
    }
}
