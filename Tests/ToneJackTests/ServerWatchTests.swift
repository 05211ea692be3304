import Foundation
import Testing
import ToneJack
import ToneTestSupport

/// `ServerWatch` against a socket where jack2 puts a server's, made here:
/// no JACK server needed (the real server's cases are in ReliabilityTests).
@Suite("ServerWatch: a server's socket there, refusing, replaced or removed")
struct ServerWatchTests {
    /// A listening Unix socket at `path`; its descriptor.
    static func listen(at path: String) throws -> Int32 {
        try #require(bindUnixSocket(at: path, listening: true), "bind \(path)")
    }

    static func path(_ server: String) -> String { "/dev/shm/jack_\(server)_\(geteuid())_0" }

    @Test("no socket: nothing to watch")
    func noSocket() {
        #expect(ServerWatch(serverName: "tn-watch-none-\(getpid())") == nil)
    }

    @Test("listening: there; closed (the file left, as a killed server leaves it): gone")
    func refusing() throws {
        let server = "tn-watch-\(getpid())-a"
        unlink(Self.path(server))
        defer { unlink(Self.path(server)) }
        let descriptor = try Self.listen(at: Self.path(server))
        let watch = try #require(ServerWatch(serverName: server))
        #expect(!watch.serverHasGone())
        #expect(!watch.serverHasGone(), "a second look, after the first connection")
        close(descriptor)
        #expect(FileManager.default.fileExists(atPath: Self.path(server)))
        #expect(watch.serverHasGone())
    }

    @Test("another server of the same name (a new socket), or none: gone")
    func replacedOrRemoved() throws {
        let server = "tn-watch-\(getpid())-b"
        unlink(Self.path(server))
        defer { unlink(Self.path(server)) }
        let first = try Self.listen(at: Self.path(server))
        defer { close(first) }
        let watch = try #require(ServerWatch(serverName: server))
        unlink(Self.path(server))
        #expect(watch.serverHasGone(), "removed")
        let second = try Self.listen(at: Self.path(server))
        defer { close(second) }
        #expect(watch.serverHasGone(), "replaced: a listening socket, but not the one the client opened on")
        #expect(ServerWatch(serverName: server)?.serverHasGone() == false, "a new watch sees the new server")
    }
}
