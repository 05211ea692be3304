import Foundation

/// Tells whether the JACK server a client opened on has gone, without
/// asking libjack: for the rare client libjack never tells (a stress run saw
/// one node in eight never get its shutdown callback after a SIGKILL of the
/// server, and hang).
///
/// The server has gone when its request socket (`JackServerSocket`) is no
/// longer there, is another one (a new server of the same name bound a new
/// socket: a different inode), or refuses a connection (nobody listens: the
/// server died and left the file). A server that is only stopped (SIGSTOP)
/// still holds its socket, and the kernel accepts the connection for it.
///
/// Immutable; any thread.
public struct ServerWatch: Sendable {
    public let serverName: String
    private let inode: UInt64

    /// Nil when the server's socket is not where jack2 puts it: nothing to watch.
    /// - Parameter serverName: as given to the client's open (nil: `$JACK_DEFAULT_SERVER`, else "default").
    public init?(serverName: String?) {
        let name = serverName ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"] ?? "default"
        guard let inode = Self.socketInode(JackServerSocket.path(serverName: name)) else { return nil }
        self.serverName = name
        self.inode = inode
    }

    /// Whether the server has gone: its socket removed, replaced or refusing.
    /// Costs a `stat` and a `connect` (closed at once); never blocks.
    public func serverHasGone() -> Bool {
        guard Self.socketInode(JackServerSocket.path(serverName: serverName)) == inode else { return true }
        return JackServerSocket.knock(serverName: serverName) != .listening
    }

    /// The inode of the socket at `path`; nil when there is no socket there.
    private static func socketInode(_ path: String) -> UInt64? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return UInt64(status.st_ino)
    }
}
