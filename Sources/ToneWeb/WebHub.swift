import Synchronization

/// Where a command's lines meet the open tabs: `publish` hands a line to
/// every tab's bounded queue without waiting (any thread: the node's
/// worker, the supervisor's task), and keeps the latest of each kind named
/// `retained` (the node's settings, its client) for tabs that open later.
public final class WebHub: Sendable {
    private struct State {
        var queues: [Int: WebClientQueue] = [:]
        var nextID = 0
        /// Lines every new tab gets first, by kind, in the order first seen.
        var retained: [(kind: String, line: String)] = []
    }
    private let state = Mutex(State())
    /// Sockets opened so far, and open now (for the benchmark and tests).
    private let openedCount = Atomic<Int>(0)

    public init() {}

    /// Sends `line` to every open tab; with `retain`, also to every tab
    /// opened later (the last line of that kind only).
    public func publish(_ line: String, retain kind: String? = nil) {
        state.withLock { state in
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

    /// A new tab's queue, primed with the retained lines; `close` it when the socket ends.
    func open() -> (id: Int, queue: WebClientQueue) {
        let queue = WebClientQueue()
        let id = state.withLock { state in
            state.retained.forEach { queue.push($0.line) }
            state.nextID += 1
            state.queues[state.nextID] = queue
            return state.nextID
        }
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
