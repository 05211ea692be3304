import CJack
import Foundation
import Synchronization

/// The node's side of one `MetadataHelper` process (one per client that set
/// pretty names): starts it, waits for its answer at most a deadline, tells
/// it the client is closing, and reaps it. The node never waits on it longer
/// than a deadline and never signals it: the helper ends on its own once it
/// is out of its metadata calls.
///
/// Thread ownership: any thread; the state is behind one lock.
final class MetadataHelperProcess: Sendable {
    /// The executable that runs `MetadataHelper` when given its subcommand
    /// (tonenode sets `/proc/self/exe`); nil: no helper, so no pretty names
    /// (a process that cannot host the helper must not make the calls itself).
    static let executable = Mutex<String?>(nil)
    /// Helpers started by this process and not reaped yet.
    private static let live = Mutex<[MetadataHelperProcess]>([])

    private struct State {
        /// Write end of the helper's stdin; closed (-1) to say "the client is closing".
        var commandDescriptor: Int32
        /// Read end of the helper's stdout; -1 once closed (end of file, no reader left).
        var statusDescriptor: Int32
        /// The helper's stdout reached end of file (or failed): it has exited or is exiting.
        var atEnd = false
        /// Threads reading `statusDescriptor` outside the lock: it is closed only
        /// when none is, so no reader ever polls or reads a number the process
        /// has handed to another file since (a libjack socket, say).
        var readers = 0
        var received = ""
        /// The helper's answer ("set STORED ASKED") has come.
        var answered = false
        /// The node stopped waiting for the answer (the store did not answer in time).
        var wasLate = false
        var reaped = false
    }
    private let pid: pid_t
    private let state: Mutex<State>

    private init(pid: pid_t, commandDescriptor: Int32, statusDescriptor: Int32) {
        self.pid = pid
        state = Mutex(State(commandDescriptor: commandDescriptor, statusDescriptor: statusDescriptor))
    }

    /// Starts a helper for these pretty names; nil when there is no helper
    /// executable or it could not be started.
    static func start(server: String?, clientName: String,
                      names: [(subject: jack_uuid_t, name: String)]) -> MetadataHelperProcess? {
        guard let path = executable.withLock({ $0 }) else { return nil }
        var command: [Int32] = [-1, -1], status: [Int32] = [-1, -1]
        // Close-on-exec from the start (pipe2), so no other child keeps them.
        guard tn_pipe_cloexec(&command) == 0 else { return nil }
        guard tn_pipe_cloexec(&status) == 0 else {
            command.forEach { Glibc.close($0) }
            return nil
        }
        // Never a blocking read: several threads may poll it at once, all wake, and one reads what came.
        _ = fcntl(status[0], F_SETFL, fcntl(status[0], F_GETFL) | O_NONBLOCK)
        let arguments = ["tonenode", MetadataHelper.subcommand, server ?? "", clientName]
            + names.flatMap { [String($0.subject), $0.name] }
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = tn_spawn_metadata_helper(path, &argv, command[0], status[1], &pid)
        Glibc.close(command[0])
        Glibc.close(status[1])
        guard result == 0 else {
            Glibc.close(command[1])
            Glibc.close(status[0])
            return nil
        }
        let helper = MetadataHelperProcess(pid: pid, commandDescriptor: command[1], statusDescriptor: status[0])
        live.withLock { $0.append(helper) }
        return helper
    }

    /// How the wait for the helper's answer went.
    enum Answer: Equatable {
        /// How many of the names asked for were stored.
        case stored(count: Int, of: Int)
        /// The helper ended without answering (no server, say).
        case failed
        /// No answer within the deadline: the store is not answering; the helper waits on.
        case late
    }

    /// Waits at most `deadline` for the helper's "set STORED ASKED".
    func awaitAnswer(deadline: Duration) -> Answer {
        let end = ContinuousClock.now + deadline
        while true {
            if let answer = state.withLock({ Self.parse($0) }) { return answer }
            guard state.withLock({ !$0.atEnd }) else { return .failed }
            let left = ContinuousClock.now.duration(to: end)
            guard left > .zero else {
                state.withLock { $0.wasLate = true }
                return .late
            }
            readStatus(waitingMilliseconds: Int32(max(1, left.components.seconds * 1000
                + left.components.attoseconds / 1_000_000_000_000_000)))
        }
    }

