import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A test-only UDP relay on 127.0.0.1 (this machine has no `tc netem`):
/// every datagram that reaches `listenPort` goes on to `targetPort` after a
/// delay, with seeded jitter, and whole bursts of datagrams can be dropped.
/// The relay keeps a log of what it did, for tests to compare with what a
/// meter saw. One thread, started in `init`, ended by `stop` (or deinit).
public final class UDPRelay: @unchecked Sendable {
    // @unchecked Sendable: the plan is set before the thread starts and only
    // read by it; the log and the counters sit behind `state`'s mutex.
    public struct Plan: Sendable {
        /// Delay added to every datagram (ms).
        public var delayMs = 0.0
        /// Uniform jitter of ± this many ms on each datagram.
        public var jitterMs = 0.0
        /// Let jitter reorder datagrams (zita-j2n splits a period into
        /// several back-to-back datagrams; zita-n2j went silent when ±0.3 ms
        /// of jitter reordered them). False: jitter only delays.
        public var reorders = false
        public var seed: UInt64 = 15
        public init() {}
    }

    /// The datagrams that arrived while one extra delay was in force, and
    /// the delay they really got (arrival to send, as the relay's clock saw it).
    public struct Epoch: Sendable {
        /// Asked for (ms), on top of the plan's delay.
        public var extraDelayMs: Double
        public var forwarded = 0
        public var totalDelayMs = 0.0
        public var meanDelayMs: Double { forwarded > 0 ? totalDelayMs / Double(forwarded) : .nan }
    }

    /// What the relay did; changed by the test while it runs (`addDelay`, `drop`).
    public struct Log: Sendable {
        public var forwarded = 0
        public var dropped = 0
        /// Extra delay now (ms), on top of the plan's.
        public var extraDelayMs = 0.0
        /// One per delay in force: the first with the plan's delay alone, then one after each `addDelay`.
        public var epochs = [Epoch(extraDelayMs: 0)]
        /// Drop windows asked for (seconds since the relay started), and the datagrams each dropped.
        public var dropWindows: [Range<Double>] = []
        public var droppedPerWindow: [Int] = []
    }

    public let listenPort: UInt16
    public let targetPort: UInt16
    private let plan: Plan
    private let socketFD: Int32
    private let state = Mutex<Log>(Log())
    private let running = Atomic<Bool>(true)
    private var thread: Thread?
    private let started = Date()

    public init(listenPort: UInt16, targetPort: UInt16, plan: Plan) throws {
        self.listenPort = listenPort
        self.targetPort = targetPort
        self.plan = plan
        socketFD = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = Self.loopback(listenPort)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // `waitReadable` keeps the descriptor in an fd_set.
        guard socketFD >= 0, socketFD < FD_SETSIZE, bound == 0 else {
            close(socketFD)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "relay cannot bind 127.0.0.1:\(listenPort)"])
        }
        let thread = Thread { [self] in run() }
        thread.name = "udp-relay"
        self.thread = thread
        thread.start()
    }

    deinit { stop() }

    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        // The thread polls at most 20 ms at a time: give it time to see the flag.
        usleep(100_000)
        close(socketFD)
    }

    public var log: Log { state.withLock { $0 } }

    /// Seconds since the relay started (the clock of the log).
    public var elapsedSeconds: Double { Date().timeIntervalSince(started) }

    /// From now on, every datagram waits `ms` longer.
    public func addDelay(_ ms: Double) {
        state.withLock {
            $0.extraDelayMs += ms
            $0.epochs.append(Epoch(extraDelayMs: $0.extraDelayMs))
        }
    }

    /// Drops every datagram for the next `seconds`.
    public func drop(forSeconds seconds: Double) {
        let now = elapsedSeconds
        state.withLock {
            $0.dropWindows.append(now..<(now + seconds))
            $0.droppedPerWindow.append(0)
        }
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func run() {
        // Real-time priority where allowed, like the JACK threads it sits
        // between: a relay late by milliseconds is network jitter nobody asked for.
        var parameters = sched_param(sched_priority: 50)
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        var seed = plan.seed
        // SplitMix64 to [0, 1): seeded jitter, the same on every run.
        func uniform() -> Double {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) * 0x1p-53
        }
        var queue: [Pending] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var target = Self.loopback(targetPort)
        var lastDue = 0.0
        while running.load(ordering: .acquiring) {
            // Send what is due, earliest first.
            queue.sort { $0.due < $1.due }
            while let first = queue.first, first.due <= Self.now() {
                _ = first.bytes.withUnsafeBytes { bytes in
                    withUnsafePointer(to: &target) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            sendto(socketFD, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                        }
                    }
                }
                let delayMs = (Self.now() - first.arrival) * 1000
                state.withLock {
                    $0.epochs[first.epoch].forwarded += 1
                    $0.epochs[first.epoch].totalDelayMs += delayMs
                }
                queue.removeFirst()
            }
            // At most 20 ms at a time, so `stop` is seen.
            guard waitReadable(seconds: min(0.02, max(0, (queue.first?.due ?? .infinity) - Self.now()))) else { continue }
            let count = recv(socketFD, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let arrival = Self.now()
            let elapsed = Date().timeIntervalSince(started)
            let (dropped, extra, epoch) = state.withLock { log -> (Bool, Double, Int) in
                guard let window = log.dropWindows.firstIndex(where: { $0.contains(elapsed) }) else {
                    log.forwarded += 1
                    return (false, log.extraDelayMs, log.epochs.count - 1)
                }
                log.dropped += 1
                log.droppedPerWindow[window] += 1
                return (true, 0, 0)
            }
            if dropped { continue }
            var delay = plan.delayMs + extra
            if plan.jitterMs > 0 { delay += (2 * uniform() - 1) * plan.jitterMs }
            var due = arrival + max(0, delay) / 1000
            if !plan.reorders { due = max(due, lastDue) }
            lastDue = due
            queue.append(Pending(due: due, arrival: arrival, epoch: epoch, bytes: Array(buffer[0..<count])))
        }
    }

    private struct Pending {
        var due: Double
        var arrival: Double
        var epoch: Int
        var bytes: [UInt8]
    }

    /// CLOCK_MONOTONIC in seconds.
    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Waits until a datagram can be read or `seconds` have passed. select,
    /// not poll: poll's whole milliseconds would hold each datagram up to a
    /// millisecond longer than asked (and by a different amount for each delay).
    private func waitReadable(seconds: Double) -> Bool {
        var readable = fd_set()
        let descriptor = Int(socketFD)
        // FD_SET: bit descriptor % 8 of byte descriptor / 8 (an array of longs, little-endian).
        withUnsafeMutableBytes(of: &readable) { $0[descriptor / 8] |= UInt8(1 << (descriptor % 8)) }
        let microseconds = Int((seconds * 1e6).rounded(.up))
        var timeout = timeval(tv_sec: microseconds / 1_000_000, tv_usec: microseconds % 1_000_000)
        return select(socketFD + 1, &readable, nil, nil, &timeout) > 0
    }
}
