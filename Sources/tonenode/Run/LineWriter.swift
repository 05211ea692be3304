import Foundation
import Synchronization
import ToneCommandLine

/// Lines for stdout, written without ever blocking the writing thread (a
/// node's worker: its hop clock must not wait for a reader).
///
/// A pipe, terminal, socket or device (but `/dev/null`): before each write it asks
/// `poll(POLLOUT, 0)`; when the descriptor takes more, it writes at most
/// `PIPE_BUF` bytes, cut after a newline (a pipe then takes the whole write
/// at once, never blocking); else the bytes wait, at most `capacityBytes` of
/// them, and the oldest whole lines beyond that are dropped and counted. A
/// reader sees each line at the first `flush` after it is made.
///
/// A regular file or `/dev/null` (decided once, at init) never blocks the way a pipe does,
/// and each `write` to it costs the file system's bookkeeping (a profile of
/// a live node: ~5 % of the process for one write a hop). So, as stdio's full
/// buffering but with a deadline, `flush` skips the poll and writes only
/// when a block (`blockBytes`) is pending or `holdSeconds` have passed since
/// the last write (or since init); then everything pending (whole lines) in
/// one write. So a line waits at most `holdSeconds` once made, and there is
/// at most one write per `holdSeconds` but for blocks. `finish` writes the
/// rest. An error (a full disk) surfaces at that write, as it would at any
/// other. A node's worker that writes here wakes only once per a little
/// more than `holdSeconds` while sound arrives (`ReportSink.batchSeconds`),
/// so each wake's lines go out at that wake.
///
/// Stdout stays as the shell gave it (never O_NONBLOCK: it is shared). Its
/// failures go to `Console.outputFailed`: EPIPE ends the command quietly with
/// 141, others with one error line and 1; later lines are dropped uncounted,
/// as `Console.out` does.
///
/// Thread ownership: any thread (one at a time in practice; a mutex guards it).
final class LineWriter: Sendable {
    private struct State {
        /// Bytes queued; those before `head` are written.
        var pending: [UInt8] = []
        var head = 0
        var droppedLines = 0
        /// To a regular file: when it was last written (`DispatchTime`
        /// uptime; at first, when the writer was made).
        var lastWriteNs: UInt64
    }
    private let state: Mutex<State>
    private let descriptor: Int32
    private let capacityBytes: Int
    /// Whether the descriptor is a regular file or `/dev/null`: then lines go out in blocks.
    let writesInBlocks: Bool
    private let blockBytes: Int
    /// To a regular file: the least time between two writes (a block aside),
    /// the most a line waits once made.
    private let holdNs: UInt64
    var holdSeconds: Double { Double(holdNs) / 1e9 }
    /// About 10 s of JSON reports at hop 512, 48 kHz (~1000 lines): what
    /// `Node.queuedBatchLimit` keeps on the path this replaces.
    static let defaultCapacityBytes = 128 * 1024
    /// To a regular file: a page, the unit the file system writes; 25-40
    /// JSON reports, more than 0.1 s of them at hop 512, so there the deadline
    /// decides, and the block bounds a burst (a catching-up worker, an idle
    /// worker's batch, several channels).
    static let defaultBlockBytes = 4096
    /// To a regular file: the least time between writes. With the worker's
    /// batch a little longer (0.1 s, `ReportLineSink.batchSeconds`, its
    /// longest wake interval while sound arrives,
    /// `AnalysisWorker.maximumWaitMilliseconds`), a line reaches the file at
    /// most 0.1 s after its hop: immediate to a person following the file
    /// (`tail -f`), in ten writes a second in place of one a hop (~94).
    static let defaultHoldSeconds = 0.08
    private static let newline = UInt8(ascii: "\n")

    /// - Parameters:
    ///   - blockBytes, holdSeconds: to a regular file, the pending bytes and
    ///     the time since the last write that make `flush` write.
    init(descriptor: Int32 = STDOUT_FILENO, capacityBytes: Int = LineWriter.defaultCapacityBytes,
         blockBytes: Int = LineWriter.defaultBlockBytes, holdSeconds: Double = LineWriter.defaultHoldSeconds) {
        self.descriptor = descriptor
        self.capacityBytes = capacityBytes
        self.blockBytes = blockBytes
        holdNs = UInt64(max(0, holdSeconds) * 1e9)
        state = Mutex(State(lastWriteNs: DispatchTime.now().uptimeNanoseconds))
        writesInBlocks = Self.takesBlocks(descriptor)
    }

