import Foundation
import Synchronization

/// Lines for stdout, written without ever blocking the writing thread (a
/// node's worker: its hop clock must not wait for a reader).
///
/// Before each write it asks `poll(POLLOUT, 0)`; when the descriptor takes
/// more, it writes at most `PIPE_BUF` bytes, cut after a newline (a pipe
/// then takes the whole write at once, never blocking); else the bytes wait,
/// at most `capacityBytes` of them, and the oldest whole lines beyond that
/// are dropped and counted. Stdout stays as the shell gave it (never
/// O_NONBLOCK: it is shared). Its failures go to `Console.outputFailed`:
/// EPIPE ends the command quietly with 141, others with one error line and 1;
/// later lines are dropped uncounted, as `Console.out` does.
///
/// Thread ownership: any thread (one at a time in practice; a mutex guards it).
final class LineWriter: Sendable {
    private struct State {
        /// Bytes queued; those before `head` are written.
        var pending: [UInt8] = []
        var head = 0
        var droppedLines = 0
    }
    private let state = Mutex(State())
    private let descriptor: Int32
    private let capacityBytes: Int
    /// About 10 s of JSON reports at hop 512, 48 kHz (~1000 lines): what
    /// `Node.queuedBatchLimit` keeps on the path this replaces.
    static let defaultCapacityBytes = 128 * 1024
    private static let newline = UInt8(ascii: "\n")

    init(descriptor: Int32 = STDOUT_FILENO, capacityBytes: Int = LineWriter.defaultCapacityBytes) {
        self.descriptor = descriptor
        self.capacityBytes = capacityBytes
    }

    /// Lines dropped so far because the descriptor did not take them in time.
    var droppedLines: Int { state.withLock { $0.droppedLines } }
    /// Bytes waiting to be written.
    var pendingBytes: Int { state.withLock { $0.pending.count - $0.head } }

    /// Queues `text` and a newline (nothing is written here: see `flush`).
    func append(_ text: String) {
        state.withLock { state in
            guard Console.outputFailureStatus == nil else { return }
            state.pending.append(contentsOf: text.utf8)
            state.pending.append(Self.newline)
            if state.pending.count - state.head > capacityBytes { dropOldest(&state) }
        }
    }

    /// Writes what the descriptor takes now; returns whether all went out.
    @discardableResult
    func flush() -> Bool { state.withLock { write(&$0, timeoutMilliseconds: 0) } }

    /// At the end: writes the rest, waiting up to `seconds` in all for a slow
    /// reader; what is left then counts as dropped.
    func finish(waitingAtMostSeconds seconds: Double) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        state.withLock { state in
            while !write(&state, timeoutMilliseconds: 10) {
                guard DispatchTime.now().uptimeNanoseconds < deadline else {
                    state.droppedLines += state.pending[state.head...].count { $0 == Self.newline }
                    state.pending.removeAll()
                    state.head = 0
                    return
                }
            }
        }
    }

    private func write(_ state: inout State, timeoutMilliseconds: Int32) -> Bool {
        defer {
            if state.head == state.pending.count {
                state.pending.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head >= capacityBytes / 4 {
                state.pending.removeFirst(state.head)
                state.head = 0
            }
        }
        while state.head < state.pending.count {
            guard Console.outputFailureStatus == nil else {
                state.head = state.pending.count
                return true
            }
            var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&request, 1, timeoutMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            // Not writable now (or poll failed: try again next time).
            guard ready > 0 else { return false }
            var end = min(state.pending.count, state.head + Int(PIPE_BUF))
            if end < state.pending.count,
               let lastNewline = state.pending[state.head..<end].lastIndex(of: Self.newline) {
                end = lastNewline + 1
            }
            let written = state.pending.withUnsafeBufferPointer {
                Glibc.write(descriptor, $0.baseAddress! + state.head, end - state.head)
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { return false }
                state.head = state.pending.count
                Console.outputFailed(errno: code)
                return true
            }
            state.head += written
        }
        return true
    }

    /// Drops the oldest whole lines not yet begun, down to 7/8 of the
    /// capacity (so a stuck reader costs one move per few reports, not one each).
    private func dropOldest(_ state: inout State) {
        var start = state.head
        // The rest of a line partly written stays: the reader has its start.
        if start > 0 && state.pending[start - 1] != Self.newline,
           let end = state.pending[start...].firstIndex(of: Self.newline) {
            start = end + 1
        }
        let target = capacityBytes - capacityBytes / 8
        var end = start
        var lines = 0
        while state.pending.count - state.head - (end - start) > target,
              let newline = state.pending[end...].firstIndex(of: Self.newline) {
            end = newline + 1
            lines += 1
        }
        state.pending.removeSubrange(start..<end)
        state.droppedLines += lines
    }
}
