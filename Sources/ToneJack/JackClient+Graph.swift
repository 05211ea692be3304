import CJack

extension JackClient {
    /// The audio outputs of the client that owns the port `fullName` (any
    /// client's, found by the port's own short name, so a client name with a
    /// colon is fine). Under PipeWire also those of the client `<client>
    /// Monitor`: a JACK client that sets `jack.merge-monitor = false` sees a
    /// sink's monitor ports (its input passed on) as a client of that name,
    /// although they are the same node's (docs/pipewire.md). Main thread.
    /// - Returns: empty when there is no such port.
    public func audioOutputs(ofClientOwning fullName: String) -> [String] {
        guard let port = jack_port_by_name(handle, fullName), let short = jack_port_short_name(port) else { return [] }
        let clientPrefix = String(fullName.dropLast(String(cString: short).count))
        let prefixes = JackLibrary.isPipeWire ? [clientPrefix, clientPrefix.dropLast() + " Monitor:"] : [clientPrefix]
        return audioPortNames(outputs: true).filter { name in prefixes.contains { name.hasPrefix($0) } }
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

    /// Why connecting `source` to `destination` failed when one of them points
    /// the wrong way (an input as the source, an output as the destination),
    /// naming the ports of the right direction and type that would fit: those
    /// of the same client first. Nil when both point the right way. Main thread.
    func wrongDirection(from source: String, to destination: String) -> JackError? {
        if portFlags(source) & Int32(JackPortIsInput.rawValue) != 0 {
            return .wrongDirection(port: source, isOutput: false, other: destination,
                                   fitting: ports(like: source, outputs: true, notOf: destination))
        }
        if portFlags(destination) & Int32(JackPortIsOutput.rawValue) != 0 {
            return .wrongDirection(port: destination, isOutput: true, other: source,
                                   fitting: ports(like: destination, outputs: false, notOf: source))
        }
        return nil
    }

    /// The ports of `fullName`'s type in the direction asked, its own client's
    /// first, none of `other`'s client (a client wired to itself is `--loopback`).
    private func ports(like fullName: String, outputs: Bool, notOf other: String) -> [String] {
        guard let port = jack_port_by_name(handle, fullName), let type = jack_port_type(port) else { return [] }
        let own = clientPrefix(of: fullName), others = clientPrefix(of: other)
        func belongs(_ name: String, to prefix: String?) -> Bool { prefix.map(name.hasPrefix) ?? false }
        let all = portNames(type: String(cString: type), outputs: outputs).filter { !belongs($0, to: others) }
        return all.filter { belongs($0, to: own) } + all.filter { !belongs($0, to: own) }
    }

    /// "client:" of a port's full name, found by the port's own short name (a client name may hold a colon).
    private func clientPrefix(of fullName: String) -> String? {
        guard let port = jack_port_by_name(handle, fullName), let short = jack_port_short_name(port) else { return nil }
        return String(fullName.dropLast(String(cString: short).count))
    }

    private func portFlags(_ fullName: String) -> Int32 {
        jack_port_by_name(handle, fullName).map { jack_port_flags($0) } ?? 0
    }
}