    /// The answer in what was read, if it is all there.
    private static func parse(_ state: State) -> Answer? {
        guard let line = state.received.split(separator: "\n", omittingEmptySubsequences: false).first,
              state.received.contains("\n") else { return nil }
        let fields = line.split(separator: " ")
        guard fields.count == 3, fields[0] == "set", let count = Int(fields[1]), let asked = Int(fields[2]) else {
            return .failed
        }
        return .stored(count: count, of: asked)
    }

    /// Reads what the helper wrote, waiting at most `waitingMilliseconds`;
    /// marks the answer and the end of file.
    private func readStatus(waitingMilliseconds: Int32) {
        let descriptor: Int32 = state.withLock { state in
            guard !state.atEnd, state.statusDescriptor >= 0 else { return -1 }
            state.readers += 1
            return state.statusDescriptor
        }
        guard descriptor >= 0 else { return }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        var count = 0, failure: Int32 = 0
        var buffer = [UInt8](repeating: 0, count: 256)
        let ready = poll(&poller, 1, waitingMilliseconds) > 0
        if ready {
            count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            failure = errno
        }
        state.withLock { state in
            state.readers -= 1
            if ready && count > 0 {
                state.received += String(decoding: buffer[0..<count], as: UTF8.self)
                if Self.parse(state) != nil { state.answered = true }
            } else if ready && (count == 0 || (failure != EINTR && failure != EAGAIN)) {
                state.atEnd = true
            }
            // Closed by the last reader out, never under another's poll or read.
            if state.atEnd, state.readers == 0, state.statusDescriptor >= 0 {
                Glibc.close(state.statusDescriptor)
                state.statusDescriptor = -1
            }
        }
    }

    /// The helper was late with its answer and has not given it since (its
    /// metadata call still waits on the store).
    var isStuck: Bool {
        guard state.withLock({ $0.wasLate && !$0.answered && !$0.atEnd }) else { return false }
        readStatus(waitingMilliseconds: 0)
        return state.withLock { !$0.answered && !$0.atEnd }
    }

    /// The client is closing in order: the helper removes the names it stored
    /// (if the server answers within a bound), closes its own client and
    /// exits, whenever its calls let it. Does not wait. The byte written
    /// first tells the helper the close is orderly; a stdin that just ends
    /// (the node killed or `_exit`ed) means "leave it to jackd's clean-up".
    func finish() {
        state.withLock { state in
            guard state.commandDescriptor >= 0 else { return }
            var byte = UInt8(ascii: "c")
            _ = write(state.commandDescriptor, &byte, 1)
            Glibc.close(state.commandDescriptor)
            state.commandDescriptor = -1
        }
    }

    /// Waits until `end` at most for the helper to exit (its stdout closes),
    /// reaping it if it did. Returns whether it has exited.
    @discardableResult
    func awaitExit(until end: ContinuousClock.Instant) -> Bool {
        while state.withLock({ !$0.atEnd }) {
            let left = ContinuousClock.now.duration(to: end)
            guard left > .zero else { return false }
            readStatus(waitingMilliseconds: Int32(max(1, left.components.seconds * 1000
                + left.components.attoseconds / 1_000_000_000_000_000)))
        }
        // Its stdout closes a moment before it can be reaped.
        while !reap() {
            guard ContinuousClock.now < end else { return false }
            usleep(1000)
        }
        return true
    }

    /// Collects the helper's exit status if it has exited (no zombie left).
    private func reap() -> Bool {
        state.withLock { state in
            if !state.reaped {
                var status: Int32 = 0
                state.reaped = waitpid(pid, &status, WNOHANG) == pid
            }
            return state.reaped
        }
    }

    /// Before the process exits: tells every helper the node is ending and
    /// waits at most `deadline` in all for those whose calls are not stuck to
    /// remove their names and exit. A stuck one is not waited for: it goes on
    /// alone (the reason it is a process of its own).
    static func finishAll(deadline: Duration) {
        let end = ContinuousClock.now + deadline
        let helpers = live.withLock { $0 }
        helpers.forEach { $0.finish() }
        for helper in helpers where !helper.isStuck { helper.awaitExit(until: end) }
        live.withLock { $0.removeAll { $0.reap() } }
    }

    /// Whether any helper of this process is stuck in a metadata call.
    static var anyStuck: Bool { live.withLock { $0 }.contains { $0.isStuck } }

    /// Reaps the helpers that have exited since (called when a new one starts or a client closes).
    static func reapExited() {
        let helpers = live.withLock { $0 }
        for helper in helpers { helper.readStatus(waitingMilliseconds: 0) }
        live.withLock { $0.removeAll { $0.state.withLock { $0.atEnd } && $0.reap() } }
    }
}
