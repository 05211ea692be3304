import Synchronization

/// One tab's lines on their way to its socket: a bounded queue that keeps
/// the newest `capacity` lines and drops the oldest, counting them, so a
/// stalled browser costs the producer (the node's worker) nothing but a
/// drop. The socket's task takes everything queued at once (`take`), at
/// most once a display frame, so a tab costs one write and one wake a frame,
/// not one a reading.
final class WebClientQueue: Sendable {
    /// Lines held for a tab at most (~2 s of reports at a 23 ms hop and two channels).
    static let capacity = 200

    private struct State {
        var lines: [String] = []
        /// Lines dropped because the tab did not take them in time.
        var dropped = 0
        var finished = false
        /// The socket's task, waiting in `take` for a line.
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int = WebClientQueue.capacity) {
        self.capacity = capacity
    }

    /// Adds a line without waiting; when full, the oldest line is dropped (and counted).
    func push(_ line: String) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.finished else { return nil }
            if state.lines.count == capacity {
                state.lines.removeFirst()
                state.dropped += 1
            }
            state.lines.append(line)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Everything queued, oldest first, waiting for at least one line; nil once finished and empty.
    func take() async -> [String]? {
        while true {
            enum Step { case lines([String]), done, wait }
            let step = state.withLock { state -> Step in
                if !state.lines.isEmpty {
                    defer { state.lines.removeAll(keepingCapacity: true) }
                    return .lines(state.lines)
                }
                return state.finished ? .done : .wait
            }
            switch step {
            case .lines(let lines): return lines
            case .done: return nil
            case .wait:
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state -> Bool in
                        if !state.lines.isEmpty || state.finished { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        }
    }

    var dropped: Int { state.withLock { $0.dropped } }

    /// Ends the queue (the socket closed, or the server stops): `take` returns what is left, then nil.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