    /// Whether `descriptor` is a regular file, or the null device (which
    /// nobody reads: blocks cost it no one's wait).
    static func takesBlocks(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        if status.st_mode & S_IFMT == S_IFREG { return true }
        var null = stat()
        return status.st_mode & S_IFMT == S_IFCHR && stat("/dev/null", &null) == 0
            && null.st_mode & S_IFMT == S_IFCHR && null.st_rdev == status.st_rdev
    }

    /// Lines dropped so far because the descriptor did not take them in time.
    var droppedLines: Int { state.withLock { $0.droppedLines } }
    /// Bytes waiting to be written.
    var pendingBytes: Int { state.withLock { $0.pending.count - $0.head } }

    /// Queues `text` and a newline (nothing is written here: see `flush`).
    func append(_ text: String) {
        state.withLock { state in
            guard Console.outputFailureStatus == nil else { return }
            let newest = state.pending.count
            state.pending.append(contentsOf: text.utf8)
            state.pending.append(Self.newline)
            if state.pending.count - state.head > capacityBytes { dropOldest(&state, keepingFrom: newest) }
        }
    }

    /// Writes what the descriptor takes now (to a regular file: only once a
    /// block is pending or the hold since the last write is over, or with
    /// `now`); returns whether nothing is left waiting.
    @discardableResult
    func flush(now: Bool = false) -> Bool {
        state.withLock { state in
            if writesInBlocks && !now && (secondsUntilDue(state) ?? 0) > 0 { return false }
            return write(&state, timeoutMilliseconds: 0)
        }
    }

    /// To a regular file: the seconds until `flush` writes what waits now
    /// (0: at the next flush; nil: nothing waits, or not a regular file).
    var secondsUntilWriteDue: Double? {
        guard writesInBlocks else { return nil }
        return state.withLock { secondsUntilDue($0) }
    }

    /// The one rule for a regular file: what waits is due once a block is
    /// pending or `holdNs` have passed since the last write (nil: nothing
    /// waits). Counted from the last write, not from the oldest line: a
    /// worker that wakes once per batch then writes each batch at its own
    /// wake, however its wakes jitter.
    private func secondsUntilDue(_ state: State) -> Double? {
        guard state.head < state.pending.count else { return nil }
        if state.pending.count - state.head >= blockBytes { return 0 }
        let sinceNs = DispatchTime.now().uptimeNanoseconds &- state.lastWriteNs
        return sinceNs >= holdNs ? 0 : Double(holdNs - sinceNs) / 1e9
    }

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
            // A regular file: all of it at once (whole lines: each ends the queue with a newline).
            var end = state.pending.count
            if !writesInBlocks {
                var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&request, 1, timeoutMilliseconds)
                if ready < 0 && errno == EINTR { continue }
                // Not writable now (or poll failed: try again next time).
                guard ready > 0 else { return false }
                end = min(state.pending.count, state.head + Int(PIPE_BUF))
                if end < state.pending.count,
                   let lastNewline = state.pending[state.head..<end].lastIndex(of: Self.newline) {
                    end = lastNewline + 1
                }
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
            if writesInBlocks { state.lastWriteNs = DispatchTime.now().uptimeNanoseconds }
        }
        return true
    }

    /// Drops the oldest whole lines not yet begun, down to 7/8 of the
    /// capacity (so a stuck reader costs one move per few reports, not one
    /// each), never the newest (from `newest` on): a line longer than the
    /// capacity alone (a file received whole, `--receive-profile cable`) still goes out.
    private func dropOldest(_ state: inout State, keepingFrom newest: Int) {
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
              let newline = state.pending[end...].firstIndex(of: Self.newline), newline < newest {
            end = newline + 1
            lines += 1
        }
        state.pending.removeSubrange(start..<end)
        state.droppedLines += lines
    }
}
