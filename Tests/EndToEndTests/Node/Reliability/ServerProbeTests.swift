import EndToEndSupport
import Foundation
import Testing
@testable import ToneJack

extension JackServerTests {
    /// Issue 13: waiting for a server never hangs. jack2 names a client's
    /// notification socket `/dev/shm/jack_<client>_<uid>_0` whatever the
    /// server, so a same-named client opened at the same moment by another
    /// process of the user takes the probe's socket; a server's notifications
    /// then reach the wrong process, and a close that cancels the notification
    /// thread inside libjack's synchro mutex wedges libjack for the process
    /// (`JackClient.serverIsReachable`, docs/engineering/reliability.md).
    @Suite("Server probe: jackd's socket first, a probe client of our own")
    struct ServerProbeTests {
        @Test("jackd's request socket: absent before, listening once up, refused or gone after")
        func serverSocket() throws {
            let name = "tn-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            #expect(!JackServerSocket.isListening(serverName: name))
            // A socket file nobody listens on (what a SIGKILLed jackd leaves) refuses.
            let stale = try bindUnixSocket(at: JackServerSocket.path(serverName: name), listening: false)
            #expect(!JackServerSocket.isListening(serverName: name))
            close(stale)
            let server = try startServer(name: name)
            #expect(JackServerSocket.isListening(serverName: name))
            #expect(JackClient.serverIsReachable(serverName: name))
            server.stop()
            #expect(!JackServerSocket.isListening(serverName: name))
            #expect(!JackClient.serverIsReachable(serverName: name))
        }

        /// Another process opening clients named `tonenode-probe` (what every
        /// ToneNode process probed with before: a test's `PrivateJackServer`
        /// and the `link` it runs both waited with it) re-binds that socket
        /// path again and again while we probe, as same-named clients opening do.
        /// Before, the probe's notification socket was that path: the probe
        /// failed or took the server's 2 s notification timeout.
        @Test("a same-named client of another process cannot take the probe's notification socket")
        func probeNameIsOurOwn() throws {
            let server = try startServer()
            defer { server.stop() }
            let squatted = "/dev/shm/jack_tonenode-probe_\(geteuid())_0"
            let squatter = SocketSquatter(path: squatted)
            squatter.start()
            defer { squatter.stop() }
            usleep(50_000)
            // The bug costs a probe the server's 2 s notification time-out (or
            // fails it); a probe that works takes milliseconds. Wall clock on a
            // shared machine: the bound, 1.5 s, leaves 0.5 s between what load
            // adds and what the bug needs.
            var seconds: [Double] = []
            for _ in 0..<5 {
                let started = Date()
                #expect(JackClient.serverIsReachable(serverName: server.name))
                seconds.append(Date().timeIntervalSince(started))
            }
            #expect(seconds.allSatisfy { $0 < 1.5 }, "probes took \(seconds) s")
        }
    }
}

/// A Unix stream socket bound at `path` (an old file there is replaced).
private func bindUnixSocket(at path: String, listening: Bool) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        buffer.copyBytes(from: bytes)
        buffer[bytes.count] = 0
    }
    unlink(path)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, !listening || listen(fd, 8) == 0 else {
        close(fd)
        throw POSIXError(.EADDRINUSE)
    }
    return fd
}

/// Re-binds a listening socket at one path in a loop on its own thread, as
/// clients of one name opening in another process do; removes it when stopped.
private final class SocketSquatter: @unchecked Sendable {
    // @unchecked Sendable: `running` is the only shared state, behind `lock`.
    let path: String
    private let lock = NSLock()
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(path: String) { self.path = path }

    func start() {
        Thread.detachNewThread { [self] in
            var previous: Int32 = -1
            while lock.withLock({ running }) {
                if let fd = try? bindUnixSocket(at: path, listening: true) {
                    if previous >= 0 { close(previous) }
                    previous = fd
                }
                usleep(200)
            }
            if previous >= 0 { close(previous) }
            unlink(path)
            done.signal()
        }
    }

    func stop() {
        lock.withLock { running = false }
        done.wait()
    }
}
