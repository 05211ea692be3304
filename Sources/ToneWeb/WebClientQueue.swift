import Synchronization

/// One tab's lines on their way to its socket: a bounded queue that keeps
/// the newest `capacity` lines and drops the oldest, counting them, so a
/// stalled browser costs the producer (the node's worker) nothing but a
/// drop. The socket's task reads `lines` and writes them out.
final class WebClientQueue: Sendable {
    /// Lines held for a tab at most (~2 s of reports at a 23 ms hop and two channels).
    static let capacity = 200

    let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    /// Lines dropped because the tab did not take them in time. Producer
    /// increments, the socket's task reads: relaxed, a counter with no data behind it.
    private let droppedCount = Atomic<Int>(0)

    init(capacity: Int = WebClientQueue.capacity) {
        (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(capacity))
    }

    /// Adds a line without waiting; when full, the oldest line is dropped (and counted).
    func push(_ line: String) {
        if case .dropped = continuation.yield(line) { droppedCount.add(1, ordering: .relaxed) }
    }

    var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// Ends `lines` (the socket closed, or the server stops).
    func finish() { continuation.finish() }
}
