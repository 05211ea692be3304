import Foundation
import Synchronization
import ToneCore

#if canImport(Glibc)
import Glibc
#endif

/// OSC control over UDP: a socket bound to `host:port` (127.0.0.1 unless told
/// otherwise) and a thread of its own that decodes each datagram and hands
/// the command on. The audio thread never sees any of it: commands reach the
/// engine through its preallocated command ring.
///
/// A datagram that is not a good command (malformed OSC, unknown path, wrong
/// types, out-of-range values) is one line through `report` and is ignored.
/// The server lives as long as the `run` command, so it keeps listening
/// while the node waits for a JACK server to come back.
public final class OSCServer: @unchecked Sendable {
    // @unchecked Sendable: `socketFD` is written in `init` only; `stopped` is
    // an atomic flag the thread polls; `stop` waits for the thread through `finished`.
    private let socketFD: Int32
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// The address actually bound, `host:port`.
    public let address: String

    /// Binds the socket; throws a one-line reason when it cannot (bad host, port in use).
    public init(host: String, port: Int) throws(OSCError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .cannotResolve(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = 0
        var bound: Int32 = -1
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if fd >= 0 {
                if bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                    bound = fd
                    break
                }
                lastError = errno
                close(fd)
            } else {
                lastError = errno
            }
            candidate = info.pointee.ai_next
        }
        guard bound >= 0 else {
            throw .cannotBind(host: host, port: port, errno: lastError)
        }
        socketFD = bound
        address = "\(host):\(port)"
    }

    deinit {
        stop()
        close(socketFD)
    }

    /// Starts the receiving thread. `apply` runs on it; `report` gets one line per bad message.
    public func start(apply: @escaping @Sendable (ControlCommand) throws(ControlCommand.Problem) -> Void,
                      report: @escaping @Sendable (String) -> Void) {
        let thread = Thread { [self] in
            receive(apply: apply, report: report)
            finished.signal()
        }
        thread.name = "tonenode-osc"
        thread.start()
    }

    /// Stops the thread (within about 200 ms). Safe to call twice.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = finished.wait(timeout: .now() + 1)
    }

    private func receive(apply: @Sendable (ControlCommand) throws(ControlCommand.Problem) -> Void,
                         report: @Sendable (String) -> Void) {
        // The largest UDP payload; OSC packets are far smaller.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 8)
        defer { buffer.deallocate() }
        var poller = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
        while !stopped.load(ordering: .acquiring) {
            guard poll(&poller, 1, 200) > 0 else { continue }
            let size = recv(socketFD, buffer.baseAddress, buffer.count, 0)
            guard size >= 0 else { continue }
            let command: ControlCommand
            do throws(ControlCommand.Problem) {
                command = try OSCDecoder.command(fromPacket: UnsafeRawBufferPointer(rebasing: buffer[..<size]))
            } catch {
                report(error.description)
                continue
            }
            do throws(ControlCommand.Problem) {
                try apply(command)
            } catch {
                // The node's own reasons start with the command ("freq 30000: … Nyquist …").
                report("OSC \(OSCDecoder.prefix)" + error.description)
            }
        }
    }
}
