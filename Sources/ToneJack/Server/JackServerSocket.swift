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
        let full = ProcessInfo.processInfo.environment["JACK_PROMISCUOUS_SERVER"] != nil
            ? "/dev/shm/jack_\(sanitized)_0" : "/dev/shm/jack_\(sanitized)_\(geteuid())_0"
        // jack2 cuts a long path to what `sun_path` holds (`snprintf`); so does this.
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        return String(decoding: full.utf8.prefix(capacity - 1), as: UTF8.self)
    }

    /// Whether a server of that name listens: a connection is accepted by the
    /// kernel (the server then sees it close and drops it). A socket file left
    /// by a killed server refuses; a missing one is not there.
    static func isListening(serverName: String) -> Bool { knock(path: path(serverName: serverName)) == .listening }

    enum Answer {
        /// Accepted, or the backlog is full (a server stopped for long).
        case listening
        /// A socket file nobody listens on (a killed server's).
        case refused
        /// No socket file.
        case missing
        /// Anything else (no socket to knock with, no permission).
        case unknown
    }

    /// One `connect` to the socket at `path` (a `path(serverName:)`), closed at once; never blocks.
    static func knock(path: String) -> Answer {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .unknown }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let (result, error) = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                (connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)), errno)
            }
        }
        guard result != 0 else { return .listening }
        switch error {
        case EAGAIN: return .listening
        case ECONNREFUSED: return .refused
        case ENOENT: return .missing
        default: return .unknown
        }
    }
}
