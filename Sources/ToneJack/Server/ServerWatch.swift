import Foundation

/// Tells whether the JACK server a client opened on has gone, without
/// asking libjack: for the rare client libjack never tells (a stress run saw
/// one node in eight never get its shutdown callback after a SIGKILL of the
/// server, and hang).
///
/// The server has gone when its request socket (`JackServerSocket`; under
/// PipeWire's libjack, `PipeWireSocket`) is no longer there, is another one
/// (a new server of the same name bound a new socket: another inode or
/// change time), or refuses a connection (nobody listens: the
/// server died and left the file). A server that is only stopped (SIGSTOP)
/// still holds its socket, and the kernel accepts the connection for it.
///
/// Immutable; any thread.
public struct ServerWatch: Sendable {
    private let socketPath: String
    private let socketID: FileID

    /// Nil when no server listens where jack2 puts its socket (a stale file
    /// of a killed jackd, another JACK implementation), or under PipeWire's
    /// libjack where PipeWire puts its (`PipeWireSocket`): nothing to watch.
    /// - Parameter serverName: as given to the client's open (nil: `$JACK_DEFAULT_SERVER`, else "default").
    public init?(serverName: String?) {
        let name = serverName ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"] ?? "default"
        // PipeWire's libjack talks to PipeWire's socket, not jack2's.
        guard let path = JackLibrary.isPipeWire ? PipeWireSocket.path(serverName: serverName)
                : JackServerSocket.path(serverName: name),
              let id = Self.socketID(path), JackServerSocket.knock(path: path) == .listening else { return nil }
        socketPath = path
        socketID = id
    }

    /// Whether the server has gone: its socket removed, replaced or refusing.
    /// Costs a `stat` and a `connect` (closed at once); never blocks.
    public func serverHasGone() -> Bool {
        guard Self.socketID(socketPath) == socketID else { return true }
        switch JackServerSocket.knock(path: socketPath) {
        case .refused, .missing: return true
        case .listening, .unknown: return false
        }
    }

    /// A socket file's identity. The inode alone does not tell a new socket
    /// from the old one: ext4 hands a freed inode number to the next file at
    /// once, and a PipeWire restarted within a second (its socket in
    /// `$XDG_RUNTIME_DIR`, often on ext4) bound a socket with the very
    /// number; its change time (set when the file is made) differs.
    private struct FileID: Equatable {
        var device: UInt64
        var inode: UInt64
        var changeSeconds: Int
        var changeNanoseconds: Int
    }

    /// The identity of the socket at `path`; nil when there is no socket there.
    private static func socketID(_ path: String) -> FileID? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return FileID(device: UInt64(status.st_dev), inode: UInt64(status.st_ino),
                      changeSeconds: Int(status.st_ctim.tv_sec), changeNanoseconds: Int(status.st_ctim.tv_nsec))
    }
}
