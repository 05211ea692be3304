import Synchronization

/// Where a command's lines meet the open tabs: `publish` hands a line to
/// every tab's bounded queue without waiting (any thread: the node's
/// worker, the supervisor's task), and keeps the latest of each kind named
/// `retained` (the node's settings, its client) for tabs that open later,
/// and the last `historyCapacity` readings (and messages), which a new tab gets at once
/// as one `backlog` message (its 30 s history is full from the start).
public final class WebHub: Sendable {
    private struct State {
        var queues: [Int: WebClientQueue] = [:]
        var nextID = 0
        /// Lines every new tab gets first, by kind, in the order first seen.
        var retained: [(kind: String, line: String)] = []
        /// The last readings, a ring: `history[historyNext]` is the oldest once it is full.
        var history: [String] = []
        var historyNext = 0
    }
    /// Readings kept for a new tab: 30 s of two channels at a 1024-frame hop and 48 kHz.
    public static let historyCapacity = 3000
    private let state = Mutex(State())
    /// Sockets opened so far, and open now (for the benchmark and tests).
    private let openedCount = Atomic<Int>(0)

    public init() {}

    /// Sends `line` to every open tab; with `retain`, also to every tab
    /// opened later (the last line of that kind only); with `history` (a
    /// reading), also in the backlog a new tab gets.
    public func publish(_ line: String, retain kind: String? = nil, history: Bool = false) {
        state.withLock { state in
            if history {
                if state.history.count < Self.historyCapacity {
                    state.history.append(line)
                } else {
                    state.history[state.historyNext] = line
                    state.historyNext = (state.historyNext + 1) % Self.historyCapacity
                }
            }
            if let kind {
                if let index = state.retained.firstIndex(where: { $0.kind == kind }) {
                    state.retained[index].line = line
                } else {
                    state.retained.append((kind, line))
                }
            }
            for queue in state.queues.values { queue.push(line) }
        }
    }

    /// The number of tabs open now.
    public var openTabs: Int { state.withLock { $0.queues.count } }
    /// The number of tabs opened since the start.
    public var tabsOpened: Int { openedCount.load(ordering: .relaxed) }

    /// A new tab's queue, primed with the retained lines and the backlog of
    /// readings (one message); `close` it when the socket ends.
    func open() -> (id: Int, queue: WebClientQueue) {
        let queue = WebClientQueue()
        // Copied under the lock (references only), joined outside it: the publisher never waits for the join.
        let (id, backlog) = state.withLock { state in
            state.retained.forEach { queue.push($0.line) }
            state.nextID += 1
            state.queues[state.nextID] = queue
            return (state.nextID, Array(state.history[state.historyNext...] + state.history[..<state.historyNext]))
        }
        // Readings published meanwhile may reach the tab first: the page puts the backlog before them.
        if !backlog.isEmpty { queue.push("{\"event\":\"backlog\",\"readings\":[" + backlog.joined(separator: ",") + "]}") }
        openedCount.add(1, ordering: .relaxed)
        return (id, queue)
    }

    func close(_ id: Int) {
        state.withLock { $0.queues.removeValue(forKey: id) }?.finish()
    }

    /// Ends every tab's queue (the server stops).
    func closeAll() {
        let queues = state.withLock { state in
            defer { state.queues.removeAll() }
            return Array(state.queues.values)
        }
        queues.forEach { $0.finish() }
    }
}
