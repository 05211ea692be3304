extension JackPlacement {
    /// When JACK gave us another name (`tonenode-01`: `tonenode` was taken), a
    /// `--connect-*` that names a port of the requested name reaches the
    /// *other* client: a self-loop that silently feeds another node. One line
    /// per such option, for stderr; none when the name is ours.
    /// - Parameters:
    ///   - actualName: the name JACK gave the client.
    ///   - connectMidi: `run --connect-midi`, which also lands on our own port.
    public func renameWarnings(actualName: String, connectMidi: [String] = []) -> [String] {
        Self.renameWarnings(requested: name, actual: actualName,
                            connections: connectIn.map { ("--connect-in", $0) } + connectOut.map { ("--connect-out", $0) }
                                + connectMidi.map { ("--connect-midi", $0) })
    }

    public static func renameWarnings(requested: String, actual: String, connections: [(flag: String, port: String)]) -> [String] {
        guard requested != actual else { return [] }
        return connections.filter { $0.port.hasPrefix(requested + ":") }.map {
            "warning: JACK named this client '\(actual)' ('\(requested)' is taken), so \($0.flag) \($0.port) "
                + "is a port of the other client '\(requested)', not ours"
                + ($0.port.hasSuffix(":in") || $0.port.hasSuffix(":out") ? " (for a self-loop use --loopback)" : "")
        }
    }
}
