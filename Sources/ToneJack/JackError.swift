import CJack

/// Everything that can go wrong talking to JACK, as one line a person can act on.
public enum JackError: Error, CustomStringConvertible, Equatable {
    case serverUnreachable(server: String?)
    case openFailed(name: String, status: String)
    case portRegistrationFailed(String)
    case activationFailed
    case noSuchPort(String)
    case connectionFailed(from: String, to: String, code: Int32)
    case callbackSetupFailed(Int32)

    public var description: String {
        switch self {
        case .serverUnreachable(let server):
            let which = server.map { "JACK server '\($0)'" } ?? "a JACK server"
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
