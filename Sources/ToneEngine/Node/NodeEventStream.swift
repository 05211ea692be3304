/// A node's events, one at a time, as the worker hands them over: in
/// batches, one per drained block or wake (a whole burst of hops' reports of an idle input
/// is one hand-over, so one wake of the reading task, not one per report).
public struct NodeEventStream: AsyncSequence, Sendable {
    public typealias Element = NodeEvent
    public typealias Failure = Never
    let batches: AsyncStream<[NodeEvent]>

    public struct AsyncIterator: AsyncIteratorProtocol {
        var batches: AsyncStream<[NodeEvent]>.Iterator
        var pending: [NodeEvent] = []
        var index = 0

        public mutating func next() async -> NodeEvent? { await next(isolation: nil) }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> NodeEvent? {
            while index == pending.count {
                guard let batch = await batches.next(isolation: actor) else { return nil }
                pending = batch
                index = 0
            }
            defer { index += 1 }
            return pending[index]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(batches: batches.makeAsyncIterator()) }
}
