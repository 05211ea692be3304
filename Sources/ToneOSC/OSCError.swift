import ToneCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What can go wrong talking OSC: the control socket of `run --osc-port`, the
/// NSM client's endpoint and its conversation with the session manager.
/// Each `description` is one line a person can act on.
public enum OSCError: Error, Equatable, CustomStringConvertible {
    /// liblo could not open a UDP socket (no file descriptors, no network).
    case noSocket
    /// liblo did not accept `url` as an address to send to.
    case badAddress(url: String)
    /// liblo could not allocate a message.
    case outOfMemory
    /// Sending `path` to `url` failed; `reason` is liblo's.
    case cannotSend(path: String, url: String, reason: String)
    /// `host` of `--osc-host` did not resolve; `reason` is getaddrinfo's.
    case cannotResolve(host: String, reason: String)
    /// No address of `host` could be bound on `port`; `errno` of the last attempt.
    case cannotBind(host: String, port: Int, errno: Int32)
    /// `NSM_URL` is not an `osc.udp://host:port/` URL; `reason` says what is missing.
    case badServerURL(reason: String)
    /// The NSM server answered the announce with an error.
    case refused(server: String, reason: String)
    /// `/nsm/client/open` came without a path, a name or a client id; `message` as received.
    case malformed(message: String)
    /// The NSM server did not open a session within `seconds`.
    case noAnswer(server: String, seconds: Double)

    public var description: String {
        switch self {
        case .noSocket: "OSC: cannot open a UDP socket"
        case .badAddress(let url): "OSC: bad address '\(url)'"
        case .outOfMemory: "OSC: out of memory"
        case .cannotSend(let path, let url, let reason): "OSC: cannot send \(path) to \(url): \(reason)"
        case .cannotResolve(let host, let reason): "OSC: cannot resolve host '\(host)': \(reason)"
        case .cannotBind(let host, let port, let errno):
            "OSC: cannot listen on \(host) port \(port): \(String(cString: strerror(errno)))"
        case .badServerURL(let reason): "NSM_URL \(reason)"
        case .refused(let server, let reason): "NSM server \(server) refused the announce: \(reason)"
        case .malformed(let message): "NSM: malformed /nsm/client/open (\(message))"
        case .noAnswer(let server, let seconds): "no answer from the NSM server at \(server) within \(format(seconds)) s"
        }
    }
}
