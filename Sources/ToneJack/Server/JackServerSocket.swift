import Foundation

/// jack2's request socket, the first thing a starting `jackd` makes: it binds
/// and listens on `/dev/shm/jack_<server>_<euid>_0` (`JackServerSocket::Bind`,
/// `BuildName` in jack2's posix/JackSocket.cpp; without the uid under
/// `JACK_PROMISCUOUS_SERVER`) before it opens its engine, and a client that
/// connects then is served once the server runs.
///
/// Asking it with a plain `connect` never involves libjack, so it cannot
/// block or leave libjack's process-wide locks behind. `PrivateJackServer`
/// waits for it before it opens any client: every libjack open that fails
/// while the server comes up cancels a notification thread, the hazard
/// `JackClient.serverIsReachable` explains.
enum JackServerSocket {
    /// The socket path jack2 uses for a server of that name run by this user.
    static func path(serverName: String) -> String {
        let sanitized = String(serverName.map { $0 == "/" || $0 == "\\" ? "_" : $0 })
        if ProcessInfo.processInfo.environment["JACK_PROMISCUOUS_SERVER"] != nil {
            return "/dev/shm/jack_\(sanitized)_0"
        }
        return "/dev/shm/jack_\(sanitized)_\(geteuid())_0"
    }

    /// Whether a server of that name listens: a connection is accepted by the
    /// kernel (the server then sees it close and drops it). A socket file left
    /// by a killed server refuses; a missing one is not there.
    static func isListening(serverName: String) -> Bool { knock(serverName: serverName) == .listening }

    enum Answer { case listening, refused, missing }

    /// One `connect` to the socket, closed at once; never blocks (a full
    /// backlog, a server stopped for long, counts as listening).
    static func knock(serverName: String) -> Answer {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .listening }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // jack2 cuts a long path to what `sun_path` holds (`snprintf`); so does this.
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let bytes = Array(path(serverName: serverName).utf8.prefix(capacity - 1))
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result != 0 else { return .listening }
        switch errno {
        case ECONNREFUSED: return .refused
        case ENOENT: return .missing
        default: return .listening
        }
    }
}
