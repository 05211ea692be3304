import CJack

/// Everything that can go wrong talking to JACK, as one line a person can act on.
public enum JackError: Error, CustomStringConvertible, Equatable {
    case serverUnreachable(server: String?)
    case openFailed(name: String, status: String)
    case portRegistrationFailed(String)
    case activationFailed
    case noSuchPort(String)
    case connectionFailed(from: String, to: String, code: Int32)
    /// A connection given the wrong way round: `port` is an output where an
    /// input belongs (`isOutput`) or the other way; `other` is the port it was
    /// to be connected with, `fitting` the ports that would fit (nearest first).
    case wrongDirection(port: String, isOutput: Bool, other: String, fitting: [String])
    case callbackSetupFailed(Int32)

    public var description: String {
        switch self {
        case .serverUnreachable(let server):
            let which = server.map { "JACK server '\($0)'" } ?? "a JACK server"
            if server == nil, !JackLibrary.isPipeWire, PipeWireSocket.defaultIsListening {
                return "cannot reach \(which), but PipeWire is running: run the command under PipeWire's JACK, "
                    + "`pw-jack tonenode …` (Debian: pipewire-jack)"
            }
            return "cannot reach \(which): is it running? (start one with `jackd -d dummy`, or use `tonenode demo`)"
        case .openFailed(let name, let status):
            return "JACK refused client '\(name)': \(status)"
        case .portRegistrationFailed(let port):
            return "JACK could not register port '\(port)'"
        case .activationFailed:
            return "JACK could not activate the client"
        case .noSuchPort(let port):
            return "no JACK port named '\(port)' (`jack_lsp` lists the ports)"
        case .connectionFailed(let from, let to, let code):
            return "JACK could not connect '\(from)' to '\(to)' (error \(code))"
        case .wrongDirection(let port, let isOutput, let other, let fitting):
            let wanted = isOutput ? "input" : "output"
            let action = isOutput ? "connect '\(other)' to an input" : "connect an output to '\(other)'"
            guard !fitting.isEmpty else {
                return "'\(port)' is an \(isOutput ? "output" : "input"): \(action); the server has no \(wanted) of its type"
            }
            let shown = fitting.count > 6 ? fitting.prefix(5).joined(separator: ", ") + ", … (\(fitting.count) in all, `jack_lsp` lists them)"
                : fitting.joined(separator: ", ")
            return "'\(port)' is an \(isOutput ? "output" : "input"): \(action): \(shown)"
        case .callbackSetupFailed(let code):
            return "JACK refused a callback (step \(code))"
        }
    }

    /// Maps a `jack_client_open` status to an error, in one place.
    static func fromOpenStatus(_ status: jack_status_t, name: String, server: String?) -> JackError {
        let bits = status.rawValue
        func has(_ flag: JackStatus) -> Bool { bits & flag.rawValue != 0 }
        if has(JackServerFailed) || has(JackServerError) && !has(JackNameNotUnique) {
            return .serverUnreachable(server: server)
        }
        var reasons: [String] = []
        if has(JackNameNotUnique) { reasons.append("the name is taken") }
        if has(JackInvalidOption) { reasons.append("invalid option") }
        if has(JackInitFailure) { reasons.append("client initialisation failed") }
        if has(JackVersionError) { reasons.append("client and server versions differ") }
        if has(JackShmFailure) { reasons.append("shared memory unavailable") }
        if has(JackNoSuchClient) { reasons.append("no such client") }
        if has(JackLoadFailure) { reasons.append("load failure") }
        if reasons.isEmpty { reasons.append("status 0x\(String(bits, radix: 16))") }
        return .openFailed(name: name, status: reasons.joined(separator: ", "))
    }
}
